//! Objects kept rendered, so that a page is assembled from texts instead of rows read,
//! decoded and rendered again. In traffic where every request differs (random offsets,
//! filters, ids), whole answers are rarely asked for twice before a write, but the objects
//! they show are: pages overlap, and details repeat what lists showed.
//!
//! A text is kept per object and per shape of answer (complete or brief, the secrets the
//! caller sees, the links' host and layout, the field names), with the rows it shows: its
//! own, those its foreign keys name, every related object its rendering looked up. It is
//! served while no write marked one of those rows, or a table it depends on whole (link
//! tables, counts, computed values: `ResourceSpec::tables_beside_rows`), after the stamp
//! taken before its rows were read (`peering_store::RowClock`). A write through this
//! process marks the rows it names, so that writing one autonomous system leaves the texts
//! of the others; any other write marks its tables whole.
//!
//! Once their memory is full, texts are consulted only while they pay (`payoff.rs`, scored
//! apart from the answer cache's): a request that consults them waits for a round of the
//! versions read and keeps what it renders, which is lost work where objects are rarely
//! asked for again before they are written or let go (more objects than the memory holds,
//! asked for at random). Until then every request fills them: a miss then tells only that
//! the object was not asked for yet.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use peering_domain::names::FieldNames;
use peering_domain::resources::{position, tables_beside_rows, tables_read, Layout};
use peering_domain::spec::{Kind, RelatedLookup};
use peering_domain::{Record, ResourceSpec};
use peering_filter::Filter;
use peering_represent::SecretView;
use peering_store::{Depends, PageSlice, Related, RowClock, Store, TableVersions, Window};
use quick_cache::sync::Cache;
use quick_cache::Weighter;

use super::page_parts::PageParts;
use super::payoff::{CachePayoff, Lookup};

/// At most this many shapes are told apart (a shape per host a client names, at most):
/// past it, answers of new shapes are rendered without keeping their objects.
const MOST_SHAPES: usize = 64;

/// A lookup of texts finds what it looks for when it serves at least one object in this
/// many (a detail: its object): a page that serves a quarter of its objects saves more
/// rendering than its versions round and its lookups cost.
const SERVED_SHARE: usize = 4;

/// Once the texts fill their memory, one text rendered in this many is kept, the others
/// only written into their answer. Where more objects are asked for than fit, keeping each
/// one rendered lets another go for no better chance of being asked for again, and the
/// memory so churned stays resident beside the texts' (docs/performance.md, 2026-12-07).
/// An object asked for often still gets in after a few renders.
const KEPT_WHEN_FULL: u32 = 8;

/// Writes an object's text, given the related objects to look up.
pub type Render<'a> = &'a dyn Fn(&mut String, &Record, &dyn RelatedLookup);
/// Opens a page and its array, given the list's count.
pub type Head<'a> = &'a dyn Fn(i64) -> String;

thread_local! {
    /// Where objects are rendered before their texts are copied out.
    static SCRATCH: RefCell<String> = const { RefCell::new(String::new()) };
}

/// A scratch buffer grown past this (by an object of large text) is let go after use.
const MOST_SCRATCH: usize = 64 << 10;

/// What an object's text depends on besides its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    pub brief: bool,
    pub secrets: SecretView,
    pub names: FieldNames,
    pub layout: Layout,
    /// `scheme://host`, which its links start with.
    pub base: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct TextKey {
    resource: u16,
    shape: u16,
    id: i64,
}

