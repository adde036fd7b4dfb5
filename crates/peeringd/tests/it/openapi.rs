//! The OpenAPI document and Swagger UI over HTTP; every kind of response the API gives
//! (each status of each operation), which `TestServer::request` checks against the document
//! as it checks every response of the suite (`common/conformance.rs`); and that check
//! failing where it must.

use crate::common::builders::tag;
use std::collections::BTreeSet;

use crate::common::conformance::{Checker, Conformance, Exemption};
use crate::common::{TestServer, AS};
use peering_api::Settings;
use peering_domain::resources::ALL;
use serde_json::{json, Value as Json};

const SCHEMA: &str = "/api/schema/";

fn document(s: &TestServer) -> Json {
    let r = s.request("GET", SCHEMA, None, None, &[]);
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()
}

fn methods(doc: &Json, path: &str) -> BTreeSet<String> {
    doc["paths"][path]
        .as_object()
        .unwrap_or_else(|| panic!("missing path {path}"))
        .keys()
        .filter(|k| *k != "parameters")
        .cloned()
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// Every `$ref` in `value`.
fn refs<'a>(value: &'a Json, out: &mut Vec<&'a str>) {
    match value {
        Json::Object(map) => {
            if let Some(Json::String(r)) = map.get("$ref") {
                out.push(r);
            }
            map.values().for_each(|v| refs(v, out));
        }
        Json::Array(items) => items.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

#[test]
fn schema_is_served_as_openapi_3_json_with_the_api_headers() {
    let s = TestServer::start();
    let r = s.request("GET", SCHEMA, None, None, &[]);
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r
        .header("Content-Type")
        .unwrap()
        .starts_with("application/json"));
    assert!(r.header("API-Version").is_some());
    assert!(r.header("X-Request-ID").is_some());
    let doc = r.json();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    assert_eq!(doc["info"]["title"], "peeringd API");
    assert_eq!(doc["servers"], json!([{"url": "/"}]));

    // The same body where NetBox-style clients look; without `format`, the UI.
    let docs = s.request("GET", "/api/docs/?format=openapi", None, None, &[]);
    assert_eq!(docs.status, 200);
    assert_eq!(docs.text, r.text);
    let ui = s.request("GET", "/api/docs/", None, None, &[]);
    assert_eq!(ui.status, 302);
    assert_eq!(ui.header("Location"), Some("/api/schema/swagger-ui/"));

    // `format=yaml`: the same document as YAML (compared value for value in peering-api's
    // unit tests); `format=json` or anything else: JSON.
    let yaml = s.request("GET", "/api/schema/?format=yaml", None, None, &[]);
    assert_eq!(yaml.status, 200);
    assert_eq!(yaml.header("Content-Type"), Some("application/yaml"));
    assert!(
        yaml.text.starts_with("openapi: 3.0.0\n"),
        "{}",
        &yaml.text[..80]
    );
    assert!(yaml.text.contains("\npaths:\n"));
    assert!(yaml.header("API-Version").is_some());
    for query in ["?format=json", "?format=xml"] {
        let other = s.request("GET", &format!("{SCHEMA}{query}"), None, None, &[]);
        assert_eq!(other.header("Content-Type"), Some("application/json"));
        assert_eq!(other.text, r.text, "{query}");
    }
}

#[test]
fn schema_is_public_even_when_login_is_required() {
    let s = TestServer::start_with(Settings {
        login_required: true,
        ..Settings::default()
    });
    assert_eq!(s.request("GET", AS, None, None, &[]).status, 403);
    assert_eq!(s.request("GET", SCHEMA, None, None, &[]).status, 200);
    let ui = s.request("GET", "/api/schema/swagger-ui/", None, None, &[]);
    assert_eq!(ui.status, 200);
}

#[test]
fn every_routed_resource_has_its_paths_and_every_reference_resolves() {
    let s = TestServer::start();
    let doc = document(&s);
    let routed: Vec<_> = ALL.to_vec();
    for spec in &routed {
        let collection = format!("/api/{}/{}/", spec.app, spec.path);
        let detail = format!("{collection}{{id}}/");
        if spec.writes.edits() {
            assert_eq!(
                methods(&doc, &collection),
                set(&["delete", "get", "options", "patch", "post", "put"])
            );
            assert_eq!(
                methods(&doc, &detail),
                set(&["delete", "get", "options", "patch", "put"])
            );
        } else if spec.writes.deletes() {
            assert_eq!(methods(&doc, &collection), set(&["get", "options"]));
            assert_eq!(methods(&doc, &detail), set(&["delete", "get", "options"]));
        } else {
            assert_eq!(methods(&doc, &collection), set(&["get", "options"]));
            assert_eq!(methods(&doc, &detail), set(&["get", "options"]));
        }
    }

    let apps: BTreeSet<&str> = routed.iter().map(|spec| spec.app).collect();
    for path in ["/api/", "/api/status/", "/api/schema/"]
        .into_iter()
        .map(String::from)
        .chain(apps.iter().map(|app| format!("/api/{app}/")))
    {
        assert_eq!(methods(&doc, &path), set(&["get"]), "{path}");
    }
    // Tokens, one token, provisioning and preferences have handlers of their own.
    let accounts = [
        ("/api/users/tokens/", &["get", "post"][..]),
        ("/api/users/tokens/{id}/", &["delete", "get"][..]),
        ("/api/users/tokens/provision/", &["post"][..]),
        ("/api/users/userpref/", &["get", "patch"][..]),
    ];
    for (path, expected) in accounts {
        assert_eq!(methods(&doc, path), set(expected), "{path}");
    }
    // Actions: each at its own path, with its method.
    for action in peering_api::actions::ACTIONS {
        let path = match action.scope {
            peering_api::actions::Scope::Object => format!(
                "/api/{}/{}/{{id}}/{}/",
                action.spec.app, action.spec.path, action.name
            ),
            peering_api::actions::Scope::Collection => format!(
                "/api/{}/{}/{}/",
                action.spec.app, action.spec.path, action.name
            ),
            peering_api::actions::Scope::Under(segment) => {
                format!("/api/{}/{segment}/{}/", action.spec.app, action.name)
            }
        };
        assert_eq!(
            methods(&doc, &path),
            set(&[&action.method.to_lowercase()]),
            "{path}"
        );
    }
    // The resources that moved in the reference's later releases, again at their new
    // paths, actions included, with operation ids of their own.
    let mut aliased = 0;
    for alias in peering_domain::resources::ALIASES {
        let from = format!("/api/{}/{}/", alias.spec.app, alias.spec.path);
        let to = format!("/api/{}/{}/", alias.app, alias.path);
        let paths = doc["paths"].as_object().unwrap();
        for (path, item) in paths.iter().filter(|(p, _)| p.starts_with(&from)) {
            let moved = path.replacen(&from, &to, 1);
            assert_eq!(methods(&doc, &moved), methods(&doc, path), "{moved}");
            let id = |item: &Json| item["get"]["operationId"].as_str().map(str::to_string);
            if let Some(old) = id(item) {
                let new = id(&paths[&moved]).unwrap();
                assert_ne!(old, new);
                assert!(new.starts_with(&format!("{}_", alias.app)), "{new}");
            }
            aliased += 1;
        }
    }
    assert_eq!(
        doc["paths"].as_object().unwrap().len(),
        2 * routed.len()
            + apps.len()
            + 3
            + accounts.len()
            + peering_api::actions::ACTIONS.len()
            + aliased
    );

    let schemas = doc["components"]["schemas"].as_object().unwrap();
    let mut all = Vec::new();
    refs(&doc, &mut all);
    assert!(all.len() > 100, "{} references", all.len());
    for r in all {
        let name = r
            .strip_prefix("#/components/schemas/")
            .unwrap_or_else(|| panic!("{r}"));
        assert!(schemas.contains_key(name), "dangling {r}");
    }
}

#[test]
fn swagger_ui_is_served_from_the_binary() {
    let s = TestServer::start();
    for page in [
        "/api/schema/swagger-ui/",
        "/api/schema/swagger-ui/index.html",
    ] {
        let r = s.request("GET", page, None, None, &[]);
        assert_eq!(r.status, 200, "{page}");
        assert!(r.header("Content-Type").unwrap().starts_with("text/html"));
        assert!(r.header("API-Version").is_some());
        assert!(r.text.contains("swagger-ui-bundle.js"));
        assert!(r.text.contains("swagger-initializer.js"));
    }
    let init = s.request(
        "GET",
        "/api/schema/swagger-ui/swagger-initializer.js",
        None,
        None,
        &[],
    );
    assert_eq!(init.status, 200);
    assert!(init.text.contains("url: \"/api/schema/\""));
    let bundle = s.request(
        "GET",
        "/api/schema/swagger-ui/swagger-ui-bundle.js",
        None,
        None,
        &[],
    );
    assert_eq!(bundle.status, 200);
    assert!(bundle
        .header("Content-Type")
        .unwrap()
        .starts_with("text/javascript"));
    assert!(bundle.text.contains("SwaggerUIBundle"));
    let css = s.request(
        "GET",
        "/api/schema/swagger-ui/swagger-ui.css",
        None,
        None,
        &[],
    );
    assert!(css.header("Content-Type").unwrap().starts_with("text/css"));
    let missing = s.request("GET", "/api/schema/swagger-ui/nothing.js", None, None, &[]);
    assert_eq!(missing.status, 404);
    assert_eq!(missing.json(), json!({"detail": "Not found."}));
}

/// Sends a request (checked against the document by `TestServer::request`, like every
/// request of the suite) and asserts its status.
fn call(
    s: &TestServer,
    (method, path): (&str, &str),
    body: Option<Json>,
    key: Option<&str>,
    status: u16,
) -> crate::common::Response {
    let r = s.request(method, path, body.as_ref(), key, &[]);
    assert_eq!(r.status, status, "{method} {path}: {}", r.text);
    r
}

/// Each status of each kind of operation, as the server answers it. `TestServer::request`
/// checks every response against the document (status, media type, body, brief or complete
/// form), so this is a tour of what the document must say; the other tests add their own
/// responses to it. (Not reached here: 503, when the database does not answer.)
#[test]
fn every_status_of_every_operation_is_documented() {
    let s = TestServer::start();
    let key = Some(s.key.as_str());
    let bogus = "0".repeat(40);
    let bogus = Some(bogus.as_str());
    let read_only = s.token("admin", true, false, None);
    let html = [("Accept", "text/html")];

    // Roots, status and the document.
    let root = call(&s, ("GET", "/api/"), None, None, 200).json();
    for (name, url) in root.as_object().unwrap() {
        let path = url.as_str().unwrap().strip_prefix(&s.base).unwrap();
        call(&s, ("GET", path), None, None, 200);
        if name != "status" {
            let page = s.request("GET", path, None, None, &html);
            assert!(page
                .header("Content-Type")
                .unwrap()
                .starts_with("text/html"));
        }
    }
    let page = s.request("GET", "/api/", None, None, &html);
    assert!(page
        .header("Content-Type")
        .unwrap()
        .starts_with("text/html"));
    call(&s, ("GET", "/api/status/"), None, bogus, 403);
    call(&s, ("GET", "/api/schema/?format=yaml"), None, None, 200);

    // Creates: one, several; invalid one, invalid item, not JSON; no token, read-only token.
    let asys = call(
        &s,
        ("POST", AS),
        Some(json!({"asn": 1, "name": "a"})),
        key,
        201,
    )
    .json();
    let one = format!("{AS}{}/", asys["id"]);
    let many = json!([{"asn": 2, "name": "b"}, {"asn": 3, "name": "c"}]);
    let created = call(&s, ("POST", AS), Some(many), key, 201).json();
    let (two, three) = (&created[0]["id"], &created[1]["id"]);
    call(&s, ("POST", AS), Some(json!({"name": "x"})), key, 400);
    let list_error = json!([{"asn": 4, "name": "d"}, {"asn": 5}]);
    call(&s, ("POST", AS), Some(list_error), key, 400);
    call(&s, ("POST", AS), None, key, 400);
    call(
        &s,
        ("POST", AS),
        Some(json!({"asn": 4, "name": "d"})),
        None,
        403,
    );
    let body = json!({"asn": 4, "name": "d"});
    call(&s, ("POST", AS), Some(body), Some(&read_only), 403);

    // Lists: complete, brief, invalid filters, refused token; HEAD.
    call(&s, ("GET", AS), None, None, 200);
    call(
        &s,
        ("GET", &format!("{AS}?brief=1&limit=1")),
        None,
        None,
        200,
    );
    call(&s, ("GET", &format!("{AS}?asn=x")), None, None, 400);
    call(
        &s,
        ("GET", &format!("{AS}?asn=%ff&nothing=1")),
        None,
        None,
        400,
    );
    call(&s, ("GET", &format!("{AS}?tag=missing")), None, None, 400);
    call(&s, ("GET", AS), None, bogus, 403);
    call(&s, ("HEAD", AS), None, None, 200);

    // Bulk updates: done, invalid items, not a list, an invalid field.
    let items = json!([{"id": two, "name": "B"}, {"id": three, "asn": 33, "name": "C"}]);
    call(
        &s,
        ("PUT", AS),
        Some(json!([{"id": two, "asn": 2, "name": "B"}])),
        key,
        200,
    );
    call(&s, ("PATCH", AS), Some(items), key, 200);
    call(&s, ("PUT", AS), Some(json!([{"name": "no id"}])), key, 400);
    call(&s, ("PATCH", AS), Some(json!({"id": two})), key, 400);
    call(
        &s,
        ("PATCH", AS),
        Some(json!([{"id": two, "asn": "x"}])),
        key,
        400,
    );
    call(&s, ("PATCH", AS), Some(json!([])), None, 403);

    // One object: both forms, missing, not a number; updates; HEAD.
    call(&s, ("GET", &one), None, None, 200);
    call(&s, ("GET", &format!("{one}?brief=true")), None, None, 200);
    call(&s, ("GET", &format!("{one}?brief=0")), None, None, 200);
    call(&s, ("GET", &format!("{AS}999999/")), None, None, 404);
    call(&s, ("GET", &format!("{AS}abc/")), None, None, 404);
    call(&s, ("HEAD", &format!("{AS}999999/")), None, None, 404);
    call(
        &s,
        ("PUT", &one),
        Some(json!({"asn": 1, "name": "A"})),
        key,
        200,
    );
    call(&s, ("PUT", &one), Some(json!({"name": "A"})), key, 400);
    call(
        &s,
        ("PATCH", &one),
        Some(json!({"comments": "c"})),
        key,
        200,
    );
    call(&s, ("PATCH", &one), None, key, 400);
    call(
        &s,
        ("PATCH", &format!("{AS}999999/")),
        Some(json!({})),
        key,
        404,
    );
    call(&s, ("PATCH", &one), Some(json!({})), Some(&read_only), 403);

    // OPTIONS: with the fields a writer may send, without them, refused.
    let options = call(&s, ("OPTIONS", AS), None, key, 200).json();
    assert!(options["actions"]["POST"]["asn"].is_object());
    let options = call(&s, ("OPTIONS", &one), None, None, 200).json();
    assert!(options.get("actions").is_none());
    call(&s, ("OPTIONS", &one), None, key, 200);
    call(&s, ("OPTIONS", &format!("{AS}abc/")), None, None, 404);
    call(&s, ("OPTIONS", AS), None, bogus, 403);

    // Deletes: done, missing, protected (one or in bulk), invalid bulk bodies.
    let platforms = "/api/devices/platforms/";
    let platform = call(
        &s,
        ("POST", platforms),
        Some(json!({"name": "P", "slug": "p"})),
        key,
        201,
    );
    let platform = platform.json()["id"].clone();
    let router = json!({"name": "r", "hostname": "r", "platform": platform,
                        "local_autonomous_system": asys["id"]});
    call(
        &s,
        ("POST", "/api/peering/routers/"),
        Some(router),
        key,
        201,
    );
    call(
        &s,
        ("DELETE", &format!("{platforms}{platform}/")),
        None,
        key,
        409,
    );
    let bulk = json!([{"id": platform}]);
    call(&s, ("DELETE", platforms), Some(bulk), key, 409);
    call(&s, ("DELETE", &one), None, key, 204);
    call(&s, ("DELETE", &one), None, key, 404);
    call(&s, ("DELETE", &one), None, None, 403);
    call(
        &s,
        ("DELETE", AS),
        Some(json!([{"id": two}, {"id": 424242}])),
        key,
        204,
    );
    call(&s, ("DELETE", AS), Some(json!([{"id": "x"}])), key, 400);
    call(&s, ("DELETE", AS), Some(json!({"id": three})), key, 400);

    // A resource that takes no writes: reads, OPTIONS; writes are no operation of it.
    let changes = "/api/extras/object-changes/";
    let page = call(&s, ("GET", changes), None, None, 200).json();
    call(&s, ("GET", &format!("{changes}?brief=1")), None, None, 200);
    let change = format!("{changes}{}/", page["results"][0]["id"]);
    call(&s, ("GET", &change), None, None, 200);
    let options = call(&s, ("OPTIONS", changes), None, key, 200).json();
    assert!(options.get("actions").is_none());
    call(&s, ("POST", changes), Some(json!({})), key, 405);
    call(&s, ("DELETE", &change), None, key, 405);

    // Methods a path does not document and paths the API does not serve (exempt, with
    // the answers `Exemption` requires).
    call(&s, ("POST", &format!("{AS}1/")), Some(json!({})), key, 405);
    call(&s, ("TRACE", AS), None, key, 405);
    call(&s, ("POST", "/api/schema/"), Some(json!({})), key, 405);
    call(&s, ("HEAD", "/api/schema/"), None, None, 200);
    call(&s, ("POST", "/api/"), Some(json!({})), key, 405);
    call(&s, ("HEAD", "/api/"), None, None, 200);
    call(&s, ("HEAD", "/api/peering/"), None, None, 200);
    call(&s, ("OPTIONS", "/api/status/"), None, None, 405);
    call(&s, ("GET", "/api/nothing/"), None, None, 404);
    call(&s, ("GET", "/api/peering/nothing/"), None, None, 404);
    call(
        &s,
        ("GET", "/api/peering/autonomous-systems"),
        None,
        None,
        302,
    );
}

/// 413 for every operation with a body; 403 for every read with `LOGIN_REQUIRED`, while
/// the roots and the document stay public.
#[test]
fn size_and_login_refusals_are_documented() {
    let small = TestServer::start_with(Settings {
        max_body_bytes: 100,
        ..Settings::default()
    });
    let key = Some(small.key.as_str());
    let big = json!([{"id": 1, "name": "x".repeat(200)}]);
    let one = call(
        &small,
        ("POST", AS),
        Some(json!({"asn": 1, "name": "a"})),
        key,
        201,
    );
    let one = format!("{AS}{}/", one.json()["id"]);
    for method in ["POST", "PUT", "PATCH", "DELETE"] {
        call(&small, (method, AS), Some(big.clone()), key, 413);
    }
    for method in ["PUT", "PATCH"] {
        call(&small, (method, &one), Some(big[0].clone()), key, 413);
    }

    let locked = TestServer::start_with(Settings {
        login_required: true,
        ..Settings::default()
    });
    let key = Some(locked.key.as_str());
    let one = call(
        &locked,
        ("POST", AS),
        Some(json!({"asn": 1, "name": "a"})),
        key,
        201,
    );
    let one = format!("{AS}{}/", one.json()["id"]);
    for path in [AS, &one] {
        call(&locked, ("GET", path), None, None, 403);
        call(&locked, ("HEAD", path), None, None, 403);
    }
    call(&locked, ("GET", "/api/status/"), None, None, 403);
    call(&locked, ("OPTIONS", AS), None, None, 403);
    call(&locked, ("OPTIONS", &one), None, None, 403);
    for public in ["/api/", "/api/peering/", SCHEMA] {
        call(&locked, ("GET", public), None, None, 200);
    }
}

/// `TestServer::request` applies the check to every response: against a document that does
/// not list the 404 of a retrieve, asking for a missing object fails the test.
#[test]
#[should_panic(
    expected = "which the OpenAPI document does not allow: status 404 is not documented"
)]
fn every_response_of_the_suite_is_checked() {
    let s = TestServer::start();
    let mut doc = s.send("GET", SCHEMA, None, None, &[]).json();
    let responses = &mut doc["paths"]["/api/peering/autonomous-systems/{id}/"]["get"]["responses"];
    responses.as_object_mut().unwrap().remove("404");
    s.check_against(doc);
    s.get(&format!("{AS}999999/"));
}

