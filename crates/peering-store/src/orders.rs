//! Lists' orders kept between reads. A page of a list neither filtered nor searched is a
//! slice of one sequence of ids, the table's rows in the list's order; read with `LIMIT …
//! OFFSET …`, every page walks the rows before it again (on PostgreSQL, most of a deep
//! page's time). The sequence is kept here, per table and order, under the versions of the
//! tables the order reads (`query/ordered.rs`), and a page takes its ids from it.
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
/// The most memory kept, all orders together; past it, everything kept is dropped and
/// kept anew from the next reads.
const MOST_KEPT_BYTES: usize = 12 << 20;
/// How long a list found too long to keep is not read whole again.
const TOO_LONG_FOR: Duration = Duration::from_secs(60);
/// How many pages of a list whose order was forgotten are read with their offsets before
/// its order is read whole again. Reading it costs about as much as a few pages' offsets
/// (each walks half the list on average): under writes faster than pages are asked for,
/// the list is then read at most a few times as slowly as with offsets alone.
const PAGES_BEFORE_READING_AGAIN: u32 = 4;
/// The most lists known, kept or not (orders are as many as the orderings asked for).
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
    /// The columns (table, column) whose values decide the order.
    pub reads: Arc<[(&'static str, &'static str)]>,
}

impl KeptOrder {
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
    by_key: HashMap<OrderKey, Entry>,
    /// The memory of the ids kept, all orders together.
    bytes: usize,
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
        let full = lists.by_key.len() >= MOST_LISTS;
        match lists.by_key.get_mut(key) {
            Some(Entry::Kept(order)) => return Found::Kept(Arc::clone(order)),
            Some(Entry::Reading) => return Found::Offset,
            Some(Entry::TooLong(at)) if at.elapsed() < TOO_LONG_FOR => return Found::Offset,
            Some(Entry::Forgotten(pages)) if *pages < PAGES_BEFORE_READING_AGAIN => {
                *pages += 1;
                return Found::Offset;
            }
            Some(_) => {}
            None if full => lists.clear(),
            None => {}
        }
        lists.by_key.insert(key.clone(), Entry::Reading);
        Found::Read
    }

    /// Keeps `order`, read by the reader [`KeptOrders::find`] told to, and gives it
    /// back, or notes it too long to keep.
    pub fn keep(&self, key: OrderKey, order: KeptOrder) -> Option<Arc<KeptOrder>> {
        let mut lists = self.lock();
        let bytes = order.ids.bytes();
        if order.ids.len() > MOST_IDS_PER_ORDER || bytes > MOST_BYTES_PER_ORDER {
            lists.by_key.insert(key, Entry::TooLong(Instant::now()));
            return None;
        }
        if lists.bytes + bytes > MOST_KEPT_BYTES {
            lists.clear();
        }
        lists.bytes += bytes;
        let order = Arc::new(order);
        let replaced = lists.by_key.insert(key, Entry::Kept(Arc::clone(&order)));
        if let Some(Entry::Kept(old)) = replaced {
            lists.bytes -= old.ids.bytes();
        }
        Some(order)
    }

    /// Ends a reading that kept nothing (its statement failed), so that another reader
    /// may try; nothing once the order was kept (or found too long).
    pub fn give_up(&self, key: &OrderKey) {
        let mut lists = self.lock();
        if let Some(Entry::Reading) = lists.by_key.get(key) {
            lists.by_key.remove(key);
        }
    }

    /// Forgets the order of `key` read at `version`: a read found the data changed since.
    pub fn forget(&self, key: &OrderKey, version: i64) {
        let mut lists = self.lock();
        let Lists { by_key, bytes } = &mut *lists;
        if let Some(entry) = by_key.get_mut(key) {
            if matches!(entry, Entry::Kept(order) if order.version == version) {
                forget_entry(entry, bytes);
            }
        }
    }

    /// Whether an order is kept that reads a table `written` says was written.
    pub fn any_reading(&self, written: impl Fn(&str) -> bool) -> bool {
        let lists = self.lock();
        (lists.by_key.values()).any(
            |entry| matches!(entry, Entry::Kept(order) if order.tables.iter().any(|t| written(t))),
        )
    }

    /// After a write of this process: every order that reads a table it wrote is
    /// forgotten, unless the write changed nothing it is read from and `versions` (before
    /// and after the write, read in its transaction) show that it was read at the versions
    /// the write found: then it is kept under those the write left.
    pub fn after_write(
        &self,
        written: &Written,
        versions: Option<(&TableVersions, &TableVersions)>,
    ) {
        let mut lists = self.lock();
        let Lists { by_key, bytes } = &mut *lists;
        for entry in by_key.values_mut() {
            let Entry::Kept(order) = entry else {
                continue;
            };
            if !order.tables.iter().any(|t| written.may_have_written(t)) {
                continue;
            }
            match versions {
                Some((before, after))
                    if !order.changed_by(written) && before.of(order.tables) == order.version =>
                {
                    *order = Arc::new(order.at(after.of(order.tables)));
                }
                _ => forget_entry(entry, bytes),
            }
        }
    }

    /// The memory of the ids kept, all orders together.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }
}

