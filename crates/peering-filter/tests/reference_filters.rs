//! Every filter Peering Manager 1.8.3 and 1.10.4 accept (`reference_filters.txt`, written
//! from their source) is accepted by the catalog of the resource served at that endpoint,
//! with each of its lookups, or is listed with its reason in `docs/differences.md`.
//! Whether each accepted filter selects what it says is the integration tests' part
//! (`peeringd`'s `filters.rs`, over every filter of every catalog).

use peering_domain::resources::by_path;
use peering_filter::{parse_for, FilterKind, ResourceCatalog};

const REFERENCE: &str = include_str!("reference_filters.txt");
const DIFFERENCES: &str = include_str!("../../../docs/differences.md");

/// One filter of one endpoint of one release.
struct Listed<'a> {
    release: &'a str,
    endpoint: &'a str,
    name: &'a str,
    lookups: Vec<&'a str>,
}

fn listed() -> Vec<Listed<'static>> {
    REFERENCE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let parts: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(parts.len(), 4, "malformed line {line:?}");
            Listed {
                release: parts[0],
                endpoint: parts[1],
                name: parts[2],
                lookups: match parts[3] {
                    "-" => vec![],
                    some => some.split(',').collect(),
                },
            }
        })
        .collect()
}

/// A value of the syntax `kind` reads (its existence is the store's question).
fn sample(kind: FilterKind) -> &'static str {
    match kind {
        FilterKind::Number | FilterKind::ForeignKey => "1",
        FilterKind::String | FilterKind::Reference | FilterKind::Tag => "x",
        FilterKind::Bool => "true",
        FilterKind::Choice(values) => values.first().copied().unwrap_or(""),
        FilterKind::Uuid => "8a7c0f6e-4f38-4c1e-9d6e-3c2a1b0f9e7d",
        FilterKind::DateTime => "2024-01-01T00:00:00Z",
    }
}

/// Whether `docs/differences.md` gives the reason `endpoint` lacks `param` (named whole,
/// or with its lookup), on one line naming both.
fn explained(endpoint: &str, param: &str) -> bool {
    let base = param.split("__").next().unwrap_or(param);
    DIFFERENCES.lines().any(|line| {
        line.contains(&format!("`{endpoint}`"))
            && (line.contains(&format!("`{param}`")) || line.contains(&format!("`{base}`")))
    })
}

#[test]
fn every_filter_of_both_releases_is_accepted_or_explained() {
    let mut checked = 0;
    let mut missing = Vec::new();
    let mut unserved = std::collections::BTreeSet::new();
    for filter in listed() {
        let (app, path) = filter.endpoint.split_once('/').expect("app/path");
        let Some(spec) = by_path(app, path) else {
            unserved.insert(filter.endpoint);
            continue;
        };
        let catalog = ResourceCatalog::of(spec).catalog();
        let params = std::iter::once(filter.name.to_string())
            .chain((filter.lookups.iter()).map(|lookup| format!("{}__{lookup}", filter.name)));
        for param in params {
            let spelt = peering_domain::names::filter_from_reference(filter.name);
            let value = match catalog.field(&spelt) {
                Some(field) => sample(field.kind),
                None if filter.name == peering_filter::SEARCH_KEY => "x",
                None => "1",
            };
            checked += 1;
            // The server reads the reference's spelling of external-database names.
            let param = peering_domain::names::filter_from_reference(&param).into_owned();
            if let Err(e) = parse_for(spec, &format!("{param}={value}")) {
                if !explained(filter.endpoint, &param) {
                    missing.push(format!(
                        "{} {} {param}: {e:?}",
                        filter.release, filter.endpoint
                    ));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "{} filters refused, not in docs/differences.md:\n{}",
        missing.len(),
        missing.join("\n")
    );
    assert!(checked > 2000, "only {checked} filters checked");
    // Endpoints no resource serves yet; each is checked as soon as one does.
    let known: std::collections::BTreeSet<&str> = ["core/data-files", "core/data-sources"].into();
    assert!(unserved.is_subset(&known), "unserved: {unserved:?}");
}
