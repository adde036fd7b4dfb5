//! The snapshots of change records name an object's tags, on create, update and delete,
//! and reading those names costs the same whatever the number of objects.

use crate::common::{TestServer, AS};
use serde_json::{json, Value as Json};

fn tag(s: &TestServer, name: &str) -> i64 {
    s.create(
        "/api/extras/tags/",
        json!({"name": name, "slug": name.to_lowercase()}),
    )["id"]
        .as_i64()
        .unwrap()
}

#[test]
fn snapshots_name_the_tags_of_created_updated_and_deleted_objects() {
    let s = TestServer::start();
    let (gold, silver, bronze) = (tag(&s, "Gold"), tag(&s, "Silver"), tag(&s, "Bronze"));
    let r = s.post(
        AS,
        json!([{"asn": 64501, "name": "a", "tags": [silver, gold]}, {"asn": 64502, "name": "b"}]),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    let created = s.changes_of(&r);
    assert_eq!(
        created[0]["postchange_data"]["tags"],
        json!(["Gold", "Silver"])
    );
    assert_eq!(created[1]["postchange_data"]["tags"], json!([]));
    let ids: Vec<i64> = r
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_i64().unwrap())
        .collect();

    // A tag the stored objects did not carry is named too.
    let r = s.patch(
        AS,
        json!([{"id": ids[0], "tags": [bronze]}, {"id": ids[1], "tags": [gold]}]),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let updated = s.changes_of(&r);
    assert_eq!(
        updated[0]["prechange_data"]["tags"],
        json!(["Gold", "Silver"])
    );
    assert_eq!(updated[0]["postchange_data"]["tags"], json!(["Bronze"]));
    assert_eq!(updated[1]["prechange_data"]["tags"], json!([]));
    assert_eq!(updated[1]["postchange_data"]["tags"], json!(["Gold"]));

    let r = s.delete(AS, Some(json!([{"id": ids[0]}, {"id": ids[1]}])));
    assert_eq!(r.status, 204, "{}", r.text);
    let deleted = s.changes_of(&r);
    assert_eq!(deleted[0]["prechange_data"]["tags"], json!(["Bronze"]));
    assert_eq!(deleted[1]["prechange_data"]["tags"], json!(["Gold"]));
}

#[test]
fn naming_the_tags_of_many_objects_costs_no_more_queries_than_of_a_few() {
    let s = TestServer::start();
    let tags: Vec<i64> = (0..40).map(|i| tag(&s, &format!("T{i}"))).collect();
    // Each object carries a tag no other object of its request carries.
    let cost = |first_asn: usize, count: usize| {
        let items: Vec<Json> = (0..count)
            .map(|i| json!({"asn": first_asn + i, "name": format!("n{i}"), "tags": [tags[i]]}))
            .collect();
        let before = s.store.queries_executed();
        let r = s.post(AS, Json::Array(items));
        assert_eq!(r.status, 201, "{}", r.text);
        s.store.queries_executed() - before
    };
    assert_eq!(cost(64600, 3), cost(64700, 40));
}

/// The records of one request come newest first, as the reference lists them (its records
/// of one request are written microseconds apart, and it orders by time alone): three
/// exchanges created at once are listed last created first, however close their times.
#[test]
fn the_records_of_one_request_are_listed_newest_first() {
    let s = TestServer::start();
    let us = crate::common::builders::autonomous_system(64500, "Us").id(&s);
    let r = s.post(
        "/api/peering/internet-exchanges/",
        json!([
            {"name": "One", "slug": "one", "local_autonomous_system": us},
            {"name": "Two", "slug": "two", "local_autonomous_system": us},
            {"name": "Three", "slug": "three", "local_autonomous_system": us},
        ]),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    let request = r.header("X-Request-ID").unwrap();
    let listed = s
        .get(&format!("/api/extras/object-changes/?request_id={request}"))
        .json();
    let created: Vec<i64> = r
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["id"].as_i64().unwrap())
        .collect();
    let changed: Vec<i64> = listed["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["changed_object_id"].as_i64().unwrap())
        .collect();
    assert_eq!(changed, [created[2], created[1], created[0]]);
    let ids: Vec<i64> = listed["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_i64().unwrap())
        .collect();
    assert!(ids.windows(2).all(|w| w[0] > w[1]), "{ids:?}");
}
