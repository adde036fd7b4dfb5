//! Lists' orders kept between reads. A page of a list not searched is a slice of one
//! sequence of ids, the rows its filter (if any, on the rows' own columns) selects in the
//! list's order; read with `LIMIT … OFFSET …`, every page walks the rows before it again
//! (on PostgreSQL, most of a deep page's time). The sequence is kept here, per table, order
//! and filter, under the versions of the tables the order reads (`query/ordered.rs`), and
//! a page takes its ids from it.
//!
//! A kept order is only a guess of what the database holds: every read through it also
//! reads those versions in the statement that reads its rows, and is used only when they
//! are the ones the order was read at (then the rows are exactly the ones the order saw).
//! A write of this process forgets the orders of the tables it wrote as it ends, so that
//! reads after it do not guess wrong first, unless it set none of the columns an order is
//! read from and added or removed no row of its tables: then the order is kept under the
//! versions the write left, if it was read at those the write found (no other write came
//! between). Writes of other processes are caught by the versions alone.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

pub(crate) use crate::order_ids::OrderIds;
use crate::versions::TableVersions;
use crate::written::Written;

/// The most ids an order is read with; a longer list is read with its offset.
pub(crate) const MOST_IDS_PER_ORDER: usize = 2_000_000;
/// The most memory an order is kept in (its ids take 4 bytes each, or 8 past four
/// billion: `order_ids.rs`); a larger one is read with its offset.
const MOST_BYTES_PER_ORDER: usize = 8 << 20;
/// The most memory kept, all orders together; past it, the orders least recently used
/// are let go of.
const MOST_KEPT_BYTES: usize = 12 << 20;
/// How long a list found too long to keep is not read whole again.
const TOO_LONG_FOR: Duration = Duration::from_secs(60);
/// How many pages of a list whose order was forgotten are read with their offsets before
/// its order is read whole again. Reading it costs about as much as a few pages' offsets
/// (each walks half the list on average): under writes faster than pages are asked for,
/// the list is then read at most a few times as slowly as with offsets alone.
const PAGES_BEFORE_READING_AGAIN: u32 = 4;
/// The most writes noted while an order is read (a second or so on a list of a million
/// rows, at a few dozen writes a second; each holds every table's versions, twice); past
/// them, the order is kept as read, and the check of the versions its pages carry tells
/// whether later writes moved it.
const MOST_SEEN_WRITES: usize = 64;
/// The most lists known, kept or not (orders are as many as the orderings and filter
/// values asked for); past it, the list least recently used is let go of.
const MOST_LISTS: usize = 1024;

/// One list's order: its table and its `ORDER BY` clause.
pub(crate) type OrderKey = (&'static str, String);

/// A list's ids in order, read at `version` of the tables the order reads.
#[derive(Debug)]
pub(crate) struct KeptOrder {
    pub version: i64,
    pub ids: Arc<OrderIds>,
    /// The tables whose versions `version` combines.
    pub tables: &'static [&'static str],
    /// The columns (table, column) whose values decide the order and which rows are in it.
    pub reads: Arc<[(&'static str, &'static str)]>,
}

impl KeptOrder {
    /// What a write of this process that wrote `written` does to this order known at
    /// `version`; `versions` are the tables' before and after it, where they were read.
    fn through(
        &self,
        version: i64,
        written: &Written,
        versions: Option<(&TableVersions, &TableVersions)>,
    ) -> Carried {
        if !self.tables.iter().any(|t| written.may_have_written(t)) {
            return Carried::Untouched;
        }
        let Some((before, after)) = versions else {
            return Carried::Lost;
        };
        if after.of(self.tables) == version {
            // Read after the write: it saw it.
            Carried::Untouched
        } else if before.of(self.tables) == version && !self.changed_by(written) {
            Carried::To(after.of(self.tables))
        } else {
            Carried::Lost
        }
    }

