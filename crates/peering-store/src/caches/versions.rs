//! Data versions per table. Every write transaction notes the tables its statements declare
//! they write (`written.rs`, fed by `Db::execute` and `Db::load`), and its last statement
//! gives each of them, and the whole database (`*`), a new random value in `table_versions`
//! (random, not a counter, so that a database restored from a backup does not repeat a
//! value seen before). A transaction that changed something but declared no table written
//! (none of ours, but a safe default) changes `#untracked`, which every combination
//! includes. Caches of answers key them by
//! the versions of the tables they read ([`TableVersions::of`]), so that writing sessions
//! leaves pages of autonomous systems valid. A table's rows also have a version of their
//! own (`<table>#rows`), which only statements that add or remove rows change: a list's
//! total count holds while its table is only updated ([`TableVersions::rows_of`]).
//!
//! A transaction that only moves jobs along the queue (a worker's claim, a job's end or
//! retry: updates of the `jobs` table alone) changes one row of its own instead,
//! `jobs#queue`, which the versions of the jobs table and of the whole database include.
//! Workers delivering a bulk write's webhooks run thousands of those; they then neither
//! wait for nor hold the whole database's row, which every other write changes last (on
//! PostgreSQL each such write locks it until it commits).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use rustc_hash::FxHashMap;

use crate::connection::Db;
use crate::error::Error;
use crate::sql::{Bind, Sql};
use crate::written::Written;

/// The row every write changes.
pub(crate) const WHOLE: &str = "*";
/// The row a write to a table that cannot be told changes.
pub(crate) const UNTRACKED: &str = "#untracked";
/// What ends the name of the row of a table's set of rows.
const ROWS: &str = "#rows";
/// The table of the job queue.
pub(crate) const QUEUE_TABLE: &str = "jobs";
/// The row transactions that only move jobs along the queue change (see above).
pub(crate) const QUEUE: &str = "jobs#queue";
/// How the queue's version is turned before it is added to the whole database's.
const QUEUE_MIX: u32 = 17;

/// The name of the row of `table_versions` that adding or removing rows of `table` changes.
pub(crate) fn rows_key(table: &str) -> String {
    format!("{table}{ROWS}")
}

/// Gives every table the transaction wrote, and the whole database, a new version; returns
/// it.
pub(crate) fn advance(db: &mut Db<'_>, written: &Written) -> Result<i64, Error> {
    let (high, _) = uuid::Uuid::new_v4().as_u64_pair();
    let rows = written.rows();
    let mut sql = Sql::new("INSERT INTO table_versions (name, version) VALUES ");
    for (i, name) in rows.iter().enumerate() {
        sql.push(if i == 0 { "(" } else { ", (" })
            .bind(Bind::Text(name.clone()))
            .push(", ")
            .bind(Bind::Int(high as i64))
            .push(")");
    }
    sql.push(" ON CONFLICT (name) DO UPDATE SET version = excluded.version");
    if rows.len() > 8 {
        // One prepared statement per count of rows would fill the statement cache.
        sql.uncacheable();
    }
    db.execute_unnoted(&sql)?;
    Ok(high as i64)
}

/// The versions every table has as a write transaction is about to advance them, read in
/// it: none can change before the transaction ends. On PostgreSQL the whole database's row
/// is locked first: every writer that tells what it wrote locks it first as it advances
/// versions (`advance` sorts the rows; only `#untracked` sorts before it) and holds it to
/// its end, so once it is held, every other such write has ended or waits, and a statement
/// begun after sees all that ended (a row inserted by a write that ended meanwhile too,
/// which a statement locking every row would not return). SQLite's writers take turns.
/// `None` when that row is missing (a database restored by hand): nothing can be told.
pub(crate) fn read_before_advance(db: &mut Db<'_>) -> Result<Option<TableVersions>, Error> {
    if db.backend() == crate::Backend::Postgres {
        let mut lock = Sql::new("SELECT version FROM table_versions WHERE name = ");
        lock.bind(Bind::Text(WHOLE.to_owned())).push(" FOR UPDATE");
        if db.load(&lock)?.is_empty() {
            return Ok(None);
        }
    }
    read(db).map(Some)
}

