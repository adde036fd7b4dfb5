//! Writes through the API deliver: a create, an update and a delete each send the
//! reference's payload for the object as the API shows it, with its snapshots and the
//! write's request id; a bulk create of N sends N; an event a webhook does not select,
//! and a disabled webhook, send nothing.

use std::time::Duration;

use serde_json::{json, Value as Json};

use super::receiver::{Answers, Received, Receiver};
use super::*;

const SYSTEMS: &str = "/api/peering/autonomous-systems/";
const SECRET: &str = "thisisaverystrongsecret";

fn by_event<'a>(received: &'a [Received], event: &str) -> (&'a Received, Json) {
    let request = received
        .iter()
        .find(|r| r.json()["event"] == event)
        .unwrap_or_else(|| panic!("no {event} delivery"));
    (request, request.json())
}

#[test]
fn a_create_an_update_and_a_delete_each_deliver_the_object_signed() {
    let s = TestServer::start_with(quick(1, Duration::from_secs(5)));
    let receiver = Receiver::start(Answers::Ok);
    webhook(
        &s,
        "All",
        &format!("{}/", receiver.base),
        json!({"secret": SECRET}),
    );
    let created = s.post(SYSTEMS, json!({"asn": 64500, "name": "AS 1"}));
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.json()["id"].as_i64().unwrap();
    let path = format!("{SYSTEMS}{id}/");
    let updated = s.patch(
        &path,
        json!({"name": "My AS", "comments": "Updated the AS"}),
    );
    assert_eq!(updated.status, 200, "{}", updated.text);
    // The object as the API shows it, its url a path: the reference serializes it without
    // a request.
    let mut shown = s.get(&path).json();
    shown["url"] = json!(path);
    shown["display_url"] = json!(format!("{path}?format=api"));
    let deleted = s.delete(&path, None);
    assert_eq!(deleted.status, 204, "{}", deleted.text);
    let received = receiver.wait_for(3, Duration::from_secs(20));
    assert_eq!(received.len(), 3);
    for request in &received {
        let signed = signature(&request.body, SECRET);
        assert_eq!(request.header("x-hook-signature"), Some(signed.as_str()));
        let body = request.json();
        assert_eq!(body["model"], "autonomoussystem");
        assert_eq!(body["username"], "admin");
        assert!(
            body["timestamp"].as_str().is_some_and(|t| !t.is_empty()),
            "{body}"
        );
    }
    let (_, create) = by_event(&received, "create");
    assert_eq!(
        create["request_id"].as_str(),
        created.header("x-request-id")
    );
    assert_eq!(create["data"]["id"], id);
    assert_eq!(create["data"]["name"], "AS 1");
    assert_eq!(create["snapshots"]["prechange"], Json::Null);
    assert_eq!(create["snapshots"]["postchange"]["name"], "AS 1");
    let (_, update) = by_event(&received, "update");
    assert_eq!(
        update["request_id"].as_str(),
        updated.header("x-request-id")
    );
    assert_eq!(update["data"], shown, "the object as the API shows it");
    assert_eq!(update["snapshots"]["prechange"]["name"], "AS 1");
    assert_eq!(update["snapshots"]["postchange"]["name"], "My AS");
    let (_, delete) = by_event(&received, "delete");
    assert_eq!(
        delete["request_id"].as_str(),
        deleted.header("x-request-id")
    );
    assert_eq!(delete["data"]["id"], id);
    assert_eq!(delete["snapshots"]["prechange"]["name"], "My AS");
    assert_eq!(delete["snapshots"]["postchange"], Json::Null);
}

#[test]
fn a_bulk_create_of_n_objects_delivers_n_times() {
    let s = TestServer::start_with(quick(1, Duration::from_secs(5)));
    let receiver = Receiver::start(Answers::Ok);
    webhook(&s, "Bulk", &format!("{}/", receiver.base), json!({}));
    let objects: Vec<Json> = (0..12)
        .map(|n| json!({"asn": 64600 + n, "name": format!("AS {n}")}))
        .collect();
    let r = s.post(SYSTEMS, Json::Array(objects));
    assert_eq!(r.status, 201, "{}", r.text);
    let mut ids: Vec<i64> = r
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_i64().unwrap())
        .collect();
    let received = receiver.wait_for(12, Duration::from_secs(30));
    std::thread::sleep(Duration::from_millis(300));
    let mut delivered: Vec<i64> = receiver
        .received()
        .iter()
        .map(|r| r.json()["data"]["id"].as_i64().unwrap())
        .collect();
    assert_eq!(received.len(), 12);
    ids.sort();
    delivered.sort();
    assert_eq!(delivered, ids, "one delivery per object, none twice");
}

#[test]
fn unselected_events_and_disabled_webhooks_send_nothing() {
    let s = TestServer::start_with(quick(1, Duration::from_secs(5)));
    let creates = Receiver::start(Answers::Ok);
    let off = Receiver::start(Answers::Ok);
    webhook(
        &s,
        "Creates",
        &format!("{}/", creates.base),
        json!({"type_update": false, "type_delete": false}),
    );
    webhook(
        &s,
        "Off",
        &format!("{}/", off.base),
        json!({"enabled": false}),
    );
    let id = s.create(SYSTEMS, json!({"asn": 64700, "name": "A"}))["id"]
        .as_i64()
        .unwrap();
    assert_eq!(
        s.patch(&format!("{SYSTEMS}{id}/"), json!({"name": "B"}))
            .status,
        200
    );
    assert_eq!(s.delete(&format!("{SYSTEMS}{id}/"), None).status, 204);
    let received = creates.wait_for(1, Duration::from_secs(20));
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(creates.received().len(), 1, "only the create");
    assert_eq!(received[0].json()["event"], "create");
    assert!(off.received().is_empty(), "a disabled webhook sent");
}
