//! Representations, writes, pagination, headers and errors of the API, end to end over HTTP.

mod common;

use common::{column, TestServer, AS};
use serde_json::{json, Value as Json};

#[test]
fn create_renders_every_field_with_its_default() {
    let s = TestServer::start();
    let r = s.post(AS, json!({"asn": 65001, "name": "Example"}));
    assert_eq!(r.status, 201, "{}", r.text);
    let o = r.json();
    let keys: Vec<&str> = o.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "id",
            "url",
            "display",
            "asn",
            "name",
            "comments",
            "irr_as_set",
            "irr_as_set_extdb_sync",
            "ipv6_max_prefixes",
            "ipv6_max_prefixes_extdb_sync",
            "ipv4_max_prefixes",
            "ipv4_max_prefixes_extdb_sync",
            "import_routing_policies",
            "export_routing_policies",
            "communities",
            "prefixes",
            "affiliated",
            "local_context_data",
            "tags",
            "created",
            "updated"
        ]
    );
    assert_eq!(o["display"], "AS65001 - Example");
    assert_eq!(o["url"], format!("{}{AS}{}/", s.base, o["id"]));
    assert_eq!(o["comments"], "");
    assert_eq!(o["irr_as_set"], Json::Null);
    assert_eq!(o["irr_as_set_extdb_sync"], true);
    assert_eq!(o["ipv6_max_prefixes"], 0);
    assert_eq!(o["affiliated"], false);
    assert_eq!(o["tags"], json!([]));
    let created = o["created"].as_str().unwrap();
    assert!(
        chrono::DateTime::parse_from_rfc3339(created).is_ok(),
        "{created}"
    );
    assert!(created.ends_with('Z'));

    let detail = s.get(&format!("{AS}{}/", o["id"])).json();
    assert_eq!(detail, o);
    let brief = s.get(&format!("{AS}{}/?brief=1", o["id"])).json();
    let keys: Vec<&str> = brief
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "id",
            "url",
            "display",
            "asn",
            "name",
            "ipv6_max_prefixes",
            "ipv4_max_prefixes"
        ]
    );
    let not_brief = s.get(&format!("{AS}{}/?brief=false", o["id"])).json();
    assert!(not_brief.get("comments").is_some());
}

#[test]
fn validation_errors_name_the_field() {
    let s = TestServer::start();
    let r = s.post(AS, json!({"name": "x"}));
    assert_eq!(r.status, 400);
    assert_eq!(r.json(), json!({"asn": ["This field is required."]}));
    let r = s.post(AS, json!({"asn": 0, "name": "x"}));
    assert_eq!(
        r.json(),
        json!({"asn": ["Ensure this value is greater than or equal to 1."]})
    );
    s.create(AS, json!({"asn": 65001, "name": "a"}));
    let r = s.post(AS, json!({"asn": 65001, "name": "b"}));
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json(),
        json!({"asn": ["autonomous system with this ASN already exists."]})
    );
    let r = s.request("POST", AS, None, Some(&s.key), &[]);
    assert_eq!(r.status, 400);
    assert!(r.json()["detail"]
        .as_str()
        .unwrap()
        .contains("JSON parse error"));
}

#[test]
fn bulk_create_is_all_or_none() {
    let s = TestServer::start();
    let r = s.post(AS, json!([{"asn": 1, "name": "a"}, {"asn": 2}]));
    assert_eq!(r.status, 400);
    assert_eq!(r.json(), json!([{}, {"name": ["This field is required."]}]));
    let r = s.post(
        AS,
        json!([{"asn": 1, "name": "a"}, {"asn": 1, "name": "dup"}]),
    );
    assert_eq!(r.status, 400, "{}", r.text);
    assert_eq!(
        r.json()[1],
        json!({"asn": ["autonomous system with this ASN already exists."]})
    );
    assert_eq!(s.get(AS).json()["count"], 0);
    let r = s.post(
        AS,
        json!([{"asn": 1, "name": "a"}, {"asn": 2, "name": "b"}]),
    );
    assert_eq!(r.status, 201);
    assert_eq!(r.json().as_array().unwrap().len(), 2);
    assert_eq!(s.get(AS).json()["count"], 2);
}

