//! The OpenAPI document and Swagger UI over HTTP, and real responses checked against the
//! document's schemas with a small checker of the JSON Schema subset the document uses.

mod common;

use std::collections::BTreeSet;

use common::{TestServer, AS};
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
    let routed: Vec<_> = ALL
        .iter()
        .copied()
        .filter(|spec| peering_api::is_routed(spec))
        .collect();
    for spec in &routed {
        let collection = format!("/api/{}/{}/", spec.app, spec.path);
        let detail = format!("{collection}{{id}}/");
        if spec.writable {
            assert_eq!(
                methods(&doc, &collection),
                set(&["delete", "get", "patch", "post", "put"])
            );
            assert_eq!(
                methods(&doc, &detail),
                set(&["delete", "get", "patch", "put"])
            );
        } else {
            assert_eq!(methods(&doc, &collection), set(&["get"]));
            assert_eq!(methods(&doc, &detail), set(&["get"]));
        }
    }
    assert_eq!(methods(&doc, "/api/status/"), set(&["get"]));
    assert_eq!(
        doc["paths"].as_object().unwrap().len(),
        2 * routed.len() + 1
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
        assert!(r.text.contains("url: \"/api/schema/\""));
    }
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

// ---------------------------------------------------------------------------------------
// A checker of the JSON Schema subset the document uses (OpenAPI 3.0 flavour): type,
// format (date-time, uuid, uri), enum, nullable, bounds, lengths, properties, required,
// additionalProperties, items, $ref, allOf, anyOf, oneOf. `pattern` is not checked.
// ---------------------------------------------------------------------------------------

struct Checker<'a> {
    doc: &'a Json,
}

impl Checker<'_> {
    /// The schema of the JSON response `status` of `method` on the path template `path`.
    fn response_schema(&self, path: &str, method: &str, status: u16) -> &Json {
        let schema = &self.doc["paths"][path][method]["responses"][status.to_string()]["content"]
            ["application/json"]["schema"];
        assert!(!schema.is_null(), "no schema for {method} {path} {status}");
        schema
    }

    fn resolve(&self, reference: &str) -> Result<&Json, String> {
        reference
            .strip_prefix("#/components/schemas/")
            .and_then(|name| self.doc["components"]["schemas"].get(name))
            .ok_or_else(|| format!("unresolved {reference}"))
    }

    /// The errors of `value` against `schema` (empty when it conforms).
    fn errors(&self, schema: &Json, value: &Json, at: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.check(schema, value, at, &mut out);
        out
    }

    fn check(&self, schema: &Json, value: &Json, at: &str, out: &mut Vec<String>) {
        if let Some(Json::String(reference)) = schema.get("$ref") {
            match self.resolve(reference) {
                Ok(target) => self.check(target, value, at, out),
                Err(e) => out.push(format!("{at}: {e}")),
            }
            return;
        }
        if value.is_null() && schema["nullable"] == true {
            return;
        }
        if let Some(all) = schema["allOf"].as_array() {
            all.iter().for_each(|s| self.check(s, value, at, out));
        }
        if let Some(any) = schema["anyOf"].as_array() {
            if !any.iter().any(|s| self.errors(s, value, at).is_empty()) {
                out.push(format!("{at}: matches none of anyOf"));
            }
        }
        if let Some(one) = schema["oneOf"].as_array() {
            let matching = one
                .iter()
                .filter(|s| self.errors(s, value, at).is_empty())
                .count();
            if matching != 1 {
                out.push(format!("{at}: matches {matching} of oneOf, not 1"));
            }
        }
        if let Some(values) = schema["enum"].as_array() {
            if !values.contains(value) {
                out.push(format!("{at}: {value} not in {values:?}"));
            }
        }
        let Some(kind) = schema["type"].as_str() else {
            return;
        };
        let type_ok = match kind {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "integer" => value.is_i64() || value.is_u64(),
            "number" => value.is_number(),
            "boolean" => value.is_boolean(),
            other => {
                out.push(format!("{at}: unknown type {other}"));
                return;
            }
        };
        if !type_ok {
            out.push(format!("{at}: {value} is not of type {kind}"));
            return;
        }
        match value {
            Json::Object(map) => self.check_object(schema, map, at, out),
            Json::Array(items) => {
                if let Some(item_schema) = schema.get("items") {
                    for (i, item) in items.iter().enumerate() {
                        self.check(item_schema, item, &format!("{at}/{i}"), out);
                    }
                }
            }
            Json::String(text) => check_string(schema, text, at, out),
            Json::Number(n) => {
                let n = n.as_f64().unwrap_or(f64::NAN);
                if schema["minimum"].as_f64().is_some_and(|min| n < min)
                    || schema["maximum"].as_f64().is_some_and(|max| n > max)
                {
                    out.push(format!("{at}: {n} out of bounds"));
                }
            }
            _ => {}
        }
    }

    fn check_object(
        &self,
        schema: &Json,
        map: &serde_json::Map<String, Json>,
        at: &str,
        out: &mut Vec<String>,
    ) {
        for name in schema["required"].as_array().into_iter().flatten() {
            let name = name.as_str().unwrap_or_default();
            if !map.contains_key(name) {
                out.push(format!("{at}: missing required {name}"));
            }
        }
        let properties = schema["properties"].as_object();
        for (name, member) in map {
            let member_at = format!("{at}/{name}");
            match properties.and_then(|p| p.get(name)) {
                Some(property) => self.check(property, member, &member_at, out),
                None => match schema.get("additionalProperties") {
                    Some(Json::Bool(false)) => out.push(format!("{member_at}: not allowed")),
                    Some(extra @ Json::Object(_)) => self.check(extra, member, &member_at, out),
                    _ => {}
                },
            }
        }
    }
}

