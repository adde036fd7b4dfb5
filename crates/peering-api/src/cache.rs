//! Rendered list and detail answers, kept by the request that asked for them and the
//! versions of the tables its resource reads (`ResourceSpec::tables_read`). Every write,
//! through any instance on the same database, gives the tables it writes a new version, so
//! an answer is only ever served for the data it was rendered from, and a write elsewhere
//! leaves it valid; the versions are read before the data, so a stored answer is never
//! older than its key. Callers are checked before the cache is consulted; headers that
//! depend on the caller (`Allow`) are set per request.

use std::sync::Arc;

use actix_web::web::Bytes;
use actix_web::HttpRequest;
use peering_domain::resources::PerResource;
use peering_domain::ResourceSpec;
use peering_store::TableVersions;
use quick_cache::sync::Cache;
use quick_cache::Weighter;

use crate::admission::Admission;
use crate::cache_payoff::CachePayoff;
pub use crate::cache_payoff::Lookup;

/// The thread that reads the tables' versions for every request waiting on them.
pub type VersionsProbe = crate::version::VersionProbe<Arc<TableVersions>, peering_store::Error>;

/// The tables `spec`'s answers read, worked out once per resource; `None` for a resource
/// outside `resources::ALL` (none is), whose answers are then keyed by every write.
pub fn tables_read(spec: &'static ResourceSpec) -> Option<&'static [&'static str]> {
    static READS: PerResource<Vec<&'static str>> = PerResource::new(ResourceSpec::tables_read);
    READS.get(spec).map(Vec::as_slice)
}

/// What an answer of `spec` to `query` is rendered from: the tables its resource reads, or,
/// for a filter on change requests (which read the change records, which every write adds
/// to), the whole database. Worked out once per request, applied to each versions read.
#[derive(Debug, Clone, Copy)]
pub struct DependsOn(Option<&'static [&'static str]>);

impl DependsOn {
    pub fn answer(spec: &'static ResourceSpec, query: &str) -> Self {
        DependsOn(tables_read(spec).filter(|_| !filters_on_change_requests(query)))
    }

    /// The version of that data in `versions`.
    pub fn version(self, versions: &TableVersions) -> i64 {
        match self.0 {
            Some(tables) => versions.of(tables),
            None => versions.whole(),
        }
    }
}

fn filters_on_change_requests(query: &str) -> bool {
    const NAME: &str = "_by_request";
    query.contains(NAME)
        || (query.contains('%')
            && form_urlencoded::parse(query.as_bytes()).any(|(k, _)| k.contains(NAME)))
}

/// What an answer depends on: the data, and everything in the URL (scheme and host make its
/// links; path and query select and shape it). Indentation asked for in `Accept` is applied
/// after the cache.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    version: i64,
    url: String,
}

impl Key {
    /// The key of `req`'s answer at `version`; answers showing secrets are kept apart
    /// from those that hide them.
    pub fn new(version: i64, req: &HttpRequest, secrets: crate::render::SecretView) -> Key {
        let shown = secrets.cache_tag();
        Key {
            version,
            url: format!(
                "{}{}?{}{shown}",
                crate::respond::origin(req),
                req.path(),
                req.query_string()
            ),
        }
    }
}

impl Key {
    /// The version of the data the answer was rendered from.
    pub fn version(&self) -> i64 {
        self.version
    }

    /// The key of the same request's answer at `version` (its address is not built again).
    pub fn at(self, version: i64) -> Key {
        Key { version, ..self }
    }

    /// The key of the same answer compressed with `encoding`.
    pub fn encoded(&self, encoding: &str) -> Key {
        Key {
            version: self.version,
            url: format!("{}#{encoding}", self.url),
        }
    }
}

/// An answer kept for an address, and the version it was rendered at.
#[derive(Debug, Clone)]
struct Kept {
    version: i64,
    body: Bytes,
}

#[derive(Debug, Clone)]
struct BySize;

impl Weighter<String, Kept> for BySize {
    fn weight(&self, url: &String, kept: &Kept) -> u64 {
        // The entry's bookkeeping, roughly, so that tiny answers still count.
        (url.len() + kept.body.len() + 64) as u64
    }
}

/// A size-bounded cache of answers, one per address (a newer version's answer replaces an
/// older one instead of sitting beside it until pushed out); a capacity of 0 turns it off.
#[derive(Debug)]
pub struct ResponseCache {
    entries: Option<Cache<String, Kept, BySize>>,
    /// Larger answers are not kept, so that one `limit=0` cannot flush every page.
    max_entry: usize,
    /// Answers are kept from the second time their address is asked for.
    admission: Admission,
    /// Whether lookups pay, per resource and kind (pages, details, and the list counts
    /// of `counts.rs`, kept under the same setting).
    payoff: CachePayoff,
}

impl ResponseCache {
    pub fn new(capacity_bytes: usize) -> ResponseCache {
        // A guess at the number of entries, which only sizes the table up front.
        let estimated_items = (capacity_bytes / 16_384).max(16);
        ResponseCache {
            entries: (capacity_bytes > 0)
                .then(|| Cache::with_weighter(estimated_items, capacity_bytes as u64, BySize)),
            max_entry: capacity_bytes / 8,
            admission: Admission::default(),
            payoff: CachePayoff::default(),
        }
    }

