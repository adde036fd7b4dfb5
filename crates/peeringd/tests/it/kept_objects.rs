//! Related objects kept between reads (an AS's routing policies and tags): read once while
//! their tables are unchanged, and shown anew as soon as one is written, whichever
//! instance wrote it. The answer cache is off here, so every request is rendered.

use crate::common::{TestServer, AS};
use peering_api::Settings;
use serde_json::{json, Value as Json};

const TAGS: &str = "/api/extras/tags/";
const POLICIES: &str = "/api/peering/routing-policies/";

/// The statements the store ran to answer `path`, and the answer.
fn cost(s: &TestServer, path: &str) -> (u64, Json) {
    let before = s.store.queries_executed();
    let r = s.get(path);
    assert_eq!(r.status, 200, "{path}: {}", r.text);
    (s.store.queries_executed() - before, r.json())
}

fn without_answer_cache() -> TestServer {
    let s = TestServer::start_with(Settings {
        response_cache_bytes: 0,
        object_texts_bytes: 0,
        ..Settings::default()
    });
    assert!(
        s.await_token_last_use(),
        "the token's last use was never written"
    );
    s
}

/// An AS with two tags and an import and an export policy; its detail's path.
fn peer_with_relations(s: &TestServer) -> String {
    let tags = s.create(
        TAGS,
        json!([{"name": "Blue", "slug": "blue"}, {"name": "Red", "slug": "red"}]),
    );
    let policies = s.create(
        POLICIES,
        json!([{"name": "Import", "slug": "imp"},
               {"name": "Export", "slug": "exp", "type": "export-policy"}]),
    );
    let peer = s.create(
        AS,
        json!({"asn": 65001, "name": "Peer",
               "tags": [tags[0]["id"], tags[1]["id"]],
               "import_routing_policies": [policies[0]["id"]],
               "export_routing_policies": [policies[1]["id"]]}),
    );
    format!("{AS}{}/", peer["id"])
}

fn names(body: &Json, field: &str) -> Vec<String> {
    (body[field].as_array().into_iter().flatten())
        .map(|o| o["name"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn related_objects_are_read_once_while_their_tables_are_unchanged() {
    let s = without_answer_cache();
    let detail = peer_with_relations(&s);
    let (first, body) = cost(&s, &detail);
    let (again, same) = cost(&s, &detail);
    assert_eq!(same, body);
    assert_eq!(names(&body, "tags"), ["Blue", "Red"]);
    assert_eq!(names(&body, "import_routing_policies"), ["Import"]);
    // Tags and policies (one statement each) are kept; one read of their tables' versions
    // tells they still hold.
    assert_eq!(again, first - 2, "{first} then {again} statements");

    // A page shows the objects a detail kept, and keeps those it read.
    let page = format!("{AS}?limit=10");
    let (page_first, listed) = cost(&s, &page);
    let (page_again, _) = cost(&s, &page);
    // Its rows carry their lists and the versions; a page shorter than its limit tells
    // the count. A first page reads no list's order (`kept_orders.rs`): it walks no rows
    // before it.
    assert_eq!(
        (page_first, page_again),
        (1, 1),
        "statements for a page of kept relations"
    );
    assert_eq!(names(&listed["results"][0], "tags"), ["Blue", "Red"]);
}

#[test]
fn a_related_object_written_is_shown_anew_whichever_instance_wrote() {
    let s = without_answer_cache();
    let other = s.another_instance(Settings::default());
    let detail = peer_with_relations(&s);
    cost(&s, &detail);
    let (kept, _) = cost(&s, &detail);
    let tag = s.get(&format!("{TAGS}?slug=blue")).json()["results"][0]["id"].clone();

    // Renamed here: read anew, in the order of the new names.
    let r = s.patch(&format!("{TAGS}{tag}/"), json!({"name": "Yellow"}));
    assert_eq!(r.status, 200, "{}", r.text);
    let (after, body) = cost(&s, &detail);
    assert_eq!(names(&body, "tags"), ["Red", "Yellow"]);
    assert!(
        after > kept,
        "{after} statements after a write, {kept} before"
    );

    // Renamed through another instance on the same database.
    let r = s.send(
        "PATCH",
        &format!("{}{POLICIES}{}/", other.base, policy_id(&s)),
        Some(&json!({"name": "Imported"})),
        Some(&s.key),
        &[],
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let body = s.get(&detail).json();
    assert_eq!(names(&body, "import_routing_policies"), ["Imported"]);
    assert_eq!(names(&body, "tags"), ["Red", "Yellow"]);

    // Deleted: gone from the AS at once.
    assert_eq!(s.delete(&format!("{TAGS}{tag}/"), None).status, 204);
    assert_eq!(names(&s.get(&detail).json(), "tags"), ["Red"]);
}

#[test]
fn a_write_that_names_its_rows_keeps_the_others() {
    let s = without_answer_cache();
    let detail = peer_with_relations(&s);
    let green = s.create(TAGS, json!({"name": "Green", "slug": "green"}));
    cost(&s, &detail);
    let (kept, _) = cost(&s, &detail);
    // A tag the AS does not show, renamed: its tags stay kept.
    let r = s.patch(&format!("{TAGS}{}/", green["id"]), json!({"name": "Olive"}));
    assert_eq!(r.status, 200, "{}", r.text);
    let (after, body) = cost(&s, &detail);
    assert_eq!(after, kept, "statements after another tag was renamed");
    assert_eq!(names(&body, "tags"), ["Blue", "Red"]);
    // One it shows, renamed: read again, alone.
    let blue = s.get(&format!("{TAGS}?slug=blue")).json()["results"][0]["id"].clone();
    let r = s.patch(&format!("{TAGS}{blue}/"), json!({"name": "Yellow"}));
    assert_eq!(r.status, 200, "{}", r.text);
    let (after, body) = cost(&s, &detail);
    assert_eq!(after, kept + 1, "statements after a tag shown was renamed");
    assert_eq!(names(&body, "tags"), ["Red", "Yellow"]);
    assert_eq!(cost(&s, &detail).0, kept);
}

fn policy_id(s: &TestServer) -> Json {
    s.get(&format!("{POLICIES}?slug=imp")).json()["results"][0]["id"].clone()
}

#[test]
fn a_key_the_database_clears_on_a_deletion_is_seen_at_once() {
    let s = without_answer_cache();
    let network = crate::common::network::network(&s);
    let sessions = "/api/peering/internet-exchange-peering-sessions/";
    let found = s.get(&format!("{sessions}?ip_address=192.0.2.20")).json();
    let detail = format!("{sessions}{}/", found["results"][0]["id"]);
    let label = |s: &TestServer| s.get(&detail).json()["ixp_connection"]["display"].clone();
    // The connection is kept, with its router.
    assert_eq!(label(&s), "Example IX on edge1");
    assert_eq!(label(&s), "Example IX on edge1");
    // Deleting the router clears the connection's key (ON DELETE SET NULL): the label no
    // longer names it, kept or not.
    let deleted = s.delete(
        &format!("{}{}/", crate::common::network::ROUTERS, network.junos),
        None,
    );
    assert_eq!(deleted.status, 204, "{}", deleted.text);
    assert_eq!(label(&s), "Example IX");
    let connection = s.get(&format!("{sessions}?ip_address=192.0.2.20")).json();
    let connection = &connection["results"][0]["ixp_connection"];
    assert_eq!(connection["display"], "Example IX");
}
