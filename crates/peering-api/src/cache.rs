//! Rendered list and detail answers, kept by the request that asked for them and the
//! database's data version. Every write, through any instance on the same database, gives
//! the version a new value, so an answer is only ever served for the data it was rendered
//! from; the version is read before the data, so a stored answer is never older than its
//! key. Callers are checked before the cache is consulted; headers that depend on the
//! caller (`Allow`) are set per request.

use std::sync::atomic::{AtomicI64, Ordering};

use actix_web::web::Bytes;
use actix_web::HttpRequest;
use quick_cache::sync::Cache;
use quick_cache::Weighter;

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
    /// The key of the same answer compressed with `encoding`.
    pub fn encoded(&self, encoding: &str) -> Key {
        Key {
            version: self.version,
            url: format!("{}#{encoding}", self.url),
        }
    }
}

#[derive(Debug, Clone)]
struct BySize;

impl Weighter<Key, Bytes> for BySize {
    fn weight(&self, key: &Key, body: &Bytes) -> u64 {
        // The entry's bookkeeping, roughly, so that tiny answers still count.
        (key.url.len() + body.len() + 64) as u64
    }
}

/// A size-bounded cache of answers; a capacity of 0 turns it off.
#[derive(Debug)]
pub struct ResponseCache {
    entries: Option<Cache<Key, Bytes, BySize>>,
    /// Larger answers are not kept, so that one `limit=0` cannot flush every page.
    max_entry: usize,
    /// The last version seen: answers of other versions can never be served again.
    current: AtomicI64,
}

impl ResponseCache {
    pub fn new(capacity_bytes: usize) -> ResponseCache {
        // A guess at the number of entries, which only sizes the table up front.
        let estimated_items = (capacity_bytes / 16_384).max(16);
        ResponseCache {
            entries: (capacity_bytes > 0)
                .then(|| Cache::with_weighter(estimated_items, capacity_bytes as u64, BySize)),
            max_entry: capacity_bytes / 8,
            current: AtomicI64::new(0),
        }
    }

    pub fn enabled(&self) -> bool {
        self.entries.is_some()
    }

    /// How many answers are kept, and their weight in bytes.
    pub fn usage(&self) -> (usize, u64) {
        self.entries
            .as_ref()
            .map_or((0, 0), |e| (e.len(), e.weight()))
    }

    /// The answer for `key`, if kept. Seeing a new version empties the cache.
    pub fn get(&self, key: &Key) -> Option<Bytes> {
        let entries = self.entries.as_ref()?;
        if self.current.swap(key.version, Ordering::Relaxed) != key.version {
            entries.clear();
            return None;
        }
        entries.get(key)
    }

    /// Keeps an answer, unless a newer version has been seen since `key`'s was read.
    pub fn put(&self, key: Key, body: Bytes) {
        if let Some(entries) = &self.entries {
            if body.len() <= self.max_entry && self.current.load(Ordering::Relaxed) == key.version {
                entries.insert(key, body);
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
        assert_eq!(cache.get(&page), Some(Bytes::from_static(b"{}")));
        assert_eq!(
            cache.get(&key(1, "/api/peering/autonomous-systems/?limit=51")),
            None
        );
        // A new version empties the cache: the old answer is gone even for its own key.
        assert_eq!(
            cache.get(&key(2, "/api/peering/autonomous-systems/?limit=50")),
            None
        );
        assert_eq!(cache.get(&page), None);
        // An answer read at another version than the last seen is not kept.
        cache.put(
            key(2, "/api/peering/autonomous-systems/?limit=50"),
            Bytes::from_static(b"{}"),
        );
        assert_eq!(
            cache.get(&key(2, "/api/peering/autonomous-systems/?limit=50")),
            None
        );
    }

    #[test]
    fn large_answers_and_a_zero_capacity_keep_nothing() {
        let cache = ResponseCache::new(8 * 1024);
        let page = key(1, "/x/");
        assert_eq!(cache.get(&page), None);
        cache.put(page.clone(), Bytes::from(vec![b' '; 2 * 1024]));
        assert_eq!(cache.get(&page), None);
        let off = ResponseCache::new(0);
        assert!(!off.enabled());
        off.put(page.clone(), Bytes::from_static(b"{}"));
        assert_eq!(off.get(&page), None);
    }
}
