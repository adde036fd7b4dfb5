//! Router jobs run on workers of their own (`peering_app::jobs::ROUTER_WORKERS`): routers
//! that do not answer until their deadline hold up no other job.

use std::time::{Duration, Instant};

use crate::common::network::{finished, id, network, ROUTERS};
use crate::common::TestServer;
use peering_api::Settings;
use serde_json::json;

#[test]
fn routers_that_do_not_answer_hold_up_no_other_job() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/fake_router.py");
    let s = TestServer::start_with(Settings {
        router_command: vec!["python3".into(), script.into()],
        ..Settings::default()
    });
    let n = network(&s);
    // Both routers take 8 s to answer, which would hold both general workers.
    let mut polls = Vec::new();
    for router in [n.junos, n.iosxr] {
        let r = s.patch(
            &format!("{ROUTERS}{router}/"),
            json!({"napalm_args": {"sleep": 8}, "napalm_timeout": 30}),
        );
        assert_eq!(r.status, 200, "{}", r.text);
        let r = s.post(&format!("{ROUTERS}{router}/poll-bgp-sessions/"), json!({}));
        assert_eq!(r.status, 202, "{}", r.text);
        polls.push(id(&r.json()));
    }
    // The polls are running before the render is asked for.
    let deadline = Instant::now() + Duration::from_secs(20);
    for poll in &polls {
        while s.get(&format!("/api/core/jobs/{poll}/")).json()["status"]["value"] != "running" {
            assert!(Instant::now() < deadline, "the poll {poll} never started");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    let render = s.get(&format!("{ROUTERS}{}/configuration/", n.junos));
    assert_eq!(render.status, 202, "{}", render.text);
    let done = finished(&s, &render.json());
    assert_eq!(done["status"]["value"], "completed", "{done}");
    for poll in &polls {
        let job = s.get(&format!("/api/core/jobs/{poll}/")).json();
        assert_eq!(job["status"]["value"], "running", "still asking: {job}");
    }
}