#[test]
fn bulk_writes_resolve_every_reference_and_name_each_missing_one() {
    let s = TestServer::start();
    let ids = |objects: &Json| -> Vec<i64> {
        let list = objects.as_array().expect("a list of objects");
        list.iter().map(|o| o["id"].as_i64().unwrap()).collect()
    };
    let tags = ids(&s.create(
        "/api/extras/tags/",
        json!([{"name": "t1", "slug": "t1"}, {"name": "t2", "slug": "t2"}, {"name": "t3", "slug": "t3"}]),
    ));
    let policies = ids(&s.create(
        "/api/peering/routing-policies/",
        json!([{"name": "p1", "slug": "p1"}, {"name": "p2", "slug": "p2"}]),
    ));
    // Many objects, each naming a few of the same and different objects.
    let body: Vec<Json> = (0..30)
        .map(|i| {
            json!({"asn": 100 + i, "name": format!("n{i}"),
                   "tags": [tags[i % 3], tags[(i + 1) % 3]],
                   "import_routing_policies": [policies[i % 2]]})
        })
        .collect();
    let created = s.create(AS, Json::Array(body));
    for (i, object) in created.as_array().unwrap().iter().enumerate() {
        let mut want = vec![tags[i % 3], tags[(i + 1) % 3]];
        want.sort();
        assert_eq!(ids(&object["tags"]), want, "object {i}");
        assert_eq!(
            ids(&object["import_routing_policies"]),
            vec![policies[i % 2]]
        );
    }

    // Unknown ids among known ones: the first failing item names its own, nothing is
    // written.
    let r = s.post(
        AS,
        json!([
            {"asn": 1, "name": "a", "tags": [tags[0], tags[1]]},
            {"asn": 2, "name": "b", "tags": [tags[2], 999], "import_routing_policies": [policies[1], 998]},
            {"asn": 3, "name": "c", "tags": [tags[0], 997]},
        ]),
    );
    assert_eq!(r.status, 400, "{}", r.text);
    assert_eq!(
        r.json(),
        json!([
            {},
            {"tags": [[], ["Related object not found using the provided numeric ID: 999"]],
             "import_routing_policies": ["Invalid pk \"998\" - object does not exist."]},
            {},
        ])
    );
    let r = s.post(
        AS,
        json!([
            {"asn": 1, "name": "a", "tags": [tags[0], tags[1]]},
            {"asn": 3, "name": "c", "tags": [tags[2], 997]},
        ]),
    );
    assert_eq!(
        r.json(),
        json!([{}, {"tags": [[], ["Related object not found using the provided numeric ID: 997"]]}])
    );
    assert_eq!(s.get(AS).json()["count"], 30);

    // The same in a bulk update, whose error is the failing item's alone.
    let first = ids(&created)[0];
    let r = s.patch(AS, json!([{"id": first, "tags": [tags[2], 996]}]));
    assert_eq!(r.status, 400, "{}", r.text);
    assert_eq!(
        r.json(),
        json!({"tags": [[], ["Related object not found using the provided numeric ID: 996"]]})
    );
    let r = s.patch(AS, json!([{"id": first, "tags": [tags[2], tags[1]]}]));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(ids(&r.json()[0]["tags"]), vec![tags[1], tags[2]]);
}

#[test]
fn updates_single_and_bulk() {
    let s = TestServer::start();
    let created = s.create(
        AS,
        json!([{"asn": 1, "name": "a"}, {"asn": 2, "name": "b"}, {"asn": 3, "name": "c"}]),
    );
    let ids: Vec<i64> = created
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_i64().unwrap())
        .collect();
    let r = s.patch(&format!("{AS}{}/", ids[0]), json!({"comments": "hello"}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["comments"], "hello");
    assert_eq!(r.json()["name"], "a");
    let r = s.put(&format!("{AS}{}/", ids[0]), json!({"comments": "x"}));
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json(),
        json!({"asn": ["This field is required."], "name": ["This field is required."]})
    );
    let r = s.put(&format!("{AS}{}/", ids[0]), json!({"asn": 10, "name": "z"}));
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["comments"], "hello");

    let r = s.patch(AS, json!([{"id": ids[1], "name": "B"}, {"id": ids[2], "affiliated": true}, {"id": 999999, "name": "ghost"}]));
    assert_eq!(r.status, 200, "{}", r.text);
    let body = r.json();
    assert_eq!(body.as_array().unwrap().len(), 2);
    assert_eq!(body[0]["name"], "B");
    assert_eq!(body[1]["affiliated"], true);

    // One invalid item aborts the whole bulk update.
    let r = s.patch(
        AS,
        json!([{"id": ids[1], "name": "changed"}, {"id": ids[2], "asn": 10}]),
    );
    assert_eq!(r.status, 400, "{}", r.text);
    assert_eq!(s.get(&format!("{AS}{}/", ids[1])).json()["name"], "B");
    let r = s.patch(AS, json!({"id": 1}));
    assert_eq!(
        r.json(),
        json!({"non_field_errors": ["Expected a list of items but got type \"dict\"."]})
    );
    let r = s.patch(AS, json!([{"name": "x"}]));
    assert_eq!(r.json(), json!([{"id": ["This field is required."]}]));
}

