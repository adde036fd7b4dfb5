//! Shared fixtures for the integration tests: a sample catalog and query helpers.

// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

use peering_filter::{parse, Catalog, Filter, FilterErrors, FilterField, FilterKind};

pub const STATUS: &[&str] = &["enabled", "disabled", "maintenance"];

pub const FIELDS: &[FilterField] = &[
    FilterField::new("id", FilterKind::Number),
    FilterField::new("asn", FilterKind::Number),
    FilterField::new("ipv6_max_prefixes", FilterKind::Number),
    FilterField::new("name", FilterKind::String),
    FilterField::new("irr_as_set", FilterKind::String),
    FilterField::new("parent__name", FilterKind::String),
    FilterField::new("status", FilterKind::Choice(STATUS)),
    FilterField::new("enabled", FilterKind::Bool),
    FilterField::new("autonomous_system_id", FilterKind::ForeignKey),
    FilterField::new("router", FilterKind::Reference),
    FilterField::new("created_by_request", FilterKind::Uuid),
    FilterField::new("created", FilterKind::DateTime),
    FilterField::new("tag", FilterKind::Tag),
];

pub const ORDERABLE: &[&str] = &["id", "asn", "name", "created", "ipv6_max_prefixes"];

pub const CATALOG: Catalog<'static> = Catalog {
    fields: FIELDS,
    orderable: ORDERABLE,
};

/// Builds owned pairs from literals.
pub fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
        .collect()
}

/// Splits `a=1&b=2` on `&` and the first `=`, without decoding, so `+` stays literal.
pub fn raw_pairs(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|segment| !segment.is_empty())
        .map(|segment| {
            let (key, value) = segment.split_once('=').unwrap_or((segment, ""));
            (key.to_owned(), value.to_owned())
        })
        .collect()
}

/// Parses an undecoded query string against the sample catalog.
pub fn q(query: &str) -> Result<Filter, FilterErrors> {
    parse(&raw_pairs(query), &CATALOG)
}

/// Parses a query that must be valid.
pub fn ok(query: &str) -> Filter {
    match q(query) {
        Ok(filter) => filter,
        Err(errors) => panic!("{query:?} was rejected: {errors}"),
    }
}

/// Parses a query that must be invalid and returns `(param, message)` pairs.
pub fn errs(query: &str) -> Vec<(String, String)> {
    match q(query) {
        Ok(filter) => panic!("{query:?} was accepted: {filter:?}"),
        Err(errors) => errors
            .into_iter()
            .map(|error| (error.param, error.message))
            .collect(),
    }
}

/// The single error a query must produce, as `(param, message)`.
pub fn err(query: &str) -> (String, String) {
    let mut all = errs(query);
    assert_eq!(all.len(), 1, "{query:?} gave {all:?}");
    all.remove(0)
}