/// The whole database's version alone (two rows, where a render needs no table's).
pub(crate) fn read_whole(db: &mut Db<'_>) -> Result<i64, Error> {
    let mut sql = Sql::new("SELECT name, version FROM table_versions WHERE name IN (");
    sql.bind(Bind::Text(WHOLE.to_owned()))
        .push(", ")
        .bind(Bind::Text(QUEUE.to_owned()))
        .push(")");
    Ok(TableVersions::from_rows(db.load(&sql)?).whole())
}

/// The versions of every table written since the database was made.
pub(crate) fn read(db: &mut Db<'_>) -> Result<TableVersions, Error> {
    let rows = db.load(&Sql::new("SELECT name, version FROM table_versions"))?;
    Ok(TableVersions::from_rows(rows))
}

/// The versions of every table, unless the whole database's and the queue's are still
/// those of `previous` (no write has landed since it was read): then none. One statement
/// either way, and no row to read while nothing is written.
pub(crate) fn read_if_changed(
    db: &mut Db<'_>,
    previous: &TableVersions,
) -> Result<Option<TableVersions>, Error> {
    let mut sql = Sql::new("SELECT name, version FROM table_versions WHERE ");
    for (i, row) in [WHOLE, QUEUE].into_iter().enumerate() {
        sql.push(if i == 0 { "" } else { " OR " })
            .push("COALESCE((SELECT w.version FROM table_versions w WHERE w.name = ")
            .bind(Bind::Text(row.to_owned()))
            .push("), 0) <> ")
            .bind(Bind::Int(previous.get(row)));
    }
    let rows = db.load(&sql)?;
    Ok((!rows.is_empty()).then(|| TableVersions::from_rows(rows)))
}

/// The versions of `tables` alone (and of untracked writes, which every combination
/// includes), for a read that keys what it keeps by a few tables.
pub(crate) fn read_of(db: &mut Db<'_>, tables: &[&str]) -> Result<TableVersions, Error> {
    let mut sql = Sql::default();
    select_named(&mut sql, "tv.name, tv.version", tables);
    Ok(TableVersions::from_rows(db.load(&sql)?))
}

/// `SELECT <what> FROM table_versions tv` for the rows of `tables` (the queue's with the
/// jobs') and of untracked writes.
pub(crate) fn select_named(sql: &mut Sql, what: &str, tables: &[&str]) {
    sql.push(&format!(
        "SELECT {what} FROM table_versions tv WHERE tv.name IN ("
    ));
    let queue = tables.contains(&QUEUE_TABLE).then_some(&QUEUE);
    for (i, table) in tables.iter().chain(queue).chain([&UNTRACKED]).enumerate() {
        if i > 0 {
            sql.push(", ");
        }
        sql.bind(Bind::Text((*table).to_owned()));
    }
    sql.push(")");
}

/// A snapshot of the tables' versions. A table never written has version 0.
#[derive(Debug, Default)]
pub struct TableVersions {
    /// By table name (a request looks up a dozen).
    by_table: FxHashMap<String, i64>,
    /// Which snapshot this is, told apart from every other made in the process (0: none
    /// in particular), so that work done once per snapshot is not done again.
    serial: u64,
    /// [`TableVersions::of_list`] of each list asked for (by address and length).
    of_lists: Mutex<FxHashMap<(usize, usize), i64>>,
}

impl Clone for TableVersions {
    fn clone(&self) -> TableVersions {
        TableVersions {
            by_table: self.by_table.clone(),
            serial: self.serial,
            of_lists: Mutex::default(),
        }
    }
}

impl PartialEq for TableVersions {
    fn eq(&self, other: &TableVersions) -> bool {
        self.by_table == other.by_table
    }
}

impl TableVersions {
    fn of_map(by_table: FxHashMap<String, i64>) -> TableVersions {
        static LAST_SERIAL: AtomicU64 = AtomicU64::new(0);
        TableVersions {
            by_table,
            serial: LAST_SERIAL.fetch_add(1, Ordering::Relaxed) + 1,
            of_lists: Mutex::default(),
        }
    }

    /// This snapshot among all those the process made (0 for an empty default one, which
    /// is no snapshot in particular).
    pub(crate) fn serial(&self) -> u64 {
        self.serial
    }

    /// From `name:version` pairs separated by commas, as one statement lists them.
    pub(crate) fn from_listed(listed: &str) -> TableVersions {
        let by_table = (listed.split(','))
            .filter_map(|pair| {
                let (name, version) = pair.rsplit_once(':')?;
                Some((name.to_owned(), version.parse().ok()?))
            })
            .collect();
        TableVersions::of_map(by_table)
    }