#[test]
fn awkward_text_survives_bulk_writes() {
    let s = TestServer::start();
    let awkward = [
        r#"quote " and backslash \ and {braces}, commas"#,
        "NULL",
        "",
        "üñíçødé ✓ 'single'",
    ];
    let items: Vec<Json> = awkward
        .iter()
        .enumerate()
        .map(|(i, t)| json!({"asn": 64_512 + i, "name": format!("n{i}"), "comments": t}))
        .collect();
    let created = s.create(AS, Json::Array(items));
    let patch: Vec<Json> = created
        .as_array()
        .unwrap()
        .iter()
        .zip(awkward.iter().rev())
        .map(|(o, t)| json!({"id": o["id"], "comments": t}))
        .collect();
    let stored = s.get(&format!("{AS}?ordering=asn")).json();
    assert_eq!(common::column(&stored, "comments"), awkward.map(Json::from));
    let r = s.patch(AS, Json::Array(patch));
    assert_eq!(r.status, 200, "{}", r.text);
    let stored = s.get(&format!("{AS}?ordering=asn")).json();
    let mut reversed = awkward.map(Json::from);
    reversed.reverse();
    assert_eq!(common::column(&stored, "comments"), reversed);
    assert_eq!(&stored["results"], &r.json());
}

#[test]
fn an_object_patched_twice_in_one_request_is_answered_in_its_final_state() {
    let s = TestServer::start();
    let id = s.create(AS, json!({"asn": 64_512, "name": "first"}))["id"].clone();
    for name in ["a", "b"] {
        s.create("/api/extras/tags/", json!({"name": name, "slug": name}));
    }
    let r = s.patch(
        AS,
        json!([
            {"id": id, "name": "second", "tags": [{"name": "a"}]},
            {"id": id, "comments": "third", "tags": [{"name": "a"}, {"name": "b"}]},
            {"id": id, "irr_as_set": "AS-FOURTH"},
        ]),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let stored = s.get(&format!("{AS}{id}/")).json();
    assert_eq!(stored["name"], "second");
    assert_eq!(stored["comments"], "third");
    assert_eq!(stored["irr_as_set"], "AS-FOURTH");
    let tags: Vec<&Json> = stored["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["name"])
        .collect();
    assert_eq!(tags, [&json!("a"), &json!("b")]);
    assert_eq!(r.json(), json!([stored, stored, stored]));
    // One change record per item, each from where the previous one left the object.
    let changes = s
        .get(&format!(
            "/api/extras/object-changes/?changed_object_id={id}&action=update&ordering=time"
        ))
        .json();
    let names: Vec<_> = changes["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["prechange_data"]["name"].clone(),
                c["postchange_data"]["comments"].clone(),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            (json!("first"), json!("")),
            (json!("second"), json!("third")),
            (json!("second"), json!("third")),
        ]
    );
}

#[test]
fn a_bulk_update_of_many_objects_writes_each_its_own_changes() {
    let s = TestServer::start();
    let items: Vec<Json> = (0..1100)
        .map(|i| json!({"asn": 64_512 + i, "name": format!("n{i}"), "comments": "kept"}))
        .collect();
    let created = s.create(AS, Json::Array(items));
    // Two kinds of change, interleaved, more of each than one statement holds.
    let patch: Vec<Json> = created
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, o)| match i % 2 {
            0 => json!({"id": o["id"], "name": format!("renamed{i}")}),
            _ => json!({"id": o["id"], "comments": format!("c{i}"), "ipv4_max_prefixes": i}),
        })
        .collect();
    let r = s.patch(AS, Json::Array(patch));
    assert_eq!(r.status, 200, "{}", r.text);
    let mut stored = Vec::new();
    for offset in [0, 1000] {
        let page = s
            .get(&format!("{AS}?ordering=asn&limit=1000&offset={offset}"))
            .json();
        stored.extend(page["results"].as_array().unwrap().iter().cloned());
    }
    assert_eq!(stored.len(), 1100);
    for (i, o) in stored.iter().enumerate() {
        if i % 2 == 0 {
            assert_eq!(o["name"], format!("renamed{i}"));
            assert_eq!(o["comments"], "kept");
            assert_eq!(o["ipv4_max_prefixes"], 0);
        } else {
            assert_eq!(o["name"], format!("n{i}"));
            assert_eq!(o["comments"], format!("c{i}"));
            assert_eq!(o["ipv4_max_prefixes"], i);
        }
    }
}

