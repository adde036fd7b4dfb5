//! Behaviours clients of the reference notice: malformed token headers, unsupported body
//! media types, and the `Location` of a created object.

use crate::common::builders::{self, autonomous_system};
use crate::common::{TestServer, AS};
use serde_json::{json, Value as Json};

#[test]
fn malformed_token_headers_are_refused_as_the_reference_does() {
    let s = TestServer::start();
    let r = s.request("GET", AS, None, None, &[("Authorization", "Token")]);
    assert_eq!(
        (r.status, r.json()),
        (
            403,
            json!({"detail": "Invalid token header. No credentials provided."})
        )
    );
    let r = s.request("GET", AS, None, None, &[("Authorization", "Token abc def")]);
    assert_eq!(
        (r.status, r.json()),
        (
            403,
            json!({"detail": "Invalid token header. Token string should not contain spaces."})
        )
    );
    // Another scheme is not ours to judge: the request stays anonymous.
    assert_eq!(
        s.request("GET", AS, None, None, &[("Authorization", "Bearer abc")])
            .status,
        200
    );
}

#[test]
fn bodies_of_another_media_type_are_refused_and_change_nothing() {
    let s = TestServer::start();
    let body = json!({"asn": 64500, "name": "A"});
    let r = s.request(
        "POST",
        AS,
        Some(&body),
        Some(&s.key),
        &[("Content-Type", "text/plain")],
    );
    assert_eq!(
        (r.status, r.json()),
        (
            415,
            json!({"detail": "Unsupported media type \"text/plain\" in request."})
        )
    );
    let r = s.request(
        "PATCH",
        AS,
        Some(&json!([])),
        Some(&s.key),
        &[("Content-Type", "application/xml; charset=utf-8")],
    );
    assert_eq!(r.status, 415, "{}", r.text);
    assert_eq!(s.get(AS).json()["count"], 0);
    // JSON with parameters, and JSON-based types, are JSON.
    let r = s.request(
        "POST",
        AS,
        Some(&body),
        Some(&s.key),
        &[("Content-Type", "application/json; charset=utf-8")],
    );
    assert_eq!(r.status, 201, "{}", r.text);
}

#[test]
fn a_created_object_is_located() {
    let s = TestServer::start();
    let r = s.post(AS, json!({"asn": 64500, "name": "A"}));
    assert_eq!(r.status, 201);
    let id = r.json()["id"].as_i64().unwrap();
    assert_eq!(
        r.header("Location"),
        Some(format!("{}/api/peering/autonomous-systems/{id}/", s.base).as_str())
    );
    let r = s.post(AS, json!([{"asn": 64501, "name": "B"}]));
    assert_eq!((r.status, r.header("Location")), (201, None));
}

#[test]
fn an_unknown_api_version_in_accept_is_refused() {
    let s = TestServer::start();
    for known in ["1.8", "1.10", peering_api::api_version()] {
        let accept = format!("application/json; version={known}");
        assert_eq!(
            s.request("GET", AS, None, None, &[("Accept", &accept)])
                .status,
            200,
            "{known}"
        );
    }
    let r = s.request(
        "GET",
        AS,
        None,
        None,
        &[("Accept", "application/json; version=9.9")],
    );
    assert_eq!(
        (r.status, r.json()),
        (
            406,
            json!({"detail": "Invalid version in \"Accept\" header."})
        )
    );
    // Outside the API (probes, pages), `Accept` versions mean nothing.
    let r = s.send(
        "GET",
        "/healthz",
        None,
        None,
        &[("Accept", "application/json; version=9.9")],
    );
    assert_eq!(r.status, 200);
}

#[test]
fn brief_sessions_at_exchanges_show_the_plain_status() {
    let s = TestServer::start();
    crate::common::network::network(&s);
    let path = "/api/peering/internet-exchange-peering-sessions/";
    let brief = s.get(&format!("{path}?brief=1&limit=1")).json()["results"][0].clone();
    assert_eq!(brief["status"], "enabled", "{brief}");
    assert_eq!(brief["is_route_server"], false, "{brief}");
    let full = s.get(&format!("{path}?limit=1")).json()["results"][0].clone();
    assert_eq!(full["status"]["value"], "enabled", "{full}");
}

/// The reference's 1.9/1.10 paths of resources that moved, each with its 1.8 twin.
const MOVED: &[(&str, &str)] = &[
    ("/api/devices/routers/", "/api/peering/routers/"),
    ("/api/core/object-changes/", "/api/extras/object-changes/"),
    ("/api/bgp/communities/", "/api/peering/communities/"),
];

