//! What operators run the server with: health probes, metrics, conditional requests,
//! compression, cross-origin requests, allowed hosts, change-record retention.

use crate::common::builders::autonomous_system;
use crate::common::{TestServer, AS};
use peering_api::Settings;
use serde_json::{json, Value as Json};

#[test]
fn probes_answer_without_a_token_even_when_login_is_required() {
    let s = TestServer::start_with(Settings {
        login_required: true,
        allowed_hosts: vec!["peering.example".into()],
        ..Settings::default()
    });
    let r = s.send("GET", "/healthz", None, None, &[]);
    assert_eq!((r.status, r.json()), (200, json!({"status": "ok"})));
    let r = s.send("GET", "/readyz", None, None, &[]);
    assert_eq!((r.status, r.json()), (200, json!({"status": "ready"})));
    // The API itself still wants a token.
    let r = s.send("GET", AS, None, None, &[("Host", "peering.example")]);
    assert_eq!(r.status, 403);
}

#[test]
fn requests_naming_another_host_are_refused() {
    let s = TestServer::start_with(Settings {
        allowed_hosts: vec!["peering.example".into(), ".example.net".into()],
        ..Settings::default()
    });
    for (host, status) in [
        ("peering.example", 200),
        ("peering.example:8000", 200),
        ("api.example.net", 200),
        ("example.net", 200),
        ("evil.example", 400),
        ("notexample.net", 400),
    ] {
        let r = s.send("GET", AS, None, Some(&s.key), &[("Host", host)]);
        assert_eq!(r.status, status, "{host}");
        if status == 400 {
            assert_eq!(r.json(), json!({"detail": "Invalid Host header."}));
        }
    }
}

#[test]
fn hosts_of_bad_form_are_refused_whatever_is_allowed() {
    // Answers write the host into their links as it came: one with quotes or spaces would
    // break their JSON.
    let s = TestServer::start();
    let id = autonomous_system(64500, "A").create(&s)["id"]
        .as_i64()
        .unwrap();
    for (host, status) in [
        ("peering.example", 200),
        ("peering_manager:8000", 200),
        ("192.0.2.1:8000", 200),
        ("[2001:db8::1]:8000", 200),
        ("[::1]", 200),
        ("a\"b", 400),
        ("a\\b", 400),
        ("a b", 400),
        ("x\",\"evil\":\"", 400),
        ("host:", 400),
        ("[nope]:80", 400),
        ("host/path", 400),
    ] {
        for path in [AS.to_string(), format!("{AS}{id}/")] {
            let r = s.send("GET", &path, None, Some(&s.key), &[("Host", host)]);
            assert_eq!(r.status, status, "{host} {path}");
            let body = r.json();
            if status == 400 {
                assert_eq!(body, json!({"detail": "Invalid Host header."}));
            }
        }
    }
    // Probes still answer, whatever the host.
    let r = s.send("GET", "/healthz", None, None, &[("Host", "a\"b")]);
    assert_eq!(r.status, 200);
}

#[test]
fn metrics_count_requests_by_route_for_staff_only() {
    let s = TestServer::start();
    autonomous_system(64500, "A").create(&s);
    for _ in 0..3 {
        assert_eq!(s.get(AS).status, 200);
    }
    assert_eq!(s.get(&format!("{AS}999/")).status, 404);
    assert_eq!(s.send("GET", "/metrics", None, None, &[]).status, 403);
    let plain = s.token("pat", false, true, None);
    assert_eq!(
        s.send("GET", "/metrics", None, Some(&plain), &[]).status,
        403
    );
    let r = s.send("GET", "/metrics", None, Some(&s.key), &[]);
    assert_eq!(r.status, 200);
    assert!(r
        .header("Content-Type")
        .unwrap()
        .starts_with("text/plain; version=0.0.4"));
    let text = r.text;
    let count = |line_start: &str| -> f64 {
        text.lines()
            .find(|l| l.starts_with(line_start))
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {line_start} in\n{text}"))
    };
    let list = r#"peeringd_http_requests_total{method="GET",route="/api/peering/autonomous-systems/",status="200"}"#;
    let one = r#"peeringd_http_requests_total{method="GET",route="/api/peering/autonomous-systems/{id}/",status="404"}"#;
    assert_eq!(count(list), 3.0);
    assert_eq!(count(one), 1.0);
    // Kept from the second answer on, served the third time.
    assert!(count("peeringd_answer_cache_hits_total") >= 1.0);
    // Its object rendered for the first answer, and taken as kept for the second.
    assert_eq!(count("peeringd_object_texts_rendered_total"), 1.0);
    assert_eq!(count("peeringd_object_texts_kept_total"), 1.0);
    assert!(count("peeringd_object_texts_served_total") >= 1.0);
    assert!(count("peeringd_object_texts_entries") >= 1.0);
    assert!(count("peeringd_db_connections") >= 1.0);
    // Listed from the start (whether a read here gave way to the write of the token's
    // last use depends on their timing).
    assert!(count("peeringd_db_reads_gave_way_total") >= 0.0);
    assert_eq!(count("peeringd_jobs_waiting"), 0.0);
    assert!(text.contains("peeringd_http_request_duration_seconds_bucket{"));
}

