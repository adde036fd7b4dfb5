//! What a receiver gets: the reference's payload, headers and signature; templates
//! rendered; nothing when the conditions are not met, the webhook is disabled or deleted.

use std::time::Duration;

use serde_json::json;

use super::receiver::{Answers, Receiver};
use super::*;

const SECRET: &str = "thisisaverystrongsecret";

#[test]
fn each_event_delivers_the_reference_payload_signed() {
    let s = TestServer::start_with(quick(1, Duration::from_secs(5)));
    let receiver = Receiver::start(Answers::Ok);
    let hook = webhook(
        &s,
        "Signed",
        &format!("{}/hook/", receiver.base),
        json!({"secret": SECRET, "additional_headers": "X-Foo: Bar"}),
    );
    let data = system(12, 64500, "Caf\u{e9}");
    let mut jobs = Vec::new();
    for event in ["create", "update", "delete"] {
        jobs.push(enqueue(&s, hook, params(hook, event, data.clone())));
    }
    for job in &jobs {
        let job = ended(&s, *job, Duration::from_secs(20));
        assert_eq!(job["status"]["value"], "completed", "{job}");
        assert!(
            job["output"]
                .as_str()
                .unwrap()
                .contains("status 200 returned"),
            "{job}"
        );
    }
    let received = receiver.wait_for(3, Duration::from_secs(5));
    let mut events: Vec<String> = received
        .iter()
        .map(|r| r.json()["event"].as_str().unwrap().into())
        .collect();
    events.sort();
    assert_eq!(events, ["create", "delete", "update"]);
    for request in &received {
        assert_eq!(
            (request.method.as_str(), request.path.as_str()),
            ("POST", "/hook/")
        );
        assert_eq!(request.header("content-type"), Some("application/json"));
        assert!(request
            .header("user-agent")
            .unwrap()
            .starts_with("peeringd/"));
        assert_eq!(request.header("x-foo"), Some("Bar"));
        assert_eq!(
            request.header("x-hook-signature"),
            Some(signature(&request.body, SECRET).as_str()),
            "a signature of the exact body"
        );
        let body = request.json();
        let keys: Vec<&str> = body
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "event",
                "timestamp",
                "model",
                "username",
                "request_id",
                "data",
                "snapshots"
            ]
        );
        assert_eq!(body["model"], "autonomoussystem");
        assert_eq!(body["username"], "alice");
        assert_eq!(body["timestamp"], "2026-12-06T21:30:00.123456+00:00");
        assert_eq!(body["data"], data);
        assert_eq!(body["snapshots"]["postchange"]["asn"], 64500);
        // Written as Python's json.dumps writes it.
        let text = String::from_utf8(request.body.clone()).unwrap();
        assert!(text.starts_with(r#"{"event": ""#), "{text}");
        assert!(text.contains(r#""name": "Caf\u00e9""#), "{text}");
    }
}

#[test]
fn url_headers_and_body_templates_are_rendered() {
    let s = TestServer::start_with(quick(1, Duration::from_secs(5)));
    let receiver = Receiver::start(Answers::Ok);
    let hook = webhook(
        &s,
        "Templated",
        &format!(
            "{}/as/{{{{ data.asn }}}}/?event={{{{ event }}}}",
            receiver.base
        ),
        json!({
            "http_method": "PUT",
            "http_content_type": "text/plain",
            "additional_headers": "X-Model: {{ model }}\nX-Who: {{ username | upper }}",
            "body_template": "AS{{ data['asn'] }} {{ event }}d by {{ username }}{% for t in data.tags %}!{% endfor %}",
        }),
    );
    let job = enqueue(&s, hook, params(hook, "create", system(3, 64501, "Stark")));
    assert_eq!(
        ended(&s, job, Duration::from_secs(20))["status"]["value"],
        "completed"
    );
    let request = &receiver.wait_for(1, Duration::from_secs(5))[0];
    assert_eq!(request.method, "PUT");
    assert_eq!(request.path, "/as/64501/?event=create");
    assert_eq!(request.header("content-type"), Some("text/plain"));
    assert_eq!(request.header("x-model"), Some("autonomoussystem"));
    assert_eq!(request.header("x-who"), Some("ALICE"));
    assert_eq!(
        request.header("x-hook-signature"),
        None,
        "no secret, no signature"
    );
    assert_eq!(
        String::from_utf8_lossy(&request.body),
        "AS64501 created by alice"
    );
}

#[test]
fn unmet_conditions_disabled_and_deleted_webhooks_send_nothing() {
    let s = TestServer::start_with(quick(1, Duration::from_secs(5)));
    let receiver = Receiver::start(Answers::Ok);
    let url = format!("{}/", receiver.base);
    let conditions = json!({"and": [{"attr": "asn", "op": "gte", "value": 65000}]});
    let picky = webhook(&s, "Picky", &url, json!({"conditions": conditions}));
    let unmet = enqueue(&s, picky, params(picky, "create", system(1, 64500, "Low")));
    let job = ended(&s, unmet, Duration::from_secs(20));
    assert_eq!(job["status"]["value"], "completed", "{job}");
    assert!(
        job["output"]
            .as_str()
            .unwrap()
            .contains("not met: nothing sent"),
        "{job}"
    );
    let met = enqueue(&s, picky, params(picky, "create", system(2, 65001, "High")));
    assert_eq!(
        ended(&s, met, Duration::from_secs(20))["status"]["value"],
        "completed"
    );
    let received = receiver.wait_for(1, Duration::from_secs(5));
    assert_eq!(received[0].json()["data"]["asn"], 65001);

    let off = webhook(&s, "Off", &format!("{url}off/"), json!({"enabled": false}));
    let gone = webhook(&s, "Gone", &format!("{url}gone/"), json!({}));
    let disabled = enqueue(&s, off, params(off, "create", system(3, 65002, "X")));
    let job = ended(&s, disabled, Duration::from_secs(20));
    assert!(
        job["output"]
            .as_str()
            .unwrap()
            .contains("disabled: nothing sent"),
        "{job}"
    );
    assert_eq!(s.delete(&format!("{WEBHOOKS}{gone}/"), None).status, 204);
    let deleted = enqueue(&s, gone, params(gone, "create", system(4, 65003, "Y")));
    let job = ended(&s, deleted, Duration::from_secs(20));
    assert_eq!(job["status"]["value"], "completed", "{job}");
    assert!(
        job["output"]
            .as_str()
            .unwrap()
            .contains("deleted: nothing sent"),
        "{job}"
    );
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        receiver.received().len(),
        1,
        "only the met condition's delivery"
    );
}

#[test]
fn redirects_are_followed_within_the_origin_only() {
    let s = TestServer::start_with(quick(1, Duration::from_secs(5)));
    let within = Receiver::start(Answers::Redirect("/landed/".into()));
    let elsewhere = Receiver::start(Answers::Ok);
    let away = Receiver::start(Answers::Redirect(format!("{}/landed/", elsewhere.base)));
    let same = webhook(
        &s,
        "Same origin",
        &format!("{}/moved/", within.base),
        json!({}),
    );
    let job = enqueue(&s, same, params(same, "create", system(1, 64500, "A")));
    assert_eq!(
        ended(&s, job, Duration::from_secs(20))["status"]["value"],
        "completed"
    );
    let paths: Vec<String> = within.received().iter().map(|r| r.path.clone()).collect();
    assert_eq!(paths, ["/moved/", "/landed/"]);
    let other = webhook(
        &s,
        "Other origin",
        &format!("{}/moved/", away.base),
        json!({}),
    );
    let job = enqueue(&s, other, params(other, "create", system(1, 64500, "A")));
    let done = ended(&s, job, Duration::from_secs(20));
    assert_eq!(done["status"]["value"], "errored", "{done}");
    assert!(
        done["output"].as_str().unwrap().contains("status 302"),
        "{done}"
    );
    assert!(
        elsewhere.received().is_empty(),
        "followed to another origin"
    );
}
