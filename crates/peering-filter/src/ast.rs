//! The validated filter tree handed to the storage layer, and its canonical text form.

use crate::catalog::FilterKind;
use crate::lookup::Lookup;
use crate::query;
use crate::value::Value;
use std::fmt;

/// One query parameter (one key, with all its repeated values).
///
/// Its meaning is OR over `values` for the positive lookup, negated as a whole when
/// `lookup.is_negated()`. `values` is never empty. For `Lookup::Empty` it holds one
/// `Value::Bool`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Predicate {
    /// The catalog field name.
    pub field: &'static str,
    /// The field's kind, copied from the catalog so that the storage layer need not look it up.
    pub kind: FilterKind,
    /// The comparison.
    pub lookup: Lookup,
    /// The typed values, in query order.
    pub values: Vec<Value>,
    /// The key as the client spelled it (e.g. `name__exact`), for error reporting.
    pub param: String,
}

impl Predicate {
    /// The `(key, value)` pairs that re-parse to this predicate, unencoded.
    pub fn to_pairs(&self) -> Vec<(String, String)> {
        self.values
            .iter()
            .map(|value| (self.param.clone(), value.to_string()))
            .collect()
    }
}

impl fmt::Display for Predicate {
    /// Writes `param=value&param=value`, percent-encoded, in the canonical value spelling.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        query::write_pairs(
            f,
            self.values
                .iter()
                .map(|value| (self.param.as_str(), value.to_string())),
        )
    }
}

/// One `ordering` term.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OrderTerm {
    /// An orderable field name from the catalog.
    pub field: String,
    /// Whether the term had a leading `-`.
    pub descending: bool,
}

impl fmt::Display for OrderTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.descending {
            f.write_str("-")?;
        }
        f.write_str(&self.field)
    }
}

/// A whole validated query: predicates ANDed together, free-text search and ordering.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Filter {
    /// The predicates, ANDed, in order of first appearance of their keys.
    pub predicates: Vec<Predicate>,
    /// The trimmed, non-blank `q` value, if any.
    pub search: Option<String>,
    /// The ordering terms, first one most significant; empty means the resource default.
    pub ordering: Vec<OrderTerm>,
}

impl Filter {
    /// Whether the query neither filters nor searches: every object of the resource is in
    /// its list.
    pub fn selects_all(&self) -> bool {
        self.predicates.is_empty() && self.search.is_none()
    }

    /// Whether the query neither filters, searches nor orders.
    pub fn is_empty(&self) -> bool {
        self.predicates.is_empty() && self.search.is_none() && self.ordering.is_empty()
    }

    /// The `(key, value)` pairs that re-parse to this filter, unencoded.
    pub fn to_pairs(&self) -> Vec<(String, String)> {
        let mut pairs: Vec<(String, String)> = self
            .predicates
            .iter()
            .flat_map(Predicate::to_pairs)
            .collect();
        if let Some(search) = &self.search {
            pairs.push(("q".to_owned(), search.clone()));
        }
        if !self.ordering.is_empty() {
            pairs.push(("ordering".to_owned(), self.ordering_text()));
        }
        pairs
    }

    /// The ordering terms joined by commas, e.g. `-asn,name`.
    fn ordering_text(&self) -> String {
        self.ordering
            .iter()
            .map(OrderTerm::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}

impl fmt::Display for Filter {
    /// Writes the canonical query string (no leading `?`); [`crate::split_query`] reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pairs = self.to_pairs();
        query::write_pairs(
            f,
            pairs
                .iter()
                .map(|(key, value)| (key.as_str(), value.clone())),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_joins_predicates_search_and_ordering() {
        let filter = Filter {
            predicates: vec![
                Predicate {
                    field: "asn",
                    kind: FilterKind::Number,
                    lookup: Lookup::Gte,
                    values: vec![Value::Int(64500)],
                    param: "asn__gte".to_owned(),
                },
                Predicate {
                    field: "name",
                    kind: FilterKind::String,
                    lookup: Lookup::Ic,
                    values: vec![Value::Text("a&b".to_owned()), Value::Null],
                    param: "name__ic".to_owned(),
                },
            ],
            search: Some("cloud one".to_owned()),
            ordering: vec![
                OrderTerm {
                    field: "asn".to_owned(),
                    descending: true,
                },
                OrderTerm {
                    field: "name".to_owned(),
                    descending: false,
                },
            ],
        };
        assert_eq!(
            filter.to_string(),
            "asn__gte=64500&name__ic=a%26b&name__ic=null&q=cloud+one&ordering=-asn%2Cname"
        );
        assert!(!filter.is_empty());
        assert_eq!(Filter::default().to_string(), "");
        assert!(Filter::default().is_empty());
    }
}
