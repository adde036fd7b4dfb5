//! Rendered list and detail answers, kept by the request that asked for them and the
//! versions of the tables its resource reads (`ResourceSpec::tables_read`). Every write,
//! through any instance on the same database, gives the tables it writes a new version, so
//! an answer is only ever served for the data it was rendered from, and a write elsewhere
//! leaves it valid; the versions are read before the data, so a stored answer is never
//! older than its key. Callers are checked before the cache is consulted; headers that
//! depend on the caller (`Allow`) are set per request.

use std::cell::RefCell;
use std::sync::{Arc, Mutex, TryLockError};
use std::time::{Duration, Instant};

use actix_web::web::Bytes;
use actix_web::HttpRequest;
use peering_domain::ResourceSpec;
use peering_store::TableVersions;
use quick_cache::sync::Cache;
use quick_cache::Weighter;

use peering_app::answers::admission::Admission;
use peering_app::answers::payoff::CachePayoff;
pub use peering_app::answers::payoff::Lookup;

/// The thread that reads the tables' versions for every request waiting on them.
pub type VersionsProbe =
    peering_app::answers::versions::VersionProbe<Arc<TableVersions>, peering_store::Error>;

/// The tables `spec`'s answers read, worked out once per resource; `None` for a resource
/// outside `resources::ALL` (none is), whose answers are then keyed by every write.
pub use peering_domain::resources::tables_read;

/// What an answer of `spec` to `query` is rendered from: the tables its resource reads, or,
/// for a filter on change requests (which read the change records, which every write adds
/// to), the whole database. Worked out once per request, applied to each versions read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DependsOn(Option<&'static [&'static str]>);

impl DependsOn {
    pub fn answer(spec: &'static ResourceSpec, query: &str) -> Self {
        DependsOn(tables_read(spec).filter(|_| !filters_on_change_requests(query)))
    }

    /// Whether `other` is the same data, told by address: each resource's tables are
    /// one slice, worked out once.
    fn same_as(self, other: DependsOn) -> bool {
        match (self.0, other.0) {
            (Some(a), Some(b)) => std::ptr::eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        }
    }

    /// The version of that data in `versions`.
    pub fn version(self, versions: &TableVersions) -> i64 {
        match self.0 {
            Some(tables) => versions.of_list(tables),
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

/// What an answer depends on: the data, everything in the URL (scheme and host make its
/// links; path and query select and shape it) and the layout its links follow.
/// Indentation asked for in `Accept` is applied after the cache.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    version: i64,
    url: String,
    /// What the version is of, so that a kept answer can be told stale later.
    depends_on: DependsOn,
}

impl Key {
    /// The key of `req`'s answer at `version` of what it `depends_on`; answers showing
    /// secrets are kept apart from those that hide them.
    pub fn new(
        (depends_on, version): (DependsOn, i64),
        req: &HttpRequest,
        secrets: peering_represent::SecretView,
    ) -> Key {
        let shown = secrets.cache_tag();
        // The layout may come from `Accept` rather than the path: its links differ.
        let layout = crate::respond::layout(req).api_version();
        Key {
            version,
            depends_on,
            url: format!(
                "{}{}?{}{shown}#{layout}",
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
            depends_on: self.depends_on,
        }
    }
}

/// An answer kept for an address, and the version it was rendered at.
#[derive(Debug, Clone)]
struct Kept {
    version: i64,
    depends_on: DependsOn,
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
    /// When stale answers were last let go, and the whole database's version then.
    last_sweep: Mutex<(Instant, i64)>,
}

/// The largest answer kept whole beside objects kept rendered: a page of about a hundred
/// objects.
const LARGEST_ANSWER_KEPT_WITH_TEXTS: usize = 256 << 10;

/// How often, at most, the answers a write has made stale are let go.
const SWEEP_EVERY: Duration = Duration::from_millis(500);

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
            last_sweep: Mutex::new((Instant::now(), 0)),
        }
    }

    /// The answer cache `settings` ask for. Beside objects kept rendered, pages of hundreds
    /// of objects are assembled from them for a copy; kept whole, each held megabytes that
    /// varied traffic never asked for again.
    pub fn for_settings(settings: &crate::Settings) -> ResponseCache {
        let responses = ResponseCache::new(settings.response_cache_bytes);
        if settings.object_texts_bytes == 0 {
            return responses;
        }
        responses.keeping_at_most(LARGEST_ANSWER_KEPT_WITH_TEXTS)
    }

