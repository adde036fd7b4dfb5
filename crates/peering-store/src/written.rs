//! What a write transaction wrote, told from its statements as they run: the tables, those
//! whose rows were added or removed, and the columns updates set (`versions.rs` gives each
//! table written a new version as the transaction ends; `orders.rs` keeps the orders no
//! column set moved).

use std::collections::{BTreeMap, BTreeSet};

use crate::removals::removal_of;
use crate::set_columns::set_columns;
use crate::versions::{rows_key, UNTRACKED, WHOLE};

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
#[derive(Debug, Clone, Default)]
pub(crate) struct Written {
    /// The tables written, each with the columns set in it: `None` where any may have been
    /// (a statement whose `SET` clause could not be read, or rows written otherwise than
    /// by `UPDATE`).
    tables: BTreeMap<String, Option<BTreeSet<String>>>,
    /// The tables some of whose rows were added or removed (a subset of `tables`).
    rows_changed: BTreeSet<String>,
    /// The ids of the rows written, per table written: `None` where rows may have been
    /// written that no statement named by id (`kept.rs` keeps the other rows' objects).
    ids: BTreeMap<String, Option<BTreeSet<i64>>>,
    untracked: bool,
}

impl Written {
    /// Notes what the statement `text` writes, if anything.
    pub fn note(&mut self, text: &str) {
        self.note_statement(text, None);
    }

    /// Notes the statement `text`, which writes no rows but those of `ids` when it is an
    /// `UPDATE` (its table's other rows, and their objects kept between reads, stay as
    /// they were).
    pub fn note_updating(&mut self, text: &str, ids: &[i64]) {
        self.note_statement(text, Some(ids));
    }

    fn note_statement(&mut self, text: &str, ids: Option<&[i64]>) {
        match statement_target(text) {
            Target::Reads => {}
            Target::Writes(table, RowChange::Updates) => {
                self.note_update(table, set_columns(text));
                self.note_ids(table, ids);
            }
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
        self.tables.keys().map(String::as_str).chain(versions)
    }

    /// Whether a statement whose target could not be told was run.
    pub fn untracked(&self) -> bool {
        self.untracked
    }

    /// Whether `table` may have been written (an untracked write may have written any).
    pub fn may_have_written(&self, table: &str) -> bool {
        self.untracked || self.tables.contains_key(table)
    }

    /// Notes `table` as written, its rows updated in any column.
    pub fn note_table(&mut self, table: &str) {
        self.note_update(table, None);
        self.note_ids(table, None);
    }

    /// Notes `table` as written, its rows updated in `columns` (`None`: any).
    fn note_update(&mut self, table: &str, columns: Option<Vec<&str>>) {
        if !self.tables.contains_key(table) {
            self.tables.insert(table.to_owned(), Some(BTreeSet::new()));
        }
        let Some(set) = self.tables.get_mut(table) else {
            return;
        };
        match (set.as_mut(), columns) {
            (Some(set), Some(columns)) => set.extend(columns.into_iter().map(str::to_owned)),
            _ => *set = None,
        }
    }

    /// Notes the rows of `table` a statement just noted wrote: `ids`, or any (`None`).
    fn note_ids(&mut self, table: &str, ids: Option<&[i64]>) {
        let Some(written) = self.ids.get_mut(table) else {
            let ids = ids.map(|ids| ids.iter().copied().collect());
            self.ids.insert(table.to_owned(), ids);
            return;
        };
        match (written.as_mut(), ids) {
            (Some(written), Some(ids)) => written.extend(ids),
            _ => *written = None,
        }
    }

    /// The ids of the rows of `table` written, when every statement that wrote it named
    /// its rows by id, none added or removed any and nothing untracked ran; `None`
    /// otherwise (for a table not written, too: ask `may_have_written` first).
    pub fn rows_updated(&self, table: &str) -> Option<&BTreeSet<i64>> {
        if self.untracked || self.rows_changed.contains(table) {
            return None;
        }
        self.ids.get(table)?.as_ref()
    }

    /// Whether `column` of `table` may have changed: the table's rows were added or
    /// removed, or the column set (an untracked write may have changed anything).
    pub fn may_have_changed(&self, table: &str, column: &str) -> bool {
        if self.untracked || self.rows_changed.contains(table) {
            return true;
        }
        match self.tables.get(table) {
            None => false,
            Some(None) => true,
            Some(Some(set)) => set.contains(column),
        }
    }

    /// The rows of `table_versions` the transaction changes, sorted (so that concurrent
    /// writers lock them in one order): always the whole database's.
    pub fn rows(&self) -> BTreeSet<String> {
        let mut rows: BTreeSet<String> = self.tables.keys().cloned().collect();
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
    fn the_columns_an_update_set_are_known_until_rows_are_written_otherwise() {
        let mut written = Written::default();
        written.note("UPDATE a SET x = v.column2, y = v.column3 FROM ");
        written.note("UPDATE a SET z = 1 WHERE id = ");
        assert!(written.may_have_changed("a", "x") && written.may_have_changed("a", "z"));
        assert!(!written.may_have_changed("a", "w"));
        assert!(!written.may_have_changed("b", "x"), "not written");
        written.note("UPDATE b SET x = ");
        assert!(
            written.may_have_changed("b", "w"),
            "a SET clause cut by a parameter"
        );
        written.note("INSERT INTO c (x) VALUES (1)");
        assert!(written.may_have_changed("c", "w"), "rows added");
        written.note("DELETE FROM routers WHERE id = 1");
        assert!(
            written.may_have_changed("connections", "router_id"),
            "keys cleared"
        );
        assert!(!written.may_have_changed("a", "w"));
        written.note("VACUUM");
        assert!(written.may_have_changed("a", "w"), "untracked");
    }

    #[test]
    fn the_rows_written_are_known_while_every_write_of_their_table_names_them() {
        let mut written = Written::default();
        written.note_updating("UPDATE a SET x = v.column2 FROM ", &[3, 1]);
        written.note_updating("UPDATE a SET y = v.column2 FROM ", &[2]);
        let ids = |w: &Written, t: &str| {
            w.rows_updated(t)
                .map(|ids| ids.iter().copied().collect::<Vec<_>>())
        };
        assert_eq!(ids(&written, "a"), Some(vec![1, 2, 3]));
        assert_eq!(ids(&written, "b"), None, "not written");
        written.note("UPDATE a SET z = 1 WHERE name = ");
        assert_eq!(ids(&written, "a"), None, "a statement that named no rows");
        written.note_updating("UPDATE a SET x = v.column2 FROM ", &[4]);
        assert_eq!(ids(&written, "a"), None, "rows unknown stay unknown");

        // Rows named, then written otherwise: (table, the other statement, why).
        for (table, then, why) in [
            ("c", "INSERT INTO c (x) VALUES (1)", "rows added"),
            (
                "connections",
                "DELETE FROM routers WHERE id = 1",
                "keys cleared",
            ),
            ("d", "VACUUM", "untracked"),
        ] {
            let mut written = Written::default();
            written.note_updating(&format!("UPDATE {table} SET x = v.column2 FROM "), &[1]);
            written.note(then);
            assert_eq!(ids(&written, table), None, "{why}");
        }
        // What selects writes nothing, whatever ids come with it.
        let mut read = Written::default();
        read.note_updating("SELECT 1 FROM e", &[1]);
        assert!(!read.may_have_written("e"));
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
