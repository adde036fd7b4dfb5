//! What fuzzing the live server with schemathesis (`tests/e2e/fuzz.sh`) found: server
//! errors, and responses the OpenAPI document described wrongly (each a real response
//! checked against what the document says of it).

use crate::common::builders::autonomous_system;
use crate::common::{sorted_field_names, TestServer, AS};
use serde_json::{json, Value as Json};

/// `offset` near `i64::MAX` overflowed `offset + limit` when the `next` link was computed
/// (a panic, so the connection was dropped without a response).
#[test]
fn huge_offset_is_an_empty_page() {
    let s = TestServer::start();
    autonomous_system(64500, "x").create(&s);
    for query in [
        "limit=0&offset=9223372036854775806",
        "limit=1000&offset=9223372036854775807",
        "offset=9223372036854775807",
    ] {
        let r = s.get(&format!("{AS}?{query}"));
        assert_eq!(r.status, 200, "{query}: {}", r.text);
        let page = r.json();
        assert_eq!(page["count"], 1, "{query}");
        assert_eq!(page["results"], json!([]), "{query}");
        assert_eq!(page["next"], Json::Null, "{query}");
        assert!(page["previous"].is_string(), "{query}");
    }
}

fn document(s: &TestServer) -> Json {
    let r = s.get("/api/schema/");
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()
}

fn property<'a>(doc: &'a Json, schema: &str, name: &str) -> &'a Json {
    let p = &doc["components"]["schemas"][schema]["properties"][name];
    assert!(p.is_object(), "{schema}.{name} missing");
    p
}

/// Whether `value` is in the `enum` of `schema`.
fn listed(schema: &Json, value: &Json) -> bool {
    schema["enum"]
        .as_array()
        .is_some_and(|values| values.contains(value))
}

/// A platform's password algorithm is a choice whose default is blank: the server stores
/// and renders `""`, and takes it back, so the enum of every form lists it.
#[test]
fn blank_choice_is_listed_in_its_enum() {
    let s = TestServer::start();
    let doc = document(&s);
    let path = "/api/devices/platforms/";
    let created = s.create(path, json!({"name": "P", "slug": "p"}));
    assert_eq!(created["password_algorithm"], "");
    for form in ["Platform", "WritablePlatform", "PatchedWritablePlatform"] {
        let schema = property(&doc, form, "password_algorithm");
        assert!(listed(schema, &json!("")), "{form}: {schema}");
        assert!(listed(schema, &json!("cisco-type7")), "{form}: {schema}");
    }
    let url = format!("{path}{}/", created["id"]);
    let r = s.patch(&url, json!({"password_algorithm": "cisco-type7"}));
    assert_eq!(r.status, 200, "{}", r.text);
    let r = s.patch(&url, json!({"password_algorithm": ""}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["password_algorithm"], "");
}

/// A contact's e-mail may be blank, and `format: email` refuses `""`: the document says
/// what the server checks with a pattern that accepts the empty string too.
#[test]
fn blank_email_is_allowed_by_the_document() {
    let s = TestServer::start();
    let doc = document(&s);
    let path = "/api/messaging/contacts/";
    let created = s.create(path, json!({"name": "Someone"}));
    assert_eq!(created["email"], "");
    for form in ["Contact", "WritableContact"] {
        let email = property(&doc, form, "email");
        assert_eq!(email["type"], "string");
        assert!(email.get("format").is_none(), "{form}: {email}");
        let pattern = email["pattern"].as_str().unwrap_or_default();
        assert!(
            pattern.starts_with("^(") && pattern.ends_with(")?$"),
            "{form}: the pattern must make the address optional: {pattern}"
        );
    }
    let url = format!("{path}{}/", created["id"]);
    let r = s.patch(&url, json!({"email": "noc@example.net"}));
    assert_eq!(r.status, 200, "{}", r.text);
    let r = s.patch(&url, json!({"email": "not an address"}));
    assert_eq!(r.status, 400, "{}", r.text);
}

/// Messages of a list field are one list per item (`{"tags": [[…]]}`), which the
/// document's `ValidationError` must allow besides plain strings.
#[test]
fn item_errors_of_list_fields_are_documented() {
    let s = TestServer::start();
    let doc = document(&s);
    let r = s.post(
        AS,
        json!({"asn": 1, "name": "x", "tags": [9223372036854775808_u64]}),
    );
    assert_eq!(r.status, 400, "{}", r.text);
    let body = r.json();
    let messages = body["tags"][0].as_array().expect("one list per item");
    assert!(messages[0].as_str().unwrap().contains("unrecognized value"));

    let values = &doc["components"]["schemas"]["ValidationError"]["additionalProperties"];
    assert_eq!(values["type"], "array", "{values}");
    let kinds: Vec<&Json> = values["items"]["oneOf"]
        .as_array()
        .unwrap_or_else(|| panic!("a message is a string or a list: {values}"))
        .iter()
        .collect();
    assert_eq!(kinds.len(), 2, "{values}");
    assert_eq!(kinds[0]["type"], "string");
    assert_eq!(kinds[1]["type"], "array");
    assert_eq!(kinds[1]["items"]["type"], "string");
}

/// `/api/status/` is listed by `/api/` and was missing from the document (Swagger UI showed
/// no `status` section): it is described, with the body it answers.
#[test]
fn status_is_documented() {
    let s = TestServer::start();
    let doc = document(&s);
    let get = &doc["paths"]["/api/status/"]["get"];
    assert_eq!(get["tags"], json!(["status"]));
    let schema = &get["responses"]["200"]["content"]["application/json"]["schema"];
    assert_eq!(schema["$ref"], "#/components/schemas/Status");
    let body = s.get("/api/status/").json();
    let status = &doc["components"]["schemas"]["Status"];
    let mut required: Vec<&str> = status["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    required.sort_unstable();
    let keys = sorted_field_names(&body);
    assert_eq!(keys, required);
    let backend = &status["properties"]["database"]["properties"]["backend"];
    assert!(listed(backend, &body["database"]["backend"]), "{backend}");
    assert_eq!(body["database"]["healthy"], true);
    for app in s.get("/api/").json().as_object().unwrap().keys() {
        let tagged = doc["paths"].as_object().unwrap().values().any(|item| {
            item.as_object().unwrap().values().any(|op| {
                op["tags"]
                    .as_array()
                    .is_some_and(|t| t.contains(&json!(app)))
            })
        });
        assert!(
            tagged,
            "/api/ lists {app}, the document has no operation tagged so"
        );
    }
}
