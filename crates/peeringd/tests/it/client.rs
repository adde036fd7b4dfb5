//! `peering-client` against the real server: every call (lists with typed filters, streams
//! over several pages, reads, writes one at a time and in bulk, actions) and the errors the
//! server answers, with its own words. The crate's examples: `client_examples.rs`.

use crate::common::client::{anonymous, block_on, client};
use crate::common::network::network;
use crate::common::TestServer;
use futures_util::{StreamExt, TryStreamExt};
use peering_client::{Client, Error, Method, Query, ValidationErrors};
use peering_domain::models::filters::Condition;
use peering_domain::models::{
    AutonomousSystem, Configuration, DirectPeeringSession, Email, ExportTemplate, Platform, Router,
    Tag,
};
use peering_domain::models::{
    PatchAutonomousSystem, PatchRouter, Writable, WritableAutonomousSystem, WritableConfiguration,
    WritableEmail, WritableExportTemplate, WritableTag,
};
use serde_json::{json, Value as Json};

fn system(asn: i64, name: &str) -> WritableAutonomousSystem {
    WritableAutonomousSystem::new(asn, name.to_string())
}

fn asns(systems: &[AutonomousSystem]) -> Vec<i64> {
    systems.iter().map(|a| a.asn).collect()
}

/// ASes 64500… named `n0`…; those at an even index tagged `core`.
async fn systems(c: &Client, count: i64) -> Vec<AutonomousSystem> {
    let core = c
        .create::<Tag>(&WritableTag::new("Core".into(), "core".into()))
        .await
        .expect("tag");
    let bodies: Vec<_> = (0..count)
        .map(|i| WritableAutonomousSystem {
            tags: (i % 2 == 0).then(|| vec![core.id]),
            ..system(64500 + i, &format!("n{i}"))
        })
        .collect();
    c.create_many::<AutonomousSystem>(&bodies)
        .await
        .expect("create_many")
}

#[test]
fn lists_filter_by_typed_conditions_and_read_brief_forms_and_single_objects() {
    let s = TestServer::start();
    let c = client(&s);
    block_on(async {
        let created = systems(&c, 6).await;
        assert_eq!(asns(&created), (64500..64506).collect::<Vec<_>>());
        let query = Query::<AutonomousSystem>::new()
            .filter(|f| f.asn.gte(64502))
            .filter(|f| f.tag.has("core"))
            .ordering("-asn");
        let page = c.list(&query).await.expect("list");
        assert_eq!(page.count, 2);
        assert_eq!(asns(&page.results), [64504, 64502]);
        assert!(page.results.iter().all(|a| a.tags[0].slug == "core"));
        let search = Query::<AutonomousSystem>::new().search("n3");
        assert_eq!(asns(&c.list(&search).await.expect("q").results), [64503]);
        // Paging: limit and offset, with links to the neighbours.
        let middle = Query::<AutonomousSystem>::new()
            .ordering("asn")
            .limit(2)
            .offset(2);
        let page = c.list(&middle).await.expect("page");
        assert_eq!((page.count, asns(&page.results)), (6, vec![64502, 64503]));
        assert!(page.next.expect("a next page").contains("offset=4"));
        assert!(page.previous.is_some());
        let brief = c.list_brief(&middle).await.expect("brief");
        let names: Vec<&str> = brief.results.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["n2", "n3"]);
        assert_eq!(brief.results[0].display, "AS64502 - n2");
        let one = c.get::<AutonomousSystem>(created[1].id).await.expect("get");
        assert_eq!(one, created[1]);
        // Any parameter, typed or not.
        let raw = Query::<AutonomousSystem>::new().condition(Condition {
            param: "name__isw".into(),
            value: "n5".into(),
        });
        assert_eq!(asns(&c.list(&raw).await.expect("raw").results), [64505]);
    });
}

