//! The terms of a resource's free-text search `q`, and the trigram indexes that serve some.

use peering_domain::spec::Search;
use peering_domain::ResourceSpec;

use super::leak;
use super::paths::{resolve, Path};

/// How a search term matches `q`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum SearchHow {
    Contains,
    IntEquals,
    IpHost,
}

/// One term of `q`, resolved.
#[derive(Debug, Clone)]
pub(crate) struct SearchTerm {
    pub path: Path,
    pub how: SearchHow,
}

/// A trigram index over a table's lower-cased copies, which `q` reads instead of scanning
/// the table (SQLite: an FTS5 table of `tokenize='trigram case_sensitive 1'` that triggers
/// keep in step; PostgreSQL serves `LIKE` from `pg_trgm` indexes without being asked).
#[derive(Debug)]
pub(crate) struct SearchIndex {
    pub table: &'static str,
    pub index: &'static str,
    pub columns: &'static [&'static str],
}

/// The trigram indexes the migrations create.
pub(crate) const SEARCH_INDEXES: &[SearchIndex] = &[SearchIndex {
    table: "autonomous_systems",
    index: "autonomous_systems_search",
    columns: &["name_lc", "irr_as_set_lc"],
}];

/// The resource's search terms, resolved; an address is matched through its sort key.
pub(super) fn terms_of(spec: &'static ResourceSpec) -> Vec<SearchTerm> {
    spec.search
        .iter()
        .map(|term| {
            let (path, how) = match *term {
                Search::Contains(p) => (p, SearchHow::Contains),
                Search::IntEquals(p) => (p, SearchHow::IntEquals),
                Search::IpHost(p) => (p, SearchHow::IpHost),
            };
            let (mut path, _) = resolve(spec, path);
            if how == SearchHow::IpHost {
                path.column = leak(format!("{}_key", path.column));
            }
            SearchTerm { path, how }
        })
        .collect()
}

/// The trigram index over some of the resource's searched columns, if it has one.
pub(super) fn index_of(spec: &ResourceSpec) -> Option<&'static SearchIndex> {
    SEARCH_INDEXES.iter().find(|i| i.table == spec.table)
}
