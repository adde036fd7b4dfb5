//! The cache of rendered answers: served only while the data is unchanged, whichever
//! instance wrote; never past a permission check; links and indentation per request.

use crate::common::builders::{autonomous_system, tag};
use crate::common::{column, TestServer, AS};
use peering_api::{ExemptViews, Settings};
use serde_json::{json, Value as Json};

/// The statements the store ran to answer `path` (reads of the tables' versions, shared by
/// the requests waiting for them, aside).
fn cost(s: &TestServer, path: &str) -> (u64, Json) {
    let before = s.store.queries_executed();
    let r = s.get(path);
    assert_eq!(r.status, 200, "{path}: {}", r.text);
    (s.store.queries_executed() - before, r.json())
}

/// The statements the store ran to answer the page `path`, and the count it showed.
fn counted(s: &TestServer, path: &str) -> (u64, i64) {
    let (cost, body) = cost(s, path);
    (cost, body["count"].as_i64().expect("a page's count"))
}

/// Asserts that `path` is answered from the cache: no statement but a read of the versions,
/// which confirms that the kept answer is current.
fn served_from_cache(s: &TestServer, path: &str) -> Json {
    let reads = s.store.version_reads();
    let (cost, body) = cost(s, path);
    assert_eq!(cost, 0, "{path}: {cost} statements for a cached answer");
    assert!(
        s.store.version_reads() > reads,
        "{path}: served unconfirmed"
    );
    body
}

/// Waits for the background write of the token's last use, which would otherwise change
/// the data version in the middle of a measurement.
fn settle(s: &TestServer) {
    assert!(
        s.await_token_last_use(),
        "the token's last use was never written"
    );
}

/// A server keeping answers but no objects rendered (`object_texts.rs`), whose reads then
/// cost what the answer cache alone saves.
fn answers_alone() -> TestServer {
    TestServer::start_with(Settings {
        object_texts_bytes: 0,
        ..Settings::default()
    })
}

#[test]
fn a_repeated_read_costs_no_query_until_what_it_reads_is_written() {
    let s = answers_alone();
    s.create(
        AS,
        json!([{"asn": 65001, "name": "One"}, {"asn": 65002, "name": "Two"}]),
    );
    settle(&s);
    // A full page, whose count is a statement of its own (a short one tells its count).
    let page = format!("{AS}?limit=1");
    let (first, body) = cost(&s, &page);
    assert!(first > 1, "{first} queries for a page");
    let (second, _) = cost(&s, &page);
    assert_eq!(
        second,
        first - 1,
        "an answer is kept the second time it is asked for (its count, the first time)"
    );
    assert_eq!(served_from_cache(&s, &page), body);
    let id = body["results"][0]["id"].as_i64().unwrap();
    let detail = format!("{AS}{id}/");
    cost(&s, &detail);
    cost(&s, &detail);
    served_from_cache(&s, &detail);

    // Tags are shown in an autonomous system: writing one renders it anew (its count,
    // of autonomous systems, holds).
    tag("T").create(&s);
    let (after, _) = cost(&s, &page);
    assert_eq!(
        after,
        first - 1,
        "a write to what the page reads must be seen"
    );
}

#[test]
fn the_pages_of_a_list_count_it_once_until_what_it_reads_is_written() {
    let s = answers_alone();
    s.create(
        AS,
        json!([
            {"asn": 65001, "name": "One"},
            {"asn": 65002, "name": "Two"},
            {"asn": 65003, "name": "Three"},
        ]),
    );
    settle(&s);
    let (first, body) = cost(&s, &format!("{AS}?limit=1"));
    assert_eq!(body["count"], 3);
    // The first page reads no order (it walks no rows before it) and counts the list; a
    // page past it reads the list's order, which counts it, and the next ones take both.
    let (second_page, body) = cost(&s, &format!("{AS}?limit=1&offset=1"));
    assert_eq!(body["count"], 3);
    assert_eq!(second_page, first, "the order read in place of the count");
    let (other_page, body) = cost(&s, &format!("{AS}?limit=1&offset=2"));
    assert_eq!(body["count"], 3);
    assert_eq!(
        other_page,
        first - 1,
        "every page of the list shares its count"
    );
    // In another order: the order is read (which counts the list), the count is not.
    let (reordered, body) = cost(&s, &format!("{AS}?limit=1&offset=1&ordering=-asn"));
    assert_eq!(body["count"], 3);
    assert_eq!(reordered, first);

    let (filtered, body) = cost(&s, &format!("{AS}?limit=1&asn__gte=65002"));
    assert_eq!(body["count"], 2);
    assert_eq!(filtered, first, "another list is counted");

    let four = autonomous_system(65004, "Four").create(&s);
    let (after, body) = cost(&s, &format!("{AS}?limit=1&offset=2"));
    assert_eq!(body["count"], 4, "a write is counted at once");
    assert_eq!(after, first);

    // An update adds no row and removes none: the whole list's count holds; a filtered
    // list may gain or lose rows with it, and is counted anew.
    let four = format!("{AS}{}/", four["id"]);
    let patched = s.patch(&four, json!({"asn": 65000}));
    assert_eq!(patched.status, 200, "{}", patched.text);
    let (updated, count) = counted(&s, &format!("{AS}?limit=1&offset=1"));
    assert_eq!(count, 4);
    assert_eq!(
        updated,
        first - 1,
        "an update leaves the list's count as it was"
    );
    let (filtered, count) = counted(&s, &format!("{AS}?limit=1&offset=1&asn__gte=65002"));
    assert_eq!(count, 2, "the updated object left the filtered list");
    assert_eq!(filtered, first);

    assert_eq!(s.delete(&four, None).status, 204);
    let (deleted, count) = counted(&s, &format!("{AS}?limit=1&offset=3"));
    assert_eq!(count, 3, "a deletion is counted at once");
    assert_eq!(deleted, first);
}

