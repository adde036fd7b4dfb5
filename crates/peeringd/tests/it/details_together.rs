//! Details asked at the same time (read together in one statement): each
//! request gets its own object, as it is when asked, with what it shows; an object that
//! does not exist is a 404 for its request alone. The answer cache is off here, so every
//! request is read.

use std::collections::HashMap;
use std::sync::Barrier;

use crate::common::{TestServer, AS};
use peering_api::Settings;
use serde_json::{json, Value as Json};

const TAGS: &str = "/api/extras/tags/";
const POLICIES: &str = "/api/peering/routing-policies/";

/// `count` objects named `<name> <i>` (slug `<name>-<i>`, lowercased) created at `path`.
fn numbered(s: &TestServer, path: &str, name: &str, count: usize) -> Json {
    let slug = name.to_lowercase();
    let body = (0..count)
        .map(|i| json!({"name": format!("{name} {i}"), "slug": format!("{slug}-{i}")}))
        .collect();
    s.create(path, Json::Array(body))
}

/// 30 ASes, each with its own tag and import policy, the odd ones with an export policy
/// too; their ids.
fn peers(s: &TestServer) -> Vec<i64> {
    let count = 30;
    let tags = numbered(s, TAGS, "Tag", count);
    let policies = numbered(s, POLICIES, "Policy", count);
    let body: Vec<Json> = (0..count)
        .map(|i| {
            let export: Vec<Json> = (i % 2 == 1)
                .then(|| policies[0]["id"].clone())
                .into_iter()
                .collect();
            json!({"asn": 65000 + i, "name": format!("Peer {i}"),
                   "tags": [tags[i]["id"]],
                   "import_routing_policies": [policies[i]["id"]],
                   "export_routing_policies": export})
        })
        .collect();
    let created = s.create(AS, Json::Array(body));
    created
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_i64().unwrap())
        .collect()
}

fn without_answer_cache() -> TestServer {
    TestServer::start_with(Settings {
        response_cache_bytes: 0,
        object_texts_bytes: 0,
        ..Settings::default()
    })
}

/// Asks for `paths` from `threads` threads at once, each walking them from its own start;
/// every answer, by path.
fn ask_at_once(s: &TestServer, paths: &[String], threads: usize) -> Vec<(String, u16, String)> {
    let barrier = Barrier::new(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (barrier, s) = (&barrier, s);
                scope.spawn(move || {
                    barrier.wait();
                    (0..paths.len())
                        .map(|i| {
                            let path = &paths[(i + t * 7) % paths.len()];
                            let r = s.get(path);
                            (path.clone(), r.status, r.text)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

#[test]
fn details_asked_at_once_each_show_their_own_object() {
    let s = without_answer_cache();
    let ids = peers(&s);
    let mut paths: Vec<String> = ids.iter().map(|id| format!("{AS}{id}/")).collect();
    let missing = format!("{AS}{}/", ids.iter().max().unwrap() + 1000);
    paths.push(missing.clone());
    // Each answer as a request alone gets it.
    let alone: HashMap<String, (u16, String)> = paths
        .iter()
        .map(|p| {
            let r = s.get(p);
            (p.clone(), (r.status, r.text))
        })
        .collect();
    assert_eq!(alone[&missing].0, 404);
    let body: Json = serde_json::from_str(&alone[&format!("{AS}{}/", ids[3])].1).unwrap();
    assert_eq!(body["name"], "Peer 3");
    assert_eq!(body["tags"][0]["name"], "Tag 3");
    assert_eq!(body["import_routing_policies"][0]["name"], "Policy 3");
    assert_eq!(body["export_routing_policies"][0]["name"], "Policy 0");

    let answers = ask_at_once(&s, &paths, 16);
    assert_eq!(answers.len(), 16 * paths.len());
    for (path, status, text) in &answers {
        assert_eq!((*status, text), (alone[path].0, &alone[path].1), "{path}");
    }
}

#[test]
fn a_detail_asked_among_others_shows_every_write_that_ended_before() {
    let s = without_answer_cache();
    let ids = peers(&s);
    let threads = ids.len().min(12);
    let barrier = Barrier::new(threads);
    std::thread::scope(|scope| {
        for &id in &ids[..threads] {
            let (barrier, s) = (&barrier, &s);
            scope.spawn(move || {
                barrier.wait();
                let path = format!("{AS}{id}/");
                for round in 0..8 {
                    let comment = format!("round {round} of {id}");
                    let r = s.patch(&path, json!({"comments": comment}));
                    assert_eq!(r.status, 200, "{}", r.text);
                    // Other threads' reads keep the details busy meanwhile.
                    let r = s.get(&path);
                    assert_eq!(r.status, 200, "{}", r.text);
                    assert_eq!(r.json()["comments"], comment, "{path}");
                }
            });
        }
    });
}
