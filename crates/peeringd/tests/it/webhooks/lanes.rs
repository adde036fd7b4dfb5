//! A receiver that never answers holds one delivery worker until the timeout: writes
//! answer at once meanwhile, and other webhooks' deliveries arrive.

use std::time::{Duration, Instant};

use serde_json::json;

use super::receiver::{Answers, Receiver};
use super::*;

#[test]
fn a_receiver_that_never_answers_holds_up_nothing_else() {
    let timeout = Duration::from_secs(4);
    let s = TestServer::start_with(quick(1, timeout));
    let silent = Receiver::start(Answers::Never);
    let listening = Receiver::start(Answers::Ok);
    let stuck = webhook(&s, "Silent", &format!("{}/", silent.base), json!({}));
    let fine = webhook(&s, "Listening", &format!("{}/", listening.base), json!({}));
    let started = Instant::now();
    let hung = enqueue(&s, stuck, params(stuck, "create", system(1, 64500, "A")));
    silent.wait_for(1, Duration::from_secs(5));
    let mut others = Vec::new();
    for n in 0..3 {
        others.push(enqueue(
            &s,
            fine,
            params(fine, "create", system(n, 64510 + n, "B")),
        ));
    }
    // Writes answer promptly while the delivery waits.
    let write = Instant::now();
    let r = s.post(
        "/api/peering/autonomous-systems/",
        json!({"asn": 64999, "name": "Prompt"}),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    assert!(
        write.elapsed() < Duration::from_secs(2),
        "a write took {:?}",
        write.elapsed()
    );
    let arrived = listening.wait_for(3, Duration::from_secs(3));
    assert!(
        arrived
            .iter()
            .all(|r| r.at.duration_since(started) < timeout),
        "the other deliveries waited for the silent receiver"
    );
    for job in others {
        assert_eq!(
            ended(&s, job, Duration::from_secs(10))["status"]["value"],
            "completed"
        );
    }
    let job = ended(&s, hung, timeout + Duration::from_secs(10));
    assert_eq!(job["status"]["value"], "errored", "{job}");
    assert!(
        job["output"].as_str().unwrap().contains("timed out"),
        "{job}"
    );
    assert!(started.elapsed() >= timeout, "ended before its timeout");
}