#[test]
fn the_later_layout_serves_the_same_objects() {
    let s = TestServer::start();
    let us = autonomous_system(64500, "Us").id(&s);
    let platform = s.create(
        "/api/devices/platforms/",
        json!({"name": "Junos", "slug": "junos"}),
    )["id"]
        .clone();
    // Created through the new paths, read through both.
    let router = s.create(
        "/api/devices/routers/",
        json!({"name": "edge1", "hostname": "edge1.example.net", "platform": platform, "local_autonomous_system": us}),
    );
    assert_eq!(
        router["url"].as_str().unwrap(),
        format!("{}/api/devices/routers/{}/", s.base, router["id"]),
        "links name the layout of the request"
    );
    s.create(
        "/api/bgp/communities/",
        json!({"name": "Peers", "slug": "peers", "value": "64500:1", "type": "ingress"}),
    );
    // The same objects, their links each naming its own layout's paths.
    let as_first_layout = |text: &str| -> Json {
        let text = MOVED
            .iter()
            .fold(text.to_string(), |text, (new, old)| text.replace(new, old));
        serde_json::from_str(&text).unwrap()
    };
    for (new, old) in MOVED {
        let (a, b) = (s.get(new), s.get(old));
        assert_eq!(a.status, 200, "{new}: {}", a.text);
        assert!(a.text.contains(new) && !b.text.contains(new), "{new}");
        assert_eq!(a.json()["count"], b.json()["count"], "{new}");
        assert_eq!(
            as_first_layout(&a.text)["results"],
            b.json()["results"],
            "{new}"
        );
        assert!(a.json()["count"].as_i64().unwrap() > 0, "{new}");
        let id = &a.json()["results"][0]["id"];
        let (a, b) = (s.get(&format!("{new}{id}/")), s.get(&format!("{old}{id}/")));
        assert_eq!(
            (a.status, as_first_layout(&a.text)),
            (b.status, b.json()),
            "{new}{id}/"
        );
        let options = s.request("OPTIONS", new, None, Some(&s.key), &[]);
        assert_eq!(options.status, 200, "{new}");
    }
    // Writes and actions at the new paths.
    let path = format!("/api/devices/routers/{}/", router["id"]);
    let r = s.patch(&path, json!({"hostname": "edge1.example.org"}));
    assert_eq!(r.status, 200, "{}", r.text);
    let text = s.request(
        "GET",
        &format!("{path}configuration/?format=text"),
        None,
        Some(&s.key),
        &[],
    );
    assert_eq!(text.status, 200, "{}", text.text);
    let changes = s.get("/api/core/object-changes/?changed_object_type=peering.router");
    assert_eq!(changes.json()["count"], 2, "{}", changes.text);
    // Each application root lists what it holds, under either layout.
    for (app, member) in [
        ("devices", "routers"),
        ("core", "object-changes"),
        ("bgp", "communities"),
        ("peering", "routers"),
    ] {
        let root = s.get(&format!("/api/{app}/")).json();
        assert_eq!(
            root[member],
            json!(format!("{}/api/{app}/{member}/", s.base)),
            "{app}"
        );
    }
    let deleted = s.delete(&path, None);
    assert_eq!(deleted.status, 204);
    assert_eq!(
        s.get(&format!("/api/peering/routers/{}/", router["id"]))
            .status,
        404
    );
}