#[test]
fn streams_follow_the_next_links_over_every_page() {
    let s = TestServer::start();
    let c = client(&s);
    block_on(async {
        systems(&c, 23).await;
        let all: Vec<AutonomousSystem> = c
            .stream(Query::new().ordering("asn").limit(5))
            .try_collect()
            .await
            .expect("stream");
        assert_eq!(asns(&all), (64500..64523).collect::<Vec<_>>());
        let core = c.stream(
            Query::<AutonomousSystem>::new()
                .filter(|f| f.tag.has("core"))
                .ordering("-asn")
                .limit(4),
        );
        let mut seen = Vec::new();
        let mut core = core;
        while let Some(system) = core.next().await {
            seen.push(system.expect("an AS").asn);
        }
        assert_eq!(seen, (64500..64523).rev().step_by(2).collect::<Vec<_>>());
        // An error ends the stream after saying so.
        let bad = c.stream(Query::<AutonomousSystem>::new().condition(Condition {
            param: "asn__gte".into(),
            value: "many".into(),
        }));
        let answers: Vec<Result<AutonomousSystem, Error>> = bad.collect().await;
        assert_eq!(answers.len(), 1);
        let Err(Error::BadRequest(errors)) = &answers[0] else {
            panic!("{:?}", answers[0]);
        };
        assert_eq!(errors.fields(), ["asn__gte"]);
    });
}

#[test]
fn streams_never_follow_a_link_to_another_origin() {
    let s = TestServer::start();
    // Requests that name another host: the server writes its links with that host.
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(reqwest::header::HOST, "elsewhere.example".parse().unwrap());
    let http = reqwest::Client::builder()
        .default_headers(headers)
        .build()
        .unwrap();
    let c = Client::with_http_client(&s.base, http)
        .unwrap()
        .with_token(s.key.as_str());
    block_on(async {
        systems(&client(&s), 3).await;
        let page = c
            .list(&Query::<AutonomousSystem>::new().limit(2))
            .await
            .unwrap();
        assert!(page.next.unwrap().starts_with("http://elsewhere.example/"));
        let answers: Vec<_> = c
            .stream(Query::<AutonomousSystem>::new().limit(2))
            .collect()
            .await;
        assert_eq!(answers.len(), 3, "{answers:?}");
        assert!(answers[..2].iter().all(Result::is_ok));
        assert!(
            matches!(&answers[2], Err(Error::ForeignLink(link)) if link.contains("elsewhere.example")),
            "{answers:?}"
        );
    });
}

#[test]
fn objects_are_created_changed_replaced_and_deleted() {
    let s = TestServer::start();
    let c = client(&s);
    block_on(async {
        let body = WritableAutonomousSystem {
            comments: Some("first".into()),
            ipv4_max_prefixes: Some(100),
            ..system(65001, "Example")
        };
        assert!(body.validate().is_ok());
        let created = c.create::<AutonomousSystem>(&body).await.expect("create");
        assert_eq!(created.display, "AS65001 - Example");
        assert_eq!(
            created.url,
            format!("{}/api/peering/autonomous-systems/{}/", s.base, created.id)
        );
        assert_eq!(
            (created.comments.as_str(), created.ipv4_max_prefixes),
            ("first", Some(100))
        );
        let patch = PatchAutonomousSystem {
            name: Some("Renamed".into()),
            irr_as_set: Some(Some("AS-EXAMPLE".into())),
            ..Default::default()
        };
        let updated = c
            .update::<AutonomousSystem>(created.id, &patch)
            .await
            .expect("update");
        assert_eq!(updated.name, "Renamed");
        assert_eq!(updated.irr_as_set.as_deref(), Some("AS-EXAMPLE"));
        assert_eq!(
            updated.comments, "first",
            "a patch leaves other fields alone"
        );
        // null is a value a patch can give.
        let clear = PatchAutonomousSystem {
            irr_as_set: Some(None),
            ..Default::default()
        };
        let cleared = c
            .update::<AutonomousSystem>(created.id, &clear)
            .await
            .expect("null");
        assert_eq!(cleared.irr_as_set, None);
        let replaced = c
            .replace::<AutonomousSystem>(created.id, &system(65002, "Replaced"))
            .await
            .expect("replace");
        assert_eq!((replaced.asn, replaced.name.as_str()), (65002, "Replaced"));
        assert_eq!(
            replaced.comments, "first",
            "optional fields left out are kept"
        );
        assert_eq!(
            c.get::<AutonomousSystem>(created.id).await.expect("get"),
            replaced
        );
        c.delete::<AutonomousSystem>(created.id)
            .await
            .expect("delete");
        let gone = c.get::<AutonomousSystem>(created.id).await;
        assert!(matches!(gone, Err(Error::NotFound { .. })), "{gone:?}");
    });
}

