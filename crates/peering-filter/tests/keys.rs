//! Rules 1, 2, 3 and 7: key grammar, reserved keys, AND/OR grouping and key errors.

mod common;

use common::{err, errs, ok};
use peering_filter::{FilterKind, Lookup, Predicate, Value};

fn only(query: &str) -> Predicate {
    let mut filter = ok(query);
    assert_eq!(filter.predicates.len(), 1, "{query}: {filter:?}");
    filter.predicates.remove(0)
}

fn text(value: &str) -> Value {
    Value::Text(value.to_owned())
}

#[test]
fn the_brief_example_parses() {
    let filter = ok(
        "asn__gte=64500&asn__lt=65000&name__ic=foo&status=enabled&status=disabled\
         &tag=gold&tag=silver&irr_as_set=null&ordering=-asn,name&limit=50&q=cloud",
    );
    let summary: Vec<(&str, Lookup, Vec<Value>)> = filter
        .predicates
        .iter()
        .map(|p| (p.field, p.lookup, p.values.clone()))
        .collect();
    assert_eq!(
        summary,
        [
            ("asn", Lookup::Gte, vec![Value::Int(64500)]),
            ("asn", Lookup::Lt, vec![Value::Int(65000)]),
            ("name", Lookup::Ic, vec![text("foo")]),
            (
                "status",
                Lookup::Exact,
                vec![text("enabled"), text("disabled")]
            ),
            ("tag", Lookup::Exact, vec![text("gold")]),
            ("tag", Lookup::Exact, vec![text("silver")]),
            ("irr_as_set", Lookup::Exact, vec![Value::Null]),
        ]
    );
    assert_eq!(filter.search.as_deref(), Some("cloud"));
    assert_eq!(filter.ordering.len(), 2);
}

#[test]
fn every_number_lookup_is_accepted() {
    for (suffix, lookup) in [
        ("", Lookup::Exact),
        ("__exact", Lookup::Exact),
        ("__n", Lookup::N),
        ("__lt", Lookup::Lt),
        ("__lte", Lookup::Lte),
        ("__gt", Lookup::Gt),
        ("__gte", Lookup::Gte),
    ] {
        let predicate = only(&format!("asn{suffix}=-7"));
        assert_eq!(predicate.field, "asn");
        assert_eq!(predicate.kind, FilterKind::Number);
        assert_eq!(predicate.lookup, lookup, "{suffix}");
        assert_eq!(predicate.values, [Value::Int(-7)]);
        assert_eq!(predicate.param, format!("asn{suffix}"));
    }
    let empty = only("asn__empty=true");
    assert_eq!(
        (empty.lookup, empty.values),
        (Lookup::Empty, vec![Value::Bool(true)])
    );
}

#[test]
fn every_string_lookup_is_accepted() {
    for (suffix, lookup) in [
        ("", Lookup::Exact),
        ("__exact", Lookup::Exact),
        ("__n", Lookup::N),
        ("__ic", Lookup::Ic),
        ("__nic", Lookup::Nic),
        ("__isw", Lookup::Isw),
        ("__nisw", Lookup::Nisw),
        ("__iew", Lookup::Iew),
        ("__niew", Lookup::Niew),
        ("__ie", Lookup::Ie),
        ("__nie", Lookup::Nie),
    ] {
        let predicate = only(&format!("name{suffix}=Foo Bar"));
        assert_eq!(predicate.field, "name");
        assert_eq!(predicate.lookup, lookup, "{suffix}");
        assert_eq!(predicate.values, [text("Foo Bar")]);
    }
    let empty = only("name__empty=no");
    assert_eq!(
        (empty.lookup, empty.values),
        (Lookup::Empty, vec![Value::Bool(false)])
    );
}

#[test]
fn exact_suffix_is_the_same_lookup_as_no_suffix() {
    let plain = only("asn=1");
    let explicit = only("asn__exact=1");
    assert_eq!(plain.lookup, explicit.lookup);
    assert_eq!(plain.values, explicit.values);
    assert_eq!(explicit.param, "asn__exact");
}

#[test]
fn field_names_may_contain_underscores_and_double_underscores() {
    assert_eq!(only("irr_as_set__ic=AS-").field, "irr_as_set");
    assert_eq!(only("irr_as_set__ic=AS-").lookup, Lookup::Ic);
    let prefixes = only("ipv6_max_prefixes__gte=100");
    assert_eq!(
        (prefixes.field, prefixes.lookup),
        ("ipv6_max_prefixes", Lookup::Gte)
    );
    let request = only("created_by_request=6f1c2a3e-0000-4000-8000-000000000001");
    assert_eq!(
        (request.field, request.lookup),
        ("created_by_request", Lookup::Exact)
    );
    assert_eq!(only("parent__name=x").field, "parent__name");
    let nested = only("parent__name__isw=x");
    assert_eq!((nested.field, nested.lookup), ("parent__name", Lookup::Isw));
}