#[test]
fn reads_carry_an_etag_and_writes_may_require_it() {
    let s = TestServer::start();
    let created = autonomous_system(64500, "A").create(&s);
    let path = format!("{AS}{}/", created["id"]);
    let r = s.get(&path);
    let etag = r.header("ETag").expect("an ETag").to_string();
    let r = s.request(
        "GET",
        &path,
        None,
        Some(&s.key),
        &[("If-None-Match", &etag)],
    );
    assert_eq!((r.status, r.text.as_str()), (304, ""));
    assert_eq!(r.header("ETag"), Some(etag.as_str()));

    // Someone else changes the object: a write holding the old tag is refused.
    assert_eq!(s.patch(&path, json!({"name": "B"})).status, 200);
    let body = json!({"name": "C"});
    let stale = [("If-Match", etag.as_str())];
    let r = s.request("PATCH", &path, Some(&body), Some(&s.key), &stale);
    assert_eq!(r.status, 412, "{}", r.text);
    let r = s.request("DELETE", &path, None, Some(&s.key), &stale);
    assert_eq!(r.status, 412);
    assert_eq!(s.get(&path).json()["name"], "B");
    // With the current tag (or `*`), it goes through.
    let fresh = s.get(&path).header("ETag").unwrap().to_string();
    assert_ne!(fresh, etag);
    let r = s.request(
        "PATCH",
        &path,
        Some(&body),
        Some(&s.key),
        &[("If-Match", &fresh)],
    );
    assert_eq!(r.status, 200);
    let r = s.request(
        "PUT",
        &path,
        Some(&json!({"asn": 64500, "name": "D"})),
        Some(&s.key),
        &[("If-Match", "*")],
    );
    assert_eq!(r.status, 200);
}

#[test]
fn answers_are_compressed_for_clients_that_ask() {
    let s = TestServer::start();
    let body: Vec<Json> = (0..50)
        .map(|i| json!({"asn": 64500 + i, "name": format!("Autonomous system {i}")}))
        .collect();
    assert_eq!(s.post(AS, Json::Array(body)).status, 201);
    let plain = s.send(
        "GET",
        AS,
        None,
        Some(&s.key),
        &[("Accept-Encoding", "identity")],
    );
    assert_eq!(plain.header("Content-Encoding"), None);
    assert_eq!(plain.json()["count"], 50);
    for (accept, encoding) in [("gzip", "gzip"), ("gzip, deflate, br", "br")] {
        // Twice: rendered and compressed, then both from the cache.
        for _ in 0..2 {
            let r = s.send_raw("GET", AS, Some(&s.key), &[("Accept-Encoding", accept)]);
            assert_eq!(r.status, 200);
            assert_eq!(r.header("Content-Encoding"), Some(encoding), "{accept}");
            assert!(r.header("Vary").unwrap().contains("Accept-Encoding"));
            assert_eq!(
                decompress(encoding, &r.body),
                plain.text.as_bytes(),
                "{accept}"
            );
        }
    }
    // A small answer is sent as it is.
    let one = s.send_raw(
        "GET",
        &format!("{AS}1/"),
        Some(&s.key),
        &[("Accept-Encoding", "gzip")],
    );
    assert_eq!(one.header("Content-Encoding"), None);
}

fn decompress(encoding: &str, bytes: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    match encoding {
        "gzip" => flate2::read::GzDecoder::new(bytes).read_to_end(&mut out),
        _ => brotli::Decompressor::new(bytes, 4096).read_to_end(&mut out),
    }
    .unwrap();
    out
}

#[test]
fn answers_to_a_caller_with_credentials_are_private() {
    let s = TestServer::start();
    let r = s.get(AS);
    assert_eq!(r.header("Cache-Control"), Some("private"));
    let r = s.get(&format!("{AS}?limit=1"));
    assert_eq!(
        r.header("Cache-Control"),
        Some("private"),
        "kept answers too"
    );
    let r = s.send("GET", AS, None, None, &[]);
    assert_eq!(
        r.header("Cache-Control"),
        None,
        "the same for every anonymous caller"
    );
    let r = s.get("/api/users/tokens/");
    assert_eq!(r.header("Cache-Control"), Some("no-store"));
}

