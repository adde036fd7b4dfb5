//! `peeringd import peering-manager` from another peeringd (the API is the reference's):
//! everything comes across with its ids, times and tags; a dry run writes nothing; a
//! resource the token may not read is reported and the rest imported; new objects take
//! ids above the imported ones.

use std::process::Output;

use crate::common::{demo_network, import_command, output_text, TestServer};
use peering_api::{ExemptViews, Settings};
use peering_store::testing::TestDatabase;
use serde_json::{json, Value as Json};

/// A source: the demo network, with a journal entry and a tagged object more.
fn source() -> TestServer {
    let s = TestServer::start_on(
        demo_network(),
        Settings {
            max_page_size: 0,
            ..Settings::default()
        },
    );
    let first = s.get("/api/peering/autonomous-systems/?limit=1").json()["results"][0].clone();
    let group = s.create(
        "/api/users/groups/",
        json!({"name": "Peering team", "permissions": ["peering.add_autonomoussystem"]}),
    );
    s.create(
        "/api/users/users/",
        json!({"username": "olga", "password": "correct horse battery", "first_name": "Olga",
               "groups": [group["id"]], "permissions": ["peering.view_router_configuration"]}),
    );
    s.create(
        "/api/extras/journal-entries/",
        json!({"assigned_object_type": "peering.autonomoussystem", "assigned_object_id": first["id"], "comments": "Asked to peer"}),
    );
    s
}

fn import(target: &str, url: &str, token: &str, extra: &[&str]) -> Output {
    import_command(target, url, token)
        .args(extra)
        .output()
        .expect("peeringd runs")
}

/// Every object of every imported resource, as the server shows it (links made relative),
/// without the values computed from each database's own PeeringDB copy, which an import
/// does not bring (`exists_in_extdb`, `is_abandoned`).
fn everything(s: &TestServer) -> Vec<(String, Json)> {
    peering_import::import_order()
        .into_iter()
        // Accounts are compared on their own (the first superuser is each server's own).
        .filter(|spec| spec.app != "users")
        .map(|spec| {
            let path = format!("/api/{}/{}/", spec.app, spec.path);
            let r = s.get(&format!("{path}?limit=0"));
            assert_eq!(r.status, 200, "{path}: {}", r.text);
            let relative = r.text.replace(&s.base, "");
            let mut page: Json = serde_json::from_str(&relative).unwrap();
            let computed = spec.fields.iter().filter(|f| f.computed.is_some());
            for name in computed.map(|f| f.name) {
                for object in page["results"].as_array_mut().into_iter().flatten() {
                    object.as_object_mut().map(|o| o.remove(name));
                }
            }
            (path, page["results"].clone())
        })
        .collect()
}

fn empty_target() -> TestServer {
    TestServer::start_on(
        TestDatabase::new(),
        Settings {
            max_page_size: 0,
            ..Settings::default()
        },
    )
}

