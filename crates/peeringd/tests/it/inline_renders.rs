//! Renders answered inline are capped (`PEERING_MAX_INLINE_RENDERS`): past the cap, a 503
//! with `Retry-After` that points to the job form, which still runs. And the real binary,
//! whose allocator counts what renders hold, survives a template that would nest a value
//! twenty million levels deep: the render stops at its memory budget.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::TestServer;
use peering_store::testing::TestDatabase;
use serde_json::{json, Value as Json};

const EXPORTS: &str = "/api/extras/export-templates/";

/// A render that takes longer than a request waits for a place (ten million empty loop
/// turns), then prints `done`.
const SLOW: &str =
    "{% for i in range(100000) %}{% for j in range(100) %}{% endfor %}{% endfor %}done";
/// A render that takes a moment.
const QUICK: &str = "{% for i in range(1000) %}{% endfor %}done";

fn export_template(name: &str, template: &str) -> Json {
    json!({"name": name, "content_type": "peering.autonomoussystem", "template": template})
}

/// Four clients' quick renders at once, with one place: each waits its turn, none is
/// refused.
#[test]
fn quick_renders_wait_their_turn() {
    let s = TestServer::start_with(peering_api::Settings {
        max_inline_renders: 1,
        ..Default::default()
    });
    let id = s.create(EXPORTS, export_template("quick", QUICK))["id"]
        .as_i64()
        .unwrap();
    let asked: Vec<_> = (0..4)
        .map(|_| {
            let url = format!("{}{EXPORTS}{id}/render-synchronous/", s.base);
            let key = s.key.clone();
            std::thread::spawn(move || {
                ureq::get(&url)
                    .set("Authorization", &format!("Token {key}"))
                    .call()
                    .map(|r| r.status())
                    .map_err(|e| e.to_string())
            })
        })
        .collect();
    for asked in asked {
        assert_eq!(asked.join().unwrap(), Ok(200));
    }
}

#[test]
fn past_the_cap_an_inline_render_is_refused_and_the_job_form_runs() {
    let s = TestServer::start_with(peering_api::Settings {
        max_inline_renders: 1,
        ..Default::default()
    });
    let id = s.create(EXPORTS, export_template("slow", SLOW))["id"]
        .as_i64()
        .unwrap();
    // Four at once: one takes the place, the others wait for it past their patience and
    // are refused.
    let asked: Vec<_> = (0..4)
        .map(|_| {
            let (url, key) = (
                format!("{}{EXPORTS}{id}/render-synchronous/", s.base),
                s.key.clone(),
            );
            std::thread::spawn(move || {
                let answer = ureq::get(&url)
                    .set("Authorization", &format!("Token {key}"))
                    .call();
                match answer {
                    Ok(r) => (r.status(), None, r.into_string().unwrap_or_default()),
                    Err(ureq::Error::Status(code, r)) => (
                        code,
                        r.header("Retry-After").map(str::to_string),
                        r.into_string().unwrap_or_default(),
                    ),
                    Err(e) => panic!("{e}"),
                }
            })
        })
        .collect();
    let answers: Vec<_> = asked.into_iter().map(|t| t.join().unwrap()).collect();
    let rendered = answers.iter().filter(|a| a.0 == 200).count();
    let refused: Vec<_> = answers.iter().filter(|a| a.0 == 503).collect();
    assert!(rendered >= 1 && !refused.is_empty(), "{answers:?}");
    assert_eq!(rendered + refused.len(), 4, "{answers:?}");
    for (_, retry_after, text) in refused {
        assert_eq!(retry_after.as_deref(), Some("2"), "{text}");
        assert!(text.contains("job form"), "{text}");
    }
    let job = s.get(&format!("{EXPORTS}{id}/render/"));
    assert_eq!(job.status, 202, "the job form is not capped: {}", job.text);
    let r = s.get(&format!("{EXPORTS}{id}/render-synchronous/"));
    assert_eq!(
        (r.status, r.json()["rendered"].clone()),
        (200, json!("done"))
    );
}

/// `peeringd serve` on a fresh database: the process, its base URL and the admin token.
fn serve(db: &TestDatabase) -> (Child, String, String) {
    let port = crate::binary::free_port();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_peeringd"));
    cmd.arg("serve")
        .env("PEERING_DATABASE_URL", &db.url)
        .env("PEERING_LISTEN", format!("127.0.0.1:{port}"))
        .env("RUST_LOG", "warn")
        .stderr(Stdio::null());
    let (child, key) = crate::binary::first_start(cmd);
    (child, format!("http://127.0.0.1:{port}"), key)
}

fn call(method: &str, url: &str, key: &str, body: Option<Json>) -> Result<(u16, String), String> {
    let req = ureq::request(method, url)
        .set("Authorization", &format!("Token {key}"))
        .timeout(Duration::from_secs(120));
    let answer = match body {
        Some(body) => req.send_json(body),
        None => req.call(),
    };
    match answer {
        Ok(r) => Ok((r.status(), r.into_string().unwrap_or_default())),
        Err(ureq::Error::Status(code, r)) => Ok((code, r.into_string().unwrap_or_default())),
        Err(e) => Err(e.to_string()),
    }
}

#[test]
fn the_server_survives_a_template_nesting_a_value_twenty_million_deep() {
    let db = TestDatabase::new();
    let (mut child, base, key) = serve(&db);
    let deadline = Instant::now() + Duration::from_secs(30);
    let ten_levels = format!("{}ns.x{}", "[".repeat(10), "]".repeat(10));
    let template = format!(
        "{{%- set ns = namespace(x=[]) -%}}{{%- for i in 'x' * 2000000 -%}}\
         {{%- set ns.x = {ten_levels} -%}}{{%- endfor -%}}done"
    );
    let created = loop {
        match call(
            "POST",
            &format!("{base}{EXPORTS}"),
            &key,
            Some(export_template("deep", &template)),
        ) {
            Ok(answer) => break answer,
            Err(e) if Instant::now() < deadline => {
                let _ = e;
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => panic!("the server never answered: {e}"),
        }
    };
    assert_eq!(created.0, 201, "{}", created.1);
    let id = serde_json::from_str::<Json>(&created.1).unwrap()["id"]
        .as_i64()
        .unwrap();
    let rendered = call(
        "GET",
        &format!("{base}{EXPORTS}{id}/render-synchronous/"),
        &key,
        None,
    );
    let alive = call("GET", &format!("{base}/api/status/"), &key, None);
    let exited = child.try_wait().unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(exited, None, "the server died: {rendered:?}");
    let (status, text) = rendered.expect("an answer");
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("memory"), "{text}");
    assert_eq!(alive.map(|a| a.0), Ok(200));
}
