//! Every field of Peering Manager 1.10's full serializers (`reference_fields/`) is in the
//! answers of its resource, at the 1.8 path and at the 1.10 path, under either spelling of
//! the PeeringDB fields, or `docs/differences.md` says why not ("Fields of the 1.10
//! serializers"); and that table names nothing that is served.

use std::collections::{BTreeMap, BTreeSet};

use peering_api::Settings;
use peering_domain::names::{from_reference, FieldNames};
use peering_domain::resources::{ALIASES, ALL};
use peering_domain::ResourceSpec;
use serde_json::{json, Value as Json};

use crate::common::TestServer;

const REFERENCE: &str = include_str!("reference_fields/serializers-1.10.4.json");
const DIFFERENCES: &str = include_str!("../../../../docs/differences.md");
const SECTION: &str = "## Fields of the 1.10 serializers";

/// The fields of each model (`app.model`) of the reference's full serializers.
fn reference() -> BTreeMap<String, Vec<String>> {
    serde_json::from_str(REFERENCE).expect("the reference's fields are JSON")
}

/// The `(app.model, field)` pairs the table of differences names (`*`: the whole model).
fn not_served() -> BTreeSet<(String, String)> {
    let section = DIFFERENCES
        .split_once(SECTION)
        .map(|(_, rest)| rest.split("\n## ").next().unwrap_or(rest))
        .expect("docs/differences.md has the section of the 1.10 fields");
    section
        .lines()
        .filter_map(|line| {
            let mut cells = line.strip_prefix("| `")?.split('|');
            let model = cells.next()?.trim().trim_matches('`');
            let field = cells.next()?.trim().trim_matches('`');
            Some((model.to_string(), field.to_string()))
        })
        .collect()
}

/// The resource of a reference model: same model name, in the same application or served
/// there too (where 1.9/1.10 moved it).
fn resource_of(key: &str) -> Option<&'static ResourceSpec> {
    let (app, model) = key.split_once('.')?;
    ALL.iter().copied().find(|spec| {
        spec.model == model
            && (spec.app == app
                || ALIASES
                    .iter()
                    .any(|a| a.app == app && std::ptr::eq(a.spec, *spec)))
    })
}

/// The resource's list at its 1.8 path and, where 1.10 moved it, there.
fn paths_of(spec: &'static ResourceSpec) -> Vec<String> {
    let mut paths = vec![format!("/api/{}/{}/", spec.app, spec.path)];
    paths.extend(
        ALIASES
            .iter()
            .filter(|a| std::ptr::eq(a.spec, spec))
            .map(|a| format!("/api/{}/{}/", a.app, a.path)),
    );
    paths
}

