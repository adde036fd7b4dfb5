//! IRR prefix lists with bgpq4 really running, against a fake IRR server on 127.0.0.1
//! (`irrd-fake`): refreshes through the action, the jobs and the command line fill
//! `prefixes` from nested AS-SETs over both families and `as_list` from their expansion,
//! `as-set-prefixes/` and `prefix_list` serve them, the per-system overrides change what
//! bgpq4 asks, and every failure keeps the stored prefixes.

use std::time::Duration;

use irrd_fake::{Behaviour, FakeIrrd, Registry};
use peering_api::Settings;
use serde_json::{json, Value as Json};

use crate::common::network::finished;
use crate::common::{output_text, TestServer};

fn registry() -> Registry {
    Registry::new()
        .as_set("RIPE", "AS-OUTER", &["AS65600", "AS-INNER"])
        .as_set("RIPE", "AS-INNER", &["AS65601", "AS-DEEPEST"])
        .as_set("RIPE", "AS-DEEPEST", &["AS65602"])
        .route("RIPE", "192.0.2.0/24", 65600)
        .route("RIPE", "198.51.100.0/24", 65601)
        .route("RIPE", "2001:db8:1::/48", 65602)
        .route("RADB", "203.0.113.0/24", 65601)
        .route("RADB", "2001:db8:2::/48", 65600)
        .as_set("RADB", "AS-RADB-ONLY", &["AS65600"])
}

fn irr_settings(irrd: &FakeIrrd) -> peering_app::irr::Settings {
    peering_app::irr::Settings {
        host: irrd.address.clone(),
        sources: "RIPE,RADB".into(),
        timeout: Duration::from_secs(20),
        ..peering_app::irr::Settings::default()
    }
}

fn server(irr: peering_app::irr::Settings) -> TestServer {
    TestServer::start_with(Settings {
        irr,
        ..Settings::default()
    })
}

fn system(s: &TestServer, asn: i64, irr_as_set: &str) -> i64 {
    let body = json!({"asn": asn, "name": format!("AS{asn}"), "irr_as_set": irr_as_set});
    s.create("/api/peering/autonomous-systems/", body)["id"]
        .as_i64()
        .unwrap()
}

/// Refreshes through the action; the job once it ended.
fn refresh(s: &TestServer, id: i64) -> Json {
    let r = s.post(
        &format!("/api/peering/autonomous-systems/{id}/refresh-prefixes/"),
        json!({}),
    );
    assert_eq!(r.status, 202, "{}", r.text);
    finished(s, &r.json())
}

fn status(job: &Json) -> &str {
    job["status"]["value"].as_str().unwrap_or_default()
}

fn stored(s: &TestServer, id: i64) -> Json {
    let r = s.get(&format!(
        "/api/peering/autonomous-systems/{id}/as-set-prefixes/"
    ));
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()
}

fn prefixes(stored: &Json, family: &str) -> Vec<String> {
    let mut list: Vec<String> = stored[family]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["prefix"].as_str().unwrap().to_string())
        .collect();
    list.sort();
    list
}

#[test]
fn a_refresh_fills_prefixes_from_nested_sets_and_templates_render_them() {
    for behaviour in [Behaviour::Irrd4, Behaviour::WithoutA] {
        let irrd = FakeIrrd::start_with(registry(), behaviour);
        let s = server(irr_settings(&irrd));
        let id = system(&s, 65600, "RIPE::AS-OUTER");
        let job = refresh(&s, id);
        assert_eq!(status(&job), "completed", "{job}");
        assert_eq!(
            job["output"], "AS65600: 2 IPv6 and 3 IPv4 prefixes (updated)",
            "{job}"
        );
        let got = stored(&s, id);
        assert_eq!(
            prefixes(&got, "ipv4"),
            ["192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24"]
        );
        assert_eq!(
            prefixes(&got, "ipv6"),
            ["2001:db8:1::/48", "2001:db8:2::/48"]
        );
        // Entries as bgpq4 writes them, as the reference stores them.
        assert_eq!(got["ipv4"][0]["exact"], true, "{got}");
        let object = s
            .get(&format!("/api/peering/autonomous-systems/{id}/"))
            .json();
        assert_eq!(object["prefixes"], got);
        let queries = irrd.queries();
        assert!(queries.contains(&"!sRIPE,RADB".to_string()), "{queries:?}");
        // The same again changes nothing.
        assert_eq!(
            refresh(&s, id)["output"],
            "AS65600: 2 IPv6 and 3 IPv4 prefixes (unchanged)"
        );
    }
}

