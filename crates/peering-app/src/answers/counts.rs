//! The total counts of list pages, kept with the answer cache (the same setting turns both
//! off). Every page of one list (the same filter at another offset, size or ordering) has
//! the same count, which the database would otherwise compute again for each page: the
//! whole list is walked. A count is kept under the version of the tables its resource reads
//! ((the API cache's `DependsOn`)), or, for a list neither filtered nor searched, of its
//! table's set of rows (which only adding or removing rows changes), read before the count
//! was, and used only under versions read after the request arrived: a write to those
//! tables makes it unused, and a page never shows a count older than the data it was asked
//! after.

use peering_domain::ResourceSpec;
use peering_filter::Filter;
use quick_cache::sync::Cache;

/// How many lists' counts are kept (a few dozen bytes each).
const LISTS_KEPT: usize = 4096;

/// One list: its resource and its filter (without ordering, which changes no count).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ListKey {
    table: &'static str,
    filter: String,
}

impl ListKey {
    pub fn new(spec: &'static ResourceSpec, filter: &Filter) -> ListKey {
        let unordered = Filter {
            ordering: Vec::new(),
            ..filter.clone()
        };
        ListKey {
            table: spec.table,
            filter: unordered.to_string(),
        }
    }
}

/// Counts by list, each with the version of the data it was counted from (one per list:
/// a newer version's count replaces the older one).
#[derive(Debug)]
pub struct Counts {
    kept: Option<Cache<ListKey, (i64, i64)>>,
}

impl Counts {
    /// Kept counts, or none when `enabled` is false.
    pub fn new(enabled: bool) -> Counts {
        Counts {
            kept: enabled.then(|| Cache::new(LISTS_KEPT)),
        }
    }

    pub fn enabled(&self) -> bool {
        self.kept.is_some()
    }

    /// The count of `list` at `version`, if it was kept at that version.
    pub fn get(&self, list: &ListKey, version: i64) -> Option<i64> {
        let (kept_at, count) = self.kept.as_ref()?.get(list)?;
        (kept_at == version).then_some(count)
    }

    /// Keeps the count of `list`, counted after the versions giving `version` were read.
    pub fn put(&self, list: ListKey, version: i64, count: i64) {
        if let Some(kept) = &self.kept {
            kept.insert(list, (version, count));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use peering_domain::resources::AUTONOMOUS_SYSTEM;

    fn list(query: &str) -> ListKey {
        let pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        let catalog = peering_filter::ResourceCatalog::of(&AUTONOMOUS_SYSTEM).catalog();
        ListKey::new(
            &AUTONOMOUS_SYSTEM,
            &peering_filter::parse(&pairs, &catalog).expect("filter"),
        )
    }

    #[test]
    fn a_count_serves_every_ordering_of_its_list_at_its_version_only() {
        let counts = Counts::new(true);
        counts.put(list("asn__gte=64500&ordering=name"), 7, 42);
        assert_eq!(counts.get(&list("asn__gte=64500"), 7), Some(42));
        assert_eq!(
            counts.get(&list("asn__gte=64500&ordering=-asn"), 7),
            Some(42)
        );
        assert_eq!(
            counts.get(&list("asn__gte=64500"), 8),
            None,
            "written since"
        );
        assert_eq!(counts.get(&list("asn__gte=64501"), 7), None, "another list");
        counts.put(list("asn__gte=64500"), 8, 43);
        assert_eq!(counts.get(&list("asn__gte=64500"), 7), None, "replaced");
        assert_eq!(counts.get(&list("asn__gte=64500"), 8), Some(43));
    }

    #[test]
    fn nothing_is_kept_when_the_cache_is_off() {
        let counts = Counts::new(false);
        counts.put(list(""), 1, 5);
        assert_eq!(counts.get(&list(""), 1), None);
    }
}