    /// The versions this order holds under after `writes` (in the order they ended), as
    /// far as they carry it from those it was read at.
    fn carried_through(&self, writes: &[SeenWrite]) -> i64 {
        writes.iter().fold(self.version, |version, write| {
            match self.through(version, &write.written, write.versions()) {
                Carried::To(later) => later,
                Carried::Untouched | Carried::Lost => version,
            }
        })
    }

    /// Whether `written` may have changed the order: a column it is read from set, or
    /// rows of a table it reads added or removed.
    fn changed_by(&self, written: &Written) -> bool {
        (self.reads.iter()).any(|(table, column)| written.may_have_changed(table, column))
    }

    /// The same order under other versions.
    fn at(&self, version: i64) -> KeptOrder {
        KeptOrder {
            version,
            ids: Arc::clone(&self.ids),
            tables: self.tables,
            reads: Arc::clone(&self.reads),
        }
    }
}

/// What a write does to an order.
#[derive(Debug, PartialEq)]
enum Carried {
    /// Nothing: it wrote no table the order reads, or the order was read after it.
    Untouched,
    /// The order holds under these versions, the ones the write left.
    To(i64),
    /// The order may no longer hold.
    Lost,
}

/// What is known of one list's order.
#[derive(Debug)]
enum Entry {
    Kept(Arc<KeptOrder>),
    /// Being read by one reader; the others read their page with its offset meanwhile.
    Reading,
    /// Found too long to keep, at this instant.
    TooLong(Instant),
    /// Forgotten after a write, with the pages read with their offsets since.
    Forgotten(u32),
}

/// Orders kept between reads, by list.
#[derive(Debug, Default)]
pub(crate) struct KeptOrders {
    lists: Mutex<Lists>,
}

#[derive(Debug, Default)]
struct Lists {
    by_key: HashMap<OrderKey, Slot>,
    /// The memory of the ids kept, all orders together.
    bytes: usize,
    /// The writes of this process since an order being read began to be read, in the
    /// order they ended (see [`KeptOrders::keep`]); empty while none is.
    seen_writes: Vec<SeenWrite>,
    /// The tables of the filtered lists known whose order was kept: the slots marked
    /// `filtered`, told apart here so that every filtered first page asks in constant time.
    filtered_tables: Vec<&'static str>,
    /// The uses of lists so far: a list's last one tells which to let go of first.
    uses: u64,
}

/// What is known of a list, and when it was last used.
#[derive(Debug)]
struct Slot {
    entry: Entry,
    used: u64,
    /// Whether the list is filtered and its order was kept ([`KeptOrders::note_filtered`]).
    filtered: bool,
}

/// A write of this process: what it wrote and, where they were read, the versions before
/// and after it.
#[derive(Debug)]
struct SeenWrite {
    written: Written,
    versions: Option<(TableVersions, TableVersions)>,
}

impl SeenWrite {
    fn versions(&self) -> Option<(&TableVersions, &TableVersions)> {
        self.versions
            .as_ref()
            .map(|(before, after)| (before, after))
    }
}

/// What a reader of a page does about its list's order.
#[derive(Debug)]
pub(crate) enum Found {
    /// Takes its ids from this order (if the versions its rows carry agree).
    Kept(Arc<KeptOrder>),
    /// Reads the order whole, then keeps it ([`KeptOrders::keep`] or
    /// [`KeptOrders::give_up`] end the reading).
    Read,
    /// Reads its page with its offset: another reader is reading the order, or it is too
    /// long to keep.
    Offset,
}

impl KeptOrders {
    fn lock(&self) -> MutexGuard<'_, Lists> {
        // A map of immutable orders: a panic cannot leave one half-updated.
        self.lists.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// What a reader of a page of `key` does: take the kept order, read it (the first
    /// reader to find none), or read with its offset.
    pub fn find(&self, key: &OrderKey) -> Found {
        let mut lists = self.lock();
        match lists.used(key) {
            Some(Entry::Kept(order)) => return Found::Kept(Arc::clone(order)),
            Some(Entry::Reading) => return Found::Offset,
            Some(Entry::TooLong(at)) if at.elapsed() < TOO_LONG_FOR => return Found::Offset,
            Some(Entry::Forgotten(pages)) if *pages < PAGES_BEFORE_READING_AGAIN => {
                *pages += 1;
                return Found::Offset;
            }
            Some(_) => {}
            None => lists.make_room(0),
        }
        lists.insert(key.clone(), Entry::Reading);
        Found::Read
    }