/// One object's text, and what it was rendered from.
#[derive(Debug)]
pub struct KeptText {
    stamp: u64,
    pub text: Box<str>,
    rows: Box<[(&'static str, i64)]>,
}

#[cfg(test)]
impl KeptText {
    /// A text depending on no row.
    pub(crate) fn for_tests(text: &str) -> KeptText {
        KeptText {
            stamp: 0,
            text: Box::from(text),
            rows: Box::new([]),
        }
    }
}

#[derive(Clone)]
struct BySize;

impl Weighter<TextKey, Arc<KeptText>> for BySize {
    fn weight(&self, _key: &TextKey, kept: &Arc<KeptText>) -> u64 {
        let rows = kept.rows.len() * std::mem::size_of::<(&str, i64)>();
        (kept.text.len() + rows + 96) as u64
    }
}

/// The texts kept, within a bound in bytes.
pub struct ObjectTexts {
    entries: Option<Cache<TextKey, Arc<KeptText>, BySize>>,
    shapes: Mutex<Vec<Shape>>,
    tally: Tally,
    payoff: CachePayoff,
    /// Texts rendered while the memory was full, to keep one in [`KEPT_WHEN_FULL`].
    rendered_when_full: AtomicU32,
    /// Whether the memory was found full once (texts let go of, or no longer current,
    /// stay until others take their place, so it stays full).
    filled: AtomicBool,
}

/// Texts served from those kept, texts rendered, and those of them kept, since the start.
#[derive(Debug, Default)]
struct Tally {
    served: AtomicU64,
    rendered: AtomicU64,
    kept: AtomicU64,
}

impl std::fmt::Debug for ObjectTexts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (count, bytes) = self.usage();
        write!(f, "ObjectTexts({count} texts, {bytes} bytes)")
    }
}

impl ObjectTexts {
    /// Texts within about `capacity_bytes`; none at 0.
    pub fn new(capacity_bytes: usize) -> ObjectTexts {
        let estimated_items = (capacity_bytes / 1024).max(16);
        ObjectTexts {
            entries: (capacity_bytes > 0)
                .then(|| Cache::with_weighter(estimated_items, capacity_bytes as u64, BySize)),
            shapes: Mutex::default(),
            tally: Tally::default(),
            payoff: CachePayoff::default(),
            rendered_when_full: AtomicU32::new(0),
            filled: AtomicBool::new(false),
        }
    }

    /// The texts of `spec`'s objects in `shape`, once `versions` (read after the request
    /// arrived) are reconciled with what this process wrote; `None` when none are kept
    /// for it: the cache is off, the shape one too many, the resource's answers follow
    /// the clock (a hidden peer's `is_expired` turns with no write), or its objects have
    /// owners, who alone see them whole (jobs: a shape per owner, for objects read once).
    pub fn begin<'a>(
        &'a self,
        clock: &'a RowClock,
        versions: &'a TableVersions,
        spec: &'static ResourceSpec,
        (shape, lookup): (&Shape, Lookup),
    ) -> Option<Assembly<'a>> {
        let entries = self.entries.as_ref().filter(|_| self.keeps(spec))?;
        let resource = u16::try_from(position(spec)?).ok()?;
        let shape = self.shape_number(shape)?;
        clock.reconcile(versions, tables_read(spec)?);
        Some(Assembly {
            entries,
            clock,
            spec,
            resource,
            shape,
            stamp: clock.stamp(),
            beside: tables_beside_rows(spec)?,
            texts: self,
            lookup,
            versions,
        })
    }

    fn shape_number(&self, shape: &Shape) -> Option<u16> {
        let mut shapes = self.shapes.lock().unwrap_or_else(PoisonError::into_inner);
        let number = match shapes.iter().position(|s| s == shape) {
            Some(number) => number,
            None if shapes.len() < MOST_SHAPES => {
                shapes.push(shape.clone());
                shapes.len() - 1
            }
            None => return None,
        };
        u16::try_from(number).ok()
    }

    /// Whether texts of `spec`'s objects are kept (`begin` says when they are not).
    pub fn keeps(&self, spec: &ResourceSpec) -> bool {
        self.entries.is_some() && !spec.reads_the_clock && spec.owner.is_none()
    }

    /// Whether a request of `spec` should consult the texts for `lookup` (a page or a
    /// detail): they are kept for it, and their memory still has room or such lookups
    /// have lately been serving texts.
    pub fn worth_consulting(&self, spec: &ResourceSpec, lookup: Lookup) -> bool {
        let filled = self.filled.load(Ordering::Relaxed);
        self.keeps(spec) && (!filled || self.payoff.worth_consulting(spec, lookup))
    }

    /// Texts served, rendered, and kept of those rendered, so far.
    pub fn tally(&self) -> (u64, u64, u64) {
        let read = |n: &AtomicU64| n.load(Ordering::Relaxed);
        let tally = &self.tally;
        (
            read(&tally.served),
            read(&tally.rendered),
            read(&tally.kept),
        )
    }

    /// How many texts are kept, and their weight in bytes.
    pub fn usage(&self) -> (usize, u64) {
        self.entries
            .as_ref()
            .map_or((0, 0), |e| (e.len(), e.weight()))
    }
}

