//! Lists larger than a page rendered at once (`limit=0` with no maximum page size, or a
//! page above 1,000 objects) are written in slices: the same answer as whole pages give,
//! in the same order, sent chunked.

use crate::common::builders::tag;
use crate::common::{TestServer, AS};
use serde_json::{json, Value as Json};

fn unlimited() -> TestServer {
    TestServer::start_with(peering_api::Settings {
        max_page_size: 0,
        ..Default::default()
    })
}

/// 1,234 autonomous systems, with tags and policies (relations read per slice), created
/// out of ASN order so that list order differs from id order.
fn fill(s: &TestServer) {
    tag("T").create(s);
    s.create(
        "/api/peering/routing-policies/",
        json!({"name": "P", "slug": "p"}),
    );
    let items: Vec<Json> = (0..1234)
        .map(|i| {
            let asn = 64_512 + (i * 7919) % 1234;
            // Lists that differ between neighbours: a slice that gave one object's
            // lists to another would show.
            let tags = if i % 2 == 0 {
                json!([{"slug": "t"}])
            } else {
                json!([])
            };
            let policies = if i % 3 == 0 {
                json!([{"slug": "p"}])
            } else {
                json!([])
            };
            json!({"asn": asn, "name": format!("n{asn}"), "tags": tags,
                   "import_routing_policies": policies})
        })
        .collect();
    s.create(AS, Json::Array(items));
}

fn results(body: &Json) -> Vec<Json> {
    body["results"].as_array().unwrap().clone()
}

#[test]
fn limit_zero_streams_every_object_in_list_order() {
    let s = unlimited();
    fill(&s);
    let r = s.get(&format!("{AS}?limit=0"));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.header("Transfer-Encoding"), Some("chunked"));
    let all = r.json();
    assert_eq!(all["count"], 1234);
    assert_eq!(all["next"], Json::Null);
    assert_eq!(all["previous"], Json::Null);
    let streamed = results(&all);
    // Pages of 1,000 are rendered whole; together they must be the same answer.
    let first = s.get(&format!("{AS}?limit=1000"));
    assert_ne!(first.header("Transfer-Encoding"), Some("chunked"));
    let mut paged = results(&first.json());
    paged.extend(results(
        &s.get(&format!("{AS}?limit=1000&offset=1000")).json(),
    ));
    assert_eq!(streamed.len(), 1234);
    assert_eq!(streamed, paged);
    let asns: Vec<i64> = streamed
        .iter()
        .map(|o| o["asn"].as_i64().unwrap())
        .collect();
    assert!(asns.windows(2).all(|w| w[0] < w[1]), "not in ASN order");
    assert_eq!(streamed[0]["tags"][0]["slug"], "t");
    assert_eq!(streamed[1233]["import_routing_policies"][0]["slug"], "p");
    let head = s.request("HEAD", &format!("{AS}?limit=0"), None, Some(&s.key), &[]);
    assert_eq!(head.status, 200);
    assert!(head.text.is_empty());
}

#[test]
fn a_streamed_page_keeps_its_window_filter_ordering_and_links() {
    let s = unlimited();
    fill(&s);
    let page = s
        .get(&format!("{AS}?limit=1100&offset=100&ordering=-asn&brief=1"))
        .json();
    assert_eq!(page["count"], 1234);
    let objects = results(&page);
    assert_eq!(objects.len(), 1100);
    assert_eq!(objects[0]["asn"], 64_512 + 1233 - 100);
    assert!(objects[0].get("tags").is_none(), "brief form expected");
    let next = page["next"].as_str().unwrap();
    assert!(
        next.contains("offset=1200") && next.contains("limit=1100"),
        "{next}"
    );
    assert!(page["previous"].as_str().is_some());

    let filtered = s.get(&format!("{AS}?limit=0&asn__gte=65000")).json();
    let expected = (64_512..64_512 + 1234).filter(|a| *a >= 65_000).count();
    assert_eq!(filtered["count"], expected);
    assert_eq!(results(&filtered).len(), expected);

    let nothing = s.get(&format!("{AS}?limit=0&asn=1")).json();
    assert_eq!(
        nothing,
        json!({"count": 0, "next": null, "previous": null, "results": []})
    );
}

#[test]
fn a_bad_filter_is_refused_before_anything_is_streamed() {
    let s = unlimited();
    fill(&s);
    let r = s.get(&format!("{AS}?limit=0&tag=missing"));
    assert_eq!(r.status, 400, "{}", r.text);
    assert_eq!(
        r.json(),
        json!({"tag": ["Select a valid choice. missing is not one of the available choices."]})
    );
    // Indented answers are rendered whole, and are the same objects.
    let indented = s.request(
        "GET",
        &format!("{AS}?limit=0"),
        None,
        Some(&s.key),
        &[("Accept", "application/json; indent=2")],
    );
    assert_eq!(indented.status, 200);
    assert!(indented.text.contains("\n  \"count\": 1234"));
    assert_eq!(indented.json(), s.get(&format!("{AS}?limit=0")).json());
}

/// Pages above 200 objects are read and rendered in slices of 250 (not streamed): the same
/// objects, count and links as pages read whole, also across a slice's edge, filtered,
/// brief, at the end of the list and past it.
#[test]
fn a_page_read_in_slices_is_the_page_small_pages_give() {
    let s = unlimited();
    fill(&s);
    for query in [
        "",
        "&ordering=-asn&brief=1",
        "&asn__gte=64600&ordering=name",
    ] {
        let large = s.get(&format!("{AS}?limit=600&offset=100{query}"));
        assert_eq!(large.status, 200, "{}", large.text);
        assert_ne!(large.header("Transfer-Encoding"), Some("chunked"));
        // The full page is larger than an answer sent whole: sent in pieces, with its
        // whole length told.
        if query.is_empty() {
            assert!(large.text.len() > 256 * 1024, "{}", large.text.len());
        }
        let length = large.text.len().to_string();
        assert_eq!(large.header("Content-Length"), Some(length.as_str()));
        let large = large.json();
        let mut small = Vec::new();
        for offset in (100..700).step_by(100) {
            let page = s
                .get(&format!("{AS}?limit=100&offset={offset}{query}"))
                .json();
            assert_eq!(page["count"], large["count"], "{query}");
            small.extend(results(&page));
        }
        assert_eq!(results(&large), small, "{query}");
        let next = large["next"].as_str().unwrap();
        assert!(next.contains("offset=700"), "{next}");
    }
    let tail = s.get(&format!("{AS}?limit=300&offset=1100")).json();
    assert_eq!(tail["count"], 1234);
    assert_eq!(results(&tail).len(), 134);
    assert_eq!(tail["next"], Json::Null);
    let past = s.get(&format!("{AS}?limit=300&offset=5000")).json();
    assert_eq!(past["count"], 1234);
    assert_eq!(results(&past), Vec::<Json>::new());
    let none = s.get(&format!("{AS}?limit=300&asn=1")).json();
    assert_eq!(
        none,
        json!({"count": 0, "next": null, "previous": null, "results": []})
    );
}