#[test]
fn everything_comes_across_with_its_ids_times_and_tags() {
    let from = source();
    let to = empty_target();
    let out = import(&to.database_url(), &from.base, &from.key, &[]);
    assert!(out.status.success(), "{}", output_text(&out));
    let report = output_text(&out);
    assert!(report.contains("Imported from release"), "{report}");
    let (theirs, ours) = (everything(&from), everything(&to));
    for ((path, a), (_, b)) in theirs.iter().zip(&ours) {
        assert!(a == b, "{path} differs");
    }
    let sessions = &theirs
        .iter()
        .find(|(p, _)| p.ends_with("internet-exchange-peering-sessions/"))
        .unwrap()
        .1;
    assert!(
        sessions.as_array().unwrap().len() > 2000,
        "the demo's sessions"
    );
    // Users and groups, but the one each database had (its first superuser), and no
    // password: an API does not give them.
    let olga = |s: &TestServer| {
        let page = s
            .get("/api/users/users/?username=olga")
            .text
            .replace(&s.base, "");
        serde_json::from_str::<Json>(&page).unwrap()["results"][0].clone()
    };
    assert_eq!(olga(&from), olga(&to), "{report}");
    assert_eq!(olga(&to)["groups"][0]["name"], "Peering team");
    assert!(
        report.contains("one with this id or name is here already"),
        "{report}"
    );
    let login = to.post(
        "/api/users/tokens/provision/",
        json!({"username": "olga", "password": "correct horse battery"}),
    );
    assert_eq!(login.status, 403, "{}", login.text);
    // The change log, as it was: ids, times, request ids, actions, snapshots; the name of
    // the user who made each change (the users themselves are not imported).
    let log = |s: &TestServer| {
        let r = s.get("/api/extras/object-changes/?limit=0&ordering=id");
        let relative = r.text.replace(&s.base, "");
        let mut page: Json = serde_json::from_str(&relative).unwrap();
        for record in page["results"].as_array_mut().unwrap() {
            record.as_object_mut().unwrap().remove("user");
        }
        page["results"].clone()
    };
    let (their_log, our_log) = (log(&from), log(&to));
    assert!(
        their_log.as_array().unwrap().len() > 1000,
        "the demo's records"
    );
    assert!(their_log == our_log, "the change logs differ");
    // New objects take ids above the imported ones.
    let highest = ours
        .iter()
        .find(|(p, _)| p.ends_with("autonomous-systems/"))
        .unwrap()
        .1
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_i64().unwrap())
        .max()
        .unwrap();
    let new = to.create(
        "/api/peering/autonomous-systems/",
        json!({"asn": 4_200_000_001_i64, "name": "New"}),
    );
    assert!(new["id"].as_i64().unwrap() > highest, "{new}");
    // Into a database that holds peering data: refused, nothing changed.
    let again = import(&to.database_url(), &from.base, &from.key, &[]);
    assert!(!again.status.success());
    assert!(
        output_text(&again).contains("already holds peering data"),
        "{}",
        output_text(&again)
    );
}

#[test]
fn a_dry_run_writes_nothing() {
    let from = source();
    let to = empty_target();
    let out = import(&to.database_url(), &from.base, &from.key, &["--dry-run"]);
    assert!(out.status.success(), "{}", output_text(&out));
    assert!(
        output_text(&out).contains("Dry run (nothing written)"),
        "{}",
        output_text(&out)
    );
    for (path, objects) in everything(&to) {
        assert_eq!(objects, json!([]), "{path}");
    }
}

#[test]
fn a_resource_the_token_may_not_read_is_reported_and_the_rest_imported() {
    let from = source();
    // Another instance over the source's database that enforces view permissions; a
    // reader of everything but webhooks.
    let strict = from.another_instance(Settings {
        exempt_view_permissions: ExemptViews::Only(Vec::new()),
        max_page_size: 0,
        ..Settings::default()
    });
    let permissions: Vec<String> = peering_import::import_order()
        .into_iter()
        .filter(|spec| spec.model != "webhook")
        .map(|spec| format!("{}.view_{}", spec.app, spec.model))
        .collect();
    let names: Vec<&str> = permissions.iter().map(String::as_str).collect();
    let reader = from.user_with("reader", &names, false);
    let to = empty_target();
    let out = import(&to.database_url(), &strict.base, &reader, &[]);
    assert!(out.status.success(), "{}", output_text(&out));
    let report = output_text(&out);
    assert!(
        report.contains("webhooks") && report.contains("not readable with this token"),
        "{report}"
    );
    // Secrets are shown only to who may change their objects: a reader brings none.
    let ours = without_secrets(everything(&to));
    let theirs = without_secrets(everything(&from));
    for ((path, a), (_, b)) in theirs.iter().zip(&ours) {
        if path.ends_with("webhooks/") {
            assert_eq!(b, &json!([]));
        } else {
            assert!(a == b, "{path} differs");
        }
    }
}

fn without_secrets(mut all: Vec<(String, Json)>) -> Vec<(String, Json)> {
    for (_, objects) in &mut all {
        for object in objects.as_array_mut().unwrap() {
            let object = object.as_object_mut().unwrap();
            for secret in [
                "password",
                "encrypted_password",
                "napalm_password",
                "api_key",
                "api_secret",
                "secret",
            ] {
                object.remove(secret);
            }
        }
    }
    all
}

