//! Lists' orders kept between reads: a page of a list not searched (unfiltered, or
//! filtered on its own columns and paged deep) takes its ids from the list's order, kept
//! while the tables it reads are unchanged. Every page must be the one an offset would
//! have read, whatever was written meanwhile and whichever instance wrote it. The answer
//! cache is off, so every request reads.

use crate::common::builders::autonomous_system;
use crate::common::{TestServer, AS};
use peering_api::Settings;
use serde_json::{json, Value as Json};

const SESSIONS: &str = "/api/peering/internet-exchange-peering-sessions/";

fn no_answer_cache() -> Settings {
    Settings {
        response_cache_bytes: 0,
        object_texts_bytes: 0,
        ..Settings::default()
    }
}

fn without_answer_cache() -> TestServer {
    let s = TestServer::start_with(no_answer_cache());
    assert!(
        s.await_token_last_use(),
        "the token's last use was never written"
    );
    s
}

/// `list` read page by page (`size` objects each, `query` added): each object's value at
/// `path` (a field, or a field of a nested object), and every count the pages gave.
fn paged(s: &TestServer, list: &str, size: usize, path: &[&str]) -> (Vec<Json>, Vec<i64>) {
    let (mut values, mut counts) = (Vec::new(), Vec::new());
    for offset in (0..).step_by(size) {
        let separator = if list.contains('?') { '&' } else { '?' };
        let r = s.get(&format!("{list}{separator}limit={size}&offset={offset}"));
        assert_eq!(r.status, 200, "{}", r.text);
        let body = r.json();
        counts.push(body["count"].as_i64().unwrap_or(-1));
        let page = body["results"].as_array().cloned().unwrap_or_default();
        if page.is_empty() {
            break;
        }
        for object in page {
            values.push(path.iter().fold(object, |v, key| v[key].clone()));
        }
    }
    (values, counts)
}

/// The numbers of `asns`, sorted as the list orders them.
fn sorted(asns: &[i64]) -> Vec<Json> {
    let mut asns = asns.to_vec();
    asns.sort_unstable();
    asns.into_iter().map(Json::from).collect()
}

fn id_of(s: &TestServer, asn: i64) -> Json {
    s.get(&format!("{AS}?asn={asn}")).json()["results"][0]["id"].clone()
}

/// Every page of `list` (`size` a page) shows the autonomous systems numbered `asns`, in
/// order, and counts them all.
fn assert_pages_show(s: &TestServer, list: &str, size: usize, asns: &[i64]) {
    let (values, counts) = paged(s, list, size, &["asn"]);
    assert_eq!(values, sorted(asns));
    assert!(counts.iter().all(|&c| c == asns.len() as i64), "{counts:?}");
}

/// How many statements reading `path` took.
fn statements_of(s: &TestServer, path: &str) -> u64 {
    let before = s.store.queries_executed();
    assert_eq!(s.get(path).status, 200);
    s.store.queries_executed() - before
}

/// PATCHes the autonomous system numbered `asn` through `s`.
fn patch_as(s: &TestServer, asn: i64, body: Json) {
    let r = s.patch(&format!("{AS}{}/", id_of(s, asn)), body);
    assert_eq!(r.status, 200, "{}", r.text);
}

#[test]
fn pages_follow_the_lists_order_whichever_instance_writes() {
    let s = without_answer_cache();
    let other = s.another_instance(no_answer_cache());
    let mut asns: Vec<i64> = (0..40).map(|i| 65_000 + (i * 17) % 40 * 10).collect();
    let bodies: Vec<Json> = (asns.iter())
        .map(|asn| json!({"asn": asn, "name": format!("AS{asn}")}))
        .collect();
    s.create(AS, Json::from(bodies));
    let check = |s: &TestServer, asns: &[i64]| assert_pages_show(s, AS, 7, asns);
    check(&s, &asns);
    // Read again through the kept order: one statement a page.
    assert_eq!(statements_of(&s, &format!("{AS}?limit=7&offset=14")), 1);

    // Another instance adds one in the middle, moves one to the end and removes one:
    // this instance's kept order is not told, and must not be used.
    let send = |method: &str, path: String, body: Option<Json>| {
        s.send_to(&other, method, &path, body);
    };
    send(
        "POST",
        AS.into(),
        Some(json!({"asn": 65_105, "name": "Middle"})),
    );
    asns.push(65_105);
    send(
        "PATCH",
        format!("{AS}{}/", id_of(&s, 65_000)),
        Some(json!({"asn": 65_999})),
    );
    asns.retain(|&a| a != 65_000);
    asns.push(65_999);
    send("DELETE", format!("{AS}{}/", id_of(&s, 65_200)), None);
    asns.retain(|&a| a != 65_200);
    check(&s, &asns);

    // The same written through this instance.
    autonomous_system(65_001, "First").create(&s);
    asns.push(65_001);
    assert_eq!(
        s.delete(&format!("{AS}{}/", id_of(&s, 65_390)), None)
            .status,
        204
    );
    asns.retain(|&a| a != 65_390);
    check(&s, &asns);
    // Past the end: no objects, the count still right.
    let past = s.get(&format!("{AS}?limit=7&offset=500")).json();
    assert_eq!(past["count"], asns.len() as i64);
    assert_eq!(past["results"], json!([]));
}