    /// Whether the order of `key` is kept: a page then takes its ids, and the list's
    /// count, from it (unless a write moved it since).
    pub fn holds(&self, key: &OrderKey) -> bool {
        self.kept(key).is_some()
    }

    /// The order of `key` if it is kept, without reading it when it is not.
    pub fn kept(&self, key: &OrderKey) -> Option<Arc<KeptOrder>> {
        match self.lock().used(key) {
            Some(Entry::Kept(order)) => Some(Arc::clone(order)),
            _ => None,
        }
    }

    /// Keeps `order`, read by the reader [`KeptOrders::find`] told to, and gives it
    /// back, or notes it too long to keep. The writes this process made while it was
    /// read carry it as they would have carried it kept (`after_write`).
    pub fn keep(&self, key: OrderKey, order: KeptOrder) -> Option<Arc<KeptOrder>> {
        let mut lists = self.lock();
        let bytes = order.ids.bytes();
        if order.ids.len() > MOST_IDS_PER_ORDER || bytes > MOST_BYTES_PER_ORDER {
            lists.insert(key, Entry::TooLong(Instant::now()));
            lists.forget_seen_writes_unless_reading();
            return None;
        }
        let version = order.carried_through(&lists.seen_writes);
        lists.remove(&key);
        lists.make_room(bytes);
        lists.bytes += bytes;
        let order = Arc::new(order.at(version));
        lists.insert(key, Entry::Kept(Arc::clone(&order)));
        lists.forget_seen_writes_unless_reading();
        Some(order)
    }

    /// Notes that the order of `key`, a filtered list, was kept ([`KeptOrders::keep`]).
    pub fn note_filtered(&self, key: &OrderKey) {
        let mut lists = self.lock();
        if let Some(slot) = lists.by_key.get_mut(key) {
            slot.filtered = true;
        }
        if !lists.filtered_tables.contains(&key.0) {
            lists.filtered_tables.push(key.0);
        }
    }

    /// Whether an order of a filtered list of `table` may be kept: if not, a page that
    /// would not read one need not look (nor make the key to look with).
    pub fn may_keep_filtered(&self, table: &str) -> bool {
        self.lock().filtered_tables.contains(&table)
    }

    /// Ends a reading that kept nothing (its statement failed), so that another reader
    /// may try; nothing once the order was kept (or found too long).
    pub fn give_up(&self, key: &OrderKey) {
        let mut lists = self.lock();
        if let Some(Entry::Reading) = lists.by_key.get(key).map(|slot| &slot.entry) {
            lists.by_key.remove(key);
        }
        lists.forget_seen_writes_unless_reading();
    }

    /// Forgets the order of `key` read at `version`: a read found the data changed since.
    pub fn forget(&self, key: &OrderKey, version: i64) {
        let mut lists = self.lock();
        let Lists { by_key, bytes, .. } = &mut *lists;
        if let Some(Slot { entry, .. }) = by_key.get_mut(key) {
            if matches!(entry, Entry::Kept(order) if order.version == version) {
                forget_entry(entry, bytes);
            }
        }
    }

    /// Whether an order is kept that reads a table `written` says was written, or one
    /// is being read (the write may carry it: [`KeptOrders::keep`]).
    pub fn any_reading(&self, written: impl Fn(&str) -> bool) -> bool {
        let lists = self.lock();
        (lists.by_key.values()).any(|slot| match &slot.entry {
            Entry::Kept(order) => order.tables.iter().any(|t| written(t)),
            Entry::Reading => true,
            Entry::TooLong(_) | Entry::Forgotten(_) => false,
        })
    }