#[test]
fn reserved_keys_are_skipped_entirely() {
    let filter = ok("limit=abc&offset=-1&brief=maybe&format=xml&fields=a,b&exclude=c&export=csv");
    assert!(filter.is_empty());
    // Only the bare key is reserved; with a lookup it is an ordinary (unknown) filter.
    assert_eq!(
        err("limit__gte=1"),
        (
            "limit__gte".to_owned(),
            "Unknown filter: limit__gte.".to_owned()
        )
    );
}

#[test]
fn search_is_trimmed_blank_ignored_and_last_non_blank_wins() {
    assert_eq!(ok("q=%20cloud%20").search.as_deref(), Some("%20cloud%20"));
    assert_eq!(ok("q=  cloud  ").search.as_deref(), Some("cloud"));
    assert_eq!(ok("q=   ").search, None);
    assert_eq!(ok("q=").search, None);
    assert_eq!(ok("q=first&q=second&q= ").search.as_deref(), Some("second"));
}

#[test]
fn a_repeated_key_is_one_predicate_ored_over_its_values() {
    let predicate = only("status=enabled&status=disabled&status=enabled");
    assert_eq!(
        predicate.values,
        [text("enabled"), text("disabled"), text("enabled")]
    );
    let negated = only("name__nic=a&name__nic=b");
    assert!(negated.lookup.is_negated());
    assert_eq!(negated.lookup.positive(), Lookup::Ic);
    assert_eq!(negated.values, [text("a"), text("b")]);
}

#[test]
fn different_keys_are_separate_anded_predicates_in_first_appearance_order() {
    let filter = ok("name=a&asn=1&name__exact=b&name=c");
    let params: Vec<&str> = filter.predicates.iter().map(|p| p.param.as_str()).collect();
    assert_eq!(params, ["name", "asn", "name__exact"]);
    assert_eq!(filter.predicates[0].values, [text("a"), text("c")]);
}

#[test]
fn repeated_tags_are_anded_but_negated_tags_are_one_predicate() {
    let filter = ok("tag=gold&asn=1&tag=silver");
    let tags: Vec<&Predicate> = filter
        .predicates
        .iter()
        .filter(|p| p.field == "tag")
        .collect();
    assert_eq!(tags.len(), 2);
    assert_eq!(tags[0].values, [text("gold")]);
    assert_eq!(tags[1].values, [text("silver")]);
    let none_of = only("tag__n=a&tag__n=b");
    assert_eq!(
        (none_of.lookup, none_of.values),
        (Lookup::N, vec![text("a"), text("b")])
    );
}

#[test]
fn unknown_fields_are_errors_on_the_full_key() {
    assert_eq!(
        err("nope=1"),
        ("nope".to_owned(), "Unknown filter: nope.".to_owned())
    );
    assert_eq!(
        err("nope__gte=1"),
        (
            "nope__gte".to_owned(),
            "Unknown filter: nope__gte.".to_owned()
        )
    );
    // An unknown suffix is part of the field name, so the field is unknown.
    assert_eq!(
        err("asn__foo=1"),
        (
            "asn__foo".to_owned(),
            "Unknown filter: asn__foo.".to_owned()
        )
    );
    assert_eq!(err("asn__GTE=1").1, "Unknown filter: asn__GTE.");
}

#[test]
fn lookups_outside_the_kind_are_unsupported() {
    for (key, message) in [
        ("asn__ic", "Unsupported lookup 'ic' for asn."),
        ("name__gt", "Unsupported lookup 'gt' for name."),
        ("enabled__n", "Unsupported lookup 'n' for enabled."),
        ("status__lt", "Unsupported lookup 'lt' for status."),
        (
            "autonomous_system_id__empty",
            "Unsupported lookup 'empty' for autonomous_system_id.",
        ),
        (
            "created_by_request__n",
            "Unsupported lookup 'n' for created_by_request.",
        ),
        ("created__empty", "Unsupported lookup 'empty' for created."),
        ("tag__ic", "Unsupported lookup 'ic' for tag."),
        (
            "parent__name__gte",
            "Unsupported lookup 'gte' for parent__name.",
        ),
    ] {
        assert_eq!(
            err(&format!("{key}=1")),
            (key.to_owned(), message.to_owned())
        );
    }
}

#[test]
fn all_errors_are_reported_once_per_param_in_first_appearance_order() {
    let errors = errs("zzz=1&asn=x&name=ok&asn=y&status=bogus&zzz=2&ordering=nope");
    assert_eq!(
        errors,
        [
            ("zzz".to_owned(), "Unknown filter: zzz.".to_owned()),
            ("asn".to_owned(), "Enter a whole number.".to_owned()),
            (
                "status".to_owned(),
                "Select a valid choice. bogus is not one of the available choices.".to_owned()
            ),
            (
                "ordering".to_owned(),
                "Unknown ordering field: nope.".to_owned()
            ),
        ]
    );
}
