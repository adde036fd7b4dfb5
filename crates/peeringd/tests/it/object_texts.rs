//! Objects kept rendered (`peering-app/src/answers/texts.rs`): pages and details assembled
//! from them answer what a server that keeps nothing answers, through writes of every kind
//! to what they show, on this instance and on another one over the same database.

use crate::common::network::{network, ROUTERS};
use crate::common::{Instance, TestServer, AS};
use peering_api::Settings;
use serde_json::{json, Value as Json};

const SESSIONS: &str = "/api/peering/internet-exchange-peering-sessions/";
const DIRECT: &str = "/api/peering/direct-peering-sessions/";
const POLICIES: &str = "/api/peering/routing-policies/";
const TAGS: &str = "/api/extras/tags/";

/// Lists whose objects show others (nested, counted, computed), with their details.
const LISTS: &[&str] = &[
    AS,
    SESSIONS,
    DIRECT,
    ROUTERS,
    POLICIES,
    TAGS,
    "/api/net/connections/",
    "/api/peering/internet-exchanges/",
    "/api/peering/bgp-groups/",
    "/api/peering/communities/",
];

/// A server keeping objects rendered, and one over the same database keeping nothing.
struct Pair {
    kept: TestServer,
    plain: Instance,
}

impl Pair {
    fn start() -> Pair {
        Pair::keeping(TestServer::start())
    }

    fn keeping(kept: TestServer) -> Pair {
        let plain = kept.another_instance(Settings {
            response_cache_bytes: 0,
            object_texts_bytes: 0,
            ..Settings::default()
        });
        Pair { kept, plain }
    }

    /// `path` from both servers, links made alike; asserts they answer the same.
    fn same(&self, path: &str, when: &str) -> Json {
        let kept = self.kept.get(path);
        assert_eq!(kept.status, 200, "{path}: {}", kept.text);
        let plain = self.kept.send_to(&self.plain, "GET", path, None);
        let plain = plain.text.replace(&self.plain.base, &self.kept.base);
        assert_eq!(kept.text, plain, "{path} after {when}");
        kept.json()
    }

    /// Every list in pages of two, each object complete and brief.
    fn all_same(&self, when: &str) {
        for list in LISTS {
            let first = self.same(&format!("{list}?limit=2"), when);
            let count = first["count"].as_i64().expect("a count");
            for offset in (0..count).step_by(2) {
                let page = self.same(&format!("{list}?limit=2&offset={offset}"), when);
                for object in page["results"].as_array().expect("results") {
                    let id = &object["id"];
                    self.same(&format!("{list}{id}/"), when);
                    self.same(&format!("{list}{id}/?brief=1"), when);
                }
            }
            self.same(&format!("{list}?brief=1&limit=50"), when);
        }
    }

    /// `path` from the server keeping texts, with the texts it served and rendered.
    fn read_counting(&self, path: &str) -> (u64, u64, Json) {
        let (served, rendered, _) = self.kept.texts.tally();
        let body = self.kept.get(path).json();
        let (served_after, rendered_after, _) = self.kept.texts.tally();
        (served_after - served, rendered_after - rendered, body)
    }

    fn first_id(&self, list: &str) -> i64 {
        self.kept.get(&format!("{list}?limit=1")).json()["results"][0]["id"]
            .as_i64()
            .expect("an object")
    }

    fn patch_here(&self, path: &str, body: Json) {
        let r = self.kept.patch(path, body);
        assert_eq!(r.status, 200, "{path}: {}", r.text);
    }

    fn patch_there(&self, path: &str, body: Json) {
        self.kept.send_to(&self.plain, "PATCH", path, Some(body));
    }
}