#[test]
fn bulk_writes_create_patch_and_delete_several_objects_at_once() {
    let s = TestServer::start();
    let c = client(&s);
    block_on(async {
        let bodies = [system(1, "a"), system(2, "b"), system(3, "c")];
        let created = c
            .create_many::<AutonomousSystem>(&bodies)
            .await
            .expect("create_many");
        assert_eq!(asns(&created), [1, 2, 3]);
        let changes = [
            (
                created[0].id,
                PatchAutonomousSystem {
                    name: Some("A".into()),
                    ..Default::default()
                },
            ),
            (
                created[2].id,
                PatchAutonomousSystem {
                    affiliated: Some(true),
                    comments: Some("third".into()),
                    ..Default::default()
                },
            ),
        ];
        let changed = c
            .update_many::<AutonomousSystem>(&changes)
            .await
            .expect("update_many");
        assert_eq!(changed.len(), 2);
        assert_eq!(
            (changed[0].id, changed[0].name.as_str()),
            (created[0].id, "A")
        );
        assert!(changed[1].affiliated);
        assert_eq!(changed[1].comments, "third");
        let stored = c.get::<AutonomousSystem>(created[1].id).await.expect("get");
        assert_eq!(
            stored, created[1],
            "an object not in the patch list is left alone"
        );
        c.delete_many::<AutonomousSystem>(&[created[0].id, created[2].id])
            .await
            .expect("delete_many");
        let left = c
            .list(&Query::<AutonomousSystem>::new())
            .await
            .expect("list");
        assert_eq!(asns(&left.results), [2]);
    });
}

#[test]
fn invalid_bodies_and_missing_objects_are_refused_with_the_servers_words() {
    let s = TestServer::start();
    let c = client(&s);
    block_on(async {
        // 400: the same message the typed body's own validation gives.
        let invalid = system(0, "x");
        let local = invalid.validate().expect_err("asn 0 is invalid");
        let Err(Error::BadRequest(errors)) = c.create::<AutonomousSystem>(&invalid).await else {
            panic!("asn 0 accepted");
        };
        let message = "Ensure this value is greater than or equal to 1.";
        assert_eq!(errors.messages("asn"), [message]);
        assert_eq!(errors, ValidationErrors::Fields(local));
        // A list body: one object of errors per item, nothing written.
        let result = c
            .create_many::<AutonomousSystem>(&[system(1, "a"), system(1, "dup")])
            .await;
        let Err(Error::BadRequest(ValidationErrors::Items(items))) = result else {
            panic!("{result:?}");
        };
        assert!(items[0].is_empty());
        assert_eq!(
            items[1].0["asn"],
            json!(["autonomous system with this ASN already exists."])
        );
        assert_eq!(
            c.list(&Query::<AutonomousSystem>::new())
                .await
                .unwrap()
                .count,
            0
        );
        // 404, with the server's detail.
        let missing = c.get::<AutonomousSystem>(999_999).await;
        assert!(
            matches!(&missing, Err(Error::NotFound { detail }) if detail == "Not found."),
            "{missing:?}"
        );
    });
}

#[test]
fn callers_unknown_or_without_permission_are_refused_with_the_servers_words() {
    let s = TestServer::start();
    let reader = Client::new(&s.base)
        .unwrap()
        .with_token(s.token("reader", true, false, None));
    let viewer = s.user_with("viewer", &["peering.view_autonomoussystem"], true);
    let viewer = Client::new(&s.base).unwrap().with_token(viewer);
    block_on(async {
        // No token (reads need none by default, writes do), an unknown one: the caller is
        // not known.
        let none = anonymous(&s)
            .create::<AutonomousSystem>(&system(5, "e"))
            .await;
        assert!(
            matches!(&none, Err(Error::Unauthorized { status: 403, detail }) if detail == "Authentication credentials were not provided."),
            "{none:?}"
        );
        let wrong = anonymous(&s).with_token("0".repeat(40));
        let refused = wrong.get::<AutonomousSystem>(1).await;
        assert!(
            matches!(&refused, Err(Error::Unauthorized { detail, .. }) if detail == "Invalid token"),
            "{refused:?}"
        );
        // A read-only token, a user without the permission: known, but refused.
        let denied = "You do not have permission to perform this action.";
        assert_eq!(
            reader
                .list(&Query::<AutonomousSystem>::new())
                .await
                .unwrap()
                .count,
            0
        );
        let read_only = reader.create::<AutonomousSystem>(&system(5, "e")).await;
        assert!(
            matches!(&read_only, Err(Error::Forbidden { detail }) if detail == denied),
            "{read_only:?}"
        );
        let no_permission = viewer.create::<AutonomousSystem>(&system(5, "e")).await;
        assert!(
            matches!(&no_permission, Err(e @ Error::Forbidden { .. }) if e.status() == Some(403)),
            "{no_permission:?}"
        );
    });
}

