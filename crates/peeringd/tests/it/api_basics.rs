//! Representations, writes, pagination, headers and errors of the API, end to end over HTTP.
//! Writes, validation errors and pages go through `peering-client`, typed by the models
//! (bodies no typed call can send through its `action`), so that CI exercises the client
//! too; representations, headers and limits are checked on the raw answers.

use crate::common::builders::autonomous_system;
use crate::common::client::{block_on, client};
use crate::common::{field_names, TestServer, AS};
use peering_client::{Client, Error, Method, Query};
use peering_domain::models::{
    AutonomousSystem, PatchAutonomousSystem, RoutingPolicy, Tag, WritableAutonomousSystem,
    WritableRoutingPolicy, WritableTag,
};
use serde_json::{json, Value as Json};

fn system(asn: i64, name: &str) -> WritableAutonomousSystem {
    WritableAutonomousSystem::new(asn, name.to_string())
}

fn ids(systems: &[AutonomousSystem]) -> Vec<i64> {
    systems.iter().map(|a| a.id).collect()
}

fn asns(systems: &[AutonomousSystem]) -> Vec<i64> {
    systems.iter().map(|a| a.asn).collect()
}

fn tag_ids(system: &AutonomousSystem) -> Vec<i64> {
    system.tags.iter().map(|t| t.id).collect()
}

/// How many autonomous systems are stored.
async fn count(c: &Client) -> u64 {
    let page = c.list(&Query::<AutonomousSystem>::new()).await;
    page.expect("a list").count
}

/// The body of a 400, as the server sent it.
fn refusal<T: std::fmt::Debug>(answer: Result<T, Error>) -> Json {
    match answer {
        Err(Error::BadRequest(errors)) => errors.to_json(),
        other => panic!("not a 400: {other:?}"),
    }
}

