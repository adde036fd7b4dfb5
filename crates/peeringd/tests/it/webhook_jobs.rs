//! Webhook deliveries enqueued by writes: one job per change and webhook that selects it,
//! in the write's transaction, whatever path writes, and in a number of statements that
//! does not grow with the number of objects.

use peering_app::edits::{Edits, WriteRules};
use peering_app::jobs::DELIVER_WEBHOOK;
use peering_app::webhooks::{follow_writes, Deliveries};
use peering_domain::input::{parse, Mode};
use peering_domain::resources::AUTONOMOUS_SYSTEM;
use peering_store::{ChangeContext, Claims, Store};
use serde_json::{json, Value as Json};
use std::time::Duration;

use crate::common::TestServer;

const DELIVERIES: &str = "/api/core/jobs/?name=extras.webhook.deliver&limit=0";

/// A webhook on autonomous systems for `events`, sending to a port nothing listens on.
fn webhook(server: &TestServer, name: &str, events: &[&str], enabled: bool) -> i64 {
    let mut body = json!({
        "name": name,
        "content_types": ["peering.autonomoussystem"],
        "payload_url": format!("http://127.0.0.1:9/{name}"),
        "enabled": enabled,
    });
    for event in events {
        body[format!("type_{event}")] = true.into();
    }
    server.create("/api/extras/webhooks/", body)["id"]
        .as_i64()
        .expect("an id")
}

/// The delivery jobs, as `(webhook id, user id)`, in creation order.
fn deliveries(server: &TestServer) -> Vec<(i64, Option<i64>)> {
    let list = server.get(DELIVERIES).json();
    let mut jobs: Vec<&Json> = list["results"].as_array().expect("a list").iter().collect();
    jobs.sort_by_key(|job| job["id"].as_i64());
    jobs.iter()
        .map(|job| {
            assert_eq!(job["object_type"], "extras.webhook", "{job}");
            let webhook = job["object_id"].as_i64().expect("a webhook");
            (webhook, job["user"]["id"].as_i64())
        })
        .collect()
}

/// How many delivery jobs there are.
fn delivery_count(server: &TestServer) -> i64 {
    server.get(DELIVERIES).json()["count"]
        .as_i64()
        .expect("a count")
}

fn system(asn: i64) -> Json {
    json!({"asn": asn, "name": format!("AS {asn}")})
}

#[test]
fn each_change_an_enabled_webhook_selects_enqueues_one_delivery() {
    let server = TestServer::start();
    let on_create = webhook(&server, "on create", &["create"], true);
    let on_all = webhook(
        &server,
        "on everything",
        &["create", "update", "delete"],
        true,
    );
    webhook(&server, "disabled", &["create", "update", "delete"], false);
    let admin = server.get("/api/users/users/?username=admin").json()["results"][0]["id"].as_i64();

    let created = server.create("/api/peering/autonomous-systems/", system(64500));
    let id = created["id"].as_i64().expect("an id");
    assert_eq!(
        deliveries(&server),
        [(on_create, admin), (on_all, admin)],
        "a create, selected by two enabled webhooks"
    );

    let bulk = server.post(
        "/api/peering/autonomous-systems/",
        json!([system(64501), system(64502), system(64503)]),
    );
    assert_eq!(bulk.status, 201, "{}", bulk.text);
    assert_eq!(
        deliveries(&server).len(),
        2 + 3 * 2,
        "a bulk create of three"
    );

    let path = format!("/api/peering/autonomous-systems/{id}/");
    assert_eq!(server.patch(&path, json!({"name": "renamed"})).status, 200);
    assert_eq!(server.delete(&path, None).status, 204);
    let all = deliveries(&server);
    assert_eq!(
        all.len(),
        8 + 2,
        "an update and a delete, for one webhook each"
    );
    assert_eq!(&all[8..], [(on_all, admin), (on_all, admin)]);
}

#[test]
fn a_write_of_objects_no_webhook_selects_enqueues_nothing() {
    let server = TestServer::start();
    webhook(&server, "on update", &["update"], true);
    server.create("/api/peering/autonomous-systems/", system(64500));
    server.create(
        "/api/peering/routing-policies/",
        json!({"name": "p", "slug": "p", "type": "import-policy"}),
    );
    assert!(deliveries(&server).is_empty());
}