#[test]
fn bfd_configurations_are_served_and_sessions_use_them() {
    let s = TestServer::start();
    let bfd = s.create("/api/net/bfd/", json!({"name": "Fast", "slug": "fast"}));
    assert_eq!(
        (
            &bfd["minimum_transmit_interval"],
            &bfd["minimum_receive_interval"],
            &bfd["detection_multiplier"],
            &bfd["hold_time"]
        ),
        (&json!(300), &json!(300), &json!(3), &json!(0)),
        "the reference's defaults: {bfd}"
    );
    let refused = s.post(
        "/api/net/bfd/",
        json!({"name": "Bad", "slug": "bad", "detection_multiplier": 0, "hold_time": 255_001}),
    );
    assert_eq!(refused.status, 400, "{}", refused.text);
    let errors = refused.json();
    assert!(
        errors["detection_multiplier"].is_array() && errors["hold_time"].is_array(),
        "{errors}"
    );

    let us = autonomous_system(64500, "Us").id(&s);
    let peer = autonomous_system(64501, "Peer").id(&s);
    let relationship = s.create(
        "/api/bgp/relationships/",
        json!({"name": "Peering", "slug": "peering"}),
    )["id"]
        .clone();
    let session = builders::direct_session(&us, &peer, "192.0.2.1")
        .with("relationship", relationship)
        .with("bfd", bfd["id"].clone())
        .create(&s);
    assert_eq!(
        session["bfd"],
        json!({"id": bfd["id"], "url": bfd["url"], "display": "Fast", "name": "Fast", "slug": "fast"})
    );
    let path = format!("/api/peering/direct-peering-sessions/{}/", session["id"]);
    let filtered = s.get(&format!(
        "/api/peering/direct-peering-sessions/?bfd_id={}",
        bfd["id"]
    ));
    assert_eq!(filtered.json()["count"], 1, "{}", filtered.text);
    // Deleting the configuration leaves the session without one.
    let deleted = s.delete(&format!("/api/net/bfd/{}/", bfd["id"]), None);
    assert_eq!(deleted.status, 204, "{}", deleted.text);
    assert_eq!(s.get(&path).json()["bfd"], json!(null));
    assert_eq!(
        s.get("/api/net/").json()["bfd"],
        json!(format!("{}/api/net/bfd/", s.base))
    );
}

#[test]
fn change_records_nest_their_object_while_it_exists() {
    let s = TestServer::start();
    let created = s.post(AS, json!({"asn": 64500, "name": "Us"}));
    let id = created.json()["id"].clone();
    let records = s.changes_of(&created);
    assert_eq!(records.len(), 1);
    assert_eq!(
        records[0]["changed_object"],
        json!({"id": id, "url": created.json()["url"], "display": "AS64500 - Us", "asn": 64500,
               "name": "Us", "ipv6_max_prefixes": 0, "ipv4_max_prefixes": 0})
    );
    let deleted = s.delete(&format!("{AS}{id}/"), None);
    assert_eq!(deleted.status, 204);
    let all = s.get("/api/extras/object-changes/").json();
    assert_eq!(all["count"], 2);
    for record in all["results"].as_array().unwrap() {
        assert_eq!(record["changed_object"], json!(null), "{record}");
    }
    // Newest first, as the reference lists them.
    assert_eq!(all["results"][0]["action"]["value"], "delete");
}

#[test]
fn exchanges_name_their_ixapi_endpoint() {
    let s = TestServer::start();
    let us = autonomous_system(64500, "Us").id(&s);
    let endpoint = s.create(
        "/api/extras/ix-api/",
        json!({"name": "Example IX-API", "url": "https://ixapi.example.net/api/v2/", "api_key": "key", "api_secret": "secret", "identity": "1234"}),
    );
    let exchange = builders::exchange("IX", "ix", &us)
        .with("ixapi_endpoint", endpoint["id"].clone())
        .create(&s);
    assert_eq!(
        exchange["ixapi_endpoint"],
        json!({"id": endpoint["id"], "display": "Example IX-API", "name": "Example IX-API",
               "url": "https://ixapi.example.net/api/v2/"})
    );
    let gone = s.delete(&format!("/api/extras/ix-api/{}/", endpoint["id"]), None);
    assert_eq!(gone.status, 204, "{}", gone.text);
    let path = format!("/api/peering/internet-exchanges/{}/", exchange["id"]);
    assert_eq!(s.get(&path).json()["ixapi_endpoint"], json!(null));
}

#[test]
fn related_objects_are_found_by_nested_attributes() {
    let s = TestServer::start();
    let us = autonomous_system(64500, "Us").id(&s);
    autonomous_system(64501, "Other").create(&s);
    let exchange = builders::exchange("IX", "ix", &us).create(&s);
    let platform = s.create(
        "/api/devices/platforms/",
        json!({"name": "Junos", "slug": "junos"}),
    )["id"]
        .clone();
    builders::router("edge1", &us)
        .with("platform", platform)
        .create(&s);
    let connection = s.post(
        "/api/net/connections/",
        json!({"internet_exchange_point": {"slug": "ix", "local_autonomous_system": {"asn": 64500}},
               "router": {"name": "edge1", "platform": {"slug": "junos"}},
               "ipv4_address": "192.0.2.1/24"}),
    );
    assert_eq!(connection.status, 201, "{}", connection.text);
    assert_eq!(
        connection.json()["internet_exchange_point"]["id"],
        exchange["id"]
    );
    let wrong = s.post(
        "/api/net/connections/",
        json!({"internet_exchange_point": {"slug": "ix", "local_autonomous_system": {"asn": 64501}},
               "router": {"name": "edge1"}, "ipv4_address": "192.0.2.2/24"}),
    );
    assert_eq!(wrong.status, 400, "{}", wrong.text);
    assert_eq!(
        wrong.json()["internet_exchange_point"][0],
        "Related object not found using the provided attributes: {'slug': 'ix', 'local_autonomous_system': {'asn': 64501}}"
    );
}

