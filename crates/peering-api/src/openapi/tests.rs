//! Unit tests of the document's content: parameters from the filter catalog, component
//! names and forms, create bodies, and (when `OPENAPI_SPEC_VALIDATOR` names its executable)
//! a standard validator. Routes and conformance are tested over HTTP in peeringd's tests.

use std::collections::BTreeSet;

use serde_json::{json, Value};

fn doc() -> Value {
    serde_json::from_str(super::json().expect("document")).expect("JSON")
}

#[test]
fn document_describes_the_api_at_a_relative_server() {
    let doc = doc();
    assert_eq!(doc["openapi"], "3.0.0");
    assert_eq!(doc["servers"], json!([{"url": "/"}]));
    assert_eq!(doc["info"]["title"], "peeringd API");
    assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"));
    assert!(doc["paths"].get("/api/users/users/").is_some());
}

#[test]
fn list_parameters_follow_the_filter_catalog() {
    let doc = doc();
    let params: BTreeSet<&str> = doc["paths"]["/api/peering/autonomous-systems/"]["get"]
        ["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    for name in [
        "id",
        "id__gte",
        "asn",
        "asn__n",
        "asn__empty",
        "name__ic",
        "name__nie",
        "affiliated",
        "created__lt",
        "tag",
        "tag__n",
        "created_by_request",
        "limit",
        "offset",
        "ordering",
        "brief",
        "q",
    ] {
        assert!(params.contains(name), "{name} missing");
    }
    assert!(!params.contains("affiliated__n"));
    assert!(!params.contains("asn__exact"));
}

#[test]
fn components_have_valid_names_and_forms() {
    let doc = doc();
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    for name in schemas.keys() {
        assert!(
            name.chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)),
            "invalid component name {name}"
        );
    }
    for name in [
        "AutonomousSystem",
        "BriefAutonomousSystem",
        "NestedAutonomousSystem",
        "PaginatedAutonomousSystemList",
        "WritableAutonomousSystem",
        "PatchedWritableAutonomousSystem",
        "BulkWritableAutonomousSystem",
        "PatchedBulkWritableAutonomousSystem",
        "ObjectChange",
        "NestedUser",
        "Detail",
        "ValidationError",
        "BadRequest",
        "ObjectId",
    ] {
        assert!(schemas.contains_key(name), "{name} missing");
    }
    assert!(!schemas.contains_key("WritableObjectChange"));
    let asn = &schemas["AutonomousSystem"]["properties"]["asn"];
    assert_eq!(asn["type"], "integer");
    assert_eq!(asn["format"], "int64");
    assert_eq!(asn["maximum"], 4_294_967_295_i64);
    let keys: Vec<&String> = schemas["AutonomousSystem"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(keys[..4], ["id", "url", "display", "asn"]);
    assert!(
        !keys.iter().any(|k| *k == "description"),
        "hidden field rendered"
    );
}

#[test]
fn create_takes_one_object_or_a_list() {
    let doc = doc();
    let post = &doc["paths"]["/api/extras/tags/"]["post"];
    let body = &post["requestBody"]["content"]["application/json"]["schema"]["oneOf"];
    assert_eq!(body[0]["$ref"], "#/components/schemas/WritableTag");
    assert_eq!(body[1]["items"]["$ref"], "#/components/schemas/WritableTag");
    let created = &post["responses"]["201"]["content"]["application/json"]["schema"]["oneOf"];
    assert_eq!(created[1]["items"]["$ref"], "#/components/schemas/Tag");
    let bad = &post["responses"]["400"]["content"]["application/json"]["schema"]["$ref"];
    assert_eq!(bad, "#/components/schemas/BadRequest");
    assert_eq!(
        doc["components"]["schemas"]["BadRequest"]["oneOf"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert_eq!(post["security"], json!([{"tokenAuth": []}]));
}

/// Skipped (with a note) unless `OPENAPI_SPEC_VALIDATOR` names `openapi-spec-validator`.
#[test]
fn passes_openapi_spec_validator() {
    let Ok(validator) = std::env::var("OPENAPI_SPEC_VALIDATOR") else {
        eprintln!("OPENAPI_SPEC_VALIDATOR not set; validator not run");
        return;
    };
    let path = std::env::temp_dir().join(format!("peeringd-openapi-{}.json", std::process::id()));
    std::fs::write(&path, super::json().unwrap()).unwrap();
    let out = std::process::Command::new(validator)
        .arg(&path)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "validator failed: {text}");
}