#[test]
fn a_refresh_fills_the_as_list_from_the_sets_unless_told_not_to() {
    for behaviour in [Behaviour::Irrd4, Behaviour::WithoutA] {
        let irrd = FakeIrrd::start_with(registry(), behaviour);
        let s = server(irr_settings(&irrd));
        let id = system(&s, 64500, "RIPE::AS-OUTER");
        let path = format!("/api/peering/autonomous-systems/{id}/");
        assert_eq!(s.get(&path).json()["as_list"], json!([]));
        assert_eq!(status(&refresh(&s, id)), "completed");
        // The set's members, nested ones too, and the system's own number, as the
        // reference's `bgpq4 -f` expansion keeps them.
        let expanded = json!([64500, 65600, 65601, 65602]);
        assert_eq!(s.get(&path).json()["as_list"], expanded);
        // No write gives it: a client's value is ignored, as the reference's read-only
        // field is.
        let r = s.patch(&path, json!({"as_list": [1, 2], "description": "peer"}));
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.json()["as_list"], expanded);
        // Off, a refresh empties it; a system naming no set has none either.
        s.patch(&path, json!({"retrieve_as_list": false}));
        assert_eq!(status(&refresh(&s, id)), "completed");
        assert_eq!(s.get(&path).json()["as_list"], json!([]));
        let unnamed = system(&s, 65601, "");
        assert_eq!(status(&refresh(&s, unnamed)), "completed");
        let unnamed = s.get(&format!("/api/peering/autonomous-systems/{unnamed}/"));
        assert_eq!(unnamed.json()["as_list"], json!([]));
    }
}

#[test]
fn prefix_list_renders_the_stored_prefixes() {
    let irrd = FakeIrrd::start(registry());
    let s = server(irr_settings(&irrd));
    let id = system(&s, 65600, "AS-INNER");
    assert_eq!(status(&refresh(&s, id)), "completed");
    let template = "{% for a in dataset %}{% for p in a|prefix_list(6) %}{{ p.prefix }};{% endfor %}|{% for p in a|prefix_list(4) %}{{ p.prefix }};{% endfor %}{% endfor %}";
    let export = s.create(
        "/api/extras/export-templates/",
        json!({"name": "prefixes", "content_type": "peering.autonomoussystem", "template": template}),
    )["id"]
        .clone();
    let r = s.get(&format!(
        "/api/extras/export-templates/{export}/render-synchronous/"
    ));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.json()["rendered"],
        "2001:db8:1::/48;|198.51.100.0/24;203.0.113.0/24;"
    );
}