#[test]
fn create_renders_every_field_with_its_default() {
    let s = TestServer::start();
    let r = s.post(AS, json!({"asn": 65001, "name": "Example"}));
    assert_eq!(r.status, 201, "{}", r.text);
    let o = r.json();
    let keys = field_names(&o);
    assert_eq!(
        keys,
        [
            "id",
            "url",
            "display_url",
            "display",
            "asn",
            "name",
            "name_extdb_sync",
            "description",
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
            "retrieve_prefixes",
            "as_list",
            "retrieve_as_list",
            "irr_sources_override",
            "irr_ipv6_prefixes_args_override",
            "irr_ipv4_prefixes_args_override",
            "affiliated",
            "local_context_data",
            "config_context",
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
    assert_eq!(o["retrieve_prefixes"], true);
    assert_eq!(o["as_list"], json!([]));
    assert_eq!(o["retrieve_as_list"], true);
    assert_eq!(o["config_context"], Json::Null);
    assert_eq!(
        o["display_url"],
        format!("{}{AS}{}/?format=api", s.base, o["id"])
    );
    assert_eq!(o["irr_sources_override"], "");
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
    let keys = field_names(&brief);
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
    let c = client(&s);
    block_on(async {
        // A typed body cannot leave `asn` out: the raw body goes through `action`.
        let r = c
            .action::<Json>(Method::POST, AS, Some(&json!({"name": "x"})))
            .await;
        assert_eq!(refusal(r), json!({"asn": ["This field is required."]}));
        let r = c.create::<AutonomousSystem>(&system(0, "x")).await;
        assert_eq!(
            refusal(r),
            json!({"asn": ["Ensure this value is greater than or equal to 1."]})
        );
        c.create::<AutonomousSystem>(&system(65001, "a"))
            .await
            .expect("created");
        let r = c.create::<AutonomousSystem>(&system(65001, "b")).await;
        assert_eq!(
            refusal(r),
            json!({"asn": ["autonomous system with this ASN already exists."]})
        );
        let r = c.action::<Json>(Method::POST, AS, None).await;
        let Err(Error::BadRequest(errors)) = r else {
            panic!("not a 400: {r:?}");
        };
        assert!(errors.detail().unwrap().contains("JSON parse error"));
    });
}

#[test]
fn bulk_create_is_all_or_none() {
    let s = TestServer::start();
    let c = client(&s);
    block_on(async {
        let body = json!([{"asn": 1, "name": "a"}, {"asn": 2}]);
        let r = c.action::<Json>(Method::POST, AS, Some(&body)).await;
        assert_eq!(
            refusal(r),
            json!([{}, {"name": ["This field is required."]}])
        );
        let r = c
            .create_many::<AutonomousSystem>(&[system(1, "a"), system(1, "dup")])
            .await;
        assert_eq!(
            refusal(r)[1],
            json!({"asn": ["autonomous system with this ASN already exists."]})
        );
        assert_eq!(count(&c).await, 0);
        let created = c
            .create_many::<AutonomousSystem>(&[system(1, "a"), system(2, "b")])
            .await
            .expect("created");
        assert_eq!(created.len(), 2);
        assert_eq!(count(&c).await, 2);
    });
}

#[test]
fn bulk_writes_resolve_every_reference_and_name_each_missing_one() {
    let s = TestServer::start();
    let c = client(&s);
    block_on(async {
        let tags = ["t1", "t2", "t3"].map(|t| WritableTag::new(t.into(), t.into()));
        let tags = c.create_many::<Tag>(&tags).await.unwrap();
        let tags: Vec<i64> = tags.iter().map(|t| t.id).collect();
        let policies = ["p1", "p2"].map(|p| WritableRoutingPolicy::new(p.into(), p.into()));
        let policies = c.create_many::<RoutingPolicy>(&policies).await.unwrap();
        let policies: Vec<i64> = policies.iter().map(|p| p.id).collect();
        // Many objects, each naming a few of the same and different objects.
        let body: Vec<_> = (0..30)
            .map(|i| WritableAutonomousSystem {
                tags: Some(vec![tags[i % 3], tags[(i + 1) % 3]]),
                import_routing_policies: Some(vec![policies[i % 2]]),
                ..system(100 + i as i64, &format!("n{i}"))
            })
            .collect();
        let created = c.create_many::<AutonomousSystem>(&body).await.unwrap();
        for (i, object) in created.iter().enumerate() {
            let mut want = vec![tags[i % 3], tags[(i + 1) % 3]];
            want.sort();
            assert_eq!(tag_ids(object), want, "object {i}");
            let imports: Vec<i64> = object
                .import_routing_policies
                .iter()
                .map(|p| p.id)
                .collect();
            assert_eq!(imports, vec![policies[i % 2]]);
        }

        // Unknown ids among known ones: the first failing item names its own, nothing is
        // written.
        let tagged = |asn: i64, name: &str, tags: Vec<i64>| WritableAutonomousSystem {
            tags: Some(tags),
            ..system(asn, name)
        };
        let r = c
            .create_many::<AutonomousSystem>(&[
                tagged(1, "a", vec![tags[0], tags[1]]),
                WritableAutonomousSystem {
                    import_routing_policies: Some(vec![policies[1], 998]),
                    ..tagged(2, "b", vec![tags[2], 999])
                },
                tagged(3, "c", vec![tags[0], 997]),
            ])
            .await;
        assert_eq!(
            refusal(r),
            json!([
                {},
                {"tags": [[], ["Related object not found using the provided numeric ID: 999"]],
                 "import_routing_policies": ["Invalid pk \"998\" - object does not exist."]},
                {},
            ])
        );
        let r = c
            .create_many::<AutonomousSystem>(&[
                tagged(1, "a", vec![tags[0], tags[1]]),
                tagged(3, "c", vec![tags[2], 997]),
            ])
            .await;
        assert_eq!(
            refusal(r),
            json!([{}, {"tags": [[], ["Related object not found using the provided numeric ID: 997"]]}])
        );
        assert_eq!(count(&c).await, 30);

        // The same in a bulk update, whose error is the failing item's alone.
        let retag = |tags: Vec<i64>| PatchAutonomousSystem {
            tags: Some(tags),
            ..Default::default()
        };
        let first = created[0].id;
        let r = c
            .update_many::<AutonomousSystem>(&[(first, retag(vec![tags[2], 996]))])
            .await;
        assert_eq!(
            refusal(r),
            json!({"tags": [[], ["Related object not found using the provided numeric ID: 996"]]})
        );
        let r = c
            .update_many::<AutonomousSystem>(&[(first, retag(vec![tags[2], tags[1]]))])
            .await
            .unwrap();
        assert_eq!(tag_ids(&r[0]), vec![tags[1], tags[2]]);
    });
}

#[test]
fn updates_single_and_bulk() {
    let s = TestServer::start();
    let c = client(&s);
    block_on(async {
        let created = c
            .create_many::<AutonomousSystem>(&[system(1, "a"), system(2, "b"), system(3, "c")])
            .await
            .unwrap();
        let ids = ids(&created);
        let hello = PatchAutonomousSystem {
            comments: Some("hello".into()),
            ..Default::default()
        };
        let r = c.update::<AutonomousSystem>(ids[0], &hello).await.unwrap();
        assert_eq!(r.comments, "hello");
        assert_eq!(r.name, "a");
        // A PUT without the required fields, which a typed body cannot leave out.
        let path = format!("{AS}{}/", ids[0]);
        let r = c
            .action::<Json>(Method::PUT, &path, Some(&json!({"comments": "x"})))
            .await;
        assert_eq!(
            refusal(r),
            json!({"asn": ["This field is required."], "name": ["This field is required."]})
        );
        let r = c
            .replace::<AutonomousSystem>(ids[0], &system(10, "z"))
            .await
            .unwrap();
        assert_eq!(r.comments, "hello");

        let name = |name: &str| PatchAutonomousSystem {
            name: Some(name.into()),
            ..Default::default()
        };
        let affiliated = PatchAutonomousSystem {
            affiliated: Some(true),
            ..Default::default()
        };
        let r = c
            .update_many::<AutonomousSystem>(&[
                (ids[1], name("B")),
                (ids[2], affiliated),
                (999_999, name("ghost")),
            ])
            .await
            .unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].name, "B");
        assert!(r[1].affiliated);

        // One invalid item aborts the whole bulk update.
        let taken = PatchAutonomousSystem {
            asn: Some(10),
            ..Default::default()
        };
        let r = c
            .update_many::<AutonomousSystem>(&[(ids[1], name("changed")), (ids[2], taken)])
            .await;
        assert!(matches!(r, Err(Error::BadRequest(_))), "{r:?}");
        assert_eq!(c.get::<AutonomousSystem>(ids[1]).await.unwrap().name, "B");
        // Bodies no typed call sends.
        let r = c
            .action::<Json>(Method::PATCH, AS, Some(&json!({"id": 1})))
            .await;
        assert_eq!(
            refusal(r),
            json!({"non_field_errors": ["Expected a list of items but got type \"dict\"."]})
        );
        let r = c
            .action::<Json>(Method::PATCH, AS, Some(&json!([{"name": "x"}])))
            .await;
        assert_eq!(refusal(r), json!([{"id": ["This field is required."]}]));
    });
}

