//! Rule 9: limits against abuse.

mod common;

use common::{pairs, CATALOG};
use peering_filter::{parse, FilterErrors, MAX_FILTER_KEYS, MAX_ORDERING_TERMS};

fn errors(input: &[(String, String)]) -> FilterErrors {
    match parse(input, &CATALOG) {
        Ok(filter) => panic!("accepted: {filter:?}"),
        Err(errors) => errors,
    }
}

fn repeat(key: &str, value: &str, times: usize) -> Vec<(String, String)> {
    (0..times)
        .map(|_| (key.to_owned(), value.to_owned()))
        .collect()
}

#[test]
fn at_most_64_distinct_filter_keys() {
    let keys: Vec<(String, String)> = (0..MAX_FILTER_KEYS)
        .map(|i| (format!("k{i}"), "1".to_owned()))
        .collect();
    // 64 unknown keys give 64 unknown-filter errors, but no limit error.
    let under = errors(&keys);
    assert_eq!(under.len(), MAX_FILTER_KEYS);
    assert!(under
        .iter()
        .all(|e| e.message.starts_with("Unknown filter")));

    let mut over = keys;
    over.extend(pairs(&[
        ("k64", "1"),
        ("k65", "1"),
        ("q", "x"),
        ("ordering", "nope"),
    ]));
    let found = errors(&over);
    assert_eq!(
        found.get("k64"),
        Some("Too many filters: at most 64 distinct filter parameters are allowed.")
    );
    // Later keys are not reported one by one, but `q` and `ordering` are still checked.
    assert_eq!(found.get("k65"), None);
    assert_eq!(found.get("ordering"), Some("Unknown ordering field: nope."));

    // Repeats, reserved keys, `q` and `ordering` do not count as distinct filter keys.
    let mut fine = repeat("asn", "1", 100);
    fine.extend(pairs(&[
        ("limit", "1"),
        ("offset", "1"),
        ("q", "x"),
        ("ordering", "asn"),
    ]));
    assert!(parse(&fine, &CATALOG).is_ok());
}

#[test]
fn at_most_256_values_per_parameter() {
    assert!(parse(&repeat("asn", "1", 256), &CATALOG).is_ok());
    for key in ["asn", "tag", "q", "ordering"] {
        let found = errors(&repeat(key, "asn", 257));
        assert_eq!(
            found.get(key),
            Some("Too many values: at most 256 values are allowed for one parameter."),
            "{key}"
        );
    }
}

#[test]
fn at_most_1024_characters_per_value() {
    let fits = "é".repeat(1024);
    assert!(parse(&pairs(&[("name", &fits)]), &CATALOG).is_ok());
    let long = "x".repeat(1025);
    for key in ["name__ic", "q", "ordering", "asn"] {
        let found = errors(&pairs(&[(key, "1"), (key, &long)]));
        assert_eq!(
            found.get(key),
            Some("Ensure this value has at most 1024 characters (it has 1025)."),
            "{key}"
        );
    }
}

#[test]
fn at_most_16_ordering_terms() {
    const MANY: &[&str] = &[
        "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12", "f13",
        "f14", "f15", "f16",
    ];
    let catalog = peering_filter::Catalog {
        fields: &[],
        orderable: MANY,
    };
    let sixteen = MANY[..MAX_ORDERING_TERMS].join(",");
    let parsed = parse(&pairs(&[("ordering", &sixteen)]), &catalog);
    assert_eq!(parsed.map(|f| f.ordering.len()), Ok(MAX_ORDERING_TERMS));
    // Duplicates collapse before counting, so they cannot trip the limit.
    let repeated = format!("{sixteen},{sixteen}");
    assert!(parse(&pairs(&[("ordering", &repeated)]), &catalog).is_ok());
    let seventeen = MANY.join(",");
    let found = parse(&pairs(&[("ordering", &seventeen)]), &catalog);
    assert_eq!(
        found.map_err(|e| e.get("ordering").map(str::to_owned)),
        Err(Some(
            "Too many ordering fields: at most 16 are allowed.".to_owned()
        ))
    );
}
