//! Data versions per table. Every write transaction notes the tables its statements write
//! (`Written`, fed by `Db::execute` and `Db::load`), and its last statement gives each of
//! them, and the whole database (`*`), a new random value in `table_versions` (random, not
//! a counter, so that a database restored from a backup does not repeat a value seen
//! before). A statement whose target cannot be told (none of ours, but a safe default)
//! changes `#untracked`, which every combination includes. Caches of answers key them by
//! the versions of the tables they read ([`TableVersions::of`]), so that writing sessions
//! leaves pages of autonomous systems valid. A table's rows also have a version of their
//! own (`<table>#rows`), which only statements that add or remove rows change: a list's
//! total count holds while its table is only updated ([`TableVersions::rows_of`]).

use std::collections::{BTreeSet, HashMap};
use std::hash::{Hash, Hasher};

use crate::connection::Db;
use crate::error::Error;
use crate::removals::removal_of;
use crate::sql::{Bind, Sql};

/// The row every write changes.
const WHOLE: &str = "*";
/// The row a write to a table that cannot be told changes.
const UNTRACKED: &str = "#untracked";
/// What ends the name of the row of a table's set of rows.
const ROWS: &str = "#rows";

/// What a statement does to the rows of the table it writes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum RowChange {
    Updates,
    Adds,
    /// Removes rows, and with them, through the database's `ON DELETE CASCADE`, the rows
    /// of other tables that no statement names.
    Removes,
}

/// The tables a transaction has written so far.
#[derive(Debug, Default)]
pub(crate) struct Written {
    tables: BTreeSet<String>,
    /// The tables some of whose rows were added or removed (a subset of `tables`).
    rows_changed: BTreeSet<String>,
    untracked: bool,
}

impl Written {
    /// Notes what the statement `text` writes, if anything.
    pub fn note(&mut self, text: &str) {
        match statement_target(text) {
            Target::Reads => {}
            Target::Writes(table, RowChange::Updates) => self.note_table(table),
            Target::Writes(table, RowChange::Adds) => self.note_rows_changed(table),
            Target::Writes(table, RowChange::Removes) => {
                // The database deletes or updates rows no statement names: those of the
                // tables it empties with `table` and the keys it clears in others.
                self.note_rows_changed(table);
                let removal = removal_of(table);
                for &removed in &removal.deleted_with {
                    self.note_rows_changed(removed);
                }
                for &cleared in &removal.keys_cleared {
                    self.note_table(cleared);
                }
            }
            Target::Unknown => self.untracked = true,
        }
    }

    /// Notes `table` as written, its rows added or removed.
    pub fn note_rows_changed(&mut self, table: &str) {
        self.note_table(table);
        if !self.rows_changed.contains(table) {
            self.rows_changed.insert(table.to_owned());
        }
    }

    /// The tables written, with `table_versions` when there are any (which the write's
    /// end changes).
    pub fn tables(&self) -> impl Iterator<Item = &str> {
        let versions = (!self.tables.is_empty()).then_some("table_versions");
        self.tables.iter().map(String::as_str).chain(versions)
    }

    /// Whether `table` may have been written (an untracked write may have written any).
    pub fn may_have_written(&self, table: &str) -> bool {
        self.untracked || self.tables.contains(table)
    }

    /// Notes `table` as written, its rows updated.
    pub fn note_table(&mut self, table: &str) {
        if !self.tables.contains(table) {
            self.tables.insert(table.to_owned());
        }
    }

    /// The rows of `table_versions` the transaction changes, sorted (so that concurrent
    /// writers lock them in one order): always the whole database's.
    fn rows(&self) -> BTreeSet<String> {
        let mut rows: BTreeSet<String> = self.tables.iter().cloned().collect();
        rows.extend(self.rows_changed.iter().map(|table| rows_key(table)));
        rows.insert(WHOLE.to_owned());
        // A transaction that said it changed something but wrote through no statement
        // we saw is counted as untracked, too.
        if self.untracked || self.tables.is_empty() {
            rows.insert(UNTRACKED.to_owned());
        }
        rows
    }
}

#[derive(Debug, PartialEq)]
enum Target<'a> {
    Reads,
    /// A table written, and what happens to its rows.
    Writes(&'a str, RowChange),
    Unknown,
}

/// The name of the row of `table_versions` that adding or removing rows of `table` changes.
fn rows_key(table: &str) -> String {
    format!("{table}{ROWS}")
}