    /// From (table, version) pairs, for tools and tests that key data by them.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, i64)>) -> TableVersions {
        let by_table = (pairs.into_iter())
            .map(|(name, version)| (name.to_owned(), version))
            .collect();
        TableVersions::of_map(by_table)
    }

    /// From rows of (name, version).
    fn from_rows(rows: Vec<crate::sql::DbRow>) -> TableVersions {
        let by_table = rows
            .into_iter()
            .filter_map(|mut row| {
                let version = row.int(1);
                row.take(0).into_text().map(|name| (name, version))
            })
            .collect();
        TableVersions::of_map(by_table)
    }

    fn get(&self, name: &str) -> i64 {
        self.by_table.get(name).copied().unwrap_or_default()
    }

    /// These versions after a transaction that wrote `written` advanced them to `version`.
    pub(crate) fn advanced(&self, written: &Written, version: i64) -> TableVersions {
        let mut by_table = self.by_table.clone();
        by_table.extend(written.rows().into_iter().map(|row| (row, version)));
        TableVersions::of_map(by_table)
    }

    /// The version of the whole database: it changes with every write (its row's, or the
    /// queue's: both are random).
    pub fn whole(&self) -> i64 {
        self.get(WHOLE)
            .wrapping_add(self.get(QUEUE).rotate_left(QUEUE_MIX))
    }

    /// One value for the set of rows of `table` (and untracked writes): equal values mean
    /// that no row was added to it nor removed from it in between, so that the count of
    /// its whole list holds.
    pub fn rows_of(&self, table: &str) -> i64 {
        self.of(&[&rows_key(table)])
    }

    /// [`TableVersions::of`] a list made once for the process (a resource's tables),
    /// worked out once per snapshot: the key of an answer asks for its thirty tables with
    /// every request, and many requests share a snapshot between two writes.
    pub fn of_list(&self, tables: &'static [&'static str]) -> i64 {
        let list = (tables.as_ptr() as usize, tables.len());
        let lock = || self.of_lists.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(&version) = lock().get(&list) {
            return version;
        }
        let version = self.of(tables);
        lock().insert(list, version);
        version
    }

    /// One value for the versions of `tables` (and of untracked writes): equal values mean
    /// that none of them was written in between.
    pub fn of(&self, tables: &[&str]) -> i64 {
        // Each word (a table's name, then its version) mixed in by a bijection of the
        // state: a list of the same tables whose versions differ gives another value but
        // by chance (2^-64, the versions being random), at a few instructions a table. A
        // kept detail asks for its dozen tables one at a time; SipHash took 3% of its time.
        let mut state = mix(0, self.get(UNTRACKED) as u64);
        for table in tables {
            state = mix(state, name_word(table));
            state = mix(state, self.get(table) as u64);
            if *table == QUEUE_TABLE {
                state = mix(state, self.get(QUEUE) as u64);
            }
        }
        state as i64
    }
}