/// The texts of one request: those kept and still current, and those it renders.
pub struct Assembly<'a> {
    entries: &'a Cache<TextKey, Arc<KeptText>, BySize>,
    clock: &'a RowClock,
    spec: &'static ResourceSpec,
    resource: u16,
    shape: u16,
    /// Taken before this request read any row.
    stamp: u64,
    beside: &'static [&'static str],
    /// Where lookups are counted and scored.
    texts: &'a ObjectTexts,
    lookup: Lookup,
    /// The tables' versions the request read after it arrived.
    versions: &'a TableVersions,
}

impl Assembly<'_> {
    fn key(&self, id: i64) -> TextKey {
        TextKey {
            resource: self.resource,
            shape: self.shape,
            id,
        }
    }

    /// The current text of each of `ids`, or `None` where there is none.
    pub fn kept(&self, ids: &[i64]) -> Vec<Option<Arc<KeptText>>> {
        let found: Vec<_> = ids
            .iter()
            .map(|&id| self.entries.get(&self.key(id)))
            .collect();
        let current = self.clock.current(found.iter().flatten().map(|kept| {
            let depends = Depends {
                rows: &kept.rows,
                tables: self.beside,
            };
            (kept.stamp, depends)
        }));
        let mut current = current.into_iter();
        let texts: Vec<_> = (found.into_iter())
            .map(|kept| kept.filter(|_| current.next().unwrap_or(false)))
            .collect();
        let served = texts.iter().flatten().count();
        (self.texts.tally.served).fetch_add(served as u64, Ordering::Relaxed);
        if !ids.is_empty() {
            let found = served * SERVED_SHARE >= ids.len();
            self.texts.payoff.record(self.spec, self.lookup, found);
        }
        texts
    }

    /// A page of a list: `head` (given the list's count, it opens the page and its
    /// array), then the texts of its objects in order, those not kept
    /// rendered with `render` from the objects read for them (and kept); read `slice`
    /// objects at a time, each slice's texts taken before the next is read, so that a large
    /// page holds one slice's objects at a time. Returns the page, as its parts, and the
    /// list's count.
    pub fn page(
        &self,
        store: &Store,
        asked: (&Filter, Window),
        reads: (bool, Option<i64>),
        (slice, render, head): (usize, Render<'_>, Head<'_>),
    ) -> Result<(PageParts, i64), peering_store::Error> {
        let building = RefCell::new(Building::default());
        let mut pick = |slice: PageSlice<'_>| {
            let mut page = building.borrow_mut();
            if page.parts.is_none() {
                page.parts = Some(PageParts::new(head(slice.count)));
            }
            page.kept = self.kept(slice.ids);
            page.ids = slice.ids.to_vec();
            let missing = page.ids.iter().zip(&page.kept).filter(|(_, k)| k.is_none());
            missing.map(|(&id, _)| id).collect()
        };
        let mut each = |records: &[Record], related: &Related| {
            let rendered: HashMap<i64, Arc<KeptText>> = (records.iter())
                .map(|record| (record.id, self.render(record, related, render)))
                .collect();
            building.borrow_mut().take_slice(rendered);
        };
        let asked = (asked, self.versions);
        let count = store.page_assembled(self.spec, asked, reads, slice, (&mut pick, &mut each))?;
        let parts = (building.into_inner().parts).unwrap_or_else(|| PageParts::new(head(count)));
        Ok((parts, count))
    }

    /// Renders `record` with `render`, given the related objects to look up, and keeps its
    /// text with the rows it showed.
    pub fn render(
        &self,
        record: &Record,
        related: &dyn RelatedLookup,
        render: Render<'_>,
    ) -> Arc<KeptText> {
        let recording = Recording {
            inner: related,
            seen: RefCell::new(links(self.spec, record)),
        };
        // Written into this thread's scratch buffer, then copied into one of its own size:
        // a buffer grown while writing, then shrunk, would hold the allocator's larger
        // block (a 1.3 KiB session in a 2 KiB one), which the weight does not count.
        let text = SCRATCH.with_borrow_mut(|scratch| {
            scratch.clear();
            render(scratch, record, &recording);
            let text = Box::from(scratch.as_str());
            if scratch.capacity() > MOST_SCRATCH {
                *scratch = String::new();
            }
            text
        });
        let mut rows = recording.seen.into_inner();
        rows.sort_unstable();
        rows.dedup();
        let kept = Arc::new(KeptText {
            stamp: self.stamp,
            text,
            rows: Box::from(rows.as_slice()),
        });
        if self.keeps_rendered(record.id, &kept) {
            self.entries.insert(self.key(record.id), Arc::clone(&kept));
            (self.texts.tally.kept).fetch_add(1, Ordering::Relaxed);
        }
        (self.texts.tally.rendered).fetch_add(1, Ordering::Relaxed);
        kept
    }
}