    /// After a write of this process: every order that reads a table it wrote is
    /// forgotten, unless `versions` (before and after the write, read in its transaction)
    /// show that it was read after the write, or that the write changed nothing it is read
    /// from and found it at the versions it was read at: then it is kept under those the
    /// write left. While orders are being read, the write is noted for them.
    pub fn after_write(
        &self,
        written: &Written,
        versions: Option<(&TableVersions, &TableVersions)>,
    ) {
        let mut lists = self.lock();
        let Lists {
            by_key,
            bytes,
            seen_writes,
            ..
        } = &mut *lists;
        let mut reading = false;
        for Slot { entry, .. } in by_key.values_mut() {
            let order = match entry {
                Entry::Kept(order) => order,
                Entry::Reading => {
                    reading = true;
                    continue;
                }
                Entry::TooLong(_) | Entry::Forgotten(_) => continue,
            };
            match order.through(order.version, written, versions) {
                Carried::Untouched => {}
                Carried::To(version) => *order = Arc::new(order.at(version)),
                Carried::Lost => forget_entry(entry, bytes),
            }
        }
        if reading && seen_writes.len() < MOST_SEEN_WRITES {
            seen_writes.push(SeenWrite {
                written: written.clone(),
                versions: versions.map(|(before, after)| (before.clone(), after.clone())),
            });
        }
    }

    /// The memory of the ids kept, all orders together.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }
}

impl Lists {
    /// What is known of `key`'s list, which is being used now.
    fn used(&mut self, key: &OrderKey) -> Option<&mut Entry> {
        self.uses += 1;
        let now = self.uses;
        let slot = self.by_key.get_mut(key)?;
        slot.used = now;
        Some(&mut slot.entry)
    }

    /// Notes `entry` for `key`'s list, used now.
    fn insert(&mut self, key: OrderKey, entry: Entry) {
        self.uses += 1;
        let slot = Slot {
            entry,
            used: self.uses,
            filtered: false,
        };
        self.by_key.insert(key, slot);
    }

    /// Lets go of what is known of `key`'s list, its ids no longer counted.
    fn remove(&mut self, key: &OrderKey) -> Option<Slot> {
        let slot = self.by_key.remove(key)?;
        if let Entry::Kept(order) = &slot.entry {
            self.bytes -= order.ids.bytes();
        }
        Some(slot)
    }

    /// Lets go of the lists least recently used (none being read) until one more list,
    /// and `bytes` more ids, fit in the bounds. A few lists asked for again and again (a
    /// table's order, paged by every client) then stay kept while many others come and go.
    fn make_room(&mut self, bytes: usize) {
        let mut filtered_gone = false;
        loop {
            let too_many = self.by_key.len() >= MOST_LISTS;
            if !too_many && self.bytes + bytes <= MOST_KEPT_BYTES {
                break;
            }
            // Past the bytes alone, only a kept order frees any.
            let oldest = (self.by_key.iter())
                .filter(|(_, slot)| match slot.entry {
                    Entry::Reading => false,
                    Entry::Kept(_) => true,
                    Entry::TooLong(_) | Entry::Forgotten(_) => too_many,
                })
                .min_by_key(|(_, slot)| slot.used)
                .map(|(key, _)| key.clone());
            let Some(slot) = oldest.and_then(|key| self.remove(&key)) else {
                break;
            };
            filtered_gone |= slot.filtered;
        }
        if filtered_gone {
            let by_key = &self.by_key;
            (self.filtered_tables).retain(|table| {
                (by_key.iter()).any(|(key, slot)| slot.filtered && key.0 == *table)
            });
        }
    }

    /// The writes seen while orders were read are of no use once none is.
    fn forget_seen_writes_unless_reading(&mut self) {
        if !(self.by_key.values()).any(|slot| matches!(slot.entry, Entry::Reading)) {
            self.seen_writes.clear();
        }
    }
}

/// Replaces a kept order by a forgotten one, its ids no longer counted.
fn forget_entry(entry: &mut Entry, bytes: &mut usize) {
    if let Entry::Kept(order) = entry {
        *bytes -= order.ids.bytes();
    }
    *entry = Entry::Forgotten(0);
}

#[cfg(test)]
mod tests;
