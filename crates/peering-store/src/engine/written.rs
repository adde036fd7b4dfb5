//! What a write transaction wrote, told by its statements as they run: each statement that
//! writes declares it as it is built ([`Writes`]: the table, whether rows are added,
//! removed or updated, and for updates the columns set and the rows named), and the
//! transaction gathers the declarations (`versions.rs` gives each table written a new
//! version as the transaction ends; `orders.rs` keeps the orders no column set moved;
//! `kept.rs` keeps the objects of the rows no update named).

use std::collections::{BTreeMap, BTreeSet};

use crate::removals::removal_of;
use crate::versions::{rows_key, QUEUE, QUEUE_TABLE, UNTRACKED, WHOLE};

/// What a statement writes, declared by the code that builds it (`Sql::writing`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Writes {
    table: &'static str,
    change: RowChange,
}

/// What a statement does to the rows of the table it writes.
#[derive(Debug, Clone, PartialEq)]
enum RowChange {
    /// Updates rows: the columns set (`None`: any may be) of the rows named by id
    /// (`None`: any may be).
    Updates {
        columns: Option<Vec<&'static str>>,
        ids: Option<Vec<i64>>,
    },
    /// Adds rows (an insert that updates the rows whose keys it meets counts as one).
    Adds,
    /// Removes rows, and with them, through the database's `ON DELETE CASCADE`, the rows
    /// of other tables that no statement names.
    Removes,
}

impl Writes {
    /// A statement adding rows to `table`.
    pub fn adds(table: &'static str) -> Writes {
        Writes {
            table,
            change: RowChange::Adds,
        }
    }

    /// A statement removing rows of `table`.
    pub fn removes(table: &'static str) -> Writes {
        Writes {
            table,
            change: RowChange::Removes,
        }
    }

    /// A statement updating rows of `table`: any column of any row, unless narrowed by
    /// [`Writes::setting`] and [`Writes::of_rows`].
    pub fn updates(table: &'static str) -> Writes {
        Writes {
            table,
            change: RowChange::Updates {
                columns: None,
                ids: None,
            },
        }
    }

    /// The table written.
    pub fn table(&self) -> &'static str {
        self.table
    }

    /// The update sets `set` and no other column.
    pub fn setting(mut self, set: &[&'static str]) -> Writes {
        if let RowChange::Updates { columns, .. } = &mut self.change {
            *columns = Some(set.to_vec());
        }
        self
    }

    /// The update writes the rows `rows` of its table and no others.
    pub fn of_rows(mut self, rows: Vec<i64>) -> Writes {
        if let RowChange::Updates { ids, .. } = &mut self.change {
            *ids = Some(rows);
        }
        self
    }
}

/// The tables a transaction has written so far.
#[derive(Debug, Clone, Default)]
pub(crate) struct Written {
    /// The tables written, each with the columns set in it: `None` where any may have been
    /// (an update that did not say which, or rows added or removed).
    tables: BTreeMap<String, Option<BTreeSet<String>>>,
    /// The tables some of whose rows were added or removed (a subset of `tables`).
    rows_changed: BTreeSet<String>,
    /// The ids of the rows written, per table written: `None` where rows may have been
    /// written that no statement named by id (`kept.rs` keeps the other rows' objects).
    ids: BTreeMap<String, Option<BTreeSet<i64>>>,
    /// Whether jobs that follow the changes were enqueued (`follow.rs`).
    followed: bool,
}

