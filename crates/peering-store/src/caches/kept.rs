//! Related objects kept between reads. The objects a read shows beside the ones it was asked
//! for (an AS's routing policies, communities and tags; a session's exchange and router)
//! are the same few rows read after read. They are kept here, shallow, per table under the
//! version of their table (`versions.rs`; a deletion whose foreign keys the database
//! clears or cascades notes the referring tables as written), and a read takes them from
//! here while that version holds: the versions come with the read's rows
//! (`query/inline.rs`) or in one statement, in place of one statement per related
//! resource. A write of this process that named the rows it wrote by id carries the
//! objects of the others to the version it left (`KeptObjects::after_write`); under writes
//! to a few rows, the rest are not read again. A table whose objects do not fit in the
//! bound is not kept: only a part would be, and reads spread over all would mostly miss.
//!
//! A kept object is never older than its key: the versions are read before the objects
//! they key, so an object kept under a version was read at that version or after (it may
//! be newer than a read-only snapshot that takes it: a label written meanwhile). Reads in a
//! write transaction neither take nor keep objects: they see what the transaction wrote
//! before its versions change.

use std::collections::hash_map::Entry;
use std::collections::BTreeSet;

use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use peering_domain::resources::PerResource;
use peering_domain::spec::Kind;
use peering_domain::{Record, ResourceSpec, Value};

use crate::orders::KeptOrders;
use crate::versions::TableVersions;
use crate::written::Written;

/// At most about this many bytes of objects are kept, all tables together
/// (`Tables::make_room`). An autonomous system takes about 960 bytes with 1.10's fields
/// (its AS list, its config context): 5,000 with their exchanges, connections, policies
/// and tags fit; 30,000 do not, and are read with the objects that show them.
const MOST_KEPT_BYTES: usize = 6 << 20;
/// How many of the versions a table's objects were carried from are remembered: reads
/// that began before the last few writes keep and take objects still.
const MOST_CARRIED_FROM: usize = 8;

/// Objects kept between reads, per table, each table's under one version.
#[derive(Debug, Default)]
pub(crate) struct KeptObjects {
    tables: Mutex<Tables>,
    /// Lists' orders, kept between reads like the objects (`orders.rs`).
    orders: KeptOrders,
}

#[derive(Debug, Default)]
struct Tables {
    by_table: FxHashMap<&'static str, Kept>,
    /// The approximate size of the objects kept, all tables together.
    bytes: usize,
    /// Tables whose objects did not fit in the bound, no longer kept until the server
    /// starts again. Kept a part at a time, they held the whole bound while reads
    /// spread over the table mostly missed, and dropping and filling it again kept the
    /// allocator holding more (docs/performance.md, thirtieth round). Tried again, such a
    /// table would fill the bound again before it was found too large.
    too_large: BTreeSet<&'static str>,
}

impl Tables {
    /// Makes room for `adding` bytes more of `table`'s objects, and says whether they may
    /// be kept: past the bound, the table holding most (counting those bytes) is let go
    /// of, and kept no more, until they fit.
    fn make_room(&mut self, table: &'static str, adding: usize) -> bool {
        while self.bytes + adding > MOST_KEPT_BYTES {
            let held = |t: &str, kept: &Kept| kept.bytes + if t == table { adding } else { 0 };
            let largest = (self.by_table.iter())
                .map(|(&t, kept)| (held(t, kept), t))
                .max()
                .map_or(table, |(_, t)| t);
            if let Some(kept) = self.by_table.remove(largest) {
                self.bytes -= kept.bytes;
            }
            self.too_large.insert(largest);
            log::info!(
                "objects of {largest} are no longer kept between reads: they take more than {} MiB",
                MOST_KEPT_BYTES >> 20
            );
            if largest == table {
                return false;
            }
        }
        true
    }

    /// The objects of `table` brought to `version`: dropped when kept under another one
    /// they were not carried from. The ids of the rows written since, whose objects read
    /// at `version` may be older than the ones kept.
    fn at_version(&mut self, table: &'static str, version: i64) -> Option<BTreeSet<i64>> {
        let kept = (self.by_table.entry(table)).or_insert_with(|| Kept::new(version));
        let written_since = kept.written_since(version).cloned();
        if written_since.is_none() {
            self.bytes -= kept.bytes;
            *kept = Kept::new(version);
        }
        written_since
    }
}