#[test]
fn sessions_follow_their_peers_numbers_changed_by_another_instance() {
    let s = without_answer_cache();
    let other = s.another_instance(no_answer_cache());
    let network = crate::common::network::network(&s);
    let peers = |s: &TestServer| paged(s, SESSIONS, 1, &["autonomous_system", "asn"]).0;
    // Ordered by peer (the key the migrations copy from its AS), then address.
    assert_eq!(peers(&s), [65_001, 65_001, 65_002].map(Json::from));
    assert_eq!(peers(&s), [65_001, 65_001, 65_002].map(Json::from));

    // The peer's number changes through the other instance: the sessions' copied key
    // changes with it, in a table no statement named.
    let peer = format!("{AS}{}/", network.peer);
    s.send_to(&other, "PATCH", &peer, Some(json!({"asn": 65_003})));
    assert_eq!(peers(&s), [65_002, 65_003, 65_003].map(Json::from));
    let (_, counts) = paged(&s, SESSIONS, 2, &["id"]);
    assert_eq!(counts, [3, 3, 3]);
}

#[test]
fn large_pages_read_in_slices_follow_the_order_another_instance_changed() {
    let s = without_answer_cache();
    let other = s.another_instance(no_answer_cache());
    // More than a large page's first slice (250 objects), so that the page reads two.
    let mut asns: Vec<i64> = (0..300).map(|i| 64_600 + (i * 7) % 300).collect();
    let bodies: Vec<Json> = (asns.iter())
        .map(|asn| json!({"asn": asn, "name": format!("AS{asn}")}))
        .collect();
    s.create(AS, Json::from(bodies));
    let large_page = |s: &TestServer| {
        let body = s.get(&format!("{AS}?limit=280&offset=10")).json();
        let asns = body["results"].as_array().cloned().unwrap_or_default();
        let asns: Vec<Json> = asns.iter().map(|a| a["asn"].clone()).collect();
        (asns, body["count"].clone())
    };
    let expected = |asns: &[i64]| (sorted(asns)[10..290].to_vec(), Json::from(asns.len()));
    assert_eq!(large_page(&s), expected(&asns));
    // Kept now: read through the order.
    assert_eq!(large_page(&s), expected(&asns));

    // The other instance moves the first one of the page (in the first slice) to the end,
    // and adds one before the page: every object of the page shifts by one.
    let first = id_of(&s, 64_610);
    let moved = Some(json!({"asn": 65_999}));
    s.send_to(&other, "PATCH", &format!("{AS}{first}/"), moved);
    asns.retain(|&a| a != 64_610);
    asns.push(65_999);
    let added = Some(json!({"asn": 64_000, "name": "Before"}));
    s.send_to(&other, "POST", AS, added);
    asns.push(64_000);
    assert_eq!(large_page(&s), expected(&asns));
    assert_eq!(large_page(&s), expected(&asns));
}

#[test]
fn an_order_outlives_this_instances_writes_that_change_none_of_its_keys() {
    let s = without_answer_cache();
    let mut asns: Vec<i64> = (0..30).map(|i| 65_000 + (i * 7) % 30 * 10).collect();
    let bodies: Vec<Json> = (asns.iter())
        .map(|asn| json!({"asn": asn, "name": format!("AS{asn}")}))
        .collect();
    s.create(AS, Json::from(bodies));
    let check = |asns: &[i64]| assert_pages_show(&s, AS, 7, asns);
    let statements_of_a_page = || statements_of(&s, &format!("{AS}?limit=7&offset=7"));
    check(&asns);
    assert_eq!(statements_of_a_page(), 1);

    // A write of a column the order does not read: the order is kept, not read again.
    let patch = |asn: i64, body: Json| patch_as(&s, asn, body);
    // (Forgotten, it would be read again, in a statement of its own, after a few pages
    // read with their offsets.)
    patch(65_100, json!({"comments": "renamed nothing"}));
    for page in 0..8 {
        assert_eq!(statements_of_a_page(), 1, "page {page} after the write");
    }
    check(&asns);

    // A write of its key moves an object: the order is read again.
    patch(65_000, json!({"asn": 65_995}));
    asns.retain(|&a| a != 65_000);
    asns.push(65_995);
    check(&asns);
    assert_eq!(statements_of_a_page(), 1);

    // Another instance moves one, unknown to this one, whose next write changes nothing
    // the order reads: found at other versions than it was read at, it is not kept.
    let other = s.another_instance(no_answer_cache());
    let moved = format!("{AS}{}/", id_of(&s, 65_010));
    s.send_to(&other, "PATCH", &moved, Some(json!({"asn": 65_996})));
    asns.retain(|&a| a != 65_010);
    asns.push(65_996);
    patch(65_100, json!({"comments": "again"}));
    check(&asns);
}