#[test]
fn an_import_killed_half_way_leaves_nothing_and_runs_again() {
    let from = source();
    let to = empty_target();
    for delay in [50, 200, 400] {
        let mut child = import_command(&to.database_url(), &from.base, &from.key)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("peeringd runs");
        std::thread::sleep(std::time::Duration::from_millis(delay));
        let _ = child.kill();
        let status = child.wait().unwrap();
        let systems = to.get("/api/peering/autonomous-systems/?limit=1").json()["count"].clone();
        if status.success() {
            // It had finished: everything is there.
            assert_eq!(systems, json!(301));
            return;
        }
        assert_eq!(
            systems,
            json!(0),
            "killed after {delay} ms: nothing half-written"
        );
    }
    let out = import(&to.database_url(), &from.base, &from.key, &[]);
    assert!(out.status.success(), "{}", output_text(&out));
    let (theirs, ours) = (everything(&from), everything(&to));
    for ((path, a), (_, b)) in theirs.iter().zip(&ours) {
        assert!(a == b, "{path} differs");
    }
}

/// Serves the files under `root` on 127.0.0.1 as the reference's API would: the file for a
/// path (`/api/bgp/communities/` is `api/bgp/communities.json`), else a 404; for a bounded
/// number of requests.
fn serve_fixtures(root: std::path::PathBuf) -> String {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().take(500).flatten() {
            let mut reader = BufReader::new(&stream);
            let mut line = String::new();
            if reader.read_line(&mut line).is_err() {
                continue;
            }
            let path = line.split_whitespace().nth(1).unwrap_or("/");
            let path = path.split('?').next().unwrap_or("/").trim_matches('/');
            let file = root.join(format!("{path}.json"));
            let (status, body) = match std::fs::read_to_string(&file) {
                Ok(body) => ("200 OK", body),
                Err(_) => ("404 Not Found", r#"{"detail": "Not found."}"#.to_string()),
            };
            let mut stream = &stream;
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    url
}

#[test]
fn the_references_1_10_answers_come_across() {
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reference-1.10");
    let url = serve_fixtures(root);
    let to = empty_target();
    let out = import(
        &to.database_url(),
        &url,
        "0123456789abcdef0123456789abcdef01234567",
        &[],
    );
    assert!(out.status.success(), "{}", output_text(&out));
    let report = output_text(&out);
    assert!(report.contains("from release 1.10.4"), "{report}");
    assert!(report.contains("not served by the source"), "{report}");
    let peer = to.get("/api/peering/autonomous-systems/7/").json();
    assert_eq!(peer["name"], "Peer Networks");
    assert_eq!(peer["irr_as_set_extdb_sync"], false);
    // The IRR options of 1.10 come across as they were set there.
    assert_eq!(peer["retrieve_prefixes"], false);
    assert_eq!(peer["irr_sources_override"], "RIPE,RADB");
    assert_eq!(peer["irr_ipv6_prefixes_args_override"], "-A -R 48");
    assert_eq!(
        peer["communities"][0]["slug"], "peers",
        "from /api/bgp/communities/"
    );
    assert_eq!(peer["created"], "2025-02-01T09:15:00.000000Z");
    // A flag only 1.10 shows, kept though the API here does not show it: a PeeringDB
    // synchronisation leaves this name alone.
    let store = peering_store::Store::open(&to.database_url(), 1).unwrap();
    let (record, _) = store
        .get(&peering_domain::resources::AUTONOMOUS_SYSTEM, 7)
        .unwrap()
        .unwrap();
    let spec = &peering_domain::resources::AUTONOMOUS_SYSTEM;
    assert_eq!(record.get(spec, "name_extdb_sync").as_bool(), Some(false));
    let changes = to.get("/api/core/object-changes/41/").json();
    assert_eq!(
        changes["request_id"],
        "6f3c2c5e-7d1a-4d3b-9a53-2a1e0b7c9d11"
    );
    assert_eq!(changes["user_name"], "alice");
    assert_eq!(changes["changed_object"]["id"], 7);
}