#[derive(Debug)]
struct Kept {
    version: i64,
    objects: FxHashMap<i64, Arc<Record>>,
    /// The approximate size of `objects`, dropped at once when the version changes.
    bytes: usize,
    /// The versions these objects were carried from by this process's writes
    /// (`KeptObjects::after_write`), oldest first, each with the ids of the rows written
    /// since.
    carried_from: Vec<(i64, BTreeSet<i64>)>,
}

impl Kept {
    fn new(version: i64) -> Kept {
        Kept {
            version,
            objects: FxHashMap::default(),
            bytes: 0,
            carried_from: Vec::new(),
        }
    }

    /// The ids whose objects, read at `version`, may differ from the rows at the kept
    /// version: none at the kept version, those written since at a version the objects
    /// were carried from; `None` (any) at another. Objects kept are read at the kept
    /// version or after, so a read at an earlier one may take them all: they are never
    /// older than its versions.
    fn written_since(&self, version: i64) -> Option<&BTreeSet<i64>> {
        static NONE: BTreeSet<i64> = BTreeSet::new();
        if version == self.version {
            return Some(&NONE);
        }
        (self.carried_from.iter())
            .find(|(from, _)| *from == version)
            .map(|(_, written)| written)
    }

    /// Carries the objects from the kept version to `version`, through a write of the rows
    /// `written` (whose objects go).
    fn carry(&mut self, version: i64, written: &BTreeSet<i64>) -> usize {
        let mut freed = 0;
        for id in written {
            if let Some(object) = self.objects.remove(id) {
                freed += approximate_bytes(&object);
            }
        }
        self.bytes -= freed;
        for (_, since) in &mut self.carried_from {
            since.extend(written);
        }
        self.carried_from.push((self.version, written.clone()));
        if self.carried_from.len() > MOST_CARRIED_FROM {
            self.carried_from.remove(0);
        }
        self.version = version;
        freed
    }
}

impl KeptObjects {
    fn lock(&self) -> MutexGuard<'_, Tables> {
        // Maps of immutable objects: a panic cannot leave one half-updated.
        self.tables.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The objects among `ids` kept under `version` of `spec`'s table, and the ids of the
    /// others, which must be read.
    pub fn take(
        &self,
        spec: &'static ResourceSpec,
        version: i64,
        ids: Vec<i64>,
    ) -> (Vec<Arc<Record>>, Vec<i64>) {
        let tables = self.lock();
        let kept = tables.by_table.get(spec.table);
        let Some(kept) = kept.filter(|k| k.written_since(version).is_some()) else {
            return (Vec::new(), ids);
        };
        let mut found = Vec::with_capacity(ids.len());
        let mut missing = Vec::new();
        for id in ids {
            match kept.objects.get(&id) {
                Some(object) => found.push(Arc::clone(object)),
                None => missing.push(id),
            }
        }
        (found, missing)
    }

    /// Keeps `objects` of `spec`, read at `version` of its key or after. Objects kept
    /// under another version are dropped first, unless carried from it: then the objects
    /// of rows written since are not kept. An object kept already stays.
    pub fn keep(&self, spec: &'static ResourceSpec, version: i64, objects: &[Arc<Record>]) {
        let too_large = |tables: &Tables| tables.too_large.contains(spec.table);
        if objects.is_empty() || too_large(&self.lock()) {
            return;
        }
        let sized: Vec<_> = objects.iter().map(|o| (o, approximate_bytes(o))).collect();
        let mut tables = self.lock();
        if too_large(&tables) {
            return;
        }
        let written_since = tables.at_version(spec.table, version);
        let kept = tables.by_table.get(spec.table);
        let new: Vec<_> = (sized.into_iter())
            .filter(|(o, _)| kept.is_none_or(|k| !k.objects.contains_key(&o.id)))
            .filter(|(o, _)| {
                written_since
                    .as_ref()
                    .is_none_or(|ids| !ids.contains(&o.id))
            })
            .collect();
        let adding = new.iter().map(|(_, size)| size).sum();
        if !tables.make_room(spec.table, adding) {
            return;
        }
        let Tables {
            by_table, bytes, ..
        } = &mut *tables;
        let kept = (by_table.entry(spec.table)).or_insert_with(|| Kept::new(version));
        for (object, size) in new {
            if let Entry::Vacant(slot) = kept.objects.entry(object.id) {
                slot.insert(Arc::clone(object));
                kept.bytes += size;
                *bytes += size;
            }
        }
    }

