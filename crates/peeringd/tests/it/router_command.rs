//! The router command contract (docs/router-command.md), with a script that plays a router
//! (`fixtures/fake_router.py`): polls update sessions, configurations reach the router,
//! failures, garbage and silence end the job errored; without the setting, 503. The
//! command's processes end with its job (process group killed on exit and at the deadline),
//! and a job taken back from a worker that died runs again only if it is resumable, and at
//! most three times.

use crate::binary::alive;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::network::{finished, id, network, ROUTERS};
use crate::common::TestServer;
use peering_api::Settings;
use peering_app::jobs::{new_job, CONFIGURE, POLL_SESSIONS, TEST_CONNECTION};
use peering_app::Viewer;
use serde_json::{json, Value as Json};

fn with_router_command() -> TestServer {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/fake_router.py");
    TestServer::start_with(Settings {
        router_command: vec!["python3".into(), script.into()],
        ..Settings::default()
    })
}

/// Gives the router what the fake router reads, and runs `action` on it as a job.
fn run(s: &TestServer, router: i64, args: Json, method: &str, action: &str) -> Json {
    let r = s.patch(
        &format!("{ROUTERS}{router}/"),
        json!({"napalm_args": args, "napalm_username": "netops", "napalm_timeout": 2}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let r = s.request(
        method,
        &format!("{ROUTERS}{router}/{action}/"),
        Some(&json!({})),
        Some(&s.key),
        &[],
    );
    assert_eq!(r.status, 202, "{action}: {}", r.text);
    finished(s, &r.json())
}

#[test]
fn without_a_router_command_router_actions_answer_503() {
    let s = TestServer::start();
    let n = network(&s);
    for (method, action) in [
        ("POST", "poll-bgp-sessions"),
        ("GET", "test-napalm-connection"),
    ] {
        let r = s.request(
            method,
            &format!("{ROUTERS}{}/{action}/", n.junos),
            Some(&json!({})),
            Some(&s.key),
            &[],
        );
        assert_eq!(r.status, 503, "{action}: {}", r.text);
        assert!(
            r.json()["detail"]
                .as_str()
                .unwrap()
                .contains("PEERING_ROUTER_COMMAND"),
            "{}",
            r.text
        );
    }
    let r = s.post(
        &format!("{ROUTERS}configure/"),
        json!({"routers": [n.junos]}),
    );
    assert_eq!(r.status, 503, "{}", r.text);
    assert_eq!(s.get("/api/core/jobs/").json()["count"], 0);
}

#[test]
fn a_poll_records_what_the_router_reports() {
    let s = with_router_command();
    let n = network(&s);
    let sessions = json!([
        {"ip_address": "192.0.2.10", "state": "Established", "received_prefix_count": 42, "accepted_prefix_count": 40, "advertised_prefix_count": 7},
        {"ip_address": "198.51.100.1", "state": "active", "received_prefix_count": 0},
        {"ip_address": "10.9.9.9", "state": "idle"},
    ]);
    let done = run(
        &s,
        n.junos,
        json!({"sessions": sessions}),
        "POST",
        "poll-bgp-sessions",
    );
    assert_eq!(done["status"]["value"], "completed", "{done}");
    assert_eq!(done["output"], "2 of 3 reported sessions updated");
    let ixp = s
        .get("/api/peering/internet-exchange-peering-sessions/?ip_address=192.0.2.10")
        .json()["results"][0]
        .clone();
    assert_eq!(
        (
            ixp["bgp_state"].clone(),
            ixp["received_prefix_count"].clone(),
            ixp["accepted_prefix_count"].clone(),
            ixp["advertised_prefix_count"].clone()
        ),
        (json!("established"), json!(42), json!(40), json!(7))
    );
    assert!(ixp["last_established_state"].is_string(), "{ixp}");
    let direct = s
        .get(&format!(
            "/api/peering/direct-peering-sessions/?router_id={}",
            n.junos
        ))
        .json()["results"][0]
        .clone();
    assert_eq!(direct["bgp_state"], "active", "{direct}");
    assert!(direct["last_established_state"].is_null(), "{direct}");
    // What the poll changed is in the change records, in the name of who asked.
    let changes = s.get("/api/extras/object-changes/?changed_object_type=peering.internetexchangepeeringsession&action=update").json();
    assert_eq!(changes["results"][0]["user_name"], "admin", "{changes}");
}

#[test]
fn configurations_reach_the_router_and_tests_answer() {
    let s = with_router_command();
    let n = network(&s);
    let t = s.create("/api/devices/configurations/", json!({"name": "short", "template": "hostname {{ router.hostname }}\nsessions {{ router|ixp_sessions|length }}"}));
    s.patch(
        &format!("{ROUTERS}{}/", n.junos),
        json!({"configuration_template": id(&t)}),
    );
    let record =
        std::env::temp_dir().join(format!("peeringd-configure-{}.txt", uuid::Uuid::new_v4()));
    s.patch(
        &format!("{ROUTERS}{}/", n.junos),
        json!({"napalm_args": {"record": record}}),
    );
    let r = s.post(
        &format!("{ROUTERS}configure/"),
        json!({"routers": [n.junos, 999], "commit": true}),
    );
    assert_eq!(r.status, 202, "{}", r.text);
    let jobs = r.json();
    assert_eq!(jobs.as_array().unwrap().len(), 1, "{jobs}");
    let done = finished(&s, &jobs[0]);
    assert_eq!(done["status"]["value"], "completed", "{done}");
    assert_eq!(done["name"], "peering.router.set_napalm_configuration");
    let answer: Json = serde_json::from_str(done["output"].as_str().unwrap()).unwrap();
    assert_eq!(answer["committed"], true);
    assert_eq!(
        std::fs::read_to_string(&record).unwrap(),
        "hostname edge1.example.net\nsessions 3"
    );
    let _ = std::fs::remove_file(record);
    let done = run(&s, n.junos, json!({}), "GET", "test-napalm-connection");
    assert!(
        done["output"]
            .as_str()
            .unwrap()
            .contains("connected to edge1.example.net as netops"),
        "{done}"
    );
    // Bodies and permissions.
    let path = format!("{ROUTERS}configure/");
    assert_eq!(
        s.post(&path, json!({"routers": []})).json(),
        json!(["routers list must not be empty"])
    );
    assert_eq!(s.post(&path, json!({"routers": [999]})).status, 404);
    assert_eq!(s.post(&path, json!({"commit": true})).status, 400);
    let r = s.request("POST", &path, None, Some(&s.key), &[]);
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(
        r.json()["detail"]
            .as_str()
            .unwrap()
            .starts_with("JSON parse error"),
        "{}",
        r.text
    );
    let key = s.user_with("viewer", &["peering.view_router"], true);
    assert_eq!(
        s.send(
            "POST",
            &path,
            Some(&json!({"routers": [n.junos]})),
            Some(&key),
            &[]
        )
        .status,
        403
    );
}

#[test]
fn failures_garbage_and_silence_end_the_job_errored() {
    let s = with_router_command();
    let n = network(&s);
    let cases = [
        (
            json!({"fail": true}),
            "connection to edge1.example.net refused",
        ),
        (json!({"garbage": true}), "is not JSON"),
        (json!({"sleep": 5}), "did not answer within 2 s"),
    ];
    for (args, expected) in cases {
        let done = run(&s, n.junos, args.clone(), "GET", "test-napalm-connection");
        assert_eq!(done["status"]["value"], "errored", "{args}: {done}");
        assert!(
            done["output"].as_str().unwrap().contains(expected),
            "{args}: {done}"
        );
    }
}

#[test]
fn polls_of_a_peer_a_group_an_exchange_and_one_session() {
    let s = with_router_command();
    let n = network(&s);
    let sessions = json!([{"ip_address": "192.0.2.10", "state": "connect"}]);
    for router in [n.junos, n.iosxr] {
        s.patch(
            &format!("{ROUTERS}{router}/"),
            json!({"napalm_args": {"sessions": sessions}}),
        );
    }
    // The peer has sessions on both routers; the group and the exchange on one each.
    let peer = format!(
        "/api/peering/autonomous-systems/{}/poll-bgp-sessions/",
        n.peer
    );
    let jobs = s.post(&peer, json!({}));
    assert_eq!(jobs.status, 202, "{}", jobs.text);
    let routers: Vec<Json> = jobs
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["object_id"].clone())
        .collect();
    assert_eq!(routers, vec![json!(n.junos), json!(n.iosxr)]);
    for job in jobs.json().as_array().unwrap() {
        assert_eq!(finished(&s, job)["status"]["value"], "completed");
    }
    let ixp = s.get("/api/peering/internet-exchanges/?limit=1").json()["results"][0]["id"].clone();
    let r = s.post(
        &format!("/api/peering/internet-exchanges/{ixp}/poll-bgp-sessions/"),
        json!({}),
    );
    assert_eq!(r.json().as_array().unwrap().len(), 1, "{}", r.text);
    let group = s.get("/api/peering/bgp-groups/?limit=1").json()["results"][0]["id"].clone();
    let r = s.post(
        &format!("/api/peering/bgp-groups/{group}/poll-bgp-sessions/"),
        json!({}),
    );
    assert_eq!(r.json().as_array().unwrap().len(), 2, "{}", r.text);
    // Every poll job ends before the next poll, which they would otherwise overwrite.
    for job in s.get("/api/core/jobs/?limit=0").json()["results"]
        .as_array()
        .unwrap()
    {
        finished(&s, job);
    }
    // One session, at once.
    let session = s
        .get("/api/peering/internet-exchange-peering-sessions/?ip_address=192.0.2.10")
        .json()["results"][0]["id"]
        .clone();
    s.patch(
        &format!("{ROUTERS}{}/", n.junos),
        json!({"napalm_args": {"sessions": [{"ip_address": "192.0.2.10", "state": "opensent"}]}}),
    );
    let r = s.post(
        &format!("/api/peering/internet-exchange-peering-sessions/{session}/poll/"),
        json!({}),
    );
    assert_eq!(
        r.json(),
        json!({"detail": "1 of 1 reported sessions updated"}),
        "{}",
        r.text
    );
    let polled = s
        .get(&format!(
            "/api/peering/internet-exchange-peering-sessions/{session}/"
        ))
        .json();
    assert_eq!(polled["bgp_state"], "opensent");
    assert_eq!(
        s.post(
            "/api/peering/internet-exchange-peering-sessions/999/poll/",
            json!({})
        )
        .status,
        404
    );
}

/// A file the fake router writes the pids of its processes to; whatever is still alive
/// when it is dropped is killed, so that a failing test leaves nothing behind.
struct Pids(PathBuf);

impl Pids {
    fn new() -> Pids {
        Pids(std::env::temp_dir().join(format!("peeringd-pids-{}.txt", uuid::Uuid::new_v4())))
    }

    /// The pids written so far, the command's first.
    fn read(&self) -> Vec<u32> {
        std::fs::read_to_string(&self.0)
            .unwrap_or_default()
            .lines()
            .map(|l| l.parse().unwrap())
            .collect()
    }
}

impl Drop for Pids {
    fn drop(&mut self) {
        for pid in self.read() {
            if alive(pid) {
                let _ = std::process::Command::new("kill")
                    .args(["-KILL", &pid.to_string()])
                    .status();
            }
        }
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The pids among `pids` still alive 5 s on (a killed process dies in moments).
fn survivors(pids: &[u32]) -> Vec<u32> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let living: Vec<u32> = pids.iter().copied().filter(|p| alive(*p)).collect();
        if living.is_empty() || Instant::now() >= deadline {
            return living;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_command_that_leaves_a_child_holding_its_output_ends_and_its_child_with_it() {
    let s = with_router_command();
    let n = network(&s);
    let pids = Pids::new();
    // It answers and exits; `sleep 1000` keeps its standard output open.
    let done = run(
        &s,
        n.junos,
        json!({"background": true, "pidfile": pids.0}),
        "GET",
        "test-napalm-connection",
    );
    assert_eq!(done["status"]["value"], "completed", "{done}");
    let started = pids.read();
    assert_eq!(started.len(), 2, "{started:?}");
    assert_eq!(survivors(&started), Vec::<u32>::new());
}

#[test]
fn a_command_that_hangs_ends_errored_at_its_deadline_with_its_whole_group() {
    let s = with_router_command();
    let n = network(&s);
    let pids = Pids::new();
    let done = run(
        &s,
        n.junos,
        json!({"background": true, "sleep": 1000, "pidfile": pids.0}),
        "GET",
        "test-napalm-connection",
    );
    assert_eq!(done["status"]["value"], "errored", "{done}");
    assert!(
        done["output"]
            .as_str()
            .unwrap()
            .contains("did not answer within 2 s"),
        "{done}"
    );
    let started = pids.read();
    assert_eq!(started.len(), 2, "{started:?}");
    assert_eq!(survivors(&started), Vec::<u32>::new());
}

#[test]
fn output_held_by_a_process_out_of_the_group_ends_the_job_at_its_deadline() {
    let s = with_router_command();
    let n = network(&s);
    let pids = Pids::new();
    // The sleeper leaves the group (a session of its own): not ours to kill, but the job
    // does not wait for it past the deadline (`pids` kills it when dropped).
    let done = run(
        &s,
        n.junos,
        json!({"escape": true, "pidfile": pids.0}),
        "GET",
        "test-napalm-connection",
    );
    assert_eq!(done["status"]["value"], "errored", "{done}");
    assert!(
        done["output"]
            .as_str()
            .unwrap()
            .contains("still held its output open after 2 s"),
        "{done}"
    );
}

/// A fresh file path for the fake router to write to.
fn scratch(what: &str) -> PathBuf {
    std::env::temp_dir().join(format!("peeringd-{what}-{}.txt", uuid::Uuid::new_v4()))
}

/// The lines of the fake router's log (one per call), removing it.
fn calls(log: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let _ = std::fs::remove_file(log);
    text.lines().map(str::to_string).collect()
}

/// Whom the jobs render for: someone who may read every resource, and see no secret.
fn reader_of_all() -> Viewer {
    Viewer {
        readable: peering_domain::resources::ALL
            .iter()
            .map(|spec| spec.content_type())
            .collect(),
        ..Viewer::default()
    }
}

/// Enqueues jobs (name, router) straight into the store, so that the server's workers
/// (which poll hourly) are not woken, and lets workers that die take each of them up
/// `times` times: each round claims every job with a short lease and never ends it.
fn taken_up_by_dead_workers(s: &TestServer, jobs: &[(&str, i64)], times: u32) -> Vec<i64> {
    let ids: Vec<i64> = jobs
        .iter()
        .map(|(name, router)| {
            let job = new_job(name, ("peering.router", *router), None, &reader_of_all());
            s.store.jobs().enqueue(&job).unwrap()
        })
        .collect();
    // Long enough that every job of a round is claimed before the first lease ends, even
    // on a busy machine.
    let lease = Duration::from_secs(1);
    for round in 0..times {
        for expected in &ids {
            let claimed = s
                .store
                .jobs()
                .claim(&format!("dead-{round}"), lease)
                .unwrap();
            assert_eq!(claimed.map(|c| c.id), Some(*expected));
        }
        std::thread::sleep(lease + Duration::from_millis(100));
    }
    ids
}

/// Wakes the server's workers with a job on another router, and waits for them to end
/// every job.
fn wake_workers_and_finish(s: &TestServer, router: i64, ids: &[i64]) -> Vec<Json> {
    let r = s.get(&format!("{ROUTERS}{router}/test-napalm-connection/"));
    assert_eq!(r.status, 202, "{}", r.text);
    finished(s, &r.json());
    ids.iter()
        .map(|id| finished(s, &json!({ "id": id })))
        .collect()
}

#[test]
fn a_configure_taken_back_from_a_dead_worker_ends_interrupted_and_a_test_runs_again() {
    let s = with_router_command();
    let n = network(&s);
    let t = s.create(
        "/api/devices/configurations/",
        json!({"name": "short", "template": "hostname {{ router.hostname }}"}),
    );
    let log = scratch("calls");
    s.patch(
        &format!("{ROUTERS}{}/", n.junos),
        json!({"configuration_template": id(&t), "napalm_args": {"log": log}}),
    );
    let jobs = [(CONFIGURE, n.junos), (TEST_CONNECTION, n.junos)];
    let ids = taken_up_by_dead_workers(&s, &jobs, 1);
    let ends = wake_workers_and_finish(&s, n.iosxr, &ids);
    assert_eq!(ends[0]["status"]["value"], "errored", "{}", ends[0]);
    assert!(
        ends[0]["output"]
            .as_str()
            .unwrap()
            .starts_with("interrupted: "),
        "{}",
        ends[0]
    );
    assert_eq!(ends[1]["status"]["value"], "completed", "{}", ends[1]);
    // The configuration never reached the router a second time; the test ran again.
    assert_eq!(calls(&log), vec![format!("test {}", n.junos)]);
    // The same job, not taken back, does reach it.
    let fresh = taken_up_by_dead_workers(&s, &[(CONFIGURE, n.junos)], 0);
    let ends = wake_workers_and_finish(&s, n.iosxr, &fresh);
    assert_eq!(ends[0]["status"]["value"], "completed", "{}", ends[0]);
    assert_eq!(calls(&log), vec![format!("configure {}", n.junos)]);
}

#[test]
fn a_job_whose_worker_dies_every_time_ends_after_three_attempts() {
    let s = with_router_command();
    let n = network(&s);
    let log = scratch("calls");
    s.patch(
        &format!("{ROUTERS}{}/", n.junos),
        json!({"napalm_args": {"log": log}}),
    );
    let twice = taken_up_by_dead_workers(&s, &[(POLL_SESSIONS, n.junos)], 2);
    let ends = wake_workers_and_finish(&s, n.iosxr, &twice);
    assert_eq!(ends[0]["status"]["value"], "completed", "{}", ends[0]);
    assert_eq!(calls(&log), vec![format!("poll {}", n.junos)]);
    let thrice = taken_up_by_dead_workers(&s, &[(POLL_SESSIONS, n.junos)], 3);
    let ends = wake_workers_and_finish(&s, n.iosxr, &thrice);
    assert_eq!(ends[0]["status"]["value"], "errored", "{}", ends[0]);
    assert!(
        ends[0]["output"]
            .as_str()
            .unwrap()
            .starts_with("gave up after 3 attempts"),
        "{}",
        ends[0]
    );
    assert_eq!(calls(&log), Vec::<String>::new());
}