/// Creates `count` autonomous systems from `first` through `edits`; the statements it took.
fn statements_of_bulk_create(store: &Store, edits: &Edits, first: i64, count: i64) -> u64 {
    let ctx = ChangeContext {
        request_id: format!("bulk-{first}"),
        user_id: None,
        user_name: "a tool".into(),
        authority: peering_domain::grants::Authority::operator(),
    };
    let drafts = (first..first + count)
        .map(|asn| parse(&AUTONOMOUS_SYSTEM, &system(asn), Mode::Create).expect("parses"))
        .collect();
    let before = store.queries_executed();
    edits
        .create(&AUTONOMOUS_SYSTEM, drafts, &ctx)
        .expect("created");
    store.queries_executed() - before
}

/// What a delivery of one of the bulk-created systems carries, as the reference sends it.
fn check_payload(params: &Json, webhooks: [i64; 2]) {
    assert!(webhooks.contains(&params["webhook"].as_i64().expect("a webhook")));
    assert_eq!(params["event"], "create");
    assert_eq!(params["model"], "autonomoussystem");
    assert_eq!(params["username"], "a tool");
    assert_eq!(params["request_id"], "bulk-65000");
    let data = &params["data"];
    let asn = data["asn"].as_i64().expect("an ASN");
    assert!((65000..65010).contains(&asn), "{data}");
    let id = data["id"].as_i64().expect("an id");
    assert_eq!(
        data["url"],
        format!("/api/peering/autonomous-systems/{id}/")
    );
    assert_eq!(data["name"], format!("AS {asn}"));
    assert_eq!(params["snapshots"]["prechange"], Json::Null);
    assert_eq!(params["snapshots"]["postchange"]["asn"], asn);
    let timestamp = params["timestamp"].as_str().expect("a time");
    assert!(
        chrono::DateTime::parse_from_str(timestamp, "%Y-%m-%d %H:%M:%S%.6f%:z").is_ok(),
        "{timestamp}"
    );
}

#[test]
fn a_bulk_write_enqueues_its_deliveries_in_statements_that_do_not_grow_with_it() {
    let server = TestServer::start();
    let one = webhook(&server, "one", &["create"], true);
    let two = webhook(&server, "two", &["create"], true);
    // A handle of its own, whose statements no worker shares.
    let store = Store::open(&server.database_url(), 2).expect("opens");
    follow_writes(
        &store,
        Deliveries {
            base: String::new(),
            names: Default::default(),
            wake: None,
        },
    );
    let edits = Edits::new(
        store.clone(),
        WriteRules {
            min_password_length: 8,
        },
    );
    let few = statements_of_bulk_create(&store, &edits, 65000, 10);
    // No worker of the server was woken: the deliveries wait to be claimed here.
    let claimed = store
        .jobs()
        .claim_of(
            "test",
            Duration::from_secs(60),
            Claims::Named(&[DELIVER_WEBHOOK]),
        )
        .expect("claims")
        .expect("a delivery");
    check_payload(&claimed.params, [one, two]);
    let many = statements_of_bulk_create(&store, &edits, 66000, 1000);
    assert_eq!(delivery_count(&server), 2 * (10 + 1000));

    for id in [one, two] {
        let path = format!("/api/extras/webhooks/{id}/");
        assert_eq!(server.patch(&path, json!({"enabled": false})).status, 200);
    }
    let few_alone = statements_of_bulk_create(&store, &edits, 67000, 10);
    let many_alone = statements_of_bulk_create(&store, &edits, 68000, 1000);
    assert_eq!(
        delivery_count(&server),
        2 * (10 + 1000),
        "none when disabled"
    );
    // Reading the webhooks, and inserting the 2,000 deliveries in one statement.
    assert_eq!(
        many - many_alone,
        few - few_alone,
        "{many} {many_alone} {few} {few_alone}"
    );
    assert!(many - many_alone <= 3, "{many} against {many_alone}");
}