/// `state` with `word` mixed in: MurmurHash3's 64-bit finaliser over their XOR, which spreads
/// every bit of the input over the whole result and is a bijection.
fn mix(state: u64, word: u64) -> u64 {
    let mut k = state ^ word;
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

/// A table's name as one word.
fn name_word(name: &str) -> u64 {
    use std::hash::Hasher;
    let mut hasher = rustc_hash::FxHasher::default();
    hasher.write(name.as_bytes());
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_worked_out_once_per_snapshot_is_its_tables_version() {
        static LIST: [&str; 2] = ["a", "b"];
        let before = TableVersions::from_listed("a:1,b:2,*:3");
        assert_eq!(before.of_list(&LIST), before.of(&LIST));
        assert_eq!(before.of_list(&LIST), before.of(&LIST), "asked again");
        assert_eq!(
            before.of_list(&LIST[..1]),
            before.of(&["a"]),
            "a shorter list"
        );
        let after = TableVersions::from_listed("a:1,b:4,*:3");
        assert_ne!(after.of_list(&LIST), before.of_list(&LIST));
        assert_eq!(after.clone().of_list(&LIST), after.of(&LIST));
    }

    #[test]
    fn versions_advanced_by_a_write_change_its_rows_alone() {
        let before = TableVersions::from_listed("a:1,b:2,*:3");
        let mut written = Written::default();
        written.note(&crate::written::Writes::updates("b").setting(&["x"]));
        let after = before.advanced(&written, 9);
        assert_eq!(after.of(&["a"]), before.of(&["a"]));
        assert_eq!((after.get("b"), after.whole()), (9, 9));
        assert_eq!(after.rows_of("b"), before.rows_of("b"));
    }

    #[test]
    fn a_combination_changes_with_its_tables_only() {
        let versions = |pairs: &[(&str, i64)]| TableVersions::from_pairs(pairs.iter().copied());
        let before = versions(&[("a", 1), ("b", 2), ("*", 3)]);
        let b_written = versions(&[("a", 1), ("b", 5), ("*", 6)]);
        let untracked = versions(&[("a", 1), ("b", 2), ("*", 7), (UNTRACKED, 8)]);
        assert_eq!(before.of(&["a"]), b_written.of(&["a"]));
        assert_ne!(before.of(&["a", "b"]), b_written.of(&["a", "b"]));
        assert_ne!(before.of(&["a"]), untracked.of(&["a"]));
        assert_ne!(before.whole(), b_written.whole());
        assert_eq!(
            TableVersions::default().of(&["a"]),
            TableVersions::default().of(&["a"])
        );
    }

    #[test]
    fn a_set_of_rows_changes_with_rows_added_or_removed_only() {
        let versions = |pairs: &[(&str, i64)]| TableVersions::from_pairs(pairs.iter().copied());
        let before = versions(&[("a", 1), ("a#rows", 2)]);
        let updated = versions(&[("a", 3), ("a#rows", 2)]);
        let inserted = versions(&[("a", 4), ("a#rows", 5)]);
        let untracked = versions(&[("a", 1), ("a#rows", 2), (UNTRACKED, 6)]);
        assert_eq!(before.rows_of("a"), updated.rows_of("a"));
        assert_ne!(before.rows_of("a"), inserted.rows_of("a"));
        assert_ne!(before.rows_of("a"), untracked.rows_of("a"));
        assert_ne!(before.rows_of("a"), before.rows_of("b"));
    }
}

#[cfg(test)]
mod read_again {
    use std::sync::Arc;

    use crate::testing::TestStore;

    #[test]
    fn versions_read_again_are_the_same_set_until_a_write_lands() {
        let store = TestStore::new(2);
        let mut previous = store.table_versions_since(None).unwrap();
        for name in ["first", "second"] {
            let again = store.table_versions_since(Some(&previous)).unwrap();
            assert!(Arc::ptr_eq(&previous, &again), "nothing written since");
            store
                .users()
                .create_user(name, "a long password", false)
                .unwrap();
            let after = store.table_versions_since(Some(&previous)).unwrap();
            assert_ne!(after.whole(), previous.whole(), "{name} written");
            assert_ne!(after.of(&["users"]), previous.of(&["users"]));
            let fresh = store.table_versions().unwrap();
            assert_eq!(after.of(&["users"]), fresh.of(&["users"]));
            assert_eq!(after.whole(), fresh.whole());
            previous = after;
        }
    }

    #[test]
    fn claiming_a_job_changes_the_jobs_and_the_whole_but_not_the_rest() {
        let store = TestStore::new(2);
        let job = crate::NewJob {
            name: "a.job".into(),
            object: None,
            user_id: None,
            params: serde_json::json!({}),
        };
        store.jobs().enqueue(&job).unwrap();
        let before = store.table_versions_since(None).unwrap();
        let lease = std::time::Duration::from_secs(60);
        assert!(store.jobs().claim("w", lease).unwrap().is_some());
        let after = store.table_versions_since(Some(&before)).unwrap();
        assert!(!Arc::ptr_eq(&before, &after), "the claim is seen");
        assert_ne!(after.whole(), before.whole());
        assert_ne!(after.of(&["jobs", "users"]), before.of(&["jobs", "users"]));
        assert_eq!(after.of(&["users"]), before.of(&["users"]));
        assert_eq!(after.rows_of("jobs"), before.rows_of("jobs"));
        assert_eq!(after.get(super::WHOLE), before.get(super::WHOLE));
        assert_eq!(store.data_version().unwrap(), after.whole());
    }
}