#[test]
fn deletes_single_and_bulk() {
    let s = TestServer::start();
    let created = s.create(
        AS,
        json!([{"asn": 1, "name": "a"}, {"asn": 2, "name": "b"}, {"asn": 3, "name": "c"}]),
    );
    let ids: Vec<i64> = created
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_i64().unwrap())
        .collect();
    let r = s.delete(&format!("{AS}{}/", ids[0]), None);
    assert_eq!(r.status, 204);
    assert_eq!(r.text, "");
    assert_eq!(s.get(&format!("{AS}{}/", ids[0])).status, 404);
    assert_eq!(s.delete(&format!("{AS}{}/", ids[0]), None).status, 404);
    let r = s.delete(
        AS,
        Some(json!([{"id": ids[1]}, {"id": ids[2]}, {"id": 424242}])),
    );
    assert_eq!(r.status, 204, "{}", r.text);
    assert_eq!(s.get(AS).json()["count"], 0);
}

#[test]
fn pagination_links_keep_every_parameter() {
    let s = TestServer::start();
    let items: Vec<Json> = (1..=7)
        .map(|i| json!({"asn": i, "name": format!("n{i}")}))
        .collect();
    s.create(AS, Json::Array(items));
    let page = s.get(&format!("{AS}?limit=3&name__ic=n&name__ic=x")).json();
    assert_eq!(page["count"], 7);
    assert_eq!(column(&page, "asn"), [json!(1), json!(2), json!(3)]);
    let next = page["next"].as_str().unwrap();
    assert_eq!(
        next,
        format!("{}{AS}?limit=3&name__ic=n&name__ic=x&offset=3", s.base)
    );
    assert_eq!(page["previous"], Json::Null);
    let page2 = s.get(next).json();
    assert_eq!(column(&page2, "asn"), [json!(4), json!(5), json!(6)]);
    assert_eq!(
        page2["previous"].as_str().unwrap(),
        format!("{}{AS}?limit=3&name__ic=n&name__ic=x", s.base)
    );
    let past = s.get(&format!("{AS}?offset=100"));
    assert_eq!(past.status, 200);
    assert_eq!(past.json()["results"], json!([]));
    assert_eq!(past.json()["count"], 7);
}

#[test]
fn page_size_settings() {
    let s = TestServer::start_with(peering_api::Settings {
        paginate_count: 2,
        max_page_size: 5,
        ..Default::default()
    });
    let items: Vec<Json> = (1..=7)
        .map(|i| json!({"asn": i, "name": format!("n{i}")}))
        .collect();
    s.create(AS, Json::Array(items));
    assert_eq!(s.get(AS).json()["results"].as_array().unwrap().len(), 2);
    assert_eq!(
        s.get(&format!("{AS}?limit=100")).json()["results"]
            .as_array()
            .unwrap()
            .len(),
        5
    );
    assert_eq!(
        s.get(&format!("{AS}?limit=0")).json()["results"]
            .as_array()
            .unwrap()
            .len(),
        5
    );
    let unlimited = TestServer::start_with(peering_api::Settings {
        max_page_size: 0,
        ..Default::default()
    });
    let items: Vec<Json> = (1..=60)
        .map(|i| json!({"asn": i, "name": format!("n{i}")}))
        .collect();
    unlimited.create(AS, Json::Array(items));
    let all = unlimited.get(&format!("{AS}?limit=0")).json();
    assert_eq!(all["results"].as_array().unwrap().len(), 60);
    assert_eq!(all["next"], Json::Null);
}

