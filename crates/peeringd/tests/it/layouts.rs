//! The two layouts of the API (1.8 and 1.10): every link of an answer names the paths of
//! the layout the request came through (a path only 1.10 has, or `Accept: …;
//! version=1.10`), `API-Version` and `/api/status/` say its version, and the answer cache
//! never serves an answer rendered for one layout to the other.

use crate::common::builders::{autonomous_system, direct_session, router};
use crate::common::{Response, TestServer};
use serde_json::{json, Value as Json};

const V1_10: (&str, &str) = ("Accept", "application/json; version=1.10");
const V1_8: (&str, &str) = ("Accept", "application/json; version=1.8");

fn get_as(s: &TestServer, path: &str, accept: Option<(&str, &str)>) -> Response {
    let extra: Vec<(&str, &str)> = accept.into_iter().collect();
    let r = s.request("GET", path, None, Some(&s.key), &extra);
    assert_eq!(r.status, 200, "{path}: {}", r.text);
    r
}

/// A direct session on a router, with a community: each of the three resources that moved.
struct Network {
    router: i64,
    session: i64,
    community: i64,
}

fn platform(s: &TestServer) -> Json {
    s.create(
        "/api/devices/platforms/",
        json!({"name": "Junos", "slug": "junos"}),
    )["id"]
        .clone()
}

fn network(s: &TestServer) -> Network {
    let us = autonomous_system(64500, "Us").id(s);
    let peer = autonomous_system(64501, "Peer").id(s);
    let router = router("edge", &us).with("platform", platform(s)).id(s);
    let community = s.create(
        "/api/peering/communities/",
        json!({"name": "Transit", "slug": "transit", "value": "64500:1", "type": "ingress"}),
    )["id"]
        .clone();
    let relationship = s.create(
        "/api/bgp/relationships/",
        json!({"name": "Peering", "slug": "peering"}),
    )["id"]
        .clone();
    let session = direct_session(&us, &peer, "192.0.2.1")
        .with("relationship", relationship)
        .with("router", router.clone())
        .with("communities", json!([community.clone()]))
        .id(s);
    Network {
        router: router.as_i64().unwrap(),
        session: session.as_i64().unwrap(),
        community: community.as_i64().unwrap(),
    }
}

/// The links of a session as the layout names them.
fn session_links(s: &TestServer, session: &Json) -> (String, String) {
    let strip = |v: &Json| {
        v.as_str()
            .unwrap()
            .strip_prefix(&s.base)
            .unwrap()
            .to_string()
    };
    (
        strip(&session["router"]["url"]),
        strip(&session["communities"][0]["url"]),
    )
}

#[test]
fn nested_links_follow_the_version_asked_for_and_are_never_cached_across() {
    let s = TestServer::start();
    let n = network(&s);
    let path = format!("/api/peering/direct-peering-sessions/{}/", n.session);
    let routers_1_8 = format!("/api/peering/routers/{}/", n.router);
    let communities_1_8 = format!("/api/peering/communities/{}/", n.community);
    let routers_1_10 = format!("/api/devices/routers/{}/", n.router);
    let communities_1_10 = format!("/api/bgp/communities/{}/", n.community);
    // Asked for again and again in turns, so that an answer kept for one is never served
    // to the other (the cache keeps answers by their URL, the same for both).
    for _ in 0..3 {
        let plain = get_as(&s, &path, None);
        assert_eq!(plain.header("API-Version"), Some("1.8"));
        assert_eq!(
            session_links(&s, &plain.json()),
            (routers_1_8.clone(), communities_1_8.clone())
        );
        let newer = get_as(&s, &path, Some(V1_10));
        assert_eq!(newer.header("API-Version"), Some("1.10"));
        assert_eq!(
            session_links(&s, &newer.json()),
            (routers_1_10.clone(), communities_1_10.clone())
        );
        let listed = get_as(&s, "/api/peering/direct-peering-sessions/", Some(V1_10));
        assert_eq!(
            session_links(&s, &listed.json()["results"][0]),
            (routers_1_10.clone(), communities_1_10.clone())
        );
        let listed = get_as(&s, "/api/peering/direct-peering-sessions/", None);
        assert_eq!(
            session_links(&s, &listed.json()["results"][0]),
            (routers_1_8.clone(), communities_1_8.clone())
        );
    }
}