#[test]
fn cross_origin_requests_only_for_configured_origins() {
    let preflight = |s: &TestServer, origin: &str| {
        s.send(
            "OPTIONS",
            AS,
            None,
            None,
            &[
                ("Origin", origin),
                ("Access-Control-Request-Method", "POST"),
                (
                    "Access-Control-Request-Headers",
                    "authorization,content-type",
                ),
            ],
        )
    };
    let closed = TestServer::start();
    let r = preflight(&closed, "https://app.example");
    assert_eq!(r.header("Access-Control-Allow-Origin"), None);

    let s = TestServer::start_with(Settings {
        cors_origins: vec!["https://app.example".into()],
        ..Settings::default()
    });
    let r = preflight(&s, "https://app.example");
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header("Access-Control-Allow-Origin"),
        Some("https://app.example")
    );
    // What browsers and the reference's clients send: a session's CSRF header, the
    // header of scripted requests, a conditional write.
    for (method, headers) in [
        ("DELETE", "x-csrftoken"),
        (
            "PATCH",
            "authorization,content-type,if-match,x-requested-with",
        ),
        (
            "PUT",
            "accept,accept-language,content-language,x-request-id",
        ),
    ] {
        let r = s.send(
            "OPTIONS",
            AS,
            None,
            None,
            &[
                ("Origin", "https://app.example"),
                ("Access-Control-Request-Method", method),
                ("Access-Control-Request-Headers", headers),
            ],
        );
        assert!(
            matches!(r.status, 200 | 204),
            "{method} {headers}: {} {}",
            r.status,
            r.text
        );
        let allowed = r
            .header("Access-Control-Allow-Headers")
            .unwrap_or_default()
            .to_ascii_lowercase();
        for header in headers.split(',') {
            assert!(allowed.contains(header), "{header} in {allowed}");
        }
        let methods = r
            .header("Access-Control-Allow-Methods")
            .unwrap_or_default()
            .to_string();
        assert!(methods.contains(method), "{method} in {methods}");
    }
    let r = preflight(&s, "https://evil.example");
    assert_ne!(
        r.header("Access-Control-Allow-Origin"),
        Some("https://evil.example")
    );
    let r = s.send(
        "GET",
        AS,
        None,
        Some(&s.key),
        &[("Origin", "https://app.example")],
    );
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header("Access-Control-Allow-Origin"),
        Some("https://app.example")
    );
    assert!(r
        .header("Access-Control-Expose-Headers")
        .is_some_and(|h| h.to_ascii_lowercase().contains("x-request-id")));
}

#[test]
fn old_change_records_are_purged() {
    let s = TestServer::start();
    autonomous_system(64500, "A").create(&s);
    let changes = "/api/extras/object-changes/";
    assert_eq!(s.get(changes).json()["count"], 1);
    // Records younger than the retention stay; older ones go, and lists see it at once.
    assert_eq!(s.store.upkeep().purge_changes(90).unwrap(), 0);
    assert_eq!(s.get(changes).json()["count"], 1);
    std::thread::sleep(std::time::Duration::from_millis(5));
    assert_eq!(s.store.upkeep().purge_changes(0).unwrap(), 1);
    assert_eq!(s.get(changes).json()["count"], 0);
}

#[test]
fn served_under_a_base_path_every_link_keeps_it() {
    let s = TestServer::start_with(Settings {
        base_path: "/peering".into(),
        ..Settings::default()
    });
    let get = |path: &str| s.send("GET", path, None, Some(&s.key), &[]);
    assert_eq!(
        get(AS).status,
        404,
        "nothing is served outside the base path"
    );
    let root = get("/peering/api/");
    assert_eq!(root.status, 200);
    assert!(root.json()["peering"]
        .as_str()
        .unwrap()
        .ends_with("/peering/api/peering/"));
    let body: Vec<Json> = (0..3)
        .map(|i| json!({"asn": 64500 + i, "name": format!("AS {i}")}))
        .collect();
    let r = s.send(
        "POST",
        &format!("/peering{AS}"),
        Some(&Json::Array(body)),
        Some(&s.key),
        &[],
    );
    assert_eq!(r.status, 201);
    assert!(r.json()[0]["url"]
        .as_str()
        .unwrap()
        .contains("/peering/api/peering/autonomous-systems/"));
    let page = get(&format!("/peering{AS}?limit=1")).json();
    assert!(page["next"]
        .as_str()
        .unwrap()
        .contains("/peering/api/peering/autonomous-systems/?limit=1&offset=1"));
    // A missing slash is redirected within the base path.
    let r = get("/peering/api/peering/autonomous-systems");
    assert_eq!(
        r.header("Location"),
        Some("/peering/api/peering/autonomous-systems/")
    );
    assert_eq!(get("/peering/healthz").status, 200);
    // The document's server, Swagger UI's start-up and the pages' links and forms.
    assert_eq!(
        get("/peering/api/schema/").json()["servers"],
        json!([{"url": "/peering"}])
    );
    let init = get("/peering/api/schema/swagger-ui/swagger-initializer.js").text;
    assert!(init.contains("url: \"/peering/api/schema/\""), "{init}");
    let login = s.send("GET", "/peering/login/", None, None, &[]).text;
    assert!(login.contains("action=\"/peering/login/\""));
    assert!(login.contains("value=\"/peering/user/api-tokens/\""));
    assert!(login.contains("href=\"/peering/api/\""));
    let r = s.send("GET", "/peering/user/api-tokens/", None, None, &[]);
    assert_eq!(
        r.header("Location"),
        Some("/peering/login/?next=/peering/user/api-tokens/")
    );
}
