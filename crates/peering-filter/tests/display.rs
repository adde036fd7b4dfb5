//! Rule 10: the canonical text form and its round trip.

mod common;

use common::{ok, pairs, CATALOG};
use peering_filter::{parse, split_query};

#[test]
fn display_is_canonical() {
    let filter = ok(
        "asn__gte=064500&enabled=YES&created=2026-11-21 12:00:00+02:00\
         &created_by_request=6F1C2A3E000040008000000000000001&q= cloud &ordering= -asn,name",
    );
    assert_eq!(
        filter.to_string(),
        "asn__gte=64500&enabled=true&created=2026-11-21T10%3A00%3A00Z\
         &created_by_request=6f1c2a3e-0000-4000-8000-000000000001&q=cloud&ordering=-asn%2Cname"
    );
    assert_eq!(filter.predicates[0].to_string(), "asn__gte=64500");
}

#[test]
fn display_keeps_the_client_key_and_repeats() {
    let filter = ok("name__exact=a&tag=x&tag=y&status__n=enabled&status__n=null&asn__empty=1");
    assert_eq!(
        filter.to_string(),
        "name__exact=a&tag=x&tag=y&status__n=enabled&status__n=null&asn__empty=true"
    );
}

#[test]
fn display_round_trips_awkward_text() {
    let input = pairs(&[
        ("name__ic", "a&b=c+d %41 ✓"),
        ("tag", " spaced "),
        ("q", "x#y"),
    ]);
    let filter = parse(&input, &CATALOG);
    let shown = filter.as_ref().map(ToString::to_string);
    assert_eq!(
        shown.as_deref(),
        Ok("name__ic=a%26b%3Dc%2Bd+%2541+%E2%9C%93&tag=+spaced+&q=x%23y")
    );
    let reparsed = shown.map(|text| parse(&split_query(&text), &CATALOG));
    assert_eq!(reparsed, Ok(filter.clone()));
    assert_eq!(filter.map(|f| f.to_pairs()), Ok(input));
}
