//! Webhooks delivered: a receiver on 127.0.0.1 gets the reference's payload, signed;
//! conditions, disabled webhooks and deleted ones send nothing; a failing receiver is
//! tried again with back-off, each attempt kept in the job's data; one that never
//! answers holds up neither writes nor other deliveries; HTTPS receivers are verified as
//! each webhook asks; writes through the API deliver; bad conditions and templates are
//! refused when written.

mod delivery;
mod lanes;
mod receiver;
mod retries;
mod rules;
mod through_the_api;
mod tls;

use std::time::{Duration, Instant};

use hmac::{Hmac, KeyInit, Mac};
use peering_store::NewJob;
use serde_json::{json, Value as Json};

use crate::common::TestServer;

pub const WEBHOOKS: &str = "/api/extras/webhooks/";

/// Settings with short waits, for tests.
pub fn quick(attempts: u32, timeout: Duration) -> peering_api::Settings {
    peering_api::Settings {
        webhooks: peering_app::webhooks::Settings {
            timeout,
            attempts,
            retry_delay: Duration::from_millis(300),
            proxy: None,
        },
        ..peering_api::Settings::default()
    }
}

/// Creates a webhook on autonomous systems with `fields` over the defaults; its id.
pub fn webhook(s: &TestServer, name: &str, url: &str, fields: Json) -> i64 {
    let mut body = json!({
        "name": name,
        "content_types": ["peering.autonomoussystem"],
        "type_create": true,
        "type_update": true,
        "type_delete": true,
        "payload_url": url,
    });
    for (key, value) in fields.as_object().expect("fields") {
        body[key] = value.clone();
    }
    let r = s.post(WEBHOOKS, body);
    assert_eq!(r.status, 201, "{}", r.text);
    r.json()["id"].as_i64().expect("an id")
}

/// A delivery job's parameters, as writes enqueue them.
pub fn params(webhook: i64, event: &str, data: Json) -> Json {
    json!({
        "webhook": webhook,
        "event": event,
        "model": "autonomoussystem",
        "timestamp": "2026-12-06T21:30:00.123456+00:00",
        "username": "alice",
        "request_id": "5b6d3cbe-8a2f-4a57-9d3c-0d3f2b1c9e11",
        "data": data,
        "snapshots": {"prechange": null, "postchange": {"asn": data["asn"], "name": data["name"]}},
    })
}

/// Enqueues a delivery of `webhook` with `params`; the job's id.
pub fn enqueue(s: &TestServer, webhook: i64, params: Json) -> i64 {
    s.jobs
        .enqueue(&NewJob {
            name: peering_app::jobs::DELIVER_WEBHOOK.into(),
            object: Some(("extras.webhook".into(), webhook)),
            user_id: None,
            params,
        })
        .expect("enqueued")
}

/// The job once it ended (completed, errored or failed), within `within`.
pub fn ended(s: &TestServer, job: i64, within: Duration) -> Json {
    let deadline = Instant::now() + within;
    loop {
        let job = s.get(&format!("/api/core/jobs/{job}/")).json();
        let status = job["status"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if !matches!(status.as_str(), "pending" | "running") {
            return job;
        }
        assert!(Instant::now() < deadline, "still {status}: {job}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The hex HMAC-SHA512 of `body` with `secret`, computed here as a receiver would.
pub fn signature(body: &[u8], secret: &str) -> String {
    let mut mac = Hmac::<sha2_for_hmac::Sha512>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(body);
    hex::encode(mac.finalize().into_bytes())
}

/// An autonomous system as the API represents it, for a job's data.
pub fn system(id: i64, asn: i64, name: &str) -> Json {
    json!({"id": id, "url": format!("/api/peering/autonomous-systems/{id}/"), "display": format!("AS{asn} - {name}"), "asn": asn, "name": name, "comments": "", "tags": []})
}