#[test]
fn a_large_page_sent_from_kept_texts_is_whole_and_compressed_when_asked() {
    use std::io::Read;
    let pair = Pair::start();
    // About 1.5 KiB an object: a page of them all is larger than answers sent whole (128
    // KiB) or kept whole beside texts (256 KiB), so it is sent from its parts.
    let body: Vec<Json> = (0..250)
        .map(|i| json!({"asn": 64500 + i, "name": format!("AS {i}"), "comments": "c".repeat(500)}))
        .collect();
    assert_eq!(pair.kept.post(AS, Json::Array(body)).status, 201);
    let page = format!("{AS}?limit=1000");
    for round in ["the texts rendered", "the texts kept"] {
        let (served, _, _) = pair.read_counting(&page);
        let key = Some(pair.kept.key.as_str());
        let plain = pair.kept.send_raw("GET", &page, key, &[]);
        let text = pair.same(&page, round).to_string();
        assert!(plain.body.len() > 256 << 10, "{}", plain.body.len());
        let length = plain.header("Content-Length").map(str::to_owned);
        assert_eq!(length, Some(plain.body.len().to_string()), "{round}");
        let decoded: Json = serde_json::from_slice(&plain.body).expect("JSON");
        assert_eq!(decoded.to_string(), text, "{round}");
        let gzip = pair
            .kept
            .send_raw("GET", &page, key, &[("Accept-Encoding", "gzip")]);
        assert_eq!(gzip.header("Content-Encoding"), Some("gzip"), "{round}");
        let mut unzipped = Vec::new();
        let read = flate2::read::GzDecoder::new(&gzip.body[..]).read_to_end(&mut unzipped);
        assert!(read.is_ok());
        assert_eq!(unzipped, plain.body, "{round}");
        if round == "the texts kept" {
            assert!(served >= 250, "{served} objects from the texts");
        }
    }
}

/// A write through one of the pair's servers.
type Write<'a> = Box<dyn Fn(&Pair) + 'a>;

#[test]
fn assembled_answers_match_a_server_keeping_nothing_through_every_kind_of_write() {
    let pair = Pair::start();
    let built = network(&pair.kept);
    pair.all_same("building");
    // Read again: now from kept texts.
    pair.all_same("nothing");

    let peer = format!("{AS}{}/", built.peer);
    let policy = format!("{POLICIES}{}/", pair.first_id(POLICIES));
    let tag = format!("{TAGS}{}/", pair.first_id(TAGS));
    let router = format!("{ROUTERS}{}/", built.junos);
    let session = format!("{SESSIONS}{}/", pair.first_id(SESSIONS));
    let tag_id = pair.first_id(TAGS);
    let writes: Vec<(&str, Write)> = vec![
        (
            "a peer renamed",
            Box::new(|p: &Pair| p.patch_here(&peer, json!({"name": "Peer, renamed"}))),
        ),
        (
            "a peer renamed through the other instance",
            Box::new(|p: &Pair| p.patch_there(&peer, json!({"name": "Peer, renamed there"}))),
        ),
        (
            "a policy renamed",
            Box::new(|p: &Pair| p.patch_here(&policy, json!({"name": "policy-renamed"}))),
        ),
        (
            "a tag renamed through the other instance",
            Box::new(|p: &Pair| p.patch_there(&tag, json!({"name": "Platinum"}))),
        ),
        (
            "a peer tagged",
            Box::new(|p: &Pair| p.patch_here(&peer, json!({"tags": [tag_id]}))),
        ),
        (
            "a router renamed",
            Box::new(|p: &Pair| p.patch_here(&router, json!({"name": "edge1-renamed"}))),
        ),
        (
            "a session's state",
            Box::new(|p: &Pair| {
                p.patch_here(&session, json!({"bgp_state": "idle", "status": "disabled"}))
            }),
        ),
        (
            "a peer's policies",
            Box::new(|p: &Pair| p.patch_here(&peer, json!({"import_routing_policies": []}))),
        ),
        (
            "an autonomous system added",
            Box::new(|p: &Pair| {
                p.kept.create(AS, json!({"asn": 65010, "name": "Newcomer"}));
            }),
        ),
        (
            "an autonomous system removed",
            Box::new(|p: &Pair| {
                let id = p.kept.get(&format!("{AS}?asn=65010")).json()["results"][0]["id"].clone();
                let r = p.kept.delete(&format!("{AS}{id}/"), None);
                assert_eq!(r.status, 204, "{}", r.text);
            }),
        ),
    ];
    for (when, write) in &writes {
        write(&pair);
        pair.all_same(when);
    }
}