    pub fn enabled(&self) -> bool {
        self.entries.is_some()
    }

    /// Whether a request of `spec` should make `lookup` (and keep what it renders): the
    /// cache is on, and such lookups have been finding what they look for lately
    /// (`cache_payoff.rs`).
    pub fn worth_consulting(&self, spec: &ResourceSpec, lookup: Lookup) -> bool {
        self.enabled() && self.payoff.worth_consulting(spec, lookup)
    }

    /// Counts a `lookup` of `spec` that found what it looked for kept (`hit`) or not.
    pub fn record_lookup(&self, spec: &ResourceSpec, lookup: Lookup, hit: bool) {
        self.payoff.record(spec, lookup, hit);
    }

    /// How many answers are kept, and their weight in bytes.
    pub fn usage(&self) -> (usize, u64) {
        self.entries
            .as_ref()
            .map_or((0, 0), |e| (e.len(), e.weight()))
    }

    /// The answer for `key`, if kept at its version.
    pub fn get(&self, key: &Key) -> Option<Bytes> {
        let kept = self.entries.as_ref()?.get(key.url.as_str())?;
        (kept.version == key.version).then_some(kept.body)
    }

    /// Whether an answer is kept for `key` (without counting as a use of it).
    pub fn holds(&self, key: &Key) -> bool {
        let kept = self.entries.as_ref().and_then(|e| e.peek(key.url.as_str()));
        kept.is_some_and(|kept| kept.version == key.version)
    }

    /// Keeps an answer if its address was asked for before (callers keep none that a write
    /// has made stale already).
    pub fn put(&self, key: Key, body: Bytes) {
        if let Some(entries) = &self.entries {
            if body.len() <= self.max_entry && self.admission.seen_before(&key.url, key.version) {
                let Key { version, url } = key;
                // Kept in a buffer of its own size: the one it was rendered into was sized
                // by a guess, up to twice the answer, and the weight would not count that.
                let body = Bytes::copy_from_slice(&body);
                entries.insert(url, Kept { version, body });
            }
        }
    }
}

impl Default for ResponseCache {
    fn default() -> Self {
        ResponseCache::new(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn key(version: i64, uri: &str) -> Key {
        Key::new(
            version,
            &TestRequest::get().uri(uri).to_http_request(),
            crate::render::SecretView::Hidden,
        )
    }

    #[test]
    fn answers_are_kept_per_url_and_version() {
        let cache = ResponseCache::new(1 << 20);
        let page = key(1, "/api/peering/autonomous-systems/?limit=50");
        assert_eq!(cache.get(&page), None);
        cache.put(page.clone(), Bytes::from_static(b"{}"));
        assert_eq!(cache.get(&page), None, "kept from the second answer on");
        cache.put(page.clone(), Bytes::from_static(b"{}"));
        assert_eq!(cache.get(&page), Some(Bytes::from_static(b"{}")));
        assert_eq!(
            cache.get(&key(1, "/api/peering/autonomous-systems/?limit=51")),
            None
        );
        // Another version of the tables is another answer, kept the second time it is
        // asked for at that version, which replaces the first.
        let newer = key(2, "/api/peering/autonomous-systems/?limit=50");
        assert_eq!(cache.get(&newer), None);
        cache.put(newer.clone(), Bytes::from_static(b"[]"));
        assert_eq!(cache.get(&page), Some(Bytes::from_static(b"{}")));
        cache.put(newer.clone(), Bytes::from_static(b"[]"));
        assert_eq!(cache.get(&newer), Some(Bytes::from_static(b"[]")));
        assert_eq!(cache.get(&page), None);
        assert_eq!(cache.usage().0, 1);
    }

    #[test]
    fn change_request_filters_are_seen_however_spelt() {
        assert!(filters_on_change_requests("created_by_request=x"));
        assert!(filters_on_change_requests(
            "limit=5&updated%5Fby%5Frequest=x"
        ));
        assert!(!filters_on_change_requests("limit=5&q=a%20b"));
    }

    #[test]
    fn every_resource_reads_its_own_table() {
        for spec in peering_domain::resources::ALL {
            let tables = tables_read(spec).unwrap_or_default();
            assert!(tables.contains(&spec.table), "{}", spec.path);
        }
    }

    #[test]
    fn large_answers_and_a_zero_capacity_keep_nothing() {
        let cache = ResponseCache::new(8 * 1024);
        let page = key(1, "/x/");
        assert_eq!(cache.get(&page), None);
        for _ in 0..2 {
            cache.put(page.clone(), Bytes::from(vec![b' '; 2 * 1024]));
        }
        assert_eq!(cache.get(&page), None);
        let off = ResponseCache::new(0);
        assert!(!off.enabled());
        off.put(page.clone(), Bytes::from_static(b"{}"));
        assert_eq!(off.get(&page), None);
    }
}
