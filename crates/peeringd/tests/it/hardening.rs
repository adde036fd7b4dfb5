//! Bad or hostile input gets a clear, bounded answer: capped error lists, small bodies on
//! unauthenticated endpoints, slow bodies timed out, NUL bytes refused, weak keys and
//! short passwords refused; and a deactivated or deleted user cannot write on a token the
//! server still remembers.

use crate::common::builders::autonomous_system;
use std::io::{Read, Write};
use std::time::Duration;

use crate::common::{TestServer, AS};
use peering_api::Settings;
use serde_json::{json, Value as Json};

const PROVISION: &str = "/api/users/tokens/provision/";

#[test]
fn a_list_of_many_bad_items_gets_a_short_error_list() {
    let s = TestServer::start();
    let body = Json::Array((0..100_000).map(|i| json!(i)).collect());
    let r = s.post(AS, body.clone());
    assert_eq!(r.status, 400);
    assert!(r.text.len() < 20_000, "{} bytes", r.text.len());
    let errors = r.json();
    let errors = errors.as_array().unwrap();
    assert_eq!(errors.len(), 101);
    assert_eq!(
        errors[0]["non_field_errors"][0],
        "Invalid data. Expected a dictionary, but got int."
    );
    assert_eq!(
        errors[100]["non_field_errors"][0],
        "99900 more items were not checked: at most 100 invalid items are reported."
    );
    // Bulk updates and deletes bound their id errors the same way.
    for method in ["PATCH", "DELETE"] {
        let r = s.request(method, AS, Some(&body), Some(&s.key), &[]);
        assert_eq!(r.status, 400, "{method}");
        assert_eq!(r.json().as_array().unwrap().len(), 101, "{method}");
    }
    // A few bad items among good ones keep the reference's aligned shape.
    let r = s.post(AS, json!([{"asn": 64500, "name": "A"}, 7]));
    assert_eq!(
        r.json(),
        json!([{}, {"non_field_errors": ["Invalid data. Expected a dictionary, but got int."]}])
    );
}

#[test]
fn password_exchanges_take_small_bodies_and_refuse_nul_bytes() {
    let s = TestServer::start();
    let large = json!({"username": "admin", "password": "x".repeat(10_000)});
    let r = s.request("POST", PROVISION, Some(&large), None, &[]);
    assert_eq!(r.status, 413, "{}", r.text);
    assert_eq!(r.json()["detail"], "Request body exceeds 4096 bytes.");
    for (field, body) in [
        (
            "username",
            json!({"username": "ad\u{0}min", "password": "whatever"}),
        ),
        (
            "password",
            json!({"username": "admin", "password": "what\u{0}ever"}),
        ),
    ] {
        let r = s.request("POST", PROVISION, Some(&body), None, &[]);
        assert_eq!(r.status, 400);
        assert_eq!(r.json()[field], json!(["Null characters are not allowed."]));
    }
    let r = s.post("/api/users/tokens/", json!({"description": "a\u{0}b"}));
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["description"],
        json!(["Null characters are not allowed."])
    );
}

#[test]
fn the_login_limit_counts_per_account_behind_a_trusted_proxy() {
    let s = TestServer::start_with(Settings {
        trusted_proxies: vec!["127.0.0.1/32".parse().unwrap()],
        ..Settings::default()
    });
    let wrong = json!({"username": "admin", "password": "wrong password"});
    let mut statuses = Vec::new();
    for i in 0..11 {
        // Each attempt from another client, as the proxy reports it.
        let client = format!("198.51.100.{i}");
        let r = s.request(
            "POST",
            PROVISION,
            Some(&wrong),
            None,
            &[("X-Forwarded-For", client.as_str())],
        );
        statuses.push(r.status);
    }
    assert_eq!(statuses[0], 403);
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    // Another account from a fresh client is not held up.
    let other = json!({"username": "nobody", "password": "wrong password"});
    let r = s.request(
        "POST",
        PROVISION,
        Some(&other),
        None,
        &[("X-Forwarded-For", "203.0.113.7")],
    );
    assert_eq!(r.status, 403);
}

#[test]
fn short_passwords_and_guessable_keys_are_refused() {
    let s = TestServer::start();
    let r = s.post(
        "/api/users/users/",
        json!({"username": "kim", "password": "short"}),
    );
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["password"],
        json!(["This password is too short. It must contain at least 10 characters."])
    );
    let r = s.post("/api/users/tokens/", json!({"key": "0".repeat(40)}));
    assert_eq!(r.status, 400);
    assert!(r.json()["key"][0]
        .as_str()
        .unwrap()
        .starts_with("This key is too easy to guess"));
}

/// A user allowed to create autonomous systems, and their token, used once through
/// `instance` so that instance keeps it in its token cache.
fn cached_writer(s: &TestServer, base: &str) -> (i64, String) {
    s.token("wendy", false, true, None);
    let id = s.store.users().user_id("wendy").unwrap().unwrap();
    let r = s.patch(
        &format!("/api/users/users/{id}/"),
        json!({"permissions": ["peering.add_autonomoussystem"]}),
    );
    assert_eq!(r.status, 200);
    let key = s.token("wendy", false, true, None);
    let body = json!({"asn": 64501, "name": "first"});
    let r = s.send("POST", &format!("{base}{AS}"), Some(&body), Some(&key), &[]);
    assert_eq!(r.status, 201, "{}", r.text);
    (id, key)
}