/// What a statement writes, told by its first words (`INSERT INTO t`, `UPDATE t`,
/// `DELETE FROM t`); a `SELECT` writes nothing; anything else is unknown.
fn statement_target(text: &str) -> Target<'_> {
    let mut words = text
        .split(|c: char| c.is_whitespace() || c == '(')
        .filter(|w| !w.is_empty());
    let verb = words.next().unwrap_or_default();
    let table = if verb.eq_ignore_ascii_case("SELECT") {
        return Target::Reads;
    } else if verb.eq_ignore_ascii_case("UPDATE") {
        words.next()
    } else if verb.eq_ignore_ascii_case("INSERT") || verb.eq_ignore_ascii_case("DELETE") {
        let preposition = words.next().unwrap_or_default();
        let expected = if verb.eq_ignore_ascii_case("INSERT") {
            "INTO"
        } else {
            "FROM"
        };
        preposition
            .eq_ignore_ascii_case(expected)
            .then(|| words.next())
            .flatten()
    } else {
        None
    };
    match table {
        Some(name) if is_table_name(name) => Target::Writes(
            name,
            if verb.eq_ignore_ascii_case("UPDATE") {
                RowChange::Updates
            } else if verb.eq_ignore_ascii_case("INSERT") {
                RowChange::Adds
            } else {
                RowChange::Removes
            },
        ),
        _ => Target::Unknown,
    }
}

/// Whether a word of a statement is a table's name: our tables are named in lower case
/// (SQL's keywords, in upper case, and subqueries are not).
pub(crate) fn is_table_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// Gives every table the transaction wrote, and the whole database, a new version.
pub(crate) fn advance(db: &mut Db<'_>, written: &Written) -> Result<(), Error> {
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
    Ok(())
}

/// The whole database's version alone (one row, where a render needs no table's).
pub(crate) fn read_whole(db: &mut Db<'_>) -> Result<i64, Error> {
    let mut sql = Sql::new("SELECT version FROM table_versions WHERE name = ");
    sql.bind(Bind::Text(WHOLE.to_owned()));
    Ok(db.scalar(&sql)?.unwrap_or_default())
}

/// The versions of every table written since the database was made.
pub(crate) fn read(db: &mut Db<'_>) -> Result<TableVersions, Error> {
    let rows = db.load(&Sql::new("SELECT name, version FROM table_versions"))?;
    Ok(TableVersions::from_rows(rows))
}

/// The versions of every table, unless the whole database's is still `whole` (no write
/// has landed since the versions that carried it were read): then none. One statement
/// either way, and no row to read while nothing is written.
pub(crate) fn read_if_changed(db: &mut Db<'_>, whole: i64) -> Result<Option<TableVersions>, Error> {
    let mut sql = Sql::new(
        "SELECT name, version FROM table_versions \
         WHERE COALESCE((SELECT w.version FROM table_versions w WHERE w.name = ",
    );
    sql.bind(Bind::Text(WHOLE.to_owned()))
        .push("), 0) <> ")
        .bind(Bind::Int(whole));
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

/// `SELECT <what> FROM table_versions tv` for the rows of `tables` and of untracked writes.
pub(crate) fn select_named(sql: &mut Sql, what: &str, tables: &[&str]) {
    sql.push(&format!(
        "SELECT {what} FROM table_versions tv WHERE tv.name IN ("
    ));
    for (i, table) in tables.iter().chain([&UNTRACKED]).enumerate() {
        if i > 0 {
            sql.push(", ");
        }
        sql.bind(Bind::Text((*table).to_owned()));
    }
    sql.push(")");
}

/// A snapshot of the tables' versions. A table never written has version 0.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TableVersions {
    by_table: HashMap<String, i64>,
}

impl TableVersions {
    /// From `name:version` pairs separated by commas, as one statement lists them.
    pub(crate) fn from_listed(listed: &str) -> TableVersions {
        let by_table = (listed.split(','))
            .filter_map(|pair| {
                let (name, version) = pair.rsplit_once(':')?;
                Some((name.to_owned(), version.parse().ok()?))
            })
            .collect();
        TableVersions { by_table }
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
        TableVersions { by_table }
    }

    fn get(&self, name: &str) -> i64 {
        self.by_table.get(name).copied().unwrap_or_default()
    }

    /// The version of the whole database: it changes with every write.
    pub fn whole(&self) -> i64 {
        self.get(WHOLE)
    }

    /// One value for the set of rows of `table` (and untracked writes): equal values mean
    /// that no row was added to it nor removed from it in between, so that the count of
    /// its whole list holds.
    pub fn rows_of(&self, table: &str) -> i64 {
        self.of(&[&rows_key(table)])
    }