#[test]
fn awkward_text_survives_bulk_writes() {
    let s = TestServer::start();
    let c = client(&s);
    let awkward = [
        r#"quote " and backslash \ and {braces}, commas"#,
        "NULL",
        "",
        "üñíçødé ✓ 'single'",
    ];
    let comments = |list: &[AutonomousSystem]| -> Vec<String> {
        list.iter().map(|a| a.comments.clone()).collect()
    };
    block_on(async {
        let items: Vec<_> = awkward
            .iter()
            .enumerate()
            .map(|(i, t)| WritableAutonomousSystem {
                comments: Some(t.to_string()),
                ..system(64_512 + i as i64, &format!("n{i}"))
            })
            .collect();
        let created = c.create_many::<AutonomousSystem>(&items).await.unwrap();
        let patch: Vec<_> = created
            .iter()
            .zip(awkward.iter().rev())
            .map(|(o, t)| {
                let patch = PatchAutonomousSystem {
                    comments: Some(t.to_string()),
                    ..Default::default()
                };
                (o.id, patch)
            })
            .collect();
        let by_asn = Query::<AutonomousSystem>::new().ordering("asn");
        let stored = c.list(&by_asn).await.unwrap();
        assert_eq!(comments(&stored.results), awkward);
        let r = c.update_many::<AutonomousSystem>(&patch).await.unwrap();
        let stored = c.list(&by_asn).await.unwrap();
        let mut reversed = awkward;
        reversed.reverse();
        assert_eq!(comments(&stored.results), reversed);
        assert_eq!(stored.results, r);
    });
}

