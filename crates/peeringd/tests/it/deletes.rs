//! Deletes through the API: what cascades, the change records (one per object, in the order
//! the reference deletes them one by one), what protects, and a cost that does not grow
//! with the number of objects.

use crate::common::builders::tag;
use crate::common::{column, TestServer, AS};
use serde_json::{json, Value as Json};

const IX: &str = "/api/peering/internet-exchanges/";
const CONNECTIONS: &str = "/api/net/connections/";
const SESSIONS: &str = "/api/peering/internet-exchange-peering-sessions/";
const DIRECT: &str = "/api/peering/direct-peering-sessions/";

fn id(object: &Json) -> i64 {
    object["id"].as_i64().expect("an id")
}

/// A local AS with two exchanges, a connection at each, and three sessions of two peers
/// (two at the first connection, tagged); the first exchange has a contact.
struct Network {
    local: i64,
    exchanges: [i64; 2],
    connections: [i64; 2],
    sessions: [i64; 3],
    peers: [i64; 2],
}

fn network(s: &TestServer) -> Network {
    tag("Gold").create(s);
    let local = id(&s.create(
        AS,
        json!({"asn": 64500, "name": "Local", "affiliated": true}),
    ));
    let peers = [65001, 65002]
        .map(|asn| id(&s.create(AS, json!({"asn": asn, "name": format!("Peer {asn}")}))));
    let exchanges = ["IX one", "IX two"].map(|name| {
        id(&s.create(
            IX,
            json!({"name": name, "slug": name.replace(' ', "-"), "local_autonomous_system": local}),
        ))
    });
    let connections = [
        (exchanges[0], "192.0.2.1/24"),
        (exchanges[1], "198.51.100.1/24"),
    ]
    .map(|(ix, address)| {
        id(&s.create(
            CONNECTIONS,
            json!({"internet_exchange_point": ix, "router": null, "ipv4_address": address}),
        ))
    });
    let made = s.create(
        SESSIONS,
        json!([
            {"autonomous_system": peers[0], "ixp_connection": connections[0], "ip_address": "192.0.2.10", "tags": [{"slug": "gold"}]},
            {"autonomous_system": peers[1], "ixp_connection": connections[0], "ip_address": "192.0.2.20", "tags": [{"slug": "gold"}]},
            {"autonomous_system": peers[0], "ixp_connection": connections[1], "ip_address": "198.51.100.10"},
        ]),
    );
    let sessions = [0, 1, 2].map(|i| id(&made[i]));
    let contact = s.create("/api/messaging/contacts/", json!({"name": "Alice"}));
    let role = s.create(
        "/api/messaging/contact-roles/",
        json!({"name": "NOC", "slug": "noc"}),
    );
    s.create(
        "/api/messaging/contact-assignments/",
        json!({"content_type": "peering.internetexchange", "object_id": exchanges[0], "contact": id(&contact), "role": id(&role)}),
    );
    Network {
        local,
        exchanges,
        connections,
        sessions,
        peers,
    }
}

#[test]
fn a_bulk_delete_takes_every_dependent_with_a_change_record_in_the_reference_order() {
    let s = TestServer::start();
    let n = network(&s);
    let r = s.delete(
        IX,
        Some(json!([{"id": n.exchanges[0]}, {"id": n.exchanges[1]}])),
    );
    assert_eq!(r.status, 204, "{}", r.text);

    for path in [
        IX,
        CONNECTIONS,
        SESSIONS,
        "/api/messaging/contact-assignments/",
    ] {
        assert_eq!(s.get(path).json()["count"], 0, "{path}");
    }
    assert_eq!(s.get(&format!("{SESSIONS}?tag=gold")).json()["count"], 0);
    // What nothing cascades to stays.
    assert_eq!(s.get(AS).json()["count"], 3);
    assert_eq!(s.get("/api/messaging/contacts/").json()["count"], 1);
    assert_eq!(
        s.get("/api/extras/tags/").json()["results"][0]["slug"],
        "gold"
    );

    // Each exchange after what it takes: its contact assignment (generic relations
    // first), then each connection after its sessions.
    let changes = s.changes_of(&r);
    let order: Vec<(String, i64)> = changes
        .iter()
        .map(|c| {
            (
                c["changed_object_type"].as_str().unwrap().to_string(),
                c["changed_object_id"].as_i64().unwrap(),
            )
        })
        .collect();
    let session = "peering.internetexchangepeeringsession";
    let expected: Vec<(String, i64)> = [
        ("messaging.contactassignment", 1),
        (session, n.sessions[0]),
        (session, n.sessions[1]),
        ("net.connection", n.connections[0]),
        ("peering.internetexchange", n.exchanges[0]),
        (session, n.sessions[2]),
        ("net.connection", n.connections[1]),
        ("peering.internetexchange", n.exchanges[1]),
    ]
    .iter()
    .map(|(t, i)| (t.to_string(), *i))
    .collect();
    assert_eq!(order, expected);
    assert!(changes.iter().all(|c| c["action"]["value"] == "delete"));
    // The objects named keep a snapshot; what went with them does not.
    let snapshots: Vec<bool> = changes
        .iter()
        .map(|c| c["prechange_data"].is_object())
        .collect();
    assert_eq!(
        snapshots,
        [false, false, false, false, true, false, false, true]
    );
    assert_eq!(changes[4]["prechange_data"]["name"], "IX one");
    assert!(changes.iter().all(|c| c["postchange_data"].is_null()));
    // Labels read the related objects that go in the same request.
    assert_eq!(
        changes[1]["display"],
        "peering | internet exchange peering session IX one - AS65001 - IP 192.0.2.10 deleted by admin"
    );
    assert_eq!(
        changes[5]["display"],
        "peering | internet exchange peering session IX two - AS65001 - IP 198.51.100.10 deleted by admin"
    );
    assert_eq!(
        changes[7]["display"],
        "peering | internet exchange IX two deleted by admin"
    );
}

