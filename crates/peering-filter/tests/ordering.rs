//! Rule 8: the `ordering` parameter.

mod common;

use common::{err, ok};

fn terms(query: &str) -> Vec<String> {
    ok(query).ordering.iter().map(ToString::to_string).collect()
}

#[test]
fn terms_are_trimmed_and_empty_items_skipped() {
    assert_eq!(
        terms("ordering=asn,-name, created"),
        ["asn", "-name", "created"]
    );
    assert_eq!(terms("ordering=,, -asn ,"), ["-asn"]);
    assert!(terms("ordering=").is_empty());
    let first = &ok("ordering=-asn").ordering[0];
    assert_eq!((first.field.as_str(), first.descending), ("asn", true));
}

#[test]
fn unknown_fields_are_errors_on_ordering() {
    assert_eq!(
        err("ordering=asn,secret"),
        (
            "ordering".to_owned(),
            "Unknown ordering field: secret.".to_owned()
        )
    );
    // Filterable is not orderable: `status` is in the catalog but not in `orderable`.
    assert_eq!(err("ordering=-status").1, "Unknown ordering field: status.");
    // Only one leading `-` is stripped.
    assert_eq!(err("ordering=--asn").1, "Unknown ordering field: -asn.");
}

#[test]
fn the_first_occurrence_of_a_field_wins() {
    assert_eq!(terms("ordering=name,-asn,-name,asn"), ["name", "-asn"]);
}

#[test]
fn the_last_ordering_parameter_wins() {
    assert_eq!(terms("ordering=nope&ordering=-id"), ["-id"]);
    assert!(terms("ordering=asn&ordering=").is_empty());
    assert_eq!(
        err("ordering=asn&ordering=nope").1,
        "Unknown ordering field: nope."
    );
}