fn check_string(schema: &Json, text: &str, at: &str, out: &mut Vec<String>) {
    let length = text.chars().count() as u64;
    if schema["minLength"].as_u64().is_some_and(|min| length < min)
        || schema["maxLength"].as_u64().is_some_and(|max| length > max)
    {
        out.push(format!("{at}: length {length} out of bounds"));
    }
    let well_formed = match schema["format"].as_str() {
        Some("date-time") => chrono::DateTime::parse_from_rfc3339(text).is_ok(),
        Some("uuid") => uuid::Uuid::parse_str(text).is_ok(),
        Some("uri") => text.starts_with("http://") || text.starts_with("https://"),
        _ => true,
    };
    if !well_formed {
        out.push(format!("{at}: {text:?} is not a {}", schema["format"]));
    }
}

/// Sends a request and checks its body against the document's schema for the template.
fn exchange(
    s: &TestServer,
    checker: &Checker,
    (method, url, template): (&str, &str, &str),
    body: Option<Json>,
    status: u16,
) -> Json {
    let r = s.request(method, url, body.as_ref(), Some(&s.key), &[]);
    assert_eq!(r.status, status, "{method} {url}: {}", r.text);
    let got = r.json();
    let schema = checker.response_schema(template, &method.to_ascii_lowercase(), status);
    let errors = checker.errors(schema, &got, "");
    assert!(errors.is_empty(), "{method} {url} {status}: {errors:#?}");
    got
}