#[test]
fn headers_on_every_response() {
    let s = TestServer::start();
    for r in [
        s.get(AS),
        s.get("/api/peering/nothing/"),
        s.get(&format!("{AS}12345/")),
    ] {
        assert_eq!(r.header("API-Version"), Some("0.1"));
        let id = r.header("X-Request-ID").unwrap();
        assert!(uuid::Uuid::parse_str(id).is_ok());
    }
    let list = s.get(AS);
    assert!(list.header("Allow").unwrap().contains("POST"));
    assert!(list.header("Vary").is_some());
    assert_eq!(list.header("Content-Type"), Some("application/json"));
    let missing = s.get("/api/peering/nothing/");
    assert_eq!(missing.status, 404);
    assert_eq!(missing.json(), json!({"detail": "Not found."}));
    assert_eq!(s.get(&format!("{AS}abc/")).status, 404);
    let r = s.request(
        "GET",
        "/api/peering/autonomous-systems?limit=1&tag=a",
        None,
        None,
        &[],
    );
    assert_eq!(r.status, 302);
    assert_eq!(
        r.header("Location"),
        Some("/api/peering/autonomous-systems/?limit=1&tag=a")
    );
    assert!(r.header("X-Request-ID").is_some());
    let indented = s.request(
        "GET",
        AS,
        None,
        None,
        &[("Accept", "application/json; indent=4")],
    );
    assert!(
        indented.text.contains("\n    \"count\": 0"),
        "{}",
        indented.text
    );
}

#[test]
fn oversized_body_is_refused() {
    let s = TestServer::start_with(peering_api::Settings {
        max_body_bytes: 1000,
        ..Default::default()
    });
    let name = "x".repeat(2000);
    let r = s.post(AS, json!({"asn": 1, "name": name}));
    assert_eq!(r.status, 413);
    assert!(r.json()["detail"].is_string());
}

#[test]
fn roots_and_status() {
    let s = TestServer::start();
    let root = s.get("/api/").json();
    assert_eq!(root["peering"], format!("{}/api/peering/", s.base));
    assert_eq!(root["extras"], format!("{}/api/extras/", s.base));
    let peering = s.get("/api/peering/").json();
    assert_eq!(peering["autonomous-systems"], format!("{}{AS}", s.base));
    let html = s.request("GET", "/api/", None, None, &[("Accept", "text/html")]);
    assert!(html.text.contains("<a href="));
    let status = s.get("/api/status/").json();
    assert_eq!(status["database"]["healthy"], true);
    let backend = if peering_store::testing::postgres_url().is_some() {
        "postgresql"
    } else {
        "sqlite"
    };
    assert_eq!(status["database"]["backend"], backend);
}

#[test]
fn options_describe_writable_fields_to_writers_only() {
    let s = TestServer::start();
    let r = s.request(
        "OPTIONS",
        "/api/peering/routing-policies/",
        None,
        Some(&s.key),
        &[],
    );
    assert_eq!(r.status, 200);
    let body = r.json();
    // Named after the model, as the reference's viewsets are.
    assert_eq!(body["name"], "Routing Policy");
    assert!(body["renders"]
        .as_array()
        .unwrap()
        .contains(&json!("application/json")));
    let post = &body["actions"]["POST"];
    assert_eq!(post["name"]["required"], true);
    // Only what a write takes; a bulk update (PUT) beside the create.
    for read_only in ["id", "url", "display", "created", "updated"] {
        assert!(post.get(read_only).is_none(), "{read_only}: {post}");
    }
    assert_eq!(body["actions"]["PUT"], *post);
    assert_eq!(post["tags"]["type"], "field");
    assert_eq!(post["slug"]["type"], "slug");
    assert_eq!(
        post["type"]["choices"],
        json!([
            {"value": "export-policy", "display_name": "Export"},
            {"value": "import-policy", "display_name": "Import"},
            {"value": "import-export-policy", "display_name": "Import+Export"}
        ])
    );
    let anonymous = s.request("OPTIONS", "/api/peering/routing-policies/", None, None, &[]);
    assert!(anonymous.json().get("actions").is_none());
    let detail = s
        .request("OPTIONS", &format!("{AS}1/"), None, Some(&s.key), &[])
        .json();
    assert!(detail["actions"]["PUT"]["asn"].is_object());
}