#[test]
fn overrides_change_what_bgpq4_asks() {
    let irrd = FakeIrrd::start(registry());
    let s = server(irr_settings(&irrd));
    let id = system(&s, 65600, "AS-RADB-ONLY");
    let r = s.patch(
        &format!("/api/peering/autonomous-systems/{id}/"),
        json!({"irr_sources_override": "RADB", "irr_ipv6_prefixes_args_override": "-A -R 64"}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["irr_sources_override"], "RADB");
    assert_eq!(r.json()["retrieve_prefixes"], true);
    let job = refresh(&s, id);
    assert_eq!(status(&job), "completed", "{job}");
    let queries = irrd.queries();
    assert!(queries.contains(&"!sRADB".to_string()), "{queries:?}");
    assert!(!queries.contains(&"!sRIPE,RADB".to_string()), "{queries:?}");
    // Only RADB's routes (RIPE's 192.0.2.0/24 of the same origin stays out), and the
    // IPv6 list allows more specifics up to /64 as the override asks.
    let got = stored(&s, id);
    assert!(prefixes(&got, "ipv4").is_empty(), "{got}");
    assert_eq!(
        got["ipv6"],
        json!([{"prefix": "2001:db8:2::/48", "exact": false, "less-equal": 64}])
    );
    // An override may not point bgpq4 at another server.
    s.patch(
        &format!("/api/peering/autonomous-systems/{id}/"),
        json!({"irr_sources_override": "", "irr_ipv4_prefixes_args_override": "-h 192.0.2.1"}),
    );
    let job = refresh(&s, id);
    assert_eq!(status(&job), "errored", "{job}");
    assert!(job["output"].as_str().unwrap().contains("\"-h\""), "{job}");
    // With retrieval off, a refresh empties them, as the reference's get_irr_data.
    s.patch(
        &format!("/api/peering/autonomous-systems/{id}/"),
        json!({"retrieve_prefixes": false}),
    );
    let job = refresh(&s, id);
    assert!(
        job["output"].as_str().unwrap().contains("retrieval is off"),
        "{job}"
    );
    assert_eq!(stored(&s, id), json!({"ipv6": [], "ipv4": []}));
}

#[test]
fn a_set_the_irr_lacks_keeps_the_stored_prefixes() {
    let irrd = FakeIrrd::start(registry());
    let s = server(irr_settings(&irrd));
    let id = system(&s, 65600, "AS-OUTER");
    assert_eq!(status(&refresh(&s, id)), "completed");
    let before = stored(&s, id);
    s.patch(
        &format!("/api/peering/autonomous-systems/{id}/"),
        json!({"irr_as_set": "AS-OUTER AS-MISSING"}),
    );
    let job = refresh(&s, id);
    assert_eq!(status(&job), "errored", "{job}");
    let output = job["output"].as_str().unwrap();
    assert!(
        output.contains("AS-MISSING resolves to no prefix"),
        "{output}"
    );
    assert!(output.contains("stored prefixes are kept"), "{output}");
    assert_eq!(stored(&s, id), before);
}

#[test]
fn a_missing_program_and_a_silent_server_err_clearly() {
    let irrd = FakeIrrd::start(registry());
    let missing = peering_app::irr::Settings {
        program: "/nonexistent/bgpq4".into(),
        ..irr_settings(&irrd)
    };
    let s = server(missing);
    let id = system(&s, 65600, "AS-OUTER");
    let job = refresh(&s, id);
    assert_eq!(status(&job), "errored", "{job}");
    assert!(
        job["output"]
            .as_str()
            .unwrap()
            .contains("cannot run /nonexistent/bgpq4"),
        "{job}"
    );
    assert_eq!(stored(&s, id), json!({"ipv6": [], "ipv4": []}));
    let silent = FakeIrrd::start_with(registry(), Behaviour::Silent);
    let s = server(peering_app::irr::Settings {
        timeout: Duration::from_secs(1),
        ..irr_settings(&silent)
    });
    let id = system(&s, 65600, "AS-OUTER");
    let job = refresh(&s, id);
    assert_eq!(status(&job), "errored", "{job}");
    assert!(
        job["output"]
            .as_str()
            .unwrap()
            .contains("did not finish within 1 s"),
        "{job}"
    );
}

#[test]
fn the_refresh_needs_the_change_permission() {
    let irrd = FakeIrrd::start(registry());
    let s = server(irr_settings(&irrd));
    let id = system(&s, 65600, "AS-OUTER");
    let path = format!("/api/peering/autonomous-systems/{id}/refresh-prefixes/");
    let viewer = s.user_with("viewer", &["peering.view_autonomoussystem"], true);
    let r = s.request("POST", &path, Some(&json!({})), Some(&viewer), &[]);
    assert_eq!(r.status, 403, "{}", r.text);
    let changer = s.user_with("changer", &["peering.change_autonomoussystem"], true);
    let r = s.request("POST", &path, Some(&json!({})), Some(&changer), &[]);
    assert_eq!(r.status, 202, "{}", r.text);
    assert_eq!(status(&finished(&s, &r.json())), "completed");
    let r = s.post(
        "/api/peering/autonomous-systems/999999/refresh-prefixes/",
        json!({}),
    );
    assert_eq!(r.status, 404, "{}", r.text);
}

#[test]
fn the_job_for_all_refreshes_each_and_reports_failures() {
    let irrd = FakeIrrd::start(registry());
    let settings = irr_settings(&irrd);
    let s = server(settings.clone());
    let outer = system(&s, 65600, "AS-OUTER");
    let missing = system(&s, 65601, "AS-MISSING");
    let queue = peering_app::jobs::Queue::new(s.store.clone());
    let runner = peering_app::jobs::JobRunner {
        work: std::sync::Arc::new(peering_app::Work::new(s.store.clone(), Default::default())),
        router_command: Vec::new(),
        peeringdb: Default::default(),
        peeringdb_limits: Default::default(),
        data_source_limits: Default::default(),
        email: Default::default(),
        edits: peering_app::edits::Edits::new(
            s.store.clone(),
            peering_app::edits::WriteRules {
                min_password_length: 10,
            },
        ),
        irr: settings,
        webhooks: Default::default(),
    };
    let workers = peering_app::jobs::start_workers(
        &queue,
        runner,
        peering_app::jobs::WorkerSettings {
            workers: 1,
            ..Default::default()
        },
    )
    .unwrap();
    let id = queue
        .enqueue(&peering_store::NewJob {
            name: peering_app::jobs::REFRESH_ALL_PREFIXES.into(),
            object: None,
            user_id: None,
            params: json!({}),
        })
        .unwrap();
    let job = finished(&s, &json!({"id": id}));
    drop(workers);
    assert_eq!(status(&job), "errored", "{job}");
    let output = job["output"].as_str().unwrap();
    assert!(
        output.contains("AS65600: 2 IPv6 and 3 IPv4 prefixes (updated)"),
        "{output}"
    );
    assert!(
        output.contains("AS65601: AS-MISSING resolves to no prefix"),
        "{output}"
    );
    assert!(
        output.contains("Refreshed 1 autonomous systems, 1 failed."),
        "{output}"
    );
    assert_eq!(prefixes(&stored(&s, outer), "ipv4").len(), 3);
    assert!(prefixes(&stored(&s, missing), "ipv4").is_empty());
}

fn command(s: &TestServer, irrd: &FakeIrrd, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_peeringd"))
        .env("PEERING_DATABASE_URL", s.database_url())
        .env("PEERING_IRR_HOST", &irrd.address)
        .env("PEERING_IRR_SOURCES", "RIPE")
        .env("RUST_LOG", "warn")
        .args(["irr", "refresh"])
        .args(args)
        .output()
        .expect("peeringd runs")
}

#[test]
fn the_command_refreshes_at_once_and_fails_clearly() {
    let irrd = FakeIrrd::start(registry());
    let s = server(irr_settings(&irrd));
    let outer = system(&s, 65600, "AS-OUTER");
    system(&s, 65601, "AS-MISSING");
    let out = command(&s, &irrd, &["--asn", "65600"]);
    let text = output_text(&out);
    assert!(out.status.success(), "{text}");
    // Only RIPE was asked (the setting): RADB's routes stay out.
    assert!(
        text.contains("AS65600: 1 IPv6 and 2 IPv4 prefixes (updated)"),
        "{text}"
    );
    assert!(irrd.queries().contains(&"!sRIPE".to_string()));
    assert_eq!(
        prefixes(&stored(&s, outer), "ipv4"),
        ["192.0.2.0/24", "198.51.100.0/24"]
    );
    let out = command(&s, &irrd, &[]);
    let text = output_text(&out);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("AS65600: 1 IPv6 and 2 IPv4 prefixes (unchanged)"),
        "{text}"
    );
    assert!(
        text.contains("AS65601: AS-MISSING resolves to no prefix"),
        "{text}"
    );
    assert!(
        text.contains("Refreshed 1 autonomous systems, 1 failed."),
        "{text}"
    );
    assert!(
        text.contains("1 of 2 autonomous systems could not be refreshed"),
        "{text}"
    );
    let out = command(&s, &irrd, &["--asn", "1"]);
    assert!(!out.status.success());
    assert!(output_text(&out).contains("no autonomous system has number 1"));
}