/// Change records are copied in on PostgreSQL (no INSERT statement names their table):
/// the count of the whole list of changes still follows every write.
#[test]
fn the_count_of_change_records_follows_every_write() {
    let s = TestServer::start();
    let changes = "/api/extras/object-changes/?limit=1";
    let count = |s: &TestServer| s.get(changes).json()["count"].as_i64().unwrap();
    autonomous_system(65001, "One").create(&s);
    let before = count(&s);
    assert_eq!(count(&s), before, "counted twice, then kept");
    autonomous_system(65002, "Two").create(&s);
    assert_eq!(count(&s), before + 1);
}

#[test]
fn a_write_through_another_instance_is_seen_at_once() {
    let s = TestServer::start();
    let other = s.another_instance(Settings::default());
    let created = autonomous_system(65001, "Before").create(&s);
    let id = created["id"].as_i64().unwrap();
    let detail = format!("{AS}{id}/");
    let list = format!("{AS}?ordering=asn");
    assert_eq!(s.get(&detail).json()["name"], "Before");
    assert_eq!(s.get(&list).json()["count"], 1);

    let elsewhere = |method: &str, path: &str, body: Option<Json>| {
        s.send_to(&other, method, path, body);
    };
    elsewhere("PATCH", &detail, Some(json!({"name": "After"})));
    assert_eq!(s.get(&detail).json()["name"], "After");
    elsewhere("POST", AS, Some(json!({"asn": 65002, "name": "Second"})));
    assert_eq!(s.get(&list).json()["count"], 2);
    elsewhere("DELETE", &detail, None);
    assert_eq!(s.get(&detail).status, 404);
    assert_eq!(column(&s.get(&list).json(), "name"), [json!("Second")]);
}

#[test]
fn a_cached_answer_is_still_refused_to_a_caller_without_permission() {
    let s = TestServer::start_with(Settings {
        exempt_view_permissions: ExemptViews::Only(Vec::new()),
        ..Settings::default()
    });
    autonomous_system(65001, "One").create(&s);
    // Asked twice: the answer is kept.
    assert_eq!(s.get(AS).status, 200);
    assert_eq!(s.get(AS).status, 200);
    let reader = s.token("nobody", false, false, None);
    let r = s.request("GET", AS, None, Some(&reader), &[]);
    assert_eq!(r.status, 403, "{}", r.text);
    assert_eq!(s.request("GET", AS, None, None, &[]).status, 403);
}

#[test]
fn links_follow_the_host_and_indentation_the_accept_header() {
    let s = TestServer::start();
    let created = autonomous_system(65001, "One").create(&s);
    let id = created["id"].as_i64().unwrap();
    let path = format!("{AS}{id}/");
    let url_for = |host: &str| {
        let r = s.request("GET", &path, None, Some(&s.key), &[("Host", host)]);
        assert_eq!(r.status, 200);
        r.json()["url"].as_str().unwrap().to_string()
    };
    // Each is asked twice (and kept), then again.
    for host in [
        "a.example",
        "b.example",
        "a.example",
        "b.example",
        "a.example",
    ] {
        assert!(url_for(host).starts_with(&format!("http://{host}/")));
    }

    let plain = s.get(&path);
    let indented = s.request(
        "GET",
        &path,
        None,
        Some(&s.key),
        &[("Accept", "application/json; indent=4")],
    );
    assert!(!plain.text.contains('\n'));
    assert!(indented.text.contains("\n    \"id\""), "{}", indented.text);
    assert_eq!(plain.json(), indented.json());
}

