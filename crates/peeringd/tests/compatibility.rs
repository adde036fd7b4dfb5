//! Behaviours clients of the reference notice: malformed token headers, unsupported body
//! media types, and the `Location` of a created object.

mod common;

use common::{TestServer, AS};
use serde_json::json;

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
    common::network::network(&s);
    let path = "/api/peering/internet-exchange-peering-sessions/";
    let brief = s.get(&format!("{path}?brief=1&limit=1")).json()["results"][0].clone();
    assert_eq!(brief["status"], "enabled", "{brief}");
    assert_eq!(brief["is_route_server"], false, "{brief}");
    let full = s.get(&format!("{path}?limit=1")).json()["results"][0].clone();
    assert_eq!(full["status"]["value"], "enabled", "{full}");
}