    /// Keeps no answer larger than `bytes`.
    pub fn keeping_at_most(mut self, bytes: usize) -> ResponseCache {
        self.max_entry = self.max_entry.min(bytes);
        self
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

    /// Whether an answer of `len` bytes is small enough to be kept.
    pub fn keeps_answers_of(&self, len: usize) -> bool {
        self.entries.is_some() && len <= self.max_entry
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
            if self.keeps_answers_of(body.len())
                && self.admission.seen_before(&key.url, key.version)
            {
                let Key {
                    version,
                    url,
                    depends_on,
                } = key;
                // Kept in a buffer of its own size: the one it was rendered into was sized
                // by a guess, up to twice the answer, and the weight would not count that.
                let body = Bytes::copy_from_slice(&body);
                let kept = Kept {
                    version,
                    depends_on,
                    body,
                };
                entries.insert(url, kept);
            }
        }
    }

    /// Lets go of the answers kept for data that `now` shows written since, at most every
    /// `SWEEP_EVERY` (500 ms). A stale answer is never served, but would hold its memory until
    /// newer answers pushed it out: under steady writes, the whole capacity would be held
    /// by answers of no use (an answer's address is rarely asked for again in varied
    /// traffic, where a newer answer would replace it).
    ///
    /// A sweep racing a newer round's `put` may drop that answer too (it is rendered again);
    /// it never keeps one that is stale.
    pub fn sweep_now_and_then(&self, now: &TableVersions) {
        let Some(entries) = &self.entries else {
            return;
        };
        {
            // Another request sweeping or about to: this one need not wait for it.
            let mut last = match self.last_sweep.try_lock() {
                Ok(last) => last,
                Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
                Err(TryLockError::WouldBlock) => return,
            };
            if last.1 == now.whole() || last.0.elapsed() < SWEEP_EVERY {
                return;
            }
            *last = (Instant::now(), now.whole());
        }
        // Answers share a few `DependsOn` (one per resource, mostly): each one's version
        // is worked out once, not once per answer.
        let versions: RefCell<Vec<(DependsOn, i64)>> = RefCell::default();
        entries.retain(|_, kept| {
            let known = (versions.borrow().iter())
                .find(|(d, _)| d.same_as(kept.depends_on))
                .map(|&(_, version)| version);
            let current = known.unwrap_or_else(|| {
                let version = kept.depends_on.version(now);
                versions.borrow_mut().push((kept.depends_on, version));
                version
            });
            current == kept.version
        });
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
            (DependsOn(None), version),
            &TestRequest::get().uri(uri).to_http_request(),
            peering_represent::SecretView::Hidden,
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

    /// Answers a write made stale are let go at the next sweep due; the others stay.
    #[test]
    fn a_sweep_lets_go_of_the_answers_of_data_written_since() {
        use peering_domain::resources::{AUTONOMOUS_SYSTEM, TAG};
        let cache = ResponseCache::new(1 << 20);
        let before = TableVersions::from_pairs([("autonomous_systems", 1), ("tags", 1), ("*", 1)]);
        let kept = |spec, uri: &str| {
            let depends_on = DependsOn::answer(spec, "");
            let key = Key::new(
                (depends_on, depends_on.version(&before)),
                &TestRequest::get().uri(uri).to_http_request(),
                peering_represent::SecretView::Hidden,
            );
            for _ in 0..2 {
                cache.put(key.clone(), Bytes::from_static(b"{}"));
            }
            key
        };
        let systems = kept(&AUTONOMOUS_SYSTEM, "/api/peering/autonomous-systems/");
        let tags = kept(&TAG, "/api/extras/tags/");
        assert!(cache.holds(&systems) && cache.holds(&tags));
        let after = TableVersions::from_pairs([("autonomous_systems", 2), ("tags", 1), ("*", 2)]);
        let long_ago = Instant::now()
            .checked_sub(SWEEP_EVERY)
            .expect("a monotonic clock past its start");
        // Swept at these versions already, or a sweep just now: none is due.
        *cache.last_sweep.lock().unwrap() = (long_ago, after.whole());
        cache.sweep_now_and_then(&after);
        *cache.last_sweep.lock().unwrap() = (Instant::now(), before.whole());
        cache.sweep_now_and_then(&after);
        assert_eq!(cache.usage().0, 2, "no sweep due");
        *cache.last_sweep.lock().unwrap() = (long_ago, before.whole());
        cache.sweep_now_and_then(&after);
        assert!(!cache.holds(&systems), "written since");
        assert!(cache.holds(&tags), "not written");
        assert_eq!(cache.usage().0, 1);
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
        let bounded = ResponseCache::new(1 << 20).keeping_at_most(1024);
        for _ in 0..2 {
            bounded.put(page.clone(), Bytes::from(vec![b' '; 2 * 1024]));
        }
        assert_eq!(bounded.get(&page), None);
        let off = ResponseCache::new(0);
        assert!(!off.enabled());
        off.put(page.clone(), Bytes::from_static(b"{}"));
        assert_eq!(off.get(&page), None);
    }
}