#[test]
fn objects_under_a_moved_path_link_to_that_layout() {
    let s = TestServer::start();
    let n = network(&s);
    for (path, layout, own) in [
        ("/api/devices/routers/", "1.10", "/api/devices/routers/"),
        ("/api/peering/routers/", "1.8", "/api/peering/routers/"),
        ("/api/bgp/communities/", "1.10", "/api/bgp/communities/"),
        (
            "/api/peering/communities/",
            "1.8",
            "/api/peering/communities/",
        ),
    ] {
        let id = if own.ends_with("routers/") {
            n.router
        } else {
            n.community
        };
        let detail = get_as(&s, &format!("{path}{id}/"), None);
        assert_eq!(detail.header("API-Version"), Some(layout), "{path}");
        assert_eq!(detail.json()["url"], format!("{}{own}{id}/", s.base));
        let page = get_as(&s, &format!("{path}?limit=1&offset=0"), None).json();
        assert_eq!(page["results"][0]["url"], format!("{}{own}{id}/", s.base));
    }
    // A list whose next page is asked for through the 1.10 path stays on it.
    s.create(
        "/api/bgp/communities/",
        json!({"name": "Peers", "slug": "peers", "value": "64500:2", "type": "ingress"}),
    );
    let page = get_as(&s, "/api/bgp/communities/?limit=1", None).json();
    let next = page["next"].as_str().unwrap();
    assert!(
        next.starts_with(&format!("{}/api/bgp/communities/", s.base)),
        "{next}"
    );
    // An explicit 1.8 on a moved path: the header says which links the client reads.
    let detail = get_as(
        &s,
        &format!("/api/devices/routers/{}/", n.router),
        Some(V1_8),
    );
    assert_eq!(detail.header("API-Version"), Some("1.8"));
    let url = detail.json()["url"].clone();
    assert_eq!(url, format!("{}/api/peering/routers/{}/", s.base, n.router));
}

#[test]
fn change_records_and_creations_link_to_the_layout_of_the_request() {
    let s = TestServer::start();
    let us = autonomous_system(64500, "Us").id(&s);
    let r = s.post(
        "/api/devices/routers/",
        json!({"name": "core", "hostname": "core.example.net", "platform": platform(&s),
               "local_autonomous_system": us}),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json()["id"].as_i64().unwrap();
    let own = format!("{}/api/devices/routers/{id}/", s.base);
    assert_eq!(r.json()["url"], own);
    assert_eq!(r.header("Location"), Some(own.as_str()));
    assert_eq!(r.header("API-Version"), Some("1.10"));
    let request_id = r.header("X-Request-ID").unwrap();
    let query = format!("?request_id={request_id}");
    let newer = get_as(&s, &format!("/api/core/object-changes/{query}"), None).json();
    let change = &newer["results"][0];
    let change_id = change["id"].as_i64().unwrap();
    assert_eq!(
        change["url"],
        format!("{}/api/core/object-changes/{change_id}/", s.base)
    );
    assert_eq!(change["changed_object"]["url"], own);
    let older = get_as(&s, &format!("/api/extras/object-changes/{query}"), None).json();
    let change = &older["results"][0];
    assert_eq!(
        change["url"],
        format!("{}/api/extras/object-changes/{change_id}/", s.base)
    );
    assert_eq!(
        change["changed_object"]["url"],
        format!("{}/api/peering/routers/{id}/", s.base)
    );
}

#[test]
fn status_answers_as_the_release_asked_for() {
    let s = TestServer::start();
    for (accept, release, version) in [
        (None, "1.8.3", "1.8"),
        (Some(V1_8), "1.8.3", "1.8"),
        (Some(V1_10), "1.10.4", "1.10"),
    ] {
        let r = get_as(&s, "/api/status/", accept);
        assert_eq!(r.header("API-Version"), Some(version));
        let body = r.json();
        assert_eq!(body["peering-manager-version"], release, "{accept:?}");
        assert_eq!(body["api-version"], version);
        assert_eq!(body["peeringd-version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(body["database"]["healthy"], true);
    }
}
