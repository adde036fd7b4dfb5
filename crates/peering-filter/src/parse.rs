//! Query syntax: splitting keys into field and lookup, and grouping repeated keys.
//!
//! Nothing here consults the catalog; binding happens in `bind`.

use crate::limits::{MAX_FILTER_KEYS, MAX_VALUES_PER_PARAM};
use crate::lookup::Lookup;
use std::collections::HashMap;

/// Keys that belong to other layers (pagination, rendering, export) and are skipped.
pub const RESERVED_KEYS: [&str; 7] = [
    "limit", "offset", "brief", "format", "fields", "exclude", "export",
];
/// The free-text search key.
pub const SEARCH_KEY: &str = "q";
/// The ordering key.
pub const ORDERING_KEY: &str = "ordering";

/// Splits `field__lookup` at its last `__` when the suffix is a lookup name.
///
/// Otherwise the whole key is the field name with [`Lookup::Exact`], which lets field
/// names contain `_` and `__` freely.
pub fn split_key(key: &str) -> (&str, Lookup) {
    key.rsplit_once("__")
        .and_then(|(field, suffix)| suffix.parse().ok().map(|lookup| (field, lookup)))
        .unwrap_or((key, Lookup::Exact))
}

/// What a grouped parameter is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// A filter key to bind against the catalog.
    Filter,
    /// `q`.
    Search,
    /// `ordering`.
    Ordering,
    /// The first filter key past [`MAX_FILTER_KEYS`]; later ones are dropped silently.
    TooManyKeys,
}

/// One distinct key with its values, in query order.
#[derive(Debug)]
pub(crate) struct Group<'q> {
    pub(crate) key: &'q str,
    pub(crate) role: Role,
    /// The values, capped one past [`MAX_VALUES_PER_PARAM`] so a flood costs no memory.
    pub(crate) values: Vec<&'q str>,
    /// How many values the key really had.
    pub(crate) count: usize,
}

/// Groups pairs by key, in order of first appearance, skipping reserved keys.
pub(crate) fn group(pairs: &[(String, String)]) -> Vec<Group<'_>> {
    let mut groups: Vec<Group<'_>> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut filter_keys = 0usize;
    let mut overflowed = false;
    for (key, value) in pairs {
        let key = key.as_str();
        if RESERVED_KEYS.contains(&key) {
            continue;
        }
        let slot = match index.get(key) {
            Some(&slot) => slot,
            None => {
                let role = match key {
                    SEARCH_KEY => Role::Search,
                    ORDERING_KEY => Role::Ordering,
                    _ if filter_keys < MAX_FILTER_KEYS => {
                        filter_keys += 1;
                        Role::Filter
                    }
                    // One error is enough to explain the refusal; more would let a
                    // client grow the error response without bound.
                    _ if overflowed => continue,
                    _ => {
                        overflowed = true;
                        Role::TooManyKeys
                    }
                };
                groups.push(Group {
                    key,
                    role,
                    values: Vec::new(),
                    count: 0,
                });
                index.insert(key, groups.len() - 1);
                groups.len() - 1
            }
        };
        let group = &mut groups[slot];
        group.count += 1;
        if group.values.len() <= MAX_VALUES_PER_PARAM {
            group.values.push(value.as_str());
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn keys_split_at_the_last_lookup_suffix() {
        assert_eq!(split_key("asn"), ("asn", Lookup::Exact));
        assert_eq!(split_key("asn__gte"), ("asn", Lookup::Gte));
        assert_eq!(split_key("asn__exact"), ("asn", Lookup::Exact));
        assert_eq!(split_key("irr_as_set__ic"), ("irr_as_set", Lookup::Ic));
        assert_eq!(split_key("parent__name"), ("parent__name", Lookup::Exact));
        assert_eq!(
            split_key("parent__name__nie"),
            ("parent__name", Lookup::Nie)
        );
        assert_eq!(split_key("a___ic"), ("a_", Lookup::Ic));
        assert_eq!(split_key("a__GTE"), ("a__GTE", Lookup::Exact));
        assert_eq!(split_key("__n"), ("", Lookup::N));
        assert_eq!(split_key("name__"), ("name__", Lookup::Exact));
    }

    #[test]
    fn grouping_keeps_first_appearance_order_and_skips_reserved_keys() {
        let input = pairs(&[
            ("b", "1"),
            ("limit", "5"),
            ("a", "x"),
            ("b", "2"),
            ("q", "s"),
            ("export", "csv"),
            ("ordering", "a"),
        ]);
        let groups = group(&input);
        let seen: Vec<(&str, Role, Vec<&str>)> = groups
            .iter()
            .map(|g| (g.key, g.role, g.values.clone()))
            .collect();
        assert_eq!(
            seen,
            [
                ("b", Role::Filter, vec!["1", "2"]),
                ("a", Role::Filter, vec!["x"]),
                ("q", Role::Search, vec!["s"]),
                ("ordering", Role::Ordering, vec!["a"]),
            ]
        );
    }

    #[test]
    fn grouping_caps_keys_and_values() {
        let mut input: Vec<(String, String)> =
            (0..70).map(|i| (format!("k{i}"), String::new())).collect();
        input.extend((0..1000).map(|_| ("k0".to_owned(), "v".to_owned())));
        let groups = group(&input);
        assert_eq!(groups.len(), MAX_FILTER_KEYS + 1);
        assert_eq!(groups[MAX_FILTER_KEYS].role, Role::TooManyKeys);
        assert_eq!(groups[MAX_FILTER_KEYS].key, "k64");
        assert_eq!(groups[0].count, 1001);
        assert_eq!(groups[0].values.len(), MAX_VALUES_PER_PARAM + 1);
    }
}
