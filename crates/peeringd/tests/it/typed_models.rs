//! The typed models of `peering_domain::models` against the server's answers: for every
//! resource, each object of a list (full and brief) reads into its model and writes back as
//! the same JSON text.

use crate::common::{demo_network, TestServer};
use peering_domain::models::Model;
use peeringdb_fake::{Dataset, FakePeeringDb, Sizes};
use serde_json::{json, Value as Json};

/// Demo data, a small PeeringDB copy, and an object of each resource neither fills.
pub(crate) fn server_with_every_resource() -> TestServer {
    let fake = FakePeeringDb::start(Dataset::new(Sizes::scaled(0.002)));
    let db = demo_network();
    crate::common::peeringdb_sync(&db, &fake.url);
    let s = TestServer::start_on(db, Default::default());
    fill_the_rest(&s);
    s
}

fn fill_the_rest(s: &TestServer) {
    let connection = first_id(s, "/api/net/connections/");
    let system = first_id(s, "/api/peering/autonomous-systems/");
    s.create("/api/net/bfd/", json!({"name": "fast", "slug": "fast"}));
    let context = s.create(
        "/api/extras/config-contexts/",
        json!({"name": "c", "data": {"a": 1}}),
    );
    s.create(
        "/api/extras/config-context-assignments/",
        json!({"config_context": context["id"], "content_type": "net.connection", "object_id": connection}),
    );
    s.create(
        "/api/extras/export-templates/",
        json!({"name": "t", "content_type": "peering.autonomoussystem", "template": "{{ dataset }}"}),
    );
    s.create(
        "/api/extras/webhooks/",
        json!({"name": "w", "content_types": ["peering.autonomoussystem"], "type_create": true,
               "payload_url": "http://127.0.0.1:9/hook"}),
    );
    s.create(
        "/api/extras/ix-api/",
        json!({"name": "ix", "url": "http://127.0.0.1:9/", "api_key": "k", "api_secret": "s", "identity": "1"}),
    );
    s.create(
        "/api/extras/journal-entries/",
        json!({"assigned_object_type": "peering.autonomoussystem", "assigned_object_id": system, "comments": "note"}),
    );
    let role = first_id(s, "/api/messaging/contact-roles/");
    let contact = first_id(s, "/api/messaging/contacts/");
    s.create(
        "/api/messaging/contact-assignments/",
        json!({"content_type": "peering.autonomoussystem", "object_id": system, "contact": contact, "role": role}),
    );
    s.create("/api/users/groups/", json!({"name": "operators"}));
    let network = first_id(s, "/api/peeringdb/networks/");
    let lan = first_id(s, "/api/peeringdb/ixlans/");
    s.create(
        "/api/peeringdb/hidden-peers/",
        json!({"peeringdb_network": network, "peeringdb_ixlan": lan, "comments": "refused"}),
    );
    let dir = tempfile::tempdir().expect("a directory");
    std::fs::write(dir.path().join("t.j2"), "{{ dataset }}").expect("a file");
    let url = dir.path().display().to_string();
    let source = s.create(
        "/api/core/data-sources/",
        json!({"name": "d", "type": "local", "source_url": url}),
    );
    let path = format!("/api/core/data-sources/{}/synchronise/", source["id"]);
    let sync = crate::common::network::finished(s, &s.post(&path, json!({})).json());
    assert_eq!(sync["status"]["value"], "completed", "{sync}");
    let job = s.post(
        &format!("/api/peering/autonomous-systems/{system}/sync-with-peeringdb/"),
        json!({}),
    );
    assert!(job.status < 300, "a job: {}", job.text);
}

fn first_id(s: &TestServer, path: &str) -> i64 {
    let list = s.get(&format!("{path}?limit=1")).json();
    list["results"][0]["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("{path} holds no object: {list}"))
}

/// Each object of the resource's list, full and brief, read into `M` and written back.
fn round_trip<M: Model>(s: &TestServer) {
    let spec = M::spec();
    let path = format!("/api/{}/{}/", spec.app, spec.path);
    for brief in [false, true] {
        let answer = s.get(&format!("{path}?limit=20&brief={brief}"));
        assert_eq!(answer.status, 200, "{path}: {}", answer.text);
        let list: Json = answer.json();
        let items = list["results"].as_array().expect("results");
        assert!(!items.is_empty(), "{path} holds no object to read");
        for item in items {
            let written = if brief {
                rewrite::<M::Brief>(item, &path)
            } else {
                rewrite::<M>(item, &path)
            };
            assert_eq!(written, item.to_string(), "{path} (brief: {brief})");
        }
    }
}

fn rewrite<T: serde::Serialize + serde::de::DeserializeOwned>(item: &Json, path: &str) -> String {
    let typed: T =
        serde_json::from_value(item.clone()).unwrap_or_else(|e| panic!("{path}: {e} in {item}"));
    serde_json::to_string(&typed).expect("serialises")
}

macro_rules! round_trip_all {
    ($($model:ty),+) => {
        fn round_trip_every_model(s: &TestServer) {
            $(round_trip::<$model>(s);)+
        }
    };
}
peering_domain::for_each_model!(round_trip_all);

#[test]
fn every_resource_reads_into_its_model_and_writes_back_the_same_json() {
    let s = server_with_every_resource();
    round_trip_every_model(&s);
}