#[test]
fn a_write_to_one_object_leaves_the_others_kept_and_another_instances_none() {
    let pair = Pair::start();
    let s = &pair.kept;
    let ids: Vec<i64> = (0..4)
        .map(|n| {
            s.create(AS, json!({"asn": 65001 + n, "name": format!("AS{n}")}))["id"]
                .as_i64()
                .unwrap()
        })
        .collect();
    let page = format!("{AS}?limit=4&ordering=asn");
    // Served and rendered by the read of `page`.
    let read = || pair.read_counting(&page);
    assert_eq!(read().1, 4, "every object rendered the first time");
    assert_eq!(read().0, 4, "every object kept");
    pair.patch_here(&format!("{AS}{}/", ids[0]), json!({"comments": "changed"}));
    let (served, rendered, body) = read();
    assert_eq!(
        (served, rendered),
        (3, 1),
        "only the object written is rendered again"
    );
    assert_eq!(body["results"][0]["comments"], "changed");
    pair.patch_there(&format!("{AS}{}/", ids[1]), json!({"comments": "there"}));
    let (served, rendered, body) = read();
    assert_eq!(
        (served, rendered),
        (0, 4),
        "which rows another instance wrote is not known"
    );
    assert_eq!(body["results"][1]["comments"], "there");
}

#[test]
fn a_page_of_kept_objects_through_a_kept_order_costs_no_statement() {
    let pair = Pair::start();
    let s = &pair.kept;
    for n in 0..6 {
        s.create(AS, json!({"asn": 65001 + n, "name": format!("AS{n}")}));
    }
    assert!(s.await_token_last_use());
    let page = |offset: i64| {
        let before = s.store.queries_executed();
        let body = s.get(&format!("{AS}?limit=2&offset={offset}")).json();
        (s.store.queries_executed() - before, body)
    };
    // Every object kept rendered, then the list's order read and kept (from the first page
    // past the start on).
    s.get(&format!("{AS}?limit=6"));
    page(1);
    let (statements, body) = page(2);
    assert_eq!(statements, 0, "{body}");
    assert_eq!(body["count"], 6);
    assert_eq!(body["results"][0]["asn"], 65003);
    // A write through the other instance: the order and the objects are read again.
    let id = &body["results"][0]["id"];
    pair.patch_there(&format!("{AS}{id}/"), json!({"name": "Renamed"}));
    let (statements, body) = page(2);
    assert!(statements > 0);
    assert_eq!(body["results"][0]["name"], "Renamed");
}

#[test]
fn a_write_to_one_session_leaves_the_others_kept() {
    let pair = Pair::start();
    let s = &pair.kept;
    network(s);
    let page = format!("{SESSIONS}?limit=50");
    let read = || pair.read_counting(&page);
    let (_, rendered, body) = read();
    let sessions = body["results"].as_array().expect("results").len() as u64;
    assert!(
        sessions >= 2 && rendered == sessions,
        "{rendered} of {sessions}"
    );
    let id = &body["results"][0]["id"];
    pair.patch_here(&format!("{SESSIONS}{id}/"), json!({"comments": "changed"}));
    let (served, rendered, _) = read();
    assert_eq!((served, rendered), (sessions - 1, 1));
    // A peer written: its sessions show it, and only they are rendered again.
    let peer = &body["results"][0]["autonomous_system"]["id"];
    let its = (body["results"].as_array().unwrap().iter())
        .filter(|session| session["autonomous_system"]["id"] == *peer)
        .count() as u64;
    pair.patch_here(&format!("{AS}{peer}/"), json!({"comments": "changed"}));
    let (served, rendered, _) = read();
    assert_eq!((served, rendered), (sessions - its, its));
}

#[test]
fn pages_of_objects_not_all_kept_match_a_server_keeping_nothing() {
    // Room for a few texts: once full, most objects rendered are written into their page
    // without being kept, beside those that are, in the page's order.
    let pair = Pair::keeping(TestServer::start_with(Settings {
        object_texts_bytes: 8 << 10,
        ..Settings::default()
    }));
    network(&pair.kept);
    for round in ["first", "second", "third"] {
        pair.all_same(round);
        for list in LISTS {
            pair.same(&format!("{list}?limit=1000"), round);
        }
    }
    let (_, rendered, kept) = pair.kept.texts.tally();
    assert!(
        kept < rendered,
        "{kept} of {rendered} kept: the memory was full"
    );
}