#[test]
fn an_object_reached_twice_is_deleted_once() {
    let s = TestServer::start();
    let n = network(&s);
    let relationship = s.create(
        "/api/bgp/relationships/",
        json!({"name": "Private Peering", "slug": "private-peering"}),
    );
    // A direct session refers to two of the objects deleted (its local AS and its peer).
    let direct = s.create(
        DIRECT,
        json!({"local_autonomous_system": n.local, "autonomous_system": n.peers[0],
               "relationship": id(&relationship), "ip_address": "203.0.113.1"}),
    );
    let r = s.delete(AS, Some(json!([{"id": n.local}, {"id": n.peers[0]}])));
    assert_eq!(r.status, 204, "{}", r.text);
    let changes = s.changes_of(&r);
    let of_direct: Vec<&Json> = changes
        .iter()
        .filter(|c| c["changed_object_type"] == "peering.directpeeringsession")
        .collect();
    assert_eq!(of_direct.len(), 1, "{changes:?}");
    assert_eq!(of_direct[0]["changed_object_id"], id(&direct));
    // Everything under the local AS went, and the peer's sessions with it; the other peer
    // stays.
    for path in [IX, CONNECTIONS, SESSIONS, DIRECT] {
        assert_eq!(s.get(path).json()["count"], 0, "{path}");
    }
    assert_eq!(column(&s.get(AS).json(), "id"), vec![json!(n.peers[1])]);
    // One record per object, no object twice.
    let mut seen: Vec<(Json, Json)> = changes
        .iter()
        .map(|c| {
            (
                c["changed_object_type"].clone(),
                c["changed_object_id"].clone(),
            )
        })
        .collect();
    let all = seen.len();
    seen.sort_by_key(|(t, i)| (t.to_string(), i.as_i64()));
    seen.dedup();
    assert_eq!(seen.len(), all);
}

#[test]
fn a_protected_object_stops_the_whole_delete_and_the_message_lists_its_dependents() {
    let s = TestServer::start();
    let n = network(&s);
    let relationship = s.create(
        "/api/bgp/relationships/",
        json!({"name": "Transit", "slug": "transit"}),
    );
    let free = s.create(
        "/api/bgp/relationships/",
        json!({"name": "Unused", "slug": "unused"}),
    );
    for address in ["203.0.113.2", "203.0.113.1"] {
        s.create(
            DIRECT,
            json!({"local_autonomous_system": n.local, "autonomous_system": n.peers[1],
                   "relationship": id(&relationship), "ip_address": address}),
        );
    }
    let r = s.delete(
        "/api/bgp/relationships/",
        Some(json!([{"id": id(&free)}, {"id": id(&relationship)}])),
    );
    assert_eq!(r.status, 409, "{}", r.text);
    assert_eq!(
        r.json(),
        json!({"detail": "unable to delete object. 2 dependent objects were found: Transit - AS65002 - IP 203.0.113.2/32 (1), Transit - AS65002 - IP 203.0.113.1/32 (2)"})
    );
    assert_eq!(s.get("/api/bgp/relationships/").json()["count"], 2);
}

#[test]
fn deleting_many_objects_costs_the_same_queries_as_deleting_a_few() {
    let s = TestServer::start();
    let n = network(&s);
    let sessions: Vec<Json> = (0..60)
        .map(|i| json!({"autonomous_system": n.peers[i % 2], "ixp_connection": n.connections[1],
                        "ip_address": format!("198.51.100.{}", 100 + i), "tags": [{"slug": "gold"}]}))
        .collect();
    let made = s.create(SESSIONS, Json::Array(sessions));
    let ids: Vec<Json> = made
        .as_array()
        .unwrap()
        .iter()
        .map(|m| json!({"id": m["id"]}))
        .collect();
    let cost = |batch: &[Json]| {
        let before = s.store.queries_executed();
        let r = s.delete(SESSIONS, Some(Json::Array(batch.to_vec())));
        assert_eq!(r.status, 204, "{}", r.text);
        s.store.queries_executed() - before
    };
    let few = cost(&ids[..3]);
    let many = cost(&ids[3..]);
    assert_eq!(few, many, "queries grow with the number of objects");
    assert_eq!(s.get(SESSIONS).json()["count"], 3);
}