#[test]
fn answers_may_use_the_references_field_names() {
    let s = TestServer::start_with(peering_api::Settings {
        field_names: peering_domain::names::FieldNames::PeeringDb,
        ..Default::default()
    });
    // Either spelling is taken on write.
    let us = s.create(
        AS,
        json!({"asn": 64500, "name": "Us", "irr_as_set_extdb_sync": false, "ipv4_max_prefixes_peeringdb_sync": false}),
    );
    assert_eq!(us["irr_as_set_peeringdb_sync"], false);
    assert_eq!(us["ipv4_max_prefixes_peeringdb_sync"], false);
    assert_eq!(us["ipv6_max_prefixes_peeringdb_sync"], true);
    assert!(us.get("irr_as_set_extdb_sync").is_none(), "{us}");
    let exchange = builders::exchange("IX", "ix", &us["id"]).create(&s);
    assert_eq!(exchange["peeringdb_ixlan"], json!(null));
    assert_eq!(exchange["peeringdb_prefixes"], json!({}));
    assert!(exchange.get("extdb_ixlan").is_none(), "{exchange}");
    // Filters take the reference's names too (and the document, which every answer here
    // is checked against, names them so).
    let sessions =
        s.get("/api/peering/internet-exchange-peering-sessions/?exists_in_peeringdb=true");
    assert_eq!(sessions.status, 200, "{}", sessions.text);
    let options = s.request("OPTIONS", AS, None, Some(&s.key), &[]).json();
    assert!(
        options["actions"]["POST"]["irr_as_set_peeringdb_sync"].is_object(),
        "{options}"
    );
    let doc = s.get("/api/schema/").text;
    assert!(doc.contains("\"exists_in_peeringdb\"") && !doc.contains("\"exists_in_extdb\""));
}

#[test]
fn journal_entries_remark_on_objects_and_go_with_them() {
    let s = TestServer::start();
    const JOURNAL: &str = "/api/extras/journal-entries/";
    let peer = autonomous_system(64501, "Peer").create(&s);
    let entry = s.create(
        JOURNAL,
        json!({"assigned_object_type": "peering.autonomoussystem", "assigned_object_id": peer["id"],
               "comments": "Sent a peering request"}),
    );
    assert_eq!(entry["kind"]["value"], "info");
    assert_eq!(
        entry["created_by"]["username"], "admin",
        "the writer, by default"
    );
    assert_eq!(entry["assigned_object"]["asn"], 64501);
    assert!(
        entry["display"].as_str().unwrap().ends_with(" (Info)"),
        "{entry}"
    );
    let warning = s.create(
        JOURNAL,
        json!({"assigned_object_type": "peering.autonomoussystem", "assigned_object_id": peer["id"],
               "comments": "No answer", "kind": "warning", "created_by": null}),
    );
    assert_eq!(warning["created_by"], json!(null));
    // Newest first; filters by kind, object and text.
    let list = s
        .get(&format!("{JOURNAL}?assigned_object_id={}", peer["id"]))
        .json();
    assert_eq!(list["results"][0]["id"], warning["id"]);
    assert_eq!(s.get(&format!("{JOURNAL}?kind=warning")).json()["count"], 1);
    assert_eq!(s.get(&format!("{JOURNAL}?q=request")).json()["count"], 1);
    assert_eq!(
        s.get(&format!("{JOURNAL}?created_by=admin")).json()["count"],
        1
    );
    // About an object that does not exist: refused.
    let refused = s.post(
        JOURNAL,
        json!({"assigned_object_type": "peering.autonomoussystem", "assigned_object_id": 999, "comments": "x"}),
    );
    assert_eq!(refused.status, 400);
    assert_eq!(
        refused.json(),
        json!({"non_field_errors": ["Invalid assigned_object: peering.autonomoussystem ID 999"]})
    );
    // The entries go with their object.
    assert_eq!(s.delete(&format!("{AS}{}/", peer["id"]), None).status, 204);
    assert_eq!(s.get(JOURNAL).json()["count"], 0);
}