impl Lists {
    fn clear(&mut self) {
        self.by_key.clear();
        self.bytes = 0;
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
mod tests {
    use super::*;

    fn key(order: &str) -> OrderKey {
        ("autonomous_systems", order.to_owned())
    }

    fn order(version: i64, ids: Vec<i64>) -> KeptOrder {
        KeptOrder {
            version,
            ids: Arc::new(ids.into_iter().collect()),
            tables: &["autonomous_systems", "tags"],
            reads: Arc::new([("autonomous_systems", "asn")]),
        }
    }

    /// What a transaction of `statements` wrote.
    fn written(statements: &[&str]) -> Written {
        let mut written = Written::default();
        for statement in statements {
            written.note(statement);
        }
        written
    }

    fn kept_version(orders: &KeptOrders, key: &OrderKey) -> Option<i64> {
        match orders.find(key) {
            Found::Kept(order) => Some(order.version),
            _ => None,
        }
    }

    #[test]
    fn one_reader_reads_a_missing_order_while_the_others_use_offsets() {
        let orders = KeptOrders::default();
        assert!(matches!(orders.find(&key("a")), Found::Read));
        assert!(matches!(orders.find(&key("a")), Found::Offset));
        // Another order of the same table is its own.
        assert!(matches!(orders.find(&key("b")), Found::Read));
        orders.keep(key("a"), order(7, vec![3, 1, 2]));
        // The reader's giving up after keeping changes nothing.
        orders.give_up(&key("a"));
        assert_eq!(kept_version(&orders, &key("a")), Some(7));
        orders.give_up(&key("b"));
        assert!(matches!(orders.find(&key("b")), Found::Read));
    }

    #[test]
    fn an_order_is_forgotten_at_its_version_or_when_a_table_it_reads_is_written() {
        let orders = KeptOrders::default();
        orders.keep(key("a"), order(7, vec![1, 2]));
        orders.forget(&key("a"), 6);
        assert_eq!(kept_version(&orders, &key("a")), Some(7));
        orders.forget(&key("a"), 7);
        assert_eq!(orders.bytes(), 0);
        read_after_offsets(&orders, &key("a"));
        orders.keep(key("a"), order(8, vec![1, 2]));
        orders.after_write(&written(&["UPDATE routers SET name = $1"]), None);
        assert_eq!(kept_version(&orders, &key("a")), Some(8));
        orders.after_write(&written(&["UPDATE tags SET name = $1"]), None);
        assert_eq!(orders.bytes(), 0);
        read_after_offsets(&orders, &key("a"));
    }

    #[test]
    fn a_write_that_changed_nothing_an_order_reads_keeps_it_at_the_versions_it_left() {
        let orders = KeptOrders::default();
        let tables = order(0, vec![]).tables;
        let versions = |a: i64, t: i64| {
            TableVersions::from_listed(&format!("autonomous_systems:{a},tags:{t}"))
        };
        let (before, after) = (versions(1, 2), versions(3, 2));
        // What the store's update notes (the text before its rows' parameters).
        let comments = written(&["UPDATE autonomous_systems SET comments = v.column2 FROM "]);
        let kept_at = |orders: &KeptOrders| kept_version(orders, &key("a"));

        orders.keep(key("a"), order(before.of(tables), vec![2, 1]));
        orders.after_write(&comments, Some((&before, &after)));
        assert_eq!(kept_at(&orders), Some(after.of(tables)));
        assert_eq!(orders.bytes(), 2 * 4);

        // Read at other versions than the write found: another write came between.
        let other = versions(5, 2);
        orders.after_write(&comments, Some((&other, &after)));
        assert_eq!(orders.bytes(), 0);

        // A column the order reads set, rows added, an update cut by a parameter, an
        // untracked statement, no versions.
        for (statements, versions) in [
            (
                &["UPDATE autonomous_systems SET comments = v.column2, asn = v.column3 FROM "][..],
                Some((&before, &after)),
            ),
            (
                &["INSERT INTO autonomous_systems (asn) VALUES ($1)"],
                Some((&before, &after)),
            ),
            (
                &["UPDATE autonomous_systems SET comments = "],
                Some((&before, &after)),
            ),
            (&["VACUUM"], Some((&before, &after))),
            (
                &["UPDATE autonomous_systems SET comments = v.column2 FROM "],
                None,
            ),
        ] {
            orders.keep(key("a"), order(before.of(tables), vec![2, 1]));
            orders.after_write(&written(statements), versions);
            assert_eq!(orders.bytes(), 0, "{statements:?}");
            assert_eq!(kept_at(&orders), None, "{statements:?}");
        }
    }

    /// A forgotten order is read again after a few pages read with their offsets.
    fn read_after_offsets(orders: &KeptOrders, key: &OrderKey) {
        for _ in 0..PAGES_BEFORE_READING_AGAIN {
            assert!(matches!(orders.find(key), Found::Offset));
        }
        assert!(matches!(orders.find(key), Found::Read));
        assert!(matches!(orders.find(key), Found::Offset));
    }

    #[test]
    fn the_lists_known_are_bounded() {
        let orders = KeptOrders::default();
        orders.keep(key("kept"), order(1, vec![1, 2, 3]));
        for n in 0..MOST_LISTS {
            orders.find(&key(&n.to_string()));
        }
        // The next list found drops everything known, the kept orders too.
        assert!(matches!(orders.find(&key("new")), Found::Read));
        assert_eq!(orders.bytes(), 0);
        assert!(matches!(orders.find(&key("kept")), Found::Read));
    }

    #[test]
    fn a_list_too_long_is_not_kept_nor_read_whole_again_soon() {
        let wide = i64::from(u32::MAX) + 1;
        for too_long in [
            vec![0; MOST_IDS_PER_ORDER + 1],
            vec![wide; MOST_BYTES_PER_ORDER / 8 + 1],
        ] {
            let orders = KeptOrders::default();
            assert!(matches!(orders.find(&key("a")), Found::Read));
            orders.keep(key("a"), order(1, too_long));
            assert_eq!(orders.bytes(), 0);
            assert!(matches!(orders.find(&key("a")), Found::Offset));
        }
    }

    #[test]
    fn past_the_most_kept_everything_is_dropped_and_kept_anew() {
        let orders = KeptOrders::default();
        // Four bytes an id: three such orders fill what is kept.
        let many = MOST_KEPT_BYTES / 3 / 4;
        for name in ["a", "b", "c"] {
            orders.keep(key(name), order(1, vec![0; many]));
        }
        assert_eq!(orders.bytes(), MOST_KEPT_BYTES);
        orders.keep(key("d"), order(1, vec![0; many]));
        assert_eq!(orders.bytes(), many * 4);
        assert_eq!(kept_version(&orders, &key("a")), None);
        assert_eq!(kept_version(&orders, &key("d")), Some(1));
        // Replacing an order counts its ids once.
        orders.keep(key("d"), order(2, vec![0; 10]));
        assert_eq!(orders.bytes(), 10 * 4);
    }
}