#[test]
fn with_no_memory_for_it_every_read_is_rendered_anew() {
    let s = TestServer::start_with(Settings {
        response_cache_bytes: 0,
        object_texts_bytes: 0,
        ..Settings::default()
    });
    autonomous_system(65001, "One").create(&s);
    settle(&s);
    // A filtered list (a whole list's order would be kept between reads).
    let list = format!("{AS}?name=One");
    let (first, _) = cost(&s, &list);
    let (again, _) = cost(&s, &list);
    assert_eq!(first, again);
    assert!(again > 0, "rendered: at least its rows read");
}

#[test]
fn a_write_to_what_a_resource_does_not_read_leaves_its_answers_cached() {
    let s = TestServer::start();
    autonomous_system(65001, "One").create(&s);
    settle(&s);
    let page = format!("{AS}?limit=50");
    let (first, _) = cost(&s, &page);
    assert!(first > 0, "{first} queries for a page");
    cost(&s, &page);
    // BGP groups are no part of an autonomous system's answer.
    let groups = "/api/peering/bgp-groups/";
    assert_eq!(s.get(groups).json()["count"], 0);
    s.create(groups, json!({"name": "Transit", "slug": "transit"}));
    served_from_cache(&s, &page);
    assert_eq!(s.get(groups).json()["count"], 1, "the groups' list is not");
    // A routing policy is shown inside an autonomous system: writing one renders anew.
    s.create(
        "/api/peering/routing-policies/",
        json!({"name": "Out", "slug": "out", "type": "export-policy", "weight": 0}),
    );
    assert!(cost(&s, &page).0 > 0, "the page is rendered anew");
    // and kept the second time it is asked for at the new versions.
    assert!(cost(&s, &page).0 > 0);
    served_from_cache(&s, &page);
}

#[test]
fn an_update_of_an_unknown_object_is_a_404_before_any_other_answer_and_writes_nothing() {
    let s = TestServer::start();
    let created = autonomous_system(65001, "One").create(&s);
    settle(&s);
    let page = format!("{AS}?limit=1");
    cost(&s, &page);
    cost(&s, &page);
    served_from_cache(&s, &page);

    let missing = format!("{AS}987654/");
    let r = s.patch(&missing, json!({"name": "Two"}));
    assert_eq!(r.status, 404, "{}", r.text);
    // The object is missing whatever is wrong with the body, as in the reference.
    let r = s.patch(&missing, json!({"asn": "not a number"}));
    assert_eq!(r.status, 404, "{}", r.text);
    let r = s.put(&missing, json!({"name": 5}));
    assert_eq!(r.status, 404, "{}", r.text);
    // Nothing was written: the page is still the one kept.
    served_from_cache(&s, &page);

    // A known object with a bad body is told what is wrong with it.
    let known = format!("{AS}{}/", created["id"]);
    let r = s.patch(&known, json!({"asn": "not a number"}));
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(r.json()["asn"].is_array(), "{}", r.text);
    let r = s.patch(&known, json!({"name": "Two"}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["name"], "Two");
}

/// Whether an answer to `path` comes from the cache within `tries` asks.
fn served_from_cache_within(s: &TestServer, path: &str, tries: usize) -> bool {
    (0..tries).any(|_| cost(s, path).0 == 0)
}

#[test]
fn lookups_that_stopped_paying_pay_again_and_never_serve_what_a_write_changed() {
    let s = TestServer::start();
    let created = autonomous_system(65001, "One").create(&s);
    settle(&s);
    // Pages asked for once each: their lookups miss until only one request in several
    // makes one (`cache_payoff.rs`).
    for offset in 0..200 {
        cost(&s, &format!("{AS}?limit=1&offset={offset}"));
    }
    // A page asked for again and again is soon served from the cache again, and never
    // once a write has changed it.
    let page = format!("{AS}?limit=1&ordering=-asn");
    assert!(
        served_from_cache_within(&s, &page, 200),
        "never served from the cache again"
    );

    let r = s.patch(&format!("{AS}{}/", created["id"]), json!({"name": "Two"}));
    assert_eq!(r.status, 200, "{}", r.text);
    for _ in 0..50 {
        let (_, body) = cost(&s, &page);
        assert_eq!(
            body["results"][0]["name"], "Two",
            "an answer older than a write"
        );
    }
    assert!(served_from_cache_within(&s, &page, 200));
}