#[test]
fn default_orders_follow_related_models_as_the_reference() {
    let s = TestServer::start();
    let platform = s.create(
        "/api/devices/platforms/",
        json!({"name": "Junos", "slug": "junos"}),
    )["id"]
        .clone();
    // Created in the reverse of the order the reference lists them.
    let high = autonomous_system(64510, "High").id(&s);
    let low = autonomous_system(64500, "Low").id(&s);
    let router = |name: &str, system: &Json| {
        builders::router(name, system)
            .with("platform", platform.clone())
            .id(&s)
    };
    let (r_high, r_b, r_a) = (router("z", &high), router("b", &low), router("a", &low));
    let exchange =
        |name: &str, system: &Json| builders::exchange(name, &name.to_lowercase(), system).id(&s);
    let (x_high, x_low) = (exchange("Alpha", &high), exchange("Omega", &low));
    let mut n = 0;
    let mut connection = |x: &Json, r: &Json| {
        n += 1;
        s.create(
            "/api/net/connections/",
            json!({"internet_exchange_point": x, "router": r, "ipv4_address": format!("192.0.2.{n}/24")}),
        )["id"]
            .clone()
    };
    let c1 = connection(&x_high, &r_a);
    let c2 = connection(&x_low, &r_high);
    let c3 = connection(&x_low, &r_b);
    let c4 = connection(&x_low, &r_a);
    let ids = |path: &str| list_ids(&s, path);
    // Exchanges by their local AS's number, then name.
    assert_eq!(
        ids("/api/peering/internet-exchanges/"),
        vec![x_low.clone(), x_high.clone()]
    );
    // Routers likewise: AS 64500's a and b, then AS 64510's z.
    assert_eq!(ids("/api/peering/routers/"), vec![r_a, r_b, r_high]);
    // Connections by exchange (its AS, its name), then by router (its AS, its name).
    assert_eq!(ids("/api/net/connections/"), vec![c4, c3, c2, c1]);
}

/// The ids of a list's first page, in its order.
fn list_ids(s: &TestServer, path: &str) -> Vec<Json> {
    let page = s.get(path).json();
    let results = page["results"].as_array().expect("a list page");
    results.iter().map(|o| o["id"].clone()).collect()
}