/// The check refuses what the document does not allow: a status the operation does not
/// list, a brief form where the complete one is due and the reverse, a member too many or
/// missing, a wrong type or format, a media type not listed, a body where none is due, and
/// exempt responses other than their exemption requires.
#[test]
fn the_conformance_check_refuses_what_the_document_does_not_allow() {
    let s = TestServer::start();
    let c: &Conformance = s.conformance();
    let tag = tag("Blue").create(&s);
    let got = s.create(
        AS,
        json!({"asn": 4200000000_i64, "name": "Big", "irr_as_set": null,
               "tags": [tag["id"]], "local_context_data": {"a": 1}}),
    );
    let one = format!("{AS}{}/", got["id"]);
    let brief = s.get(&format!("{one}?brief=1")).json();
    let list = s.get(AS).json();
    let json = Some("application/json");
    let check = |method: &str, target: &str, status: u16, body: &Json| {
        c.check(method, target, status, json, &body.to_string())
    };
    let refused = |method: &str, target: &str, status: u16, body: Json| {
        let verdict = check(method, target, status, &body);
        assert!(
            verdict.is_err(),
            "accepted {method} {target} {status} {body}"
        );
        verdict.unwrap_err()
    };

    // What the server sent passes.
    assert_eq!(check("GET", &one, 200, &got), Ok(()));
    assert_eq!(
        check("GET", &format!("{one}?brief=yes"), 200, &brief),
        Ok(())
    );
    assert_eq!(check("GET", AS, 200, &list), Ok(()));
    assert_eq!(c.check("DELETE", &one, 204, None, ""), Ok(()));
    assert_eq!(c.check("HEAD", &one, 200, json, ""), Ok(()));

    // Statuses, media types, bodies where none is due.
    let e = refused("GET", &one, 418, json!({"detail": "x"}));
    assert!(e.starts_with("status 418 is not documented"), "{e}");
    refused(
        "GET",
        &one,
        500,
        json!({"detail": "Internal server error."}),
    );
    refused("HEAD", &one, 201, json!(null));
    assert!(c.check("DELETE", &one, 204, json, "{}").is_err());
    assert!(c.check("GET", &one, 200, Some("text/plain"), "x").is_err());
    // HTML is the browsable API's page of the same answer: its status must be documented.
    assert_eq!(c.check("GET", &one, 200, Some("text/html"), "<p>"), Ok(()));
    assert!(c.check("GET", &one, 418, Some("text/html"), "<p>").is_err());
    assert!(c.check("GET", &one, 200, json, "not JSON").is_err());

    // Brief where complete is due, and the reverse; members missing, extra, mistyped.
    refused("GET", &one, 200, brief.clone());
    refused("GET", &format!("{one}?brief=0"), 200, brief.clone());
    let e = refused("GET", &format!("{one}?brief=1"), 200, got.clone());
    assert!(e.contains("/comments: not in the document"), "{e}");
    let mut page = list.clone();
    page["results"][0] = brief.clone();
    refused("GET", AS, 200, page);
    let mut page = list.clone();
    page["results"][0] = got.clone();
    refused("GET", &format!("{AS}?brief=1"), 200, page);
    let mut page = list;
    page["next"] = json!(3);
    refused("GET", AS, 200, page);
    let mut o = got.clone();
    o["asn"] = json!("4200000000");
    refused("GET", &one, 200, o);
    let mut o = got.clone();
    o.as_object_mut().unwrap().remove("url");
    refused("GET", &one, 200, o);
    let mut o = got.clone();
    o["tags"][0]["slug"] = json!(null);
    refused("GET", &one, 200, o);
    let mut o = got.clone();
    o["tags"][0]["colour"] = json!("red");
    refused("GET", &one, 200, o);
    let mut o = got.clone();
    o["created"] = json!("yesterday");
    refused("GET", &one, 200, o);
    let mut o = got.clone();
    o["tags"] = json!("blue");
    refused("GET", &one, 200, o);
    refused("POST", AS, 201, json!([got, 1]));
    refused("POST", AS, 400, json!({"asn": "This field is required."}));
    refused("POST", AS, 400, json!("error"));
    refused("PATCH", &one, 400, json!([{"asn": ["Required."]}]));
    refused("GET", &one, 404, json!({}));
    refused("GET", &one, 404, json!({"detail": 404}));
    refused("GET", &one, 404, json!({"detail": "x", "code": 1}));
    refused("GET", "/api/", 200, json!({"peering": "/api/peering/"}));

    // The Checker alone, on a schema.
    let checker = Checker::new(c.doc());
    let complete = &json!({"$ref": "#/components/schemas/AutonomousSystem"});
    assert!(checker.errors(complete, &got, "").is_empty());
    assert!(!checker.errors(complete, &brief, "").is_empty());
    let read = checker.response_schema("/api/peering/autonomous-systems/{id}/", "get", 200);
    assert!(checker.errors(read, &brief, "").is_empty(), "either form");

    // Exemptions, and what each still requires.
    let exempt = |method: &str, path: &str| c.exemption(method, path);
    assert_eq!(
        exempt("GET", "/api/schema/swagger-ui/x.js"),
        Some(Exemption::SwaggerUi)
    );
    assert_eq!(exempt("GET", "/api/docs/"), Some(Exemption::DocsAlias));
    assert_eq!(exempt("GET", "/api/peering"), Some(Exemption::MissingSlash));
    assert_eq!(
        exempt("GET", "/api/peering/x/"),
        Some(Exemption::UnknownPath)
    );
    assert_eq!(
        exempt("GET", &format!("{one}x/")),
        Some(Exemption::UnknownPath)
    );
    assert_eq!(exempt("POST", &one), Some(Exemption::UndocumentedMethod));
    assert_eq!(
        exempt("OPTIONS", "/api/"),
        Some(Exemption::UndocumentedMethod)
    );
    assert_eq!(exempt("HEAD", "/api/peering/"), None);
    assert_eq!(exempt("GET", "/login/"), Some(Exemption::WebPage));
    assert_eq!(exempt("POST", SCHEMA), Some(Exemption::UndocumentedMethod));
    assert_eq!(exempt("HEAD", SCHEMA), None);
    assert_eq!(exempt("HEAD", &one), None);
    assert_eq!(exempt("OPTIONS", &one), None);
    refused("GET", "/api/peering", 200, json!({}));
    refused("GET", "/api/peering/x/", 200, json!({}));
    refused("GET", "/api/peering/x/", 404, json!({"error": "x"}));
    refused("POST", "/api/extras/object-changes/", 201, json!({}));
    refused("POST", &one, 200, json!({}));
    assert_eq!(check("POST", &one, 405, &json!({"detail": "x"})), Ok(()));
    assert_eq!(
        c.template(&format!("{AS}12/")),
        Some("/api/peering/autonomous-systems/{id}/")
    );
    assert_eq!(c.template("/api/peering/"), Some("/api/peering/"));
    assert_eq!(c.template("/api/status/"), Some("/api/status/"));
    assert_eq!(c.check("HEAD", "/api/status/", 200, json, ""), Ok(()));
    refused("HEAD", "/api/status/", 201, json!(null));
    assert_eq!(crate::common::conformance::EXEMPTIONS.len(), 6);
}
