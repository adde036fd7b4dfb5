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
    assert_eq!(keys[..5], ["id", "url", "display_url", "display", "asn"]);
    assert!(
        !keys.iter().any(|k| *k == "assigned_config_contexts"),
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

const COLLECTION: &str = "/api/peering/autonomous-systems/";
const DETAIL: &str = "/api/peering/autonomous-systems/{id}/";

/// Path, method, and the statuses the server may answer there (`resource/` and `error.rs`
/// say which) besides the 406 and 414 every operation may answer.
const STATUSES: &[(&str, &str, &[&str])] = &[
    (COLLECTION, "get", &["200", "400", "403", "503"]),
    (COLLECTION, "options", &["200", "403", "503"]),
    (
        COLLECTION,
        "post",
        &["201", "400", "403", "408", "413", "415", "503"],
    ),
    (
        COLLECTION,
        "put",
        &["200", "400", "403", "408", "413", "415", "503"],
    ),
    (
        COLLECTION,
        "patch",
        &["200", "400", "403", "408", "413", "415", "503"],
    ),
    (
        COLLECTION,
        "delete",
        &["204", "400", "403", "408", "409", "413", "415", "503"],
    ),
    (DETAIL, "get", &["200", "304", "400", "403", "404", "503"]),
    (DETAIL, "options", &["200", "403", "404", "503"]),
    (
        DETAIL,
        "put",
        &[
            "200", "400", "403", "404", "408", "412", "413", "415", "503",
        ],
    ),
    (
        DETAIL,
        "patch",
        &[
            "200", "400", "403", "404", "408", "412", "413", "415", "503",
        ],
    ),
    (
        DETAIL,
        "delete",
        &["204", "403", "404", "409", "412", "503"],
    ),
    ("/api/status/", "get", &["200", "403", "503"]),
    ("/api/", "get", &["200"]),
    ("/api/peering/", "get", &["200"]),
    ("/api/schema/", "get", &["200"]),
];

/// The statuses listed for each operation of a resource, and of the other paths.
#[test]
fn operations_list_every_status_the_server_answers() {
    let doc = doc();
    for (path, method, expected) in STATUSES {
        let mut got: Vec<&String> = doc["paths"][path][method]["responses"]
            .as_object()
            .unwrap_or_else(|| panic!("{method} {path}"))
            .keys()
            .collect();
        got.sort();
        // Every operation may refuse an unknown API version in `Accept`, or an address
        // too long to read.
        let mut expected = expected.to_vec();
        expected.extend(["406", "414"]);
        expected.sort();
        assert_eq!(got, expected, "{method} {path}");
    }
}

/// Which shape a 400 or a 503 has where, and which paths are public.
#[test]
fn error_answers_name_their_shapes() {
    let doc = doc();
    let bad = |path: &str, method: &str| {
        doc["paths"][path][method]["responses"]["400"]["content"]["application/json"]["schema"]
            ["$ref"]
            .clone()
    };
    assert_eq!(
        bad(COLLECTION, "get"),
        "#/components/schemas/ObjectBadRequest"
    );
    assert_eq!(bad(COLLECTION, "put"), "#/components/schemas/BadRequest");
    assert_eq!(
        bad(DETAIL, "patch"),
        "#/components/schemas/ObjectBadRequest"
    );
    assert_eq!(bad(DETAIL, "get"), "#/components/schemas/Detail");
    let object_bad = &doc["components"]["schemas"]["ObjectBadRequest"]["oneOf"];
    assert_eq!(object_bad.as_array().map(Vec::len), Some(2));
    let unavailable = &doc["paths"]["/api/status/"]["get"]["responses"]["503"]["content"]
        ["application/json"]["schema"]["oneOf"];
    assert_eq!(unavailable[1]["$ref"], "#/components/schemas/Detail");
    // Public paths: no security requirement, no 403.
    for path in ["/api/", "/api/peering/", "/api/schema/"] {
        assert!(
            doc["paths"][path]["get"].get("security").is_none(),
            "{path}"
        );
    }
}

/// `/api/` and each application root: their links, as JSON or a page of links.
#[test]
fn roots_list_their_links() {
    let doc = doc();
    let schemas = &doc["components"]["schemas"];
    let root = &schemas["ApiRoot"];
    let names: Vec<&String> = root["properties"].as_object().unwrap().keys().collect();
    assert_eq!(
        names,
        [
            "bgp",
            "core",
            "devices",
            "extras",
            "messaging",
            "net",
            "peering",
            "peeringdb",
            "status",
            "users"
        ]
    );
    assert_eq!(root["properties"]["peering"]["format"], "uri");
    assert_eq!(root["required"].as_array().unwrap().len(), names.len());
    let peering = &schemas["PeeringRoot"]["properties"];
    assert_eq!(peering["autonomous-systems"]["format"], "uri");
    assert!(peering.get("object-changes").is_none());
    assert!(schemas["ExtrasRoot"]["properties"]["object-changes"].is_object());
    // Endpoints with handlers of their own are listed with the resources.
    let users: Vec<&String> = schemas["UsersRoot"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(users, ["groups", "tokens", "userpref", "users"]);
    for path in ["/api/", "/api/peering/"] {
        let content = &doc["paths"][path]["get"]["responses"]["200"]["content"];
        let media: Vec<&String> = content.as_object().unwrap().keys().collect();
        assert_eq!(media, ["application/json", "text/html"], "{path}");
    }
    let schema = &doc["paths"]["/api/schema/"]["get"];
    let media: Vec<&String> = schema["responses"]["200"]["content"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(media, ["application/json", "application/yaml"]);
    assert_eq!(
        schema["parameters"][0]["schema"]["enum"],
        json!(["json", "yaml"])
    );
}

/// OPTIONS is documented on every resource path, with the `Metadata` body.
#[test]
fn options_are_documented() {
    let doc = doc();
    for (path, id) in [
        (
            "/api/peering/autonomous-systems/",
            "peering_autonomous_systems_metadata",
        ),
        (
            "/api/extras/object-changes/{id}/",
            "extras_object_changes_detail_metadata",
        ),
    ] {
        let op = &doc["paths"][path]["options"];
        assert_eq!(op["operationId"], id);
        assert_eq!(
            op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/Metadata"
        );
    }
    let field = &doc["components"]["schemas"]["FieldMetadata"]["properties"];
    assert_eq!(
        field["choices"]["items"]["required"],
        json!(["display_name", "value"])
    );
}

/// `?format=yaml` serves the same document as YAML.
#[test]
fn yaml_is_the_same_document() {
    let yaml: Value = serde_yaml::from_str(
        super::yaml_for(peering_domain::names::FieldNames::Spec).expect("YAML"),
    )
    .expect("valid YAML");
    assert_eq!(yaml, doc());
}

/// A value of each typed body of `peering_domain::bodies`, by its component's name.
fn typed_bodies() -> Vec<(&'static str, Value)> {
    use peering_domain::bodies::*;
    let text = || String::from("x");
    vec![
        ("EmailToRender", json!(EmailToRender { email: 1 })),
        (
            "EmailToSend",
            json!(EmailToSend {
                email: 1,
                recipients: vec![text()],
                cc: vec![text()]
            }),
        ),
        (
            "NetworkEmailToRender",
            json!(NetworkEmailToRender {
                email: 1,
                autonomous_system: 2,
                network: 3
            }),
        ),
        (
            "RoutersToConfigure",
            json!(RoutersToConfigure {
                routers: vec![1],
                commit: true,
                confirm_within: Some(60),
            }),
        ),
        (
            "RenderedEmail",
            json!(RenderedEmail {
                subject: text(),
                body: text()
            }),
        ),
        ("RenderedExport", json!(RenderedExport { rendered: text() })),
        (
            "PasswordEncrypted",
            json!(PasswordEncrypted { encrypted: true }),
        ),
        (
            "Prefixes",
            json!(Prefixes {
                ipv6: vec![],
                ipv4: vec![]
            }),
        ),
        ("CacheCleared", json!(CacheCleared { status: text() })),
        (
            "ExchangePrefixes",
            json!(ExchangePrefixes {
                ipv6: vec![text()],
                ipv4: vec![text()]
            }),
        ),
        ("CacheStatistics", json!(CacheStatistics::default())),
        ("Detail", json!(Detail { detail: text() })),
    ]
}

/// The typed bodies of `peering_domain::bodies` have exactly their components' members, so
/// that the handlers that write them, the clients that read them and the document agree.
#[test]
fn typed_bodies_have_their_components_members() {
    let doc = doc();
    for (name, sample) in typed_bodies() {
        let schema = &doc["components"]["schemas"][name];
        let described: BTreeSet<&str> = schema["properties"]
            .as_object()
            .unwrap_or_else(|| panic!("{name} has no properties"))
            .keys()
            .map(String::as_str)
            .collect();
        let written: BTreeSet<&str> = sample
            .as_object()
            .expect("an object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(written, described, "{name}");
    }
}
