//! Checks that the tables a resource declares it reads (`ResourceSpec::tables_read`, by
//! which the API's answer cache is keyed) hold every table its statements read: its pages,
//! with every filter of its catalog, every search and every ordering; its objects; its
//! relations. A table missing there would let the cache serve an answer after a write to it.

use peering_domain::resources::ALL;
use peering_domain::spec::CHANGE_RECORDS;
use peering_domain::ResourceSpec;
use peering_filter::{split_query, Filter, ResourceCatalog};

use crate::connection::Backend;
use crate::query::inline::Inline;
use crate::query::objects::by_ids_sql;
use crate::query::page::page_sql;
use crate::query::relations::links_sql;
use crate::query::Window;
use crate::schema::table;
use crate::Store;

/// Values tried for a parameter until one parses.
const SAMPLE_VALUES: [&str; 7] = [
    "1",
    "true",
    "x",
    "2026-01-01",
    "192.0.2.1",
    "00000000-0000-0000-0000-000000000000",
    "ipv4",
];

/// The tables a statement names after `FROM` or `JOIN`.
fn tables_named(text: &str) -> Vec<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    words
        .windows(2)
        .filter(|pair| pair[0].eq_ignore_ascii_case("FROM") || pair[0].eq_ignore_ascii_case("JOIN"))
        .map(|pair| pair[1].trim_end_matches([',', ')']))
        .filter(|name| is_table_name(name))
        .map(str::to_owned)
        .collect()
}

/// Whether a word of a statement is a table's name: our tables are named in lower case
/// (SQL's keywords, in upper case, and subqueries are not).
fn is_table_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// Every query string a list of `spec` may be asked with, one parameter at a time, and
/// whether it filters on change requests.
fn sample_filters(spec: &ResourceSpec) -> Vec<(Filter, bool)> {
    let catalog = ResourceCatalog::of(spec);
    let mut queries: Vec<String> = ["", "q=x", "q=1", "q=192.0.2.1"]
        .into_iter()
        .map(str::to_owned)
        .collect();
    for field in &catalog.fields {
        for value in SAMPLE_VALUES {
            queries.push(format!("{}={value}", field.name));
        }
    }
    for name in &catalog.orderable {
        queries.push(format!("ordering=-{name}"));
    }
    for field in spec.fields.iter().filter(|f| f.filter) {
        queries.push(format!("ordering={}", field.name));
    }
    queries
        .iter()
        .filter_map(|q| {
            let filter = peering_filter::parse(&split_query(q), &Store::catalog(spec)).ok()?;
            Some((filter, q.contains("_by_request=")))
        })
        .collect()
}

/// The text of every statement reading `spec`'s pages, objects and relations, and whether
/// it may read the change records.
fn statements(spec: &'static ResourceSpec, backend: Backend) -> Vec<(String, bool)> {
    let t = table(spec);
    let window = Window {
        limit: Some(50),
        offset: 0,
    };
    let mut texts = Vec::new();
    let extra = Inline::of_read_with_relations(spec).columns(backend);
    for (filter, changes) in sample_filters(spec) {
        let (count, rows) = page_sql(backend, t, (&filter, window), &extra);
        texts.push((count.snapshot(backend), changes));
        texts.push((rows.snapshot(backend), changes));
    }
    texts.push((
        by_ids_sql(backend, t, &[1, 2], &extra).snapshot(backend),
        false,
    ));
    texts.push((links_sql(backend, spec, &[1, 2]).snapshot(backend), false));
    texts
}

#[test]
fn every_table_a_resource_reads_is_declared() {
    for spec in ALL {
        let declared = spec.tables_read();
        for backend in [Backend::Sqlite, Backend::Postgres] {
            for (text, changes) in statements(spec, backend) {
                for name in tables_named(&text) {
                    // SQLite's full-text index of a table is written with it (by triggers).
                    let base = name.strip_suffix("_search").unwrap_or(&name);
                    // The tables' versions, which rows carry to key kept objects
                    // (`query/inline.rs`), are no data an answer shows.
                    let versions = base == "table_versions";
                    assert!(
                        declared.contains(&base) || (changes && base == CHANGE_RECORDS) || versions,
                        "{}: reads {name}, not in {declared:?}:\n{text}",
                        spec.path
                    );
                }
            }
        }
    }
}

#[test]
fn table_names_are_found_after_from_and_join() {
    assert_eq!(
        tables_named("SELECT 1 FROM a o JOIN b x ON x.id = o.b_id WHERE o.id IN (SELECT y FROM c)"),
        ["a", "b", "c"]
    );
    assert!(tables_named("SELECT value FROM json_each(?)").is_empty());
}

#[test]
fn the_samples_reach_every_parameter_kind() {
    // Most parameters accept one of the samples: the check above is not vacuous.
    let spec = &peering_domain::resources::INTERNET_EXCHANGE_PEERING_SESSION;
    let parameters = ResourceCatalog::of(spec).fields.len();
    assert!(sample_filters(spec).len() > parameters, "{parameters}");
}
