//! Query-string filters for list endpoints: typed, validated predicates, search and ordering.
#![doc = include_str!("../README.md")]
//!
//! # Grammar
//!
//! Input is the list of already-decoded `(key, value)` pairs, in order, repeats allowed.
//!
//! ```text
//! query     ::= pair*                          ; order kept, keys may repeat
//! pair      ::= reserved | search | ordering | filter
//! reserved  ::= ("limit" | "offset" | "brief" | "format" | "fields" | "exclude" | "export") "=" any
//! search    ::= "q" "=" any                    ; trimmed, blank ignored, last non-blank wins
//! ordering  ::= "ordering" "=" term? ("," term?)*   ; last `ordering` wins
//! term      ::= ws* "-"? orderable ws*
//! filter    ::= key "=" value
//! key       ::= field ("__" lookup)?           ; split at the last "__" followed by a lookup
//! field     ::= any text that is a catalog field name (may contain "_" and "__")
//! lookup    ::= "exact" | "n" | "lt" | "lte" | "gt" | "gte" | "ic" | "nic"
//!             | "isw" | "nisw" | "iew" | "niew" | "ie" | "nie" | "empty"
//! value     ::= "null" | integer | boolean | choice | uuid | datetime | text
//! integer   ::= ws* "-"? digit+ ws*            ; must fit i64
//! boolean   ::= "true" | "false" | "1" | "0" | "yes" | "no" | "on" | "off"   ; any case
//! datetime  ::= RFC 3339 | date (" " | "T") hh ":" mm (":" ss ("." fraction)?)? | date
//! ```
//!
//! # Semantics
//!
//! - Different keys are ANDed; each key gives one [`Predicate`] whose values are ORed
//!   for the positive lookup, the whole OR being negated for `n`, `nic`, `nisw`,
//!   `niew` and `nie`.
//! - [`FilterKind::Tag`] exact keys give one predicate per value, so repeated tags AND.
//! - `null` (exactly) is [`Value::Null`] for every kind but `Bool` and `Uuid`, and only
//!   with `exact` and `n`.
//! - `empty` takes one boolean; when repeated, the last non-blank value wins.
//! - Blank values of non-text kinds are ignored; a key with only blank values is dropped.
//! - `Display` on [`Filter`] writes a canonical, percent-encoded query string that
//!   [`split_query`] and [`parse`] read back to an equal [`Filter`].

mod ast;
mod bind;
mod catalog;
mod error;
mod limits;
mod lookup;
mod ordering;
mod parse;
mod query;
mod resource;
mod value;

pub use ast::{Filter, OrderTerm, Predicate};
pub use catalog::{Catalog, FilterField, FilterKind};
pub use error::{FilterError, FilterErrors};
pub use limits::{MAX_FILTER_KEYS, MAX_ORDERING_TERMS, MAX_VALUES_PER_PARAM, MAX_VALUE_CHARS};
pub use lookup::{Lookup, UnknownLookup};
pub use parse::{split_key, ORDERING_KEY, RESERVED_KEYS, SEARCH_KEY};
pub use query::split_query;
pub use resource::{filter_kind, parse_for, ResourceCatalog, CHANGE_REQUEST_FILTERS};
pub use value::Value;

use error::msg;
use parse::Role;

/// Parses and binds in one go. `pairs` are the decoded query pairs, in order.
///
/// Returns every error found (at most one per parameter, in order of first appearance)
/// rather than stopping at the first, so a client can fix its query in one round.
pub fn parse(pairs: &[(String, String)], catalog: &Catalog<'_>) -> Result<Filter, FilterErrors> {
    let mut errors = FilterErrors::default();
    let mut filter = Filter::default();
    for group in parse::group(pairs) {
        match group.role {
            Role::Filter => filter
                .predicates
                .extend(bind::bind(&group, catalog, &mut errors)),
            Role::TooManyKeys => errors.push(group.key, msg::too_many_keys()),
            Role::Search => {
                if limits::check_values(group.key, group.count, &group.values, &mut errors) {
                    filter.search = group
                        .values
                        .iter()
                        .map(|value| value.trim())
                        .rfind(|value| !value.is_empty())
                        .map(str::to_owned);
                }
            }
            Role::Ordering => {
                if limits::check_values(group.key, group.count, &group.values, &mut errors) {
                    let last = group.values.last().copied().unwrap_or_default();
                    if let Some(terms) = ordering::parse_ordering(last, catalog, &mut errors) {
                        filter.ordering = terms;
                    }
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(filter)
    } else {
        Err(errors)
    }
}