    /// One value for the versions of `tables` (and of untracked writes): equal values mean
    /// that none of them was written in between.
    pub fn of(&self, tables: &[&str]) -> i64 {
        // SipHash with fixed keys: stable within the process, and well mixed, so that two
        // different sets of random versions do not meet.
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.get(UNTRACKED).hash(&mut hasher);
        for table in tables {
            table.hash(&mut hasher);
            self.get(table).hash(&mut hasher);
        }
        hasher.finish() as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_are_told_by_their_first_words() {
        assert_eq!(statement_target("SELECT 1 FROM t"), Target::Reads);
        assert_eq!(
            statement_target("INSERT INTO tagged_items (a) VALUES (?)"),
            Target::Writes("tagged_items", RowChange::Adds)
        );
        assert_eq!(
            statement_target("insert into t(a) values (1)"),
            Target::Writes("t", RowChange::Adds)
        );
        assert_eq!(
            statement_target("UPDATE autonomous_systems SET name = ?"),
            Target::Writes("autonomous_systems", RowChange::Updates)
        );
        assert_eq!(
            statement_target("DELETE FROM jobs WHERE id = ?"),
            Target::Writes("jobs", RowChange::Removes)
        );
        assert_eq!(
            statement_target("WITH x AS (SELECT 1) DELETE FROM t"),
            Target::Unknown
        );
        assert_eq!(statement_target("DELETE t"), Target::Unknown);
        assert_eq!(statement_target("UPDATE \"t\" SET a = 1"), Target::Unknown);
        assert_eq!(statement_target("VACUUM"), Target::Unknown);
        assert_eq!(statement_target(""), Target::Unknown);
    }

    #[test]
    fn every_write_changes_the_whole_and_unknown_writes_change_everything() {
        let mut written = Written::default();
        written.note("UPDATE b SET x = 1");
        written.note("SELECT 1");
        written.note("INSERT INTO a (x) VALUES (1)");
        assert_eq!(
            written.rows().into_iter().collect::<Vec<_>>(),
            ["*", "a", "a#rows", "b"],
            "an update leaves the set of rows of b as it was"
        );
        written.note("DELETE FROM b WHERE x = 1");
        assert!(written.rows().contains("b#rows"));
        written.note("VACUUM");
        assert!(written.rows().contains(UNTRACKED));
        assert!(Written::default().rows().contains(UNTRACKED));
    }

    #[test]
    fn a_combination_changes_with_its_tables_only() {
        let versions = |pairs: &[(&str, i64)]| TableVersions {
            by_table: pairs.iter().map(|(t, v)| ((*t).to_owned(), *v)).collect(),
        };
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
        let versions = |pairs: &[(&str, i64)]| TableVersions {
            by_table: pairs.iter().map(|(t, v)| ((*t).to_owned(), *v)).collect(),
        };
        let before = versions(&[("a", 1), ("a#rows", 2)]);
        let updated = versions(&[("a", 3), ("a#rows", 2)]);
        let inserted = versions(&[("a", 4), ("a#rows", 5)]);
        let untracked = versions(&[("a", 1), ("a#rows", 2), (UNTRACKED, 6)]);
        assert_eq!(before.rows_of("a"), updated.rows_of("a"));
        assert_ne!(before.rows_of("a"), inserted.rows_of("a"));
        assert_ne!(before.rows_of("a"), untracked.rows_of("a"));
        assert_ne!(before.rows_of("a"), before.rows_of("b"));
    }

    #[test]
    fn removing_rows_changes_the_sets_of_rows_the_database_deletes_with_them() {
        // An organisation's networks go with it, and their contacts with them.
        let mut written = Written::default();
        written.note("DELETE FROM peeringdb_organizations WHERE id = 1");
        let rows = written.rows();
        for table in ["peeringdb_networks", "peeringdb_network_contacts"] {
            assert!(rows.contains(&rows_key(table)), "{table}: {rows:?}");
            assert!(rows.contains(table), "{table}: {rows:?}");
        }
        let mut updated = Written::default();
        updated.note("UPDATE peeringdb_organizations SET name = 'x'");
        assert!(!updated.rows().contains(&rows_key("peeringdb_networks")));
    }

    #[test]
    fn deleting_a_router_clears_the_keys_of_its_connections() {
        use peering_domain::resources::CONNECTION;
        let mut written = Written::default();
        written.note("DELETE FROM routers WHERE id = 1");
        assert!(written.rows().contains(CONNECTION.table));
    }
}

#[cfg(test)]
mod read_again {
    use std::sync::Arc;

    use crate::testing::TestDatabase;
    use crate::Store;

    #[test]
    fn versions_read_again_are_the_same_set_until_a_write_lands() {
        let db = TestDatabase::new();
        let store = Store::open(&db.url, 2).unwrap();
        let mut previous = store.table_versions_since(None).unwrap();
        for name in ["first", "second"] {
            let again = store.table_versions_since(Some(&previous)).unwrap();
            assert!(Arc::ptr_eq(&previous, &again), "nothing written since");
            store.create_user(name, "a long password", false).unwrap();
            let after = store.table_versions_since(Some(&previous)).unwrap();
            assert_ne!(after.whole(), previous.whole(), "{name} written");
            assert_ne!(after.of(&["users"]), previous.of(&["users"]));
            let fresh = store.table_versions().unwrap();
            assert_eq!(after.of(&["users"]), fresh.of(&["users"]));
            assert_eq!(after.whole(), fresh.whole());
            previous = after;
        }
    }
}
