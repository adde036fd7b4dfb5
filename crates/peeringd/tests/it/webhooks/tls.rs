//! HTTPS receivers: a certificate the system does not trust fails the delivery; the
//! webhook's `ca_file_path` trusts its CA; `ssl_verification` off accepts any.

use std::time::Duration;

use serde_json::json;

use super::receiver::{ca_file, Answers, Receiver};
use super::*;

#[test]
fn certificates_are_verified_against_the_ca_file_or_not_at_all_when_asked() {
    let s = TestServer::start_with(quick(1, Duration::from_secs(5)));
    let receiver = Receiver::start_tls(Answers::Ok);
    let url = format!("{}/", receiver.base);
    let strict = webhook(&s, "Strict", &url, json!({}));
    let job = enqueue(&s, strict, params(strict, "create", system(1, 64500, "A")));
    let done = ended(&s, job, Duration::from_secs(20));
    assert_eq!(done["status"]["value"], "errored", "{done}");
    assert!(
        done["output"]
            .as_str()
            .unwrap()
            .contains("could not be reached"),
        "{done}"
    );
    assert!(receiver.received().is_empty());

    let trusting = webhook(
        &s,
        "Own CA",
        &format!("{url}ca/"),
        json!({"ca_file_path": ca_file()}),
    );
    let job = enqueue(
        &s,
        trusting,
        params(trusting, "create", system(1, 64500, "A")),
    );
    let done = ended(&s, job, Duration::from_secs(20));
    assert_eq!(done["status"]["value"], "completed", "{done}");

    let lax = webhook(
        &s,
        "Lax",
        &format!("{url}lax/"),
        json!({"ssl_verification": false}),
    );
    let job = enqueue(&s, lax, params(lax, "create", system(1, 64500, "A")));
    assert_eq!(
        ended(&s, job, Duration::from_secs(20))["status"]["value"],
        "completed"
    );

    let paths: Vec<String> = receiver
        .wait_for(2, Duration::from_secs(5))
        .iter()
        .map(|r| r.path.clone())
        .collect();
    assert_eq!(paths.len(), 2);
    assert!(
        paths.contains(&"/ca/".to_string()) && paths.contains(&"/lax/".to_string()),
        "{paths:?}"
    );

    let missing = webhook(
        &s,
        "No file",
        &format!("{url}none/"),
        json!({"ca_file_path": "/nonexistent/ca.pem"}),
    );
    let job = enqueue(
        &s,
        missing,
        params(missing, "create", system(1, 64500, "A")),
    );
    let done = ended(&s, job, Duration::from_secs(20));
    assert_eq!(done["status"]["value"], "errored", "{done}");
    assert!(
        done["output"].as_str().unwrap().contains("cannot be read"),
        "{done}"
    );
}
