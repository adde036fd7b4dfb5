//! Every filter of every endpoint against an oracle. On a demo network (`peeringd
//! demo-data`, plus a few objects of the resources it leaves empty), each parameter of each
//! endpoint's filter catalog is tried with values taken from real objects; the ids it
//! returns must be exactly those the oracle picks from the objects' own representations
//! (following related objects through their `url`), and `__n` must return the rest. Filters
//! naming related objects refuse values no object has; `q` is checked the same way.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};

use crate::common::{demo_network, TestServer};
use chrono::{DateTime, Utc};
use peering_api::Settings;
use peering_domain::resources::{ALL, USER};
use peering_domain::spec::{FilterSource, Kind, Search};
use peering_domain::ResourceSpec;
use peering_filter::{FilterKind, Lookup};
use peering_store::testing::TestDatabase;
use peering_store::Store;
use serde_json::{json, Value as Json};

/// The server, every object of every endpoint, and related objects fetched so far.
struct World {
    s: TestServer,
    objects: HashMap<&'static str, Vec<Json>>,
    fetched: RefCell<HashMap<String, Json>>,
    /// `(content type, object id)` to the request ids of its create and update records.
    requests: HashMap<(String, i64), Vec<(String, String)>>,
    /// `(content type, tag slug)` of every tagging.
    tagged: HashSet<(String, String)>,
}

fn list_path(spec: &ResourceSpec) -> String {
    format!("/api/{}/{}/", spec.app, spec.path)
}

fn routed() -> impl Iterator<Item = &'static ResourceSpec> {
    ALL.iter().copied().filter(|s| !std::ptr::eq(*s, &USER))
}