    /// Whether a write of this process that wrote `written` may carry objects kept here
    /// through it (`after_write`, which needs the versions before and after it).
    pub fn carried_by(&self, written: &Written) -> bool {
        (self.lock().by_table.keys()).any(|table| written.rows_updated(table).is_some())
    }

    /// After a write of this process: the objects of a table it wrote whose rows it named
    /// by id (`Written::rows_updated`) are kept under the version it left, but for those
    /// rows, when they were kept under the version it found (`versions`, before and after
    /// it, read in its transaction: no other write came between). Those of the other tables
    /// it wrote are let go, unless kept under the version it left: read after it.
    pub fn after_write(
        &self,
        written: &Written,
        versions: Option<(&TableVersions, &TableVersions)>,
    ) {
        let Some((before, after)) = versions else {
            return;
        };
        let mut tables = self.lock();
        let Tables {
            by_table, bytes, ..
        } = &mut *tables;
        by_table.retain(|&table, kept| {
            if !written.may_have_written(table) || kept.version == after.of(&[table]) {
                return true;
            }
            let found = kept.version == before.of(&[table]);
            let Some(ids) = written.rows_updated(table).filter(|_| found) else {
                *bytes -= kept.bytes;
                return false;
            };
            *bytes -= kept.carry(after.of(&[table]), ids);
            true
        });
    }

    /// The lists' orders kept between reads.
    pub fn orders(&self) -> &KeptOrders {
        &self.orders
    }

    /// The approximate size of the objects kept, all tables together.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }
}

/// About how many bytes `record` holds: its values and the text they own.
fn approximate_bytes(record: &Record) -> usize {
    let owned: usize = record.values.iter().map(value_bytes).sum();
    std::mem::size_of::<Record>() + record.values.len() * std::mem::size_of::<Value>() + owned
}

fn value_bytes(value: &Value) -> usize {
    match value {
        Value::Text(text) => text.len(),
        Value::Json(json) => json_bytes(json),
        Value::Ids(ids) => ids.len() * std::mem::size_of::<i64>(),
        _ => 0,
    }
}

fn json_bytes(json: &serde_json::Value) -> usize {
    let node = std::mem::size_of::<serde_json::Value>();
    node + match json {
        serde_json::Value::String(text) => text.len(),
        serde_json::Value::Array(items) => items.iter().map(json_bytes).sum(),
        serde_json::Value::Object(map) => map.iter().map(|(k, v)| k.len() + json_bytes(v)).sum(),
        _ => 0,
    }
}

/// Adds `spec`'s table and those its display rule reads, in turn.
fn add_with_reads(spec: &'static ResourceSpec, tables: &mut BTreeSet<&'static str>) {
    if !tables.insert(spec.table) {
        return;
    }
    for name in spec.reads {
        let field = spec.index_of(name).map(|i| &spec.fields[i].kind);
        if let Some(Kind::ForeignKey { target, .. }) = field {
            add_with_reads(target(), tables);
        }
    }
}

/// The tables whose versions key the objects a read of `spec` may show beside its own:
/// those its foreign keys and relation lists point to, and what their labels read in turn
/// (generic objects name their resource in each row, and are not kept), sorted.
pub(crate) fn tables_shown_with(spec: &'static ResourceSpec) -> &'static [&'static str] {
    static TABLES: PerResource<Vec<&'static str>> = PerResource::new(|spec| {
        let mut shown = BTreeSet::new();
        for field in spec.fields {
            match field.kind {
                Kind::ForeignKey { target, .. } | Kind::ManyToMany { target, .. } => {
                    add_with_reads(target(), &mut shown);
                }
                Kind::Tags => add_with_reads(&peering_domain::resources::TAG, &mut shown),
                _ => {}
            }
        }
        shown.into_iter().collect()
    });
    TABLES.get(spec).map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests;