#[test]
fn an_object_patched_twice_in_one_request_is_answered_in_its_final_state() {
    let s = TestServer::start();
    let id = autonomous_system(64_512, "first").id(&s);
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
    let c = client(&s);
    block_on(async {
        let items: Vec<_> = (0..1100)
            .map(|i| WritableAutonomousSystem {
                comments: Some("kept".into()),
                ..system(64_512 + i, &format!("n{i}"))
            })
            .collect();
        let created = c.create_many::<AutonomousSystem>(&items).await.unwrap();
        // Two kinds of change, interleaved, more of each than one statement holds.
        let patch: Vec<_> = created
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let patch = match i % 2 {
                    0 => PatchAutonomousSystem {
                        name: Some(format!("renamed{i}")),
                        ..Default::default()
                    },
                    _ => PatchAutonomousSystem {
                        comments: Some(format!("c{i}")),
                        ipv4_max_prefixes: Some(Some(i as i64)),
                        ..Default::default()
                    },
                };
                (o.id, patch)
            })
            .collect();
        c.update_many::<AutonomousSystem>(&patch).await.unwrap();
        let mut stored = Vec::new();
        for offset in [0, 1000] {
            let page = Query::<AutonomousSystem>::new()
                .ordering("asn")
                .limit(1000)
                .offset(offset);
            stored.extend(c.list(&page).await.unwrap().results);
        }
        assert_eq!(stored.len(), 1100);
        for (i, o) in stored.iter().enumerate() {
            if i % 2 == 0 {
                assert_eq!(o.name, format!("renamed{i}"));
                assert_eq!(o.comments, "kept");
                assert_eq!(o.ipv4_max_prefixes, Some(0));
            } else {
                assert_eq!(o.name, format!("n{i}"));
                assert_eq!(o.comments, format!("c{i}"));
                assert_eq!(o.ipv4_max_prefixes, Some(i as i64));
            }
        }
    });
}

#[test]
fn deletes_single_and_bulk() {
    let s = TestServer::start();
    let c = client(&s);
    block_on(async {
        let created = c
            .create_many::<AutonomousSystem>(&[system(1, "a"), system(2, "b"), system(3, "c")])
            .await
            .unwrap();
        let ids = ids(&created);
        // A success without a body: `()` reads an empty answer (or `null`), nothing else.
        let path = format!("{AS}{}/", ids[0]);
        c.action::<()>(Method::DELETE, &path, None).await.unwrap();
        let gone = c.get::<AutonomousSystem>(ids[0]).await;
        assert!(matches!(gone, Err(Error::NotFound { .. })), "{gone:?}");
        let again = c.delete::<AutonomousSystem>(ids[0]).await;
        assert!(matches!(again, Err(Error::NotFound { .. })), "{again:?}");
        c.delete_many::<AutonomousSystem>(&[ids[1], ids[2], 424242])
            .await
            .unwrap();
        assert_eq!(count(&c).await, 0);
    });
}

#[test]
fn pagination_links_keep_every_parameter() {
    let s = TestServer::start();
    let c = client(&s);
    block_on(async {
        let items: Vec<_> = (1..=7).map(|i| system(i, &format!("n{i}"))).collect();
        c.create_many::<AutonomousSystem>(&items).await.unwrap();
        let query = Query::<AutonomousSystem>::new()
            .limit(3)
            .filter(|f| f.name.ic("n"))
            .filter(|f| f.name.ic("x"));
        let page = c.list(&query).await.unwrap();
        assert_eq!(page.count, 7);
        assert_eq!(asns(&page.results), [1, 2, 3]);
        let next = page.next.expect("a next page");
        assert_eq!(
            next,
            format!("{}{AS}?name__ic=n&name__ic=x&limit=3&offset=3", s.base)
        );
        assert_eq!(page.previous, None);
        let page2 = c.page::<AutonomousSystem>(&next).await.unwrap();
        assert_eq!(asns(&page2.results), [4, 5, 6]);
        assert_eq!(
            page2.previous.expect("a previous page"),
            format!("{}{AS}?name__ic=n&name__ic=x&limit=3", s.base)
        );
        let past = c
            .list(&Query::<AutonomousSystem>::new().offset(100))
            .await
            .unwrap();
        assert!(past.results.is_empty());
        assert_eq!(past.count, 7);
    });
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
        assert_eq!(r.header("API-Version"), Some("1.8"));
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
fn options_describe_every_field_to_writers_only() {
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
    // Every field, as DRF's SimpleMetadata: the read-only ones marked so, with their
    // type and label and no limits; a bulk update (PUT) beside the create.
    for (read_only, kind, label) in [
        ("id", "integer", "ID"),
        ("url", "field", "Url"),
        ("display", "field", "Display"),
        ("created", "datetime", "Created"),
        ("updated", "datetime", "Updated"),
    ] {
        assert_eq!(
            post[read_only],
            json!({"type": kind, "required": false, "read_only": true, "label": label}),
            "{read_only}"
        );
    }
    assert_eq!(post["name"]["read_only"], false);
    assert_eq!(post["name"]["label"], "Name");
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