/// The keys of an object as a list shows it and as its own URL does, at `base`.
fn answers(s: &TestServer, base: &str, path: &str) -> Vec<(String, BTreeSet<String>)> {
    let list = s.send(
        "GET",
        &format!("{base}{path}?limit=1"),
        None,
        Some(&s.key),
        &[],
    );
    assert_eq!(list.status, 200, "{path}: {}", list.text);
    let first = list.json()["results"][0].clone();
    let id = first["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("{path} holds no object to look at"));
    let detail = s.send(
        "GET",
        &format!("{base}{path}{id}/"),
        None,
        Some(&s.key),
        &[],
    );
    assert_eq!(detail.status, 200, "{path}{id}/: {}", detail.text);
    [
        (format!("{path}?limit=1"), first),
        (format!("{path}{id}/"), detail.json()),
    ]
    .into_iter()
    .map(|(at, object)| {
        let keys = match object {
            Json::Object(map) => map.keys().cloned().collect(),
            other => panic!("{at}: not an object: {other}"),
        };
        (at, keys)
    })
    .collect()
}

/// Whether `field` (the reference's name) is among `keys`, in `names`' spelling.
fn shows(keys: &BTreeSet<String>, field: &str, names: FieldNames) -> bool {
    match names {
        FieldNames::PeeringDb => keys.contains(field),
        FieldNames::Spec => keys.contains(from_reference(field).as_ref()),
    }
}

#[test]
fn every_field_of_the_reference_is_served_on_both_layouts_or_said_not_to_be() {
    let s = crate::typed_models::server_with_every_resource();
    let reference_names = s.another_instance(Settings {
        field_names: FieldNames::PeeringDb,
        ..Settings::default()
    });
    let excused = not_served();
    let mut missing = Vec::new();
    let mut served_anyway: BTreeSet<(String, String)> = BTreeSet::new();
    let mut checked = 0;
    for (key, fields) in reference() {
        let Some(spec) = resource_of(&key) else {
            assert!(
                excused.contains(&(key.clone(), "*".into())),
                "{key} is not served and docs/differences.md does not say so"
            );
            continue;
        };
        if excused.contains(&(key.clone(), "*".into())) {
            continue;
        }
        for path in paths_of(spec) {
            for (base, names) in [
                (s.base.as_str(), FieldNames::Spec),
                (reference_names.base.as_str(), FieldNames::PeeringDb),
            ] {
                for (at, keys) in answers(&s, base, &path) {
                    for field in &fields {
                        checked += 1;
                        let pair = (key.clone(), field.clone());
                        match (shows(&keys, field, names), excused.contains(&pair)) {
                            (true, true) => {
                                served_anyway.insert(pair);
                            }
                            (false, false) => missing.push(format!("{key} {field} at {at}")),
                            _ => {}
                        }
                    }
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "fields of the reference missing from the answers and not in docs/differences.md:\n{}",
        missing.join("\n")
    );
    assert!(
        served_anyway.is_empty(),
        "served, yet docs/differences.md says they are not: {served_anyway:?}"
    );
    // 41 served models, both paths of the three that moved, two spellings, a list and an
    // object: 2,700 looks.
    assert!(checked >= 2700, "only {checked} fields were looked at");
}

#[test]
fn the_table_of_differences_names_only_fields_of_the_reference() {
    let reference = reference();
    for (model, field) in not_served() {
        let fields = reference
            .get(&model)
            .unwrap_or_else(|| panic!("docs/differences.md names {model}, not a model of 1.10"));
        assert!(
            field == "*" || fields.contains(&field),
            "docs/differences.md names {model} {field}, not a field of 1.10's serializer"
        );
    }
}

/// A source answering with the reference's names, holding a value of every field 1.10
/// added: an AS list and prefixes from an IRR refresh, an AS's description and name flag,
/// a router's communities, a direct session's connection, an IX-API account's `api_url`,
/// a community whose value gives a `kind`, and a config context assigned.
fn source_with_the_1_10_fields(irrd: &irrd_fake::FakeIrrd) -> TestServer {
    let s = TestServer::start_with(Settings {
        field_names: FieldNames::PeeringDb,
        max_page_size: 0,
        irr: peering_app::irr::Settings {
            host: irrd.address.clone(),
            sources: "RIPE".into(),
            ..peering_app::irr::Settings::default()
        },
        ..Settings::default()
    });
    let id = |v: Json| v["id"].clone();
    let community = id(s.create(
        "/api/bgp/communities/",
        json!({"name": "Peers", "slug": "peers", "value": "target:64500:1"}),
    ));
    let us = id(s.create(
        "/api/peering/autonomous-systems/",
        json!({"asn": 64500, "name": "Us", "affiliated": true, "description": "our network",
               "name_peeringdb_sync": false, "irr_as_set": "AS-US", "retrieve_prefixes": true}),
    ));
    let refresh = s.post(
        &format!("/api/peering/autonomous-systems/{us}/refresh-prefixes/"),
        json!({}),
    );
    assert_eq!(refresh.status, 202, "{}", refresh.text);
    let job = crate::common::network::finished(&s, &refresh.json());
    assert_eq!(job["status"]["value"], "completed", "{job}");
    let peer = id(s.create(
        "/api/peering/autonomous-systems/",
        json!({"asn": 64501, "name": "Peer", "retrieve_as_list": false}),
    ));
    let platform = id(s.create(
        "/api/devices/platforms/",
        json!({"name": "Junos", "slug": "junos"}),
    ));
    let router = id(s.create(
        "/api/devices/routers/",
        json!({"name": "edge", "hostname": "edge.example.net", "platform": platform,
               "local_autonomous_system": us, "communities": [community]}),
    ));
    let exchange = id(s.create(
        "/api/peering/internet-exchanges/",
        json!({"name": "IX", "slug": "ix", "local_autonomous_system": us}),
    ));
    let connection = id(s.create(
        "/api/net/connections/",
        json!({"internet_exchange_point": exchange, "router": router,
               "ipv4_address": "192.0.2.1/24", "vlan": 10}),
    ));
    let relationship = id(s.create(
        "/api/bgp/relationships/",
        json!({"name": "Transit", "slug": "transit"}),
    ));
    s.create(
        "/api/peering/direct-peering-sessions/",
        json!({"local_autonomous_system": us, "autonomous_system": peer, "ip_address": "192.0.2.2",
               "relationship": relationship, "connection": connection}),
    );
    s.create(
        "/api/extras/ix-api/",
        json!({"name": "IX", "api_url": "https://ix.example.net/api/v2", "api_key": "k",
               "api_secret": "s", "identity": "1"}),
    );
    let context = id(s.create(
        "/api/extras/config-contexts/",
        json!({"name": "ntp", "data": {"ntp": ["192.0.2.123"]}}),
    ));
    s.create(
        "/api/extras/config-context-assignments/",
        json!({"config_context": context, "content_type": "peering.autonomoussystem", "object_id": us}),
    );
    s
}

/// Every object of every imported resource at `s` but the accounts, links made relative.
fn imported_objects(s: &TestServer) -> Vec<(String, Json)> {
    peering_import::import_order()
        .into_iter()
        .filter(|spec| spec.app != "users")
        .map(|spec| {
            let path = format!("/api/{}/{}/", spec.app, spec.path);
            let r = s.get(&format!("{path}?limit=0"));
            assert_eq!(r.status, 200, "{path}: {}", r.text);
            let page: Json = serde_json::from_str(&r.text.replace(&s.base, "")).unwrap();
            (path, page["results"].clone())
        })
        .collect()
}

#[test]
fn an_import_from_a_server_answering_as_1_10_keeps_every_1_10_field() {
    let irrd = irrd_fake::FakeIrrd::start(
        irrd_fake::Registry::new()
            .as_set("RIPE", "AS-US", &["AS64500", "AS65610", "AS23456"])
            .route("RIPE", "192.0.2.0/24", 65610),
    );
    let from = source_with_the_1_10_fields(&irrd);
    let to = TestServer::start_with(Settings {
        field_names: FieldNames::PeeringDb,
        max_page_size: 0,
        ..Settings::default()
    });
    let out = crate::common::import_command(&to.database_url(), &from.base, &from.key)
        .output()
        .expect("peeringd runs");
    let report = crate::common::output_text(&out);
    assert!(out.status.success(), "{report}");
    let (theirs, ours) = (imported_objects(&from), imported_objects(&to));
    for ((path, a), (_, b)) in theirs.iter().zip(&ours) {
        assert_eq!(a, b, "{path} differs after the import: {report}");
    }
    // The values compared are those the source was given, not defaults on both sides.
    let one = |path: &str| {
        let list = to.get(&format!("{path}?limit=0")).json();
        list["results"][0].clone()
    };
    let us = one("/api/peering/autonomous-systems/");
    assert_eq!(us["as_list"], json!([64500, 65610]), "{us}");
    assert_eq!(us["prefixes"]["ipv4"][0]["prefix"], "192.0.2.0/24", "{us}");
    assert_eq!(
        (&us["description"], &us["name_peeringdb_sync"]),
        (&json!("our network"), &json!(false))
    );
    assert_eq!(us["config_context"], json!({"ntp": ["192.0.2.123"]}));
    let peer = &to.get("/api/peering/autonomous-systems/?asn=64501").json()["results"][0];
    assert_eq!(peer["retrieve_as_list"], false, "{peer}");
    assert_eq!(
        one("/api/devices/routers/")["communities"][0]["name"],
        "Peers"
    );
    assert_eq!(one("/api/bgp/communities/")["kind"], "extended");
    let session = one("/api/peering/direct-peering-sessions/");
    assert_eq!(
        session["connection"]["id"],
        one("/api/net/connections/")["id"]
    );
    let account = one("/api/extras/ix-api/");
    assert_eq!(
        account["api_url"], "https://ix.example.net/api/v2",
        "{account}"
    );
}

#[test]
fn config_context_merges_the_assigned_contexts_by_weight_then_the_local_data() {
    let s = TestServer::start();
    let system = s.create(
        "/api/peering/autonomous-systems/",
        json!({"asn": 64500, "name": "Us", "local_context_data": {"site": "par", "ntp": {"b": 2}}}),
    )["id"]
        .clone();
    let path = format!("/api/peering/autonomous-systems/{system}/");
    let context = |name: &str, data: Json, weight: i64| {
        let context = s.create(
            "/api/extras/config-contexts/",
            json!({"name": name, "data": data}),
        )["id"]
            .clone();
        s.create(
            "/api/extras/config-context-assignments/",
            json!({"config_context": context, "content_type": "peering.autonomoussystem",
                   "object_id": system, "weight": weight}),
        );
        context
    };
    // Read once first, so that a kept answer would show if a later write did not count.
    assert_eq!(
        s.get(&path).json()["config_context"],
        json!({"site": "par", "ntp": {"b": 2}})
    );
    let light = context(
        "light",
        json!({"site": "ams", "ntp": {"a": 1}, "list": [1]}),
        900,
    );
    context("heavy", json!({"list": [2], "ntp": {"a": 3}}), 1000);
    assert_eq!(
        s.get(&path).json()["config_context"],
        json!({"site": "par", "ntp": {"a": 3, "b": 2}, "list": [2]})
    );
    let r = s.patch(
        &format!("/api/extras/config-contexts/{light}/"),
        json!({"data": {"extra": true}}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let shown = s.get(&path).json();
    assert_eq!(
        shown["config_context"],
        json!({"extra": true, "site": "par", "ntp": {"a": 3, "b": 2}, "list": [2]})
    );
    // Another resource's objects with the same id have their own (none here).
    let community = s.create(
        "/api/peering/communities/",
        json!({"name": "c", "slug": "c", "value": "64500:1"}),
    );
    assert_eq!(community["id"], system);
    assert_eq!(community["config_context"], Json::Null);
    assert_eq!(community["kind"], "standard");
}