impl Assembly<'_> {
    /// Whether a text just rendered is kept: always in place of its object's text no
    /// longer current, or while it fits; one in [`KEPT_WHEN_FULL`] once the memory is full
    /// (within a sixteenth: the cache's shards each make room for a text within their own
    /// share, so that together they stay a little under the whole).
    fn keeps_rendered(&self, id: i64, kept: &Arc<KeptText>) -> bool {
        let key = self.key(id);
        let weight = BySize.weight(&key, kept);
        let capacity = self.entries.capacity();
        if self.entries.contains_key(&key)
            || self.entries.weight() + weight <= capacity - capacity / 16
        {
            return true;
        }
        self.texts.filled.store(true, Ordering::Relaxed);
        let full = &self.texts.rendered_when_full;
        full.fetch_add(1, Ordering::Relaxed)
            .is_multiple_of(KEPT_WHEN_FULL)
    }
}

/// The object's own row and those its foreign keys name (which its computed values read,
/// whether or not its text shows them).
fn links(spec: &'static ResourceSpec, record: &Record) -> Vec<(&'static str, i64)> {
    let mut rows = vec![(spec.table, record.id)];
    for (field, value) in spec.fields.iter().zip(&record.values) {
        if let (Kind::ForeignKey { target, .. }, Some(id)) = (&field.kind, value.as_int()) {
            rows.push((target().table, id));
        }
    }
    rows
}

/// A page being assembled, slice by slice.
#[derive(Default)]
struct Building {
    parts: Option<PageParts>,
    /// The slice's ids, and the texts kept of them.
    ids: Vec<i64>,
    kept: Vec<Option<Arc<KeptText>>>,
}

impl Building {
    /// Takes the slice's objects in order, each kept or among those `rendered`; an object
    /// deleted between the ids' read and its own is left out.
    fn take_slice(&mut self, mut rendered: HashMap<i64, Arc<KeptText>>) {
        let parts = self.parts.get_or_insert_with(PageParts::default);
        for (id, kept) in self.ids.iter().zip(self.kept.drain(..)) {
            if let Some(text) = kept.or_else(|| rendered.remove(id)) {
                parts.push(text);
            }
        }
    }
}

/// Related objects looked up, noted as rows the text shows.
struct Recording<'a> {
    inner: &'a dyn RelatedLookup,
    seen: RefCell<Vec<(&'static str, i64)>>,
}

impl RelatedLookup for Recording<'_> {
    fn related(&self, spec: &ResourceSpec, id: i64) -> Option<&Record> {
        self.seen.borrow_mut().push((spec.table, id));
        self.inner.related(spec, id)
    }
}

#[cfg(test)]
mod tests;