#[test]
fn a_deactivated_or_deleted_user_cannot_write_on_a_remembered_token() {
    let s = TestServer::start();
    let other = s.another_instance(Settings::default());
    let (id, key) = cached_writer(&s, &other.base);
    // Deactivated through the first instance; the second still remembers the token.
    let r = s.patch(
        &format!("/api/users/users/{id}/"),
        json!({"is_active": false}),
    );
    assert_eq!(r.status, 200);
    let body = json!({"asn": 64502, "name": "second"});
    let r = s.send(
        "POST",
        &format!("{}{AS}", other.base),
        Some(&body),
        Some(&key),
        &[],
    );
    assert_eq!(
        (r.status, r.json()["detail"].clone()),
        (403, json!("User inactive or deleted."))
    );
    // Deleted: a 403 as well, not a conflict over its change records.
    assert_eq!(
        s.delete(&format!("/api/users/users/{id}/"), None).status,
        204
    );
    let r = s.send(
        "POST",
        &format!("{}{AS}", other.base),
        Some(&body),
        Some(&key),
        &[],
    );
    assert_eq!(r.status, 403, "{}", r.text);
    assert_eq!(s.get(&format!("{AS}?asn=64502")).json()["count"], 0);
}

#[test]
fn a_body_slower_than_the_timeout_is_answered_with_408() {
    let s = TestServer::start_with(Settings {
        body_timeout: Duration::from_secs(1),
        ..Settings::default()
    });
    let address = s.base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let head = format!(
        "POST {AS} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Token {}\r\n\
         Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n[",
        s.key
    );
    stream.write_all(head.as_bytes()).unwrap();
    let mut answer = Vec::new();
    let mut buffer = [0u8; 4096];
    while !String::from_utf8_lossy(&answer).contains("within") {
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&buffer[..n]),
        }
    }
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer.contains("The request body did not arrive within 1 s."),
        "{answer}"
    );
}

#[test]
fn filter_values_are_read_as_writes_read_them() {
    let s = TestServer::start();
    let local = autonomous_system(64500, "Local").create(&s);
    let peer = autonomous_system(65001, "Peer").create(&s);
    let relationship = s.create(
        "/api/bgp/relationships/",
        json!({"name": "Transit", "slug": "transit"}),
    );
    let sessions = "/api/peering/direct-peering-sessions/";
    s.create(
        sessions,
        json!({"local_autonomous_system": local["id"], "autonomous_system": peer["id"],
               "relationship": relationship["id"], "ip_address": "2001:db8::c8"}),
    );
    // A write would call this address a duplicate: a filter finds it.
    for value in ["2001:DB8::C8", "2001:0db8::00c8", "2001:db8::c8/128"] {
        let r = s.get(&format!("{sessions}?ip_address={value}"));
        assert_eq!(r.status, 200, "{value}: {}", r.text);
        assert_eq!(r.json()["count"], 1, "{value}");
    }
    let r = s.get("/api/peering/routing-policies/?address_family=5");
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(r.json()["address_family"].is_array(), "{}", r.text);
}

/// PostgreSQL only (the suite runs on both backends in CI): SQLite has no connection to
/// lose.
#[test]
fn lost_database_connections_are_a_503_without_the_databases_words() {
    if peering_store::testing::postgres_url().is_none() {
        return;
    }
    let s = TestServer::start();
    assert_eq!(s.get(AS).status, 200);
    // Every connection of the server's pool is ended, as a restart of the database would.
    peering_store::testing::end_connections(&s.database_url()).unwrap();
    let mut statuses = Vec::new();
    for i in 0..8 {
        let r = s.post(AS, json!({"asn": 64600 + i, "name": format!("AS {i}")}));
        if r.status == 503 {
            assert_eq!(
                r.json(),
                json!({"detail": "The database is unavailable; try again later."})
            );
        }
        statuses.push(r.status);
    }
    assert!(
        statuses.iter().all(|&st| st == 201 || st == 503),
        "{statuses:?}"
    );
    assert_eq!(statuses.last(), Some(&201), "{statuses:?}");
}

#[test]
fn long_addresses_and_large_headers_get_json_answers() {
    let s = TestServer::start();
    let long = format!("{AS}?name={}", "a".repeat(9_000));
    let r = s.send("GET", &long, None, None, &[]);
    assert_eq!(r.status, 414);
    assert_eq!(
        r.json(),
        json!({"detail": "Request address too long: at most 8192 bytes."})
    );
    let big = "b".repeat(20_000);
    let r = s.send("GET", AS, None, None, &[("X-Big", big.as_str())]);
    assert_eq!(r.status, 431);
    assert_eq!(
        r.json(),
        json!({"detail": "Request headers too large: at most 16384 bytes."})
    );
}

#[test]
fn slow_clients_do_not_shut_others_out_and_are_dropped() {
    let s = TestServer::start_with(Settings {
        body_timeout: Duration::from_secs(1),
        ..Settings::default()
    });
    let address = s.base.trim_start_matches("http://").to_string();
    // Two hundred clients that start a body and never finish it.
    let mut slow: Vec<std::net::TcpStream> = (0..200)
        .map(|_| {
            let mut c = std::net::TcpStream::connect(&address).unwrap();
            let head = format!(
                "POST {AS} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Token {}\r\n\
                 Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n[",
                s.key
            );
            c.write_all(head.as_bytes()).unwrap();
            c
        })
        .collect();
    // Meanwhile probes and reads are answered.
    assert_eq!(s.send("GET", "/healthz", None, None, &[]).status, 200);
    assert_eq!(s.get(AS).status, 200);
    // Each slow client is answered 408 once its time is up, and let go.
    for c in slow.iter_mut().take(20) {
        c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut answer = vec![0u8; 64];
        let n = c.read(&mut answer).unwrap_or(0);
        assert!(
            String::from_utf8_lossy(&answer[..n]).starts_with("HTTP/1.1 408"),
            "{}",
            String::from_utf8_lossy(&answer[..n])
        );
    }
}
