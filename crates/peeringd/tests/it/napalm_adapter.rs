//! The NAPALM adapter (`adapters/napalm/`, docs/router-command.md) as the server's router
//! command: the installed `peeringd-napalm`, named by `PEERINGD_NAPALM`, drives NAPALM's
//! `mock` driver, which answers from files this test writes. Test, poll and configure go
//! through the API as jobs, and what they report is checked, down to the polled sessions.
//!
//! Without `PEERINGD_NAPALM` the test does nothing but say "adapter not run";
//! `adapters/napalm/test.sh` (run by `.ci/run`) installs the adapter, runs this test with the
//! variable set, and checks that it ran.

use std::path::{Path, PathBuf};

use crate::common::network::{finished, id, network, ROUTERS};
use crate::common::TestServer;
use peering_api::Settings;
use serde_json::{json, Value as Json};

const DIFF: &str = "[edit protocols bgp group transit]\n+    neighbor 192.0.2.30 {\n+        peer-as 65003;\n+    }\n";

/// A directory of the mock driver's answer files, removed when dropped.
struct Answers(PathBuf);

impl Answers {
    fn new() -> Answers {
        let dir = std::env::temp_dir().join(format!("peeringd-napalm-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir(&dir).expect("create the answers directory");
        let answers = Answers(dir);
        answers.write("get_facts.1", json!({"vendor": "Juniper", "model": "MX204", "os_version": "21.4R3-S5.4", "serial_number": "JN11F3A2BAFK", "hostname": "edge1", "fqdn": "edge1.example.net", "uptime": 8640000.0, "interface_list": ["et-0/0/0"]}));
        let (neighbors, detail) = bgp_answers();
        answers.write("get_bgp_neighbors.1", neighbors);
        answers.write("get_bgp_neighbors_detail.1", detail);
        answers.write("load_merge_candidate.1", json!({}));
        answers.write("compare_config.1", json!({ "diff": DIFF }));
        answers.write("commit_config.1", json!({}));
        answers.write("discard_config.1", json!({}));
        answers
    }

    fn write(&self, name: &str, answer: Json) {
        std::fs::write(self.0.join(name), answer.to_string()).expect("write an answer file");
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Answers {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What get_bgp_neighbors and get_bgp_neighbors_detail answer: the network's sessions of
/// edge1 (three at the exchange, one direct) and one address peeringd does not know.
fn bgp_answers() -> (Json, Json) {
    let neighbor = |asn: i64, up: bool, counts: i64| {
        json!({"local_as": 64500, "remote_as": asn, "remote_id": "0.0.0.0", "is_up": up,
               "is_enabled": true, "description": "", "uptime": if up { 3600 } else { 0 },
               "address_family": {"ipv4": {"received_prefixes": counts,
               "accepted_prefixes": counts, "sent_prefixes": counts}}})
    };
    let detail = |asn: i64, address: &str, state: &str, counts: [i64; 3]| {
        json!({"up": state == "Established", "remote_as": asn, "remote_address": address,
               "connection_state": state, "received_prefix_count": counts[0],
               "accepted_prefix_count": counts[1], "advertised_prefix_count": counts[2]})
    };
    let neighbors = json!({"global": {"router_id": "192.0.2.1", "peers": {
        "192.0.2.10": neighbor(65001, true, 41),
        "2001:db8::10": neighbor(65001, true, 3),
        "192.0.2.20": neighbor(65002, false, -1),
        "198.51.100.1": neighbor(65002, false, -1),
        "10.9.9.9": neighbor(65009, false, -1),
    }}});
    let details = json!({"global": {
        "65001": [detail(65001, "192.0.2.10", "Established", [42, 40, 7]),
                  detail(65001, "2001:db8::10", "Established", [3, 3, 1])],
        "65002": [detail(65002, "192.0.2.20", "Active", [-1, -1, -1]),
                  detail(65002, "198.51.100.1", "OpenSent", [-1, -1, -1])],
        "65009": [detail(65009, "10.9.9.9", "Idle", [-1, -1, -1])],
    }});
    (neighbors, details)
}

/// Runs a router action; the finished job.
fn action(s: &TestServer, method: &str, path: &str, body: Json) -> Json {
    let r = s.request(method, path, Some(&body), Some(&s.key), &[]);
    assert_eq!(r.status, 202, "{path}: {}", r.text);
    let job = r.json();
    let job = if job.is_array() { job[0].clone() } else { job };
    finished(s, &job)
}

/// A completed job's output, as JSON.
fn answer(done: &Json) -> Json {
    assert_eq!(done["status"]["value"], "completed", "{done}");
    serde_json::from_str(done["output"].as_str().expect("an output")).expect("JSON output")
}

fn session(s: &TestServer, kind: &str, address: &str) -> Json {
    s.get(&format!("/api/peering/{kind}/?ip_address={address}"))
        .json()["results"][0]
        .clone()
}

#[test]
fn the_napalm_adapter_tests_polls_and_configures_a_mock_router() {
    let Ok(script) = std::env::var("PEERINGD_NAPALM") else {
        eprintln!("adapter not run: PEERINGD_NAPALM does not name peeringd-napalm");
        return;
    };
    let answers = Answers::new();
    let s = TestServer::start_with(Settings {
        router_command: vec![script],
        ..Settings::default()
    });
    let router = mock_router(&s, &answers);
    tests_answer_facts(&s, router);
    polls_record_states(&s, router);
    for commit in [false, true] {
        let configured = answer(&action(
            &s,
            "POST",
            &format!("{ROUTERS}configure/"),
            json!({"routers": [router], "commit": commit}),
        ));
        assert_eq!(
            configured,
            json!({"changed": true, "committed": commit, "diff": DIFF})
        );
    }
    an_unreachable_router_errs(&s, router, &answers);
}

/// The test network's router edge1 on NAPALM's mock driver, answering from `answers`, with
/// a configuration template; its id.
fn mock_router(s: &TestServer, answers: &Answers) -> i64 {
    let n = network(s);
    let router = s.get(&format!("{ROUTERS}{}/", n.junos)).json();
    let platform = id(&router["platform"]);
    // The platform's napalm_args, then the router's over them: the path is the router's.
    let r = s.patch(
        &format!("/api/devices/platforms/{platform}/"),
        json!({"napalm_driver": "mock", "napalm_args": {"path": "/nonexistent"}}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let t = s.create(
        "/api/devices/configurations/",
        json!({"name": "edge", "template": "system { host-name {{ router.hostname }}; }"}),
    );
    let r = s.patch(
        &format!("{ROUTERS}{}/", n.junos),
        json!({"napalm_args": {"path": answers.path()}, "napalm_username": "netops",
               "napalm_password": "s3cr3t-napalm", "napalm_timeout": 20,
               "configuration_template": id(&t)}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    n.junos
}

fn tests_answer_facts(s: &TestServer, router: i64) {
    let tested = answer(&action(
        s,
        "GET",
        &format!("{ROUTERS}{router}/test-napalm-connection/"),
        json!({}),
    ));
    assert_eq!(tested["ok"], true, "{tested}");
    assert_eq!(tested["facts"]["vendor"], "Juniper", "{tested}");
    assert_eq!(tested["facts"]["model"], "MX204", "{tested}");
}

/// The states of the detail and its counts land on the exchange and direct sessions.
fn polls_record_states(s: &TestServer, router: i64) {
    let done = action(
        s,
        "POST",
        &format!("{ROUTERS}{router}/poll-bgp-sessions/"),
        json!({}),
    );
    assert_eq!(done["status"]["value"], "completed", "{done}");
    assert_eq!(done["output"], "4 of 5 reported sessions updated");
    let ixp = "internet-exchange-peering-sessions";
    let v4 = session(s, ixp, "192.0.2.10");
    let counts = ["received", "accepted", "advertised"]
        .map(|kind| v4[format!("{kind}_prefix_count")].clone());
    assert_eq!(v4["bgp_state"], "established", "{v4}");
    assert_eq!(counts, [json!(42), json!(40), json!(7)], "{v4}");
    assert!(v4["last_established_state"].is_string(), "{v4}");
    assert_eq!(session(s, ixp, "2001:db8::10")["bgp_state"], "established");
    assert_eq!(session(s, ixp, "192.0.2.20")["bgp_state"], "active");
    let direct = session(s, "direct-peering-sessions", "198.51.100.1");
    assert_eq!(direct["bgp_state"], "opensent", "{direct}");
    assert!(direct["last_established_state"].is_null(), "{direct}");
}

/// A router that does not answer: the job errs with the adapter's message.
fn an_unreachable_router_errs(s: &TestServer, router: i64, answers: &Answers) {
    s.patch(
        &format!("{ROUTERS}{router}/"),
        json!({"napalm_args": {"path": answers.path(), "fail_on_open": true}}),
    );
    let done = action(
        s,
        "POST",
        &format!("{ROUTERS}{router}/poll-bgp-sessions/"),
        json!({}),
    );
    assert_eq!(done["status"]["value"], "errored", "{done}");
    let output = done["output"].as_str().unwrap_or_default();
    assert!(
        output.contains(
            "peeringd-napalm: poll edge1.example.net: cannot connect: ConnectionException"
        ),
        "{done}"
    );
    assert!(!output.contains("s3cr3t-napalm"), "{done}");
}