#[test]
fn session_orders_follow_their_peer_and_connection_as_the_reference() {
    let s = TestServer::start();
    let local_low = autonomous_system(64500, "Low").id(&s);
    let local_high = autonomous_system(64510, "High").id(&s);
    let exchange =
        |name: &str, system: &Json| builders::exchange(name, &name.to_lowercase(), system).id(&s);
    let (x_high, x_low) = (
        exchange("Alpha", &local_high),
        exchange("Omega", &local_low),
    );
    let platform = s.create(
        "/api/devices/platforms/",
        json!({"name": "Junos", "slug": "junos"}),
    )["id"]
        .clone();
    let router = builders::router("r1", &local_low)
        .with("platform", platform)
        .id(&s);
    let connection = |x: &Json, n: u8| {
        s.create(
            "/api/net/connections/",
            json!({"internet_exchange_point": x, "router": router,
                   "ipv4_address": format!("192.0.2.{n}/24")}),
        )["id"]
            .clone()
    };
    // Created against the order the reference lists them in: at Alpha (AS 64510), then Omega.
    let (at_alpha, at_omega) = (connection(&x_high, 1), connection(&x_low, 2));
    // Peers created against the order of their numbers.
    let p1 = autonomous_system(65010, "P1").id(&s);
    let p2 = autonomous_system(65001, "P2").id(&s);
    let session = |peer: &Json, c: &Json, ip: &str| {
        s.create(
            "/api/peering/internet-exchange-peering-sessions/",
            json!({"autonomous_system": peer, "ixp_connection": c, "ip_address": ip}),
        )["id"]
            .clone()
    };
    let s1_alpha = session(&p1, &at_alpha, "192.0.2.101");
    let s1_omega = session(&p1, &at_omega, "192.0.2.102");
    let s2_alpha = session(&p2, &at_alpha, "192.0.2.103");
    let s2_omega = session(&p2, &at_omega, "192.0.2.104");
    let sessions = "/api/peering/internet-exchange-peering-sessions/";
    // By peer number, then connection (Omega's AS 64500 before Alpha's 64510).
    let expected = [&s2_omega, &s2_alpha, &s1_omega, &s1_alpha];
    assert_eq!(list_ids(&s, sessions), expected.map(Json::clone));
    // The same order when asked for by name, and its reverse.
    let by_fields = format!("{sessions}?ordering=autonomous_system,ixp_connection");
    assert_eq!(list_ids(&s, &by_fields), expected.map(Json::clone));
    let reversed = format!("{sessions}?ordering=-autonomous_system,-ixp_connection");
    assert_eq!(
        list_ids(&s, &reversed),
        [&s1_alpha, &s1_omega, &s2_alpha, &s2_omega].map(Json::clone)
    );

    // A peer renumbered moves its sessions.
    assert_eq!(
        s.patch(&format!("{AS}{p1}/"), json!({"asn": 65000})).status,
        200
    );
    assert_eq!(
        list_ids(&s, sessions),
        [&s1_omega, &s1_alpha, &s2_omega, &s2_alpha].map(Json::clone)
    );
    // An exchange given another local AS moves its connections, and their sessions: Alpha
    // is now at AS 64500 too, and comes before Omega by name.
    let alpha = format!("/api/peering/internet-exchanges/{x_high}/");
    assert_eq!(
        s.patch(&alpha, json!({"local_autonomous_system": local_low}))
            .status,
        200
    );
    assert_eq!(
        list_ids(&s, "/api/net/connections/"),
        vec![at_alpha.clone(), at_omega.clone()]
    );
    assert_eq!(
        list_ids(&s, sessions),
        [&s1_alpha, &s1_omega, &s2_alpha, &s2_omega].map(Json::clone)
    );
    // A session moved to another connection takes that connection's place.
    let moved = format!("{sessions}{s1_alpha}/");
    assert_eq!(
        s.patch(
            &moved,
            json!({"ixp_connection": at_omega, "ip_address": "192.0.2.105"})
        )
        .status,
        200
    );
    assert_eq!(
        list_ids(&s, sessions),
        [&s1_omega, &s1_alpha, &s2_alpha, &s2_omega].map(Json::clone)
    );
}

#[test]
fn direct_sessions_order_by_local_then_peer_number() {
    let s = TestServer::start();
    let high = autonomous_system(64510, "High").id(&s);
    let low = autonomous_system(64500, "Low").id(&s);
    let p1 = autonomous_system(65010, "P1").id(&s);
    let p2 = autonomous_system(65001, "P2").id(&s);
    let relationship = s.create(
        "/api/bgp/relationships/",
        json!({"name": "Transit", "slug": "transit"}),
    )["id"]
        .clone();
    let direct = "/api/peering/direct-peering-sessions/";
    let session = |local: &Json, peer: &Json, ip: &str| {
        s.create(
            direct,
            json!({"local_autonomous_system": local, "autonomous_system": peer,
                   "relationship": relationship, "ip_address": ip}),
        )["id"]
            .clone()
    };
    let high_p2 = session(&high, &p2, "192.0.2.1");
    let low_p1 = session(&low, &p1, "192.0.2.2");
    let low_p2 = session(&low, &p2, "192.0.2.3");
    assert_eq!(
        list_ids(&s, direct),
        vec![low_p2.clone(), low_p1.clone(), high_p2.clone()]
    );
    // Renumbering the local AS moves the sessions it holds.
    assert_eq!(
        s.patch(&format!("{AS}{low}/"), json!({"asn": 64520}))
            .status,
        200
    );
    assert_eq!(list_ids(&s, direct), vec![high_p2, low_p2, low_p1]);
}

/// A bulk delete without a body is refused as the reference's parser reads it, `{}`: not
/// a list, in `non_field_errors`; nothing is deleted.
#[test]
fn a_bulk_delete_without_a_body_is_refused_as_not_a_list() {
    let s = TestServer::start();
    autonomous_system(64500, "Us").create(&s);
    for body in [None, Some(json!({}))] {
        let r = s.delete(AS, body.clone());
        assert_eq!(
            (r.status, r.json()),
            (
                400,
                json!({"non_field_errors": ["Expected a list of items but got type \"dict\"."]})
            ),
            "{body:?}"
        );
    }
    assert_eq!(s.get(AS).json()["count"], 1);
}