#[test]
fn router_configurations_render_as_text_and_as_jobs() {
    let s = TestServer::start();
    let n = network(&s);
    let c = client(&s);
    block_on(async {
        let template = WritableConfiguration::new(
            "names".into(),
            "hostname {{ router.hostname }}\n{% for s in router|ixp_sessions %}neighbor {{ s.ip_address }}\n{% endfor %}".into(),
        );
        let template = c
            .create::<Configuration>(&template)
            .await
            .expect("template");
        let patch = PatchRouter {
            configuration_template: Some(Some(template.id)),
            ..Default::default()
        };
        c.update::<Router>(n.junos, &patch)
            .await
            .expect("assign the template");
        let text = c
            .router_configuration(n.junos)
            .await
            .expect("configuration");
        assert_eq!(
            text,
            "hostname edge1.example.net\nneighbor 192.0.2.10\nneighbor 2001:db8::10\nneighbor 192.0.2.20\n"
        );
        let job = c.router_configuration_job(n.junos).await.expect("a job");
        assert_eq!(job.name, "peering.router.generate_configuration");
        assert_eq!(job.object_id, Some(n.junos));
        let missing = c.router_configuration(999).await;
        assert!(
            matches!(missing, Err(Error::NotFound { .. })),
            "{missing:?}"
        );
    });
}

#[test]
fn other_actions_are_typed_or_reached_through_the_escape_hatch() {
    let s = TestServer::start();
    let n = network(&s);
    let c = client(&s);
    block_on(async {
        // Typed where the answer is simple.
        let prefixes = c.as_set_prefixes(n.peer).await.expect("prefixes");
        assert!(prefixes.ipv4.is_empty() && prefixes.ipv6.is_empty());
        let email = WritableEmail::new(
            "Hello".into(),
            "Peering with AS{{ autonomous_system.asn }}".into(),
            "Dear {{ autonomous_system.name }}".into(),
        );
        let email = c.create::<Email>(&email).await.expect("email");
        let rendered = c.generate_email(n.peer, email.id).await.expect("render");
        assert_eq!(
            (rendered.subject.as_str(), rendered.body.as_str()),
            ("Peering with AS65001", "Dear Peer One")
        );
        let export = WritableExportTemplate::new(
            "asns".into(),
            "peering.autonomoussystem".into(),
            "{% for a in dataset %}{{ a.asn }} {% endfor %}".into(),
        );
        let export = c.create::<ExportTemplate>(&export).await.expect("export");
        assert_eq!(
            c.render_export(export.id).await.expect("render"),
            "64500 65001 65002 "
        );
        // A session whose router does not encrypt: the server's 503 and its words.
        let session = c
            .list(&Query::<DirectPeeringSession>::new().limit(1))
            .await
            .unwrap();
        let refused = c
            .encrypt_password::<DirectPeeringSession>(session.results[0].id)
            .await;
        assert!(
            matches!(&refused, Err(Error::Server { status: 503, body }) if body.contains("encrypt_passwords")),
            "{refused:?}"
        );
        // Anything else through the escape hatch.
        let path = format!("/api/peering/autonomous-systems/{}/shared-ixps/", n.peer);
        let shared = c.action::<Json>(Method::GET, &path, None).await;
        assert!(
            matches!(&shared, Err(Error::Server { status: 503, .. })),
            "{shared:?}"
        );
        s.patch("/api/users/userpref/", json!({"context": {"as": 1}}));
        assert_eq!(
            c.action::<Json>(Method::GET, &path, None).await.unwrap(),
            json!([])
        );
    });
}

#[test]
fn a_protected_delete_is_a_conflict_naming_the_dependents() {
    let s = TestServer::start();
    let n = network(&s);
    let c = client(&s);
    block_on(async {
        let router = c.get::<Router>(n.junos).await.unwrap();
        let protected = c.delete::<Platform>(router.platform.id).await;
        let Err(Error::Conflict { detail, body }) = protected else {
            panic!("{protected:?}");
        };
        assert!(detail.contains(&format!("edge1 ({})", n.junos)), "{detail}");
        assert_eq!(body["detail"], json!(detail));
    });
}