impl Written {
    /// Notes what a statement declared it writes.
    pub fn note(&mut self, writes: &Writes) {
        let table = writes.table;
        match &writes.change {
            RowChange::Updates { columns, ids } => {
                self.note_update(table, columns.as_deref());
                self.note_ids(table, ids.as_deref());
            }
            RowChange::Adds => self.note_rows_changed(table),
            RowChange::Removes => {
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
        }
    }

    /// Notes `table` as written, its rows added or removed.
    fn note_rows_changed(&mut self, table: &str) {
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

    /// Whether `table` may have been written.
    /// Notes that jobs following the changes were enqueued.
    pub fn note_followed(&mut self) {
        self.followed = true;
    }

    /// Whether jobs following the changes were enqueued.
    pub fn followed(&self) -> bool {
        self.followed
    }

    /// Whether the transaction only updated rows of the job queue (a claim, a job's end or
    /// retry): it changes the queue's version alone (`versions.rs`).
    pub fn only_moves_the_queue(&self) -> bool {
        self.rows_changed.is_empty()
            && self.tables.len() == 1
            && self.tables.contains_key(QUEUE_TABLE)
    }

    pub fn may_have_written(&self, table: &str) -> bool {
        self.tables.contains_key(table)
    }

    /// Notes `table` as written, its rows updated in any column.
    fn note_table(&mut self, table: &str) {
        self.note_update(table, None);
        self.note_ids(table, None);
    }

    /// Notes `table` as written, its rows updated in `columns` (`None`: any).
    fn note_update(&mut self, table: &str, columns: Option<&[&str]>) {
        if !self.tables.contains_key(table) {
            self.tables.insert(table.to_owned(), Some(BTreeSet::new()));
        }
        let Some(set) = self.tables.get_mut(table) else {
            return;
        };
        match (set.as_mut(), columns) {
            (Some(set), Some(columns)) => set.extend(columns.iter().map(|c| (*c).to_owned())),
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
    /// its rows by id and none added or removed any; `None` otherwise (for a table not
    /// written, too: ask `may_have_written` first).
    pub fn rows_updated(&self, table: &str) -> Option<&BTreeSet<i64>> {
        if self.rows_changed.contains(table) {
            return None;
        }
        self.ids.get(table)?.as_ref()
    }

    /// Whether `column` of `table` may have changed: the table's rows were added or
    /// removed, or the column set.
    pub fn may_have_changed(&self, table: &str, column: &str) -> bool {
        if self.rows_changed.contains(table) {
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
        if self.only_moves_the_queue() {
            return BTreeSet::from([QUEUE.to_owned()]);
        }
        let mut rows: BTreeSet<String> = self.tables.keys().cloned().collect();
        rows.extend(self.rows_changed.iter().map(|table| rows_key(table)));
        rows.insert(WHOLE.to_owned());
        // A transaction that said it changed something but declared no statement that
        // wrote is counted as untracked: any table may have changed.
        if self.tables.is_empty() {
            rows.insert(UNTRACKED.to_owned());
        }
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(statements: &[Writes]) -> Written {
        let mut written = Written::default();
        for writes in statements {
            written.note(writes);
        }
        written
    }

    #[test]
    fn every_write_changes_the_whole_and_a_write_declaring_nothing_changes_everything() {
        let mut written = written(&[Writes::updates("b"), Writes::adds("a")]);
        assert_eq!(
            written.rows().into_iter().collect::<Vec<_>>(),
            ["*", "a", "a#rows", "b"],
            "an update leaves the set of rows of b as it was"
        );
        written.note(&Writes::removes("b"));
        assert!(written.rows().contains("b#rows"));
        assert!(!written.rows().contains(UNTRACKED));
        assert!(Written::default().rows().contains(UNTRACKED));
    }

    #[test]
    fn the_columns_an_update_set_are_known_until_rows_are_written_otherwise() {
        let mut written = written(&[
            Writes::updates("a").setting(&["x", "y"]),
            Writes::updates("a").setting(&["z"]),
        ]);
        assert!(written.may_have_changed("a", "x") && written.may_have_changed("a", "z"));
        assert!(!written.may_have_changed("a", "w"));
        assert!(!written.may_have_changed("b", "x"), "not written");
        written.note(&Writes::updates("b"));
        assert!(written.may_have_changed("b", "w"), "columns not declared");
        written.note(&Writes::adds("c"));
        assert!(written.may_have_changed("c", "w"), "rows added");
        written.note(&Writes::removes("routers"));
        assert!(
            written.may_have_changed("connections", "router_id"),
            "keys cleared"
        );
        assert!(!written.may_have_changed("a", "w"));
    }

    #[test]
    fn the_rows_written_are_known_while_every_write_of_their_table_names_them() {
        let mut updated = written(&[
            Writes::updates("a").setting(&["x"]).of_rows(vec![3, 1]),
            Writes::updates("a").setting(&["y"]).of_rows(vec![2]),
        ]);
        let ids = |w: &Written, t: &str| {
            w.rows_updated(t)
                .map(|ids| ids.iter().copied().collect::<Vec<_>>())
        };
        assert_eq!(ids(&updated, "a"), Some(vec![1, 2, 3]));
        assert_eq!(ids(&updated, "b"), None, "not written");
        updated.note(&Writes::updates("a").setting(&["z"]));
        assert_eq!(ids(&updated, "a"), None, "a statement that named no rows");
        updated.note(&Writes::updates("a").of_rows(vec![4]));
        assert_eq!(ids(&updated, "a"), None, "rows unknown stay unknown");

        // Rows named, then written otherwise: (table, the other statement, why).
        for (table, then, why) in [
            ("c", Writes::adds("c"), "rows added"),
            ("c", Writes::removes("c"), "rows removed"),
            ("connections", Writes::removes("routers"), "keys cleared"),
        ] {
            let mut updated = written(&[Writes::updates(table).of_rows(vec![1])]);
            updated.note(&then);
            assert_eq!(ids(&updated, table), None, "{why}");
        }
    }

    #[test]
    fn removing_rows_changes_the_sets_of_rows_the_database_deletes_with_them() {
        // An organisation's networks go with it, and their contacts with them.
        let rows = written(&[Writes::removes("peeringdb_organizations")]).rows();
        for table in ["peeringdb_networks", "peeringdb_network_contacts"] {
            assert!(rows.contains(&rows_key(table)), "{table}: {rows:?}");
            assert!(rows.contains(table), "{table}: {rows:?}");
        }
        let updated = written(&[Writes::updates("peeringdb_organizations").setting(&["name"])]);
        assert!(!updated.rows().contains(&rows_key("peeringdb_networks")));
    }

    #[test]
    fn deleting_a_router_clears_the_keys_of_its_connections() {
        use peering_domain::resources::CONNECTION;
        let written = written(&[Writes::removes("routers")]);
        assert!(written.rows().contains(CONNECTION.table));
    }

    #[test]
    fn moving_jobs_along_the_queue_changes_the_queue_row_alone() {
        let claim = written(&[Writes::updates("jobs").setting(&["status"])]);
        assert!(claim.only_moves_the_queue());
        assert_eq!(claim.rows().into_iter().collect::<Vec<_>>(), [QUEUE]);
        for other in [
            written(&[Writes::adds("jobs")]),
            written(&[Writes::updates("jobs"), Writes::updates("users")]),
            written(&[Writes::removes("jobs")]),
        ] {
            assert!(!other.only_moves_the_queue());
            assert!(other.rows().contains(WHOLE));
        }
    }
}