#[test]
fn real_responses_conform_to_the_document() {
    let s = TestServer::start();
    let doc = document(&s);
    let checker = Checker { doc: &doc };
    let detail = "/api/peering/autonomous-systems/{id}/";
    let tags = "/api/extras/tags/";
    let communities = "/api/peering/communities/";
    let policies = "/api/peering/routing-policies/";

    // Creates: one object, then a list; with relations, choices and nullable members.
    let tag = exchange(
        &s,
        &checker,
        ("POST", tags, tags),
        Some(json!({"name": "Blue", "slug": "blue"})),
        201,
    );
    exchange(
        &s,
        &checker,
        ("POST", tags, tags),
        Some(json!([{"name": "A", "slug": "a"}, {"name": "B", "slug": "b", "color": "ff0000"}])),
        201,
    );
    let community = exchange(
        &s,
        &checker,
        ("POST", communities, communities),
        Some(json!({"name": "C1", "slug": "c1", "value": "65000:1", "type": "ingress"})),
        201,
    );
    let policy = exchange(
        &s,
        &checker,
        ("POST", policies, policies),
        Some(json!({"name": "RP", "slug": "rp", "address_family": 6,
                    "communities": [community["id"]]})),
        201,
    );
    let asys = exchange(
        &s,
        &checker,
        ("POST", AS, AS),
        Some(
            json!({"asn": 4200000000_i64, "name": "Big", "irr_as_set": null,
                    "import_routing_policies": [policy["id"]], "communities": [community["id"]],
                    "tags": [tag["id"]], "local_context_data": {"a": 1}}),
        ),
        201,
    );
    let one = format!("{AS}{}/", asys["id"]);

    // Reads: every routed list, the brief list, the detail in both forms.
    let paths: Vec<String> = doc["paths"]
        .as_object()
        .unwrap()
        .keys()
        .filter(|p| !p.contains('{'))
        .cloned()
        .collect();
    for path in &paths {
        exchange(&s, &checker, ("GET", path, path), None, 200);
    }
    let list = exchange(&s, &checker, ("GET", AS, AS), None, 200);
    assert_eq!(list["count"], 1);
    let brief_url = format!("{AS}?brief=1");
    exchange(&s, &checker, ("GET", &brief_url, AS), None, 200);
    let got = exchange(&s, &checker, ("GET", &one, detail), None, 200);
    let brief_one = format!("{one}?brief=true");
    exchange(&s, &checker, ("GET", &brief_one, detail), None, 200);
    exchange(
        &s,
        &checker,
        ("PATCH", communities, communities),
        Some(json!([{"id": community["id"], "description": "d"}])),
        200,
    );

    // Errors: field errors for one object and for a list, a bad filter, no such object.
    let invalid = exchange(
        &s,
        &checker,
        ("POST", AS, AS),
        Some(json!({"name": "no asn"})),
        400,
    );
    exchange(
        &s,
        &checker,
        ("POST", AS, AS),
        Some(json!([{"asn": 1, "name": "ok"}, {"name": "bad"}])),
        400,
    );
    let bad_filter = format!("{AS}?asn=x");
    exchange(&s, &checker, ("GET", &bad_filter, AS), None, 400);
    let missing = exchange(
        &s,
        &checker,
        ("GET", "/api/peering/autonomous-systems/999999/", detail),
        None,
        404,
    );

    // The checker rejects what the document does not allow.
    let wrong = |schema: &Json, value: Json| {
        assert!(
            !checker.errors(schema, &value, "").is_empty(),
            "accepted {value}"
        );
    };
    let detail_schema = checker.response_schema(detail, "get", 200);
    let mut o = got.clone();
    o["asn"] = json!("4200000000");
    wrong(detail_schema, o);
    let mut o = got.clone();
    o.as_object_mut().unwrap().remove("id");
    o.as_object_mut().unwrap().remove("url");
    wrong(detail_schema, o);
    // Reads are `anyOf` complete or brief, and a brief object may carry more members, so
    // wrong members outside the brief form show against the complete form itself.
    let complete = &json!({"$ref": "#/components/schemas/AutonomousSystem"});
    assert!(checker.errors(complete, &got, "").is_empty());
    let mut o = got.clone();
    o["tags"][0]["slug"] = json!(null);
    wrong(complete, o);
    let mut o = got.clone();
    o["created"] = json!("yesterday");
    wrong(complete, o);
    let mut o = got.clone();
    o["tags"] = json!("blue");
    wrong(complete, o);
    let mut page = list;
    page["next"] = json!(3);
    wrong(checker.response_schema(AS, "get", 200), page);
    let bad_request = checker.response_schema(AS, "post", 400);
    assert_eq!(invalid["asn"].as_array().map(Vec::len), Some(1));
    wrong(bad_request, json!({"asn": "This field is required."}));
    wrong(bad_request, json!("error"));
    let not_found = checker.response_schema(detail, "get", 404);
    assert!(checker.errors(not_found, &missing, "").is_empty());
    wrong(not_found, json!({}));
    wrong(not_found, json!({"detail": 404}));
    wrong(checker.response_schema(AS, "post", 201), json!([got, 1]));
}
