//! A failing receiver is tried again after a delay, every attempt kept in the job's data;
//! past the last attempt, the job ends errored.

use std::time::Duration;

use serde_json::json;

use super::receiver::{Answers, Receiver};
use super::*;

#[test]
fn a_receiver_that_fails_once_is_tried_again_and_delivered_once() {
    let s = TestServer::start_with(quick(3, Duration::from_secs(5)));
    let receiver = Receiver::start(Answers::FailFirst(1));
    let hook = webhook(
        &s,
        "Flaky",
        &format!("{}/", receiver.base),
        json!({"secret": "s3cret"}),
    );
    let job = enqueue(&s, hook, params(hook, "create", system(1, 64500, "A")));
    let done = ended(&s, job, Duration::from_secs(30));
    assert_eq!(done["status"]["value"], "completed", "{done}");
    let received = receiver.received();
    assert_eq!(received.len(), 2, "one failure, one delivery");
    let waited = received[1].at - received[0].at;
    assert!(
        waited >= Duration::from_millis(300),
        "tried again after {waited:?}"
    );
    assert_eq!(
        received[0].body, received[1].body,
        "the same body both times"
    );
    let attempts: Vec<_> = done["data"]["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| {
            (
                line["attempt"].clone(),
                line["http_status"].clone(),
                line["status"].clone(),
            )
        })
        .collect();
    assert_eq!(
        attempts,
        vec![
            (json!(1), json!(500), json!("failure")),
            (json!(2), json!(200), json!("success"))
        ],
        "{done}"
    );
    assert!(done["data"]["log"][0]["message"]
        .as_str()
        .unwrap()
        .contains("receiver down"));
    assert!(done["data"]["log"][0]["time"].is_string());
}

#[test]
fn a_receiver_that_keeps_failing_ends_errored_after_the_last_attempt() {
    let s = TestServer::start_with(quick(2, Duration::from_secs(5)));
    let receiver = Receiver::start(Answers::FailFirst(usize::MAX));
    let hook = webhook(&s, "Down", &format!("{}/", receiver.base), json!({}));
    let job = enqueue(&s, hook, params(hook, "update", system(1, 64500, "A")));
    let done = ended(&s, job, Duration::from_secs(30));
    assert_eq!(done["status"]["value"], "errored", "{done}");
    assert!(
        done["output"]
            .as_str()
            .unwrap()
            .starts_with("gave up after 2 attempts"),
        "{done}"
    );
    assert_eq!(done["data"]["failure"], 2, "{done}");
    assert_eq!(receiver.received().len(), 2);
    // Nobody listening: a connection error, tried again the same way.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    let nowhere = webhook(&s, "Nowhere", &format!("http://{closed}/"), json!({}));
    let job = enqueue(
        &s,
        nowhere,
        params(nowhere, "update", system(1, 64500, "A")),
    );
    let done = ended(&s, job, Duration::from_secs(30));
    assert_eq!(done["status"]["value"], "errored", "{done}");
    assert!(
        done["output"]
            .as_str()
            .unwrap()
            .contains("could not be reached"),
        "{done}"
    );
    assert_eq!(done["data"]["log"][1]["http_status"], json!(null), "{done}");
}