#[test]
fn sessions_follow_their_peers_numbers_changed_by_this_instance() {
    let s = without_answer_cache();
    let network = crate::common::network::network(&s);
    let peers = |s: &TestServer| paged(s, SESSIONS, 1, &["autonomous_system", "asn"]).0;
    assert_eq!(peers(&s), [65_001, 65_001, 65_002].map(Json::from));
    // The peer's comments change: nothing moves.
    let peer = format!("{AS}{}/", network.peer);
    assert_eq!(s.patch(&peer, json!({"comments": "x"})).status, 200);
    assert_eq!(peers(&s), [65_001, 65_001, 65_002].map(Json::from));
    // Its number changes: its sessions move after the other peer's.
    assert_eq!(s.patch(&peer, json!({"asn": 65_003})).status, 200);
    assert_eq!(peers(&s), [65_002, 65_003, 65_003].map(Json::from));
}

#[test]
fn a_list_ordered_by_ids_alone_shows_the_rows_this_instance_adds_and_removes() {
    // BFD profiles have no ordering of their own: their order is their ids'.
    const BFD: &str = "/api/net/bfd/";
    let s = without_answer_cache();
    let create = |name: &str| s.create(BFD, json!({"name": name, "slug": name}))["id"].clone();
    let names = |s: &TestServer| {
        let (names, counts) = paged(s, BFD, 2, &["name"]);
        assert!(
            counts.iter().all(|&c| c == names.len() as i64),
            "{counts:?}"
        );
        names
    };
    for name in ["a", "b", "c"] {
        create(name);
    }
    assert_eq!(names(&s), ["a", "b", "c"].map(Json::from));
    let d = create("d");
    assert_eq!(names(&s), ["a", "b", "c", "d"].map(Json::from));
    assert_eq!(s.delete(&format!("{BFD}{d}/"), None).status, 204);
    assert_eq!(names(&s), ["a", "b", "c"].map(Json::from));
}

#[test]
fn a_filtered_lists_deep_pages_follow_writes_to_the_columns_it_filters_on() {
    let s = without_answer_cache();
    let other = s.another_instance(no_answer_cache());
    // 600 autonomous systems, every other one with 1 IPv4 prefix: a filtered list of 300,
    // paged deeper than a filtered order is read from (250).
    let asns: Vec<i64> = (0..600).map(|i| 64_000 + (i * 7) % 600).collect();
    let bodies: Vec<Json> = (asns.iter())
        .map(|asn| json!({"asn": asn, "name": format!("AS{asn}"), "ipv4_max_prefixes": asn % 2}))
        .collect();
    s.create(AS, Json::from(bodies));
    let list = format!("{AS}?ipv4_max_prefixes=1");
    let mut odd: Vec<i64> = asns.iter().copied().filter(|a| a % 2 == 1).collect();
    let check = |odd: &[i64]| assert_pages_show(&s, &list, 40, odd);
    let statements_of_a_page = || statements_of(&s, &format!("{list}&limit=40&offset=40"));
    check(&odd);
    // Kept from the deep pages on: every page is one statement, its first too.
    assert_eq!(statements_of_a_page(), 1);
    let patch = |asn: i64, body: Json| patch_as(&s, asn, body);

    // A write of a column neither the filter nor the order reads: kept.
    patch(64_001, json!({"comments": "nothing moves"}));
    assert_eq!(statements_of_a_page(), 1);
    check(&odd);

    // One leaves the list and another joins it, through the column filtered on.
    patch(64_001, json!({"ipv4_max_prefixes": 0}));
    patch(64_002, json!({"ipv4_max_prefixes": 1}));
    odd.retain(|&a| a != 64_001);
    odd.push(64_002);
    check(&odd);
    check(&odd);

    // The same through another instance, unknown to this one.
    let prefixes_through_other = |asn: i64, prefixes: i64| {
        let path = format!("{AS}{}/", id_of(&s, asn));
        let body = json!({ "ipv4_max_prefixes": prefixes });
        s.send_to(&other, "PATCH", &path, Some(body));
    };
    prefixes_through_other(64_003, 2);
    prefixes_through_other(64_004, 1);
    odd.retain(|&a| a != 64_003);
    odd.push(64_004);
    check(&odd);
    // Another list's filter value is another order.
    let (twos, _) = paged(&s, &format!("{AS}?ipv4_max_prefixes=2"), 40, &["asn"]);
    assert_eq!(twos, [Json::from(64_003)]);
}