/// Percent-encodes a query value.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// How a rendered value is written as a filter value.
fn scalar(value: &Json) -> String {
    match value {
        Json::Null => "null".into(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => n.to_string(),
        Json::String(s) => s.clone(),
        Json::Object(o) if o.contains_key("value") => scalar(&o["value"]),
        Json::Object(o) if o.contains_key("id") => scalar(&o["id"]),
        other => panic!("no filter value for {other}"),
    }
}

fn time(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .with_timezone(&Utc)
}

/// The host of an address with or without a prefix length.
fn host(address: &str) -> Option<std::net::IpAddr> {
    address.split('/').next()?.parse().ok()
}

impl World {
    fn build(db: TestDatabase) -> World {
        let s = TestServer::start_on(
            db,
            Settings {
                max_page_size: 0,
                ..Settings::default()
            },
        );
        add_what_demo_data_leaves_empty(&s);
        update_and_tag_one_of_each(&s);
        let mut objects = HashMap::new();
        for spec in routed() {
            let r = s.get(&format!("{}?limit=0", list_path(spec)));
            assert_eq!(r.status, 200, "{}", r.text);
            let all = r.json()["results"].as_array().unwrap().clone();
            objects.insert(spec.table, all);
        }
        let mut requests: HashMap<(String, i64), Vec<(String, String)>> = HashMap::new();
        for change in &objects["object_changes"] {
            let key = (
                change["changed_object_type"].as_str().unwrap().to_string(),
                change["changed_object_id"].as_i64().unwrap(),
            );
            requests.entry(key).or_default().push((
                scalar(&change["action"]),
                change["request_id"].as_str().unwrap().to_string(),
            ));
        }
        let mut tagged = HashSet::new();
        for spec in routed() {
            for o in &objects[spec.table] {
                for tag in o["tags"].as_array().into_iter().flatten() {
                    tagged.insert((spec.content_type(), scalar(&tag["slug"])));
                }
            }
        }
        World {
            s,
            objects,
            fetched: RefCell::new(HashMap::new()),
            requests,
            tagged,
        }
    }

    fn fetch(&self, url: &str) -> Json {
        if let Some(o) = self.fetched.borrow().get(url) {
            return o.clone();
        }
        let path = url
            .strip_prefix(&self.s.base)
            .expect("a link to this server");
        let r = self.s.get(path);
        assert_eq!(r.status, 200, "{url}: {}", r.text);
        let o = r.json();
        self.fetched.borrow_mut().insert(url.to_string(), o.clone());
        o
    }

    /// The values at the end of a dotted path, following nested objects (one, or a list)
    /// by their `url`; `null` when the path ends early.
    fn follow(&self, object: &Json, path: &str) -> Vec<Json> {
        let Some((segment, rest)) = path.split_once('.') else {
            return vec![object[path].clone()];
        };
        let related: Vec<&Json> = match &object[segment] {
            Json::Null => return vec![Json::Null],
            Json::Array(items) if items.is_empty() => return vec![Json::Null],
            Json::Array(items) => items.iter().collect(),
            one => vec![one],
        };
        related
            .into_iter()
            .flat_map(|nested| {
                let full = self.fetch(nested["url"].as_str().expect("nested url"));
                self.follow(&full, rest)
            })
            .collect()
    }

    fn follow_one(&self, object: &Json, path: &str) -> Json {
        self.follow(object, path).pop().unwrap_or(Json::Null)
    }

    /// The values `param` sees on `object`; `None` for range filters, checked apart.
    fn values(&self, spec: &ResourceSpec, param: &str, object: &Json) -> Option<Vec<String>> {
        let id = object["id"].as_i64().unwrap();
        let ct = spec.content_type();
        let requests = |actions: &[&str]| {
            self.requests
                .get(&(ct.clone(), id))
                .into_iter()
                .flatten()
                .filter(|(action, _)| actions.contains(&action.as_str()))
                .map(|(_, request)| request.clone())
                .collect()
        };
        if let Some(extra) = spec.extra_filters.iter().find(|e| e.param == param) {
            return match extra.source {
                // A column shown under its own name (a change record's frozen user name,
                // an IX-API account's address).
                FilterSource::Column { column, .. } => Some(vec![scalar(&object[column])]),
                FilterSource::Related(path) | FilterSource::RelatedValue(path) => {
                    Some(self.follow(object, path).iter().map(scalar).collect())
                }
                FilterSource::AddressFamily(field) => Some(match object[field].as_str() {
                    Some(a) if a.contains(':') => vec!["6".into()],
                    Some(_) => vec!["4".into()],
                    None => vec![],
                }),
                FilterSource::Since(_) | FilterSource::Until(_) => None,
                // The flag is shown under the filter's name (a hidden peer's `is_expired`).
                FilterSource::Expired(_) => Some(vec![scalar(&object[param])]),
                FilterSource::ReferredBy { table, .. } => Some(match table {
                    // The content types whose objects carry this tag.
                    "tagged_items" => {
                        let slug = scalar(&object["slug"]);
                        self.tagged
                            .iter()
                            .filter(|(_, s)| *s == slug)
                            .map(|(ct, _)| ct.clone())
                            .collect()
                    }
                    other => panic!("no oracle for filters through {other}"),
                }),
                FilterSource::ChoiceOrAlso { field, also } => {
                    let value = scalar(&object[field]);
                    // Objects of the `also` value match every exact query.
                    Some(if value == also {
                        vec![value, "*".into()]
                    } else {
                        vec![value]
                    })
                }
            };
        }
        match param {
            "id" => Some(vec![id.to_string()]),
            "tag" => Some(
                object["tags"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| scalar(&t["slug"]))
                    .collect(),
            ),
            "created_by_request" => Some(requests(&["create", "update"])),
            "updated_by_request" => Some(requests(&["update"])),
            _ => {
                let name = match param.strip_suffix("_id") {
                    Some(fk)
                        if matches!(
                            spec.field(fk).map(|f| f.kind),
                            Some(Kind::ForeignKey { .. })
                        ) =>
                    {
                        fk
                    }
                    _ => param,
                };
                let value = object
                    .get(name)
                    .unwrap_or_else(|| panic!("{}: {param} is not shown", spec.path));
                Some(vec![scalar(value)])
            }
        }
    }

    /// Ids returned by a list query.
    fn ids(&self, spec: &ResourceSpec, query: &str) -> BTreeSet<i64> {
        let r = self
            .s
            .get(&format!("{}?{query}&limit=0&brief=1", list_path(spec)));
        assert_eq!(r.status, 200, "{}?{query}: {}", spec.path, r.text);
        r.json()["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["id"].as_i64().unwrap())
            .collect()
    }
}

/// Objects of the resources a demo network has none of.
fn add_what_demo_data_leaves_empty(s: &TestServer) {
    let first = |path: &str| s.get(&format!("{path}?limit=1")).json()["results"][0].clone();
    let asn = first("/api/peering/autonomous-systems/")["id"].clone();
    let ixp = first("/api/peering/internet-exchanges/")["id"].clone();
    let contact = first("/api/messaging/contacts/")["id"].clone();
    let role = first("/api/messaging/contact-roles/")["id"].clone();
    let bfd = s.create(
        "/api/net/bfd/",
        json!([
            {"name": "Fast", "slug": "fast", "minimum_transmit_interval": 100, "detection_multiplier": 5},
            {"name": "Slow", "slug": "slow", "hold_time": 3000},
        ]),
    );
    for path in [
        "/api/peering/internet-exchange-peering-sessions/",
        "/api/peering/direct-peering-sessions/",
    ] {
        let session = first(path)["id"].clone();
        let r = s.patch(&format!("{path}{session}/"), json!({"bfd": bfd[0]["id"]}));
        assert_eq!(r.status, 200, "{path}: {}", r.text);
    }
    s.create(
        "/api/extras/journal-entries/",
        json!([
            {"assigned_object_type": "peering.autonomoussystem", "assigned_object_id": asn, "comments": "Sent a request"},
            {"assigned_object_type": "peering.internetexchange", "assigned_object_id": ixp, "comments": "Port up", "kind": "success"},
        ]),
    );
    let contexts = s.create(
        "/api/extras/config-contexts/",
        json!([
            {"name": "Defaults", "data": {"ntp": "192.0.2.123"}},
            {"name": "Lab", "description": "Only for the lab", "is_active": false, "data": {}},
        ]),
    );
    s.create(
        "/api/extras/config-context-assignments/",
        json!([
            {"content_type": "peering.autonomoussystem", "object_id": asn, "config_context": contexts[0]["id"]},
            {"content_type": "peering.internetexchange", "object_id": ixp, "config_context": contexts[1]["id"], "weight": 10},
        ]),
    );
    s.create(
        "/api/messaging/contact-assignments/",
        json!([
            {"content_type": "peering.autonomoussystem", "object_id": asn, "contact": contact, "role": role},
            {"content_type": "peering.internetexchange", "object_id": ixp, "contact": contact, "role": role},
        ]),
    );
    s.create(
        "/api/extras/export-templates/",
        json!([
            {"name": "Peers", "content_type": "peering.autonomoussystem", "template": "{{ dataset }}"},
            {"name": "Exchanges", "content_type": "peering.internetexchange", "template": "x", "description": "IXPs"},
        ]),
    );
    s.create(
        "/api/extras/webhooks/",
        json!([
            {"name": "On create", "content_types": ["peering.autonomoussystem"], "type_create": true, "payload_url": "http://127.0.0.1:9/hook"},
            {"name": "On delete", "content_types": ["net.connection"], "type_delete": true, "payload_url": "http://127.0.0.1:9/other", "http_method": "PUT", "enabled": false, "ssl_verification": false},
        ]),
    );
    let groups = s.create(
        "/api/users/groups/",
        json!([
            {"name": "Peering team", "permissions": ["peering.add_autonomoussystem"]},
            {"name": "Auditors"},
        ]),
    );
    s.create(
        "/api/users/users/",
        json!([
            {"username": "operator", "password": "correct horse", "first_name": "Olga", "groups": [groups[0]["id"]]},
            {"username": "auditor", "password": "battery staple", "email": "audit@example.net", "is_staff": true, "groups": [groups[1]["id"], groups[0]["id"]]},
        ]),
    );
    s.create(
        "/api/extras/ix-api/",
        json!({"name": "Example IX-API", "url": "https://ixapi.example.net/api/v2/", "api_key": "key", "api_secret": "secret", "identity": "1234"}),
    );
    let dir = tempfile::tempdir().expect("a directory");
    std::fs::write(dir.path().join("router.j2"), "{{ router.name }}").expect("a file");
    let url = dir.path().display().to_string();
    let source = s.create(
        "/api/core/data-sources/",
        json!({"name": "Templates", "type": "local", "source_url": url, "description": "all of them"}),
    );
    let path = format!("/api/core/data-sources/{}/synchronise/", source["id"]);
    let sync = crate::common::network::finished(s, &s.post(&path, json!({})).json());
    assert_eq!(sync["status"]["value"], "completed", "{sync}");
    // Hidden peers: one for good, one whose time has passed, one still ahead.
    let networks = s.get("/api/peeringdb/networks/?limit=3").json()["results"].clone();
    let lan = s.get("/api/peeringdb/ixlans/?limit=1").json()["results"][0]["id"].clone();
    let times = [
        Json::Null,
        json!("2024-01-01T00:00:00Z"),
        json!("2999-01-01T00:00:00Z"),
    ];
    for (network, until) in networks.as_array().unwrap().iter().zip(times) {
        s.create(
            "/api/peeringdb/hidden-peers/",
            json!({"peeringdb_network": network["id"], "peeringdb_ixlan": lan, "until": until,
                   "comments": "Refused"}),
        );
    }
}

/// An update record for every resource, and a tag on one object of each taggable one.
fn update_and_tag_one_of_each(s: &TestServer) {
    let tag = s.get("/api/extras/tags/?limit=1").json()["results"][0]["slug"].clone();
    for spec in routed().filter(|spec| spec.writes.edits()) {
        let path = list_path(spec);
        let first = s.get(&format!("{path}?limit=1")).json()["results"][0].clone();
        let taggable = spec.fields.iter().any(|f| matches!(f.kind, Kind::Tags));
        let body = if taggable {
            json!({"tags": [{"slug": tag}]})
        } else {
            json!({})
        };
        let r = s.patch(&format!("{path}{}/", first["id"]), body);
        assert_eq!(r.status, 200, "{path}: {}", r.text);
    }
}

/// Up to three distinct sample values of a parameter, from objects spread over the list.
fn samples(w: &World, spec: &ResourceSpec, param: &str) -> Vec<String> {
    let objects = &w.objects[spec.table];
    let mut picked = Vec::new();
    if objects.is_empty() {
        return picked;
    }
    let value_of = |i: usize| {
        w.values(spec, param, &objects[i])
            .unwrap_or_default()
            .into_iter()
            .find(|v| v != "*")
    };
    for i in [0, objects.len() / 2, objects.len() - 1] {
        if let Some(v) = value_of(i) {
            if !picked.contains(&v) {
                picked.push(v);
            }
        }
    }
    if picked.is_empty() {
        // Any object with a value (a tag, say).
        picked.extend((0..objects.len()).find_map(value_of));
    }
    picked
}

fn check_equality_filter(w: &World, spec: &ResourceSpec, param: &str, kind: FilterKind) {
    let objects = &w.objects[spec.table];
    let every: BTreeSet<i64> = objects.iter().map(|o| o["id"].as_i64().unwrap()).collect();
    for value in samples(w, spec, param) {
        // An empty choice filters nothing, as django-filter's ChoiceFilter ignores it.
        if value.is_empty() && matches!(kind, FilterKind::Choice(_)) {
            for query in [format!("{param}="), format!("{param}__n=")] {
                assert_eq!(w.ids(spec, &query), every, "{}?{query}", spec.path);
            }
            continue;
        }
        let expected: BTreeSet<i64> = objects
            .iter()
            .filter(|o| {
                let values = w.values(spec, param, o).unwrap();
                values.contains(&value) || values.iter().any(|v| v == "*")
            })
            .map(|o| o["id"].as_i64().unwrap())
            .collect();
        let query = format!("{param}={}", encode(&value));
        assert_eq!(w.ids(spec, &query), expected, "{}?{query}", spec.path);
        if kind.allows(Lookup::N) {
            // Negation is plain: an `also` value no longer matches everything.
            let plain: BTreeSet<i64> = objects
                .iter()
                .filter(|o| w.values(spec, param, o).unwrap().contains(&value))
                .map(|o| o["id"].as_i64().unwrap())
                .collect();
            let rest: BTreeSet<i64> = every.difference(&plain).copied().collect();
            let query = format!("{param}__n={}", encode(&value));
            assert_eq!(w.ids(spec, &query), rest, "{}?{query}", spec.path);
        }
    }
}

fn check_time_bound(w: &World, spec: &ResourceSpec, param: &str, field: &str, since: bool) {
    let objects = &w.objects[spec.table];
    let middle = &objects[objects.len() / 2];
    let bound = middle[field].as_str().unwrap();
    let expected: BTreeSet<i64> = objects
        .iter()
        .filter(|o| {
            let at = time(o[field].as_str().unwrap());
            if since {
                at >= time(bound)
            } else {
                at <= time(bound)
            }
        })
        .map(|o| o["id"].as_i64().unwrap())
        .collect();
    let query = format!("{param}={}", encode(bound));
    assert_eq!(w.ids(spec, &query), expected, "{}?{query}", spec.path);
}

/// A field the API does not show cannot be compared with the objects; its lookups must
/// still split the objects into what matches and what does not.
fn check_hidden_field(w: &World, spec: &ResourceSpec, param: &str, kind: FilterKind) {
    let every: BTreeSet<i64> = w.objects[spec.table]
        .iter()
        .map(|o| o["id"].as_i64().unwrap())
        .collect();
    let (all, none) = match kind {
        FilterKind::DateTime => ("__gte=2000-01-01", "__lt=2000-01-01"),
        FilterKind::String => ("__isw=", "__n="),
        other => panic!("{}: hidden {param} of kind {other:?}", spec.path),
    };
    let path = spec.path;
    assert_eq!(
        w.ids(spec, &format!("{param}{all}")),
        every,
        "{path} {param}{all}"
    );
    let matched = w.ids(spec, &format!("{param}{none}"));
    if kind == FilterKind::DateTime {
        assert!(matched.is_empty(), "{path} {param}{none}");
    } else {
        // Text: `__empty` splits the objects in two.
        let empty = w.ids(spec, &format!("{param}__empty=true"));
        let full = w.ids(spec, &format!("{param}__empty=false"));
        assert!(empty.is_disjoint(&full), "{path} {param}__empty");
        assert_eq!(&empty | &full, every, "{path} {param}__empty");
        assert_eq!(matched, full, "{path} {param}{none}");
    }
}

/// Filters naming related objects refuse a value no object has, as the reference does.
fn check_unknown_value(w: &World, spec: &ResourceSpec, param: &str, kind: FilterKind) {
    let value = match kind {
        FilterKind::ForeignKey => "987654321",
        _ => "no-such-object",
    };
    let r = w.s.get(&format!("{}?{param}={value}", list_path(spec)));
    assert_eq!(r.status, 400, "{}?{param}={value}: {}", spec.path, r.text);
    assert_eq!(
        r.json(),
        json!({param: [format!("Select a valid choice. {value} is not one of the available choices.")]}),
        "{}",
        spec.path
    );
}

/// Whether `param` names related objects (and so refuses unknown values).
fn names_related_objects(spec: &ResourceSpec, param: &str) -> bool {
    if param == "tag" {
        return true;
    }
    if let Some(extra) = spec.extra_filters.iter().find(|e| e.param == param) {
        return matches!(extra.source, FilterSource::Related(_));
    }
    param
        .strip_suffix("_id")
        .and_then(|fk| spec.field(fk))
        .is_some_and(|f| matches!(f.kind, Kind::ForeignKey { .. }))
}

/// Whether `object` matches `q` by one of the resource's search terms.
fn matches_search(w: &World, spec: &ResourceSpec, object: &Json, q: &str) -> bool {
    spec.search.iter().any(|term| match *term {
        Search::Contains(path) => w
            .follow_one(object, path)
            .as_str()
            .is_some_and(|v| v.to_lowercase().contains(&q.to_lowercase())),
        Search::IntEquals(path) => {
            q.parse::<i64>().ok() == w.follow_one(object, path).as_i64() && q.parse::<i64>().is_ok()
        }
        Search::IpHost(path) => {
            let wanted = q.parse::<std::net::IpAddr>().ok();
            wanted.is_some() && w.follow_one(object, path).as_str().and_then(host) == wanted
        }
    })
}

/// `q` values drawn from an object: a piece of each text term, each number, each host.
fn search_samples(w: &World, spec: &ResourceSpec, object: &Json) -> Vec<String> {
    let mut out = Vec::new();
    for term in spec.search {
        let sample = match *term {
            Search::Contains(path) => w.follow_one(object, path).as_str().and_then(|v| {
                let chars: Vec<char> = v.chars().collect();
                (chars.len() >= 3).then(|| chars[1..chars.len().min(6)].iter().collect())
            }),
            Search::IntEquals(path) => w.follow_one(object, path).as_i64().map(|n| n.to_string()),
            Search::IpHost(path) => w
                .follow_one(object, path)
                .as_str()
                .and_then(host)
                .map(|h| h.to_string()),
        };
        // The server trims `q`; so does the sample.
        let sample = sample.map(|s| s.trim().to_string());
        out.extend(sample.filter(|s| !s.is_empty() && !out.contains(s)));
    }
    out
}

fn check_search(w: &World, spec: &ResourceSpec) -> usize {
    let objects = &w.objects[spec.table];
    let mut checked = 0;
    for object in objects.iter().step_by((objects.len() / 2).max(1)).take(2) {
        for q in search_samples(w, spec, object) {
            let expected: BTreeSet<i64> = objects
                .iter()
                .filter(|o| matches_search(w, spec, o, &q))
                .map(|o| o["id"].as_i64().unwrap())
                .collect();
            assert!(
                !expected.is_empty(),
                "{}: q={q} matches its source",
                spec.path
            );
            let query = format!("q={}", encode(&q));
            assert_eq!(w.ids(spec, &query), expected, "{}?{query}", spec.path);
            checked += 1;
        }
    }
    checked
}

#[test]
fn every_filter_of_every_endpoint_returns_what_the_objects_say() {
    let w = World::build(demo_network());
    let mut tried = 0;
    for spec in routed() {
        assert!(
            !w.objects[spec.table].is_empty(),
            "{}: no objects to filter",
            spec.path
        );
        for field in Store::catalog(spec).fields {
            let param = field.name;
            let bound = spec.extra_filters.iter().find_map(|e| match e.source {
                FilterSource::Since(f) if e.param == param => Some((f, true)),
                FilterSource::Until(f) if e.param == param => Some((f, false)),
                _ => None,
            });
            let hidden = spec.field(param).is_some_and(|f| f.hidden);
            match bound {
                Some((f, since)) => check_time_bound(&w, spec, param, f, since),
                None if hidden => check_hidden_field(&w, spec, param, field.kind),
                None => {
                    assert!(
                        !samples(&w, spec, param).is_empty(),
                        "{}: no sample value for {param}",
                        spec.path
                    );
                    check_equality_filter(&w, spec, param, field.kind);
                }
            }
            if names_related_objects(spec, param) {
                check_unknown_value(&w, spec, param, field.kind);
            }
            tried += 1;
        }
        if !spec.search.is_empty() {
            assert!(check_search(&w, spec) > 0, "{}: q never tried", spec.path);
        }
    }
    assert!(tried >= 250, "only {tried} filters tried");
    assert!(check_reference_filters(&w) >= 250);
}

/// The reference's filters (`reference_filters.txt` of peering-filter), asked for as the
/// reference names them, at the endpoint's path in their release's layout: each selects
/// what the same filter does in the checks above, and each of its lookups is accepted.
/// Filters without a sample value (time bounds, hidden fields) and those
/// `docs/differences.md` explains are left to peering-filter's test of the catalogs.
fn check_reference_filters(w: &World) -> usize {
    const LISTED: &str = include_str!("../../../peering-filter/tests/reference_filters.txt");
    let mut checked = 0;
    let mut seen = HashSet::new();
    for line in LISTED.lines().filter(|l| !l.starts_with('#')) {
        let [_, endpoint, name, lookups] = line.split_whitespace().collect::<Vec<_>>()[..] else {
            panic!("malformed line {line:?}");
        };
        // Both releases list most filters alike, at the same path: asked for once.
        if !seen.insert((endpoint, name, lookups)) {
            continue;
        }
        let (app, path) = endpoint.split_once('/').unwrap();
        let Some(spec) = peering_domain::resources::by_path(app, path) else {
            continue;
        };
        let param = peering_domain::names::filter_from_reference(name);
        let catalog = Store::catalog(spec);
        let hidden = spec.field(&param).is_some_and(|f| f.hidden);
        if name == "q" || hidden || catalog.field(&param).is_none() || std::ptr::eq(spec, &USER) {
            continue;
        }
        let Some(value) = samples(w, spec, &param).into_iter().next() else {
            continue;
        };
        let value = encode(&value);
        let at = |query: &str| {
            let r =
                w.s.get(&format!("/api/{endpoint}/?{query}&limit=0&brief=1"));
            assert_eq!(r.status, 200, "{endpoint}?{query}: {}", r.text);
            (r.json()["results"].as_array().unwrap().iter())
                .map(|o| o["id"].as_i64().unwrap())
                .collect::<BTreeSet<i64>>()
        };
        let query = format!("{name}={value}");
        assert_eq!(
            at(&query),
            w.ids(spec, &format!("{param}={value}")),
            "{endpoint}?{query}"
        );
        // `null` is a value of the plain (and `n`) lookups only.
        let lookups = lookups.split(',').filter(|l| *l != "-" && value != "null");
        for lookup in lookups {
            at(&format!("{name}__{lookup}={value}"));
        }
        checked += 1;
    }
    checked
}

#[test]
fn a_session_page_costs_queries_by_its_slices_never_by_its_objects() {
    let s = TestServer::start_on(demo_network(), Settings::default());
    // The token is looked up once, then cached; its last use is written in the background,
    // once a minute: wait for that write so that it does not land in a measurement.
    s.await_token_last_use();
    for path in [
        "/api/peering/internet-exchange-peering-sessions/",
        "/api/peering/direct-peering-sessions/",
    ] {
        // The store's count also takes in what runs beside the request (the job workers
        // looking for work): the fewest of three tries is the request's own. Each try asks
        // for a page one shorter, so that none is answered from the answer cache.
        let cost = |query: &str, limit: u64| {
            let once = |shorter: u64| {
                let before = s.store.queries_executed();
                let r = s.get(&format!("{path}?{query}limit={}", limit - shorter));
                assert_eq!(r.status, 200, "{}", r.text);
                assert!(r.json()["results"]
                    .as_array()
                    .is_some_and(|a| !a.is_empty()));
                s.store.queries_executed() - before
            };
            (0..3).map(once).min().unwrap_or(u64::MAX)
        };
        // Pages large enough to hold every kind of relation; a tiny page may skip a query.
        // Up to 200 objects a page is read whole, in the same queries whatever its size.
        let small = cost("", 100);
        let whole = cost("", 200);
        assert_eq!(small, whole, "{path}: queries grow with the page size");
        assert!(whole <= 12, "{path}: {whole} queries for one page");
        // Larger pages are read 250 objects at a time (their ids and count first), so that
        // memory holds one slice: queries grow with the slices (a slice reads only the
        // related resources its objects point to), never with the objects.
        let (one, four) = (cost("", 250), cost("", 1000));
        assert!(one <= whole + 2, "{path}: {one} queries for one slice");
        assert!(four <= 4 * one, "{path}: {four} queries for four slices");
        let large = four;
        // A related-object filter adds one query: the check that its value names an object.
        let peer = s.get(&format!("{path}?limit=1")).json()["results"][0]["autonomous_system"]
            ["id"]
            .clone();
        let filtered = cost(
            &format!("autonomous_system_id={peer}&status__n=disabled&ordering=-ip_address&"),
            1000,
        );
        // A filter on a related object's id checks that the id names an object, unless the
        // page has rows, which prove it: then it costs nothing, nor does the count of a
        // page that ends its list.
        assert!(filtered <= large, "{path}: {filtered} queries filtered");
    }
}

#[test]
fn a_filter_value_naming_no_object_is_refused_even_beside_one_that_matches() {
    let s = TestServer::start_on(demo_network(), Settings::default());
    let path = "/api/peering/internet-exchange-peering-sessions/";
    let peer =
        s.get(&format!("{path}?limit=1")).json()["results"][0]["autonomous_system"]["id"].clone();
    let matched = s.get(&format!("{path}?autonomous_system_id={peer}"));
    assert_eq!(matched.status, 200, "{}", matched.text);
    assert!(matched.json()["count"].as_i64().unwrap_or(0) > 0);
    // Rows match the first value; the second still names no object.
    let r = s.get(&format!(
        "{path}?autonomous_system_id={peer}&autonomous_system_id=987654321"
    ));
    assert_eq!(r.status, 400, "{}", r.text);
    assert_eq!(
        r.json(),
        json!({"autonomous_system_id": ["Select a valid choice. 987654321 is not one of the available choices."]})
    );
    // A negation matches rows whatever its value names.
    let r = s.get(&format!("{path}?autonomous_system_id__n=987654321"));
    assert_eq!(r.status, 400, "{}", r.text);
    // Tags are ANDed: rows with the first prove nothing of the second.
    let r = s.get("/api/peering/autonomous-systems/?tag=no-such-tag&tag=no-such-either");
    assert_eq!(r.status, 400, "{}", r.text);
}

#[test]
fn deep_pages_are_the_same_slice_of_the_whole_list() {
    let s = TestServer::start_on(
        demo_network(),
        Settings {
            max_page_size: 0,
            ..Settings::default()
        },
    );
    let ids = |query: &str| -> Vec<i64> {
        let r = s.get(&format!(
            "/api/peering/internet-exchange-peering-sessions/?{query}"
        ));
        assert_eq!(r.status, 200, "{}", r.text);
        r.json()["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["id"].as_i64().unwrap())
            .collect()
    };
    for filter in [
        "",
        "ordering=-ip_address",
        "status=enabled&ordering=autonomous_system,-id",
    ] {
        let all = ids(&format!("{filter}&limit=0&brief=1"));
        assert!(all.len() > 1300, "{filter}: {}", all.len());
        // Past the offset where the store reads ids first, and just before it.
        for offset in [999, 1000, 1250, all.len() - 10] {
            let page = ids(&format!("{filter}&limit=50&offset={offset}"));
            let end = (offset + 50).min(all.len());
            assert_eq!(page, all[offset..end], "{filter} offset {offset}");
        }
    }
}
