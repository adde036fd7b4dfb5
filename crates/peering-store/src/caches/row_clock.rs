//! When rows were last written, told in this process's own time, for what is kept rendered
//! per object (`peering-app/src/answers/texts.rs`): a text rendered from rows read after a
//! stamp ([`RowClock::stamp`]) stays valid until a row it shows, or a table it depends on
//! whole, is marked as written after that stamp.
//!
//! Two sources mark writes:
//! - this process's writes ([`RowClock::after_write`], with the tables' versions before and
//!   after them, read in their transaction): the rows a write named by id are marked, one
//!   by one, when the table's version it found is the one this clock had accounted for
//!   (no other write came between); any other write to a tracked table marks it whole;
//! - every other write (another instance's, or one whose rows cannot be told), seen as a
//!   table version this clock never accounted for when a request brings the versions it
//!   read ([`RowClock::reconcile`]): the table is marked whole.
//!
//! A request reconciles the versions it read after it arrived, then takes its stamp, then
//! reads rows: whatever a write changed that the client saw finish is either marked after
//! the stamps of the texts it made stale, or read by the request itself.

use std::sync::{Mutex, MutexGuard, PoisonError};

use rustc_hash::FxHashMap;

use crate::versions::TableVersions;
use crate::written::Written;

/// Versions left by this process's writes that are still taken as accounted for: a request
/// that read the versions just before the last few writes reconciles without marking.
const RECENT: usize = 8;
/// Rows remembered per table; past this, the table is marked whole and forgets them.
const MOST_ROWS: usize = 65_536;

/// The marks of writes, per table tracked.
#[derive(Debug, Default)]
pub struct RowClock {
    inner: Mutex<Clock>,
}

#[derive(Debug, Default)]
struct Clock {
    /// The last mark given; stamps are taken from it.
    now: u64,
    tables: FxHashMap<&'static str, TableClock>,
    /// The snapshot of versions each list of tables (by address and length) was last reconciled
    /// with: reconciling it again would tell nothing new, while every request of a kept
    /// object asks, with the snapshot that many requests share between two writes.
    reconciled: FxHashMap<(usize, usize), u64>,
}

#[derive(Debug, Default)]
struct TableClock {
    /// The table's version through which every write is marked here.
    version: i64,
    /// The versions this process's writes left since the last whole mark, newest last.
    recent: Vec<i64>,
    /// When the table was last marked whole: every text showing one of its rows or
    /// depending on it whole is stale if stamped before.
    whole: u64,
    /// When any of its rows last changed (for texts depending on the table whole).
    any: u64,
    /// When each row named by a write was last written.
    rows: FxHashMap<i64, u64>,
}

impl TableClock {
    fn mark_whole(&mut self, at: u64, version: i64) {
        self.whole = at;
        self.any = at;
        self.rows.clear();
        self.version = version;
        self.recent.clear();
        self.recent.push(version);
    }

    fn mark_rows(&mut self, at: u64, ids: impl Iterator<Item = i64>, version: i64) {
        self.any = at;
        self.rows.extend(ids.map(|id| (id, at)));
        if self.rows.len() > MOST_ROWS {
            self.mark_whole(at, version);
            return;
        }
        self.version = version;
        self.recent.push(version);
        if self.recent.len() > RECENT {
            self.recent.remove(0);
        }
    }

    fn accounts_for(&self, version: i64) -> bool {
        self.version == version || self.recent.contains(&version)
    }
}

/// What a text depends on: rows it shows, and tables it depends on whole (relations'
/// link tables, counts, computed values).
#[derive(Debug, Clone, Copy)]
pub struct Depends<'a> {
    pub rows: &'a [(&'static str, i64)],
    pub tables: &'a [&'static str],
}

impl RowClock {
    fn lock(&self) -> MutexGuard<'_, Clock> {
        // Counters and maps of marks: a panic between two updates leaves marks that are
        // only ever later than needed.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Marks whole each of `tables` whose version in `versions` this clock has not
    /// accounted for: another instance wrote it, or a write whose rows it could not tell.
    pub fn reconcile(&self, versions: &TableVersions, tables: &'static [&'static str]) {
        let mut clock = self.lock();
        let Clock {
            now,
            tables: known,
            reconciled,
        } = &mut *clock;
        let snapshot = versions.serial();
        let list = (tables.as_ptr() as usize, tables.len());
        if snapshot != 0 && reconciled.get(&list) == Some(&snapshot) {
            return;
        }
        reconciled.insert(list, snapshot);
        for table in tables {
            let version = versions.of(&[table]);
            let table_clock = known.entry(table).or_default();
            if table_clock.recent.is_empty() {
                // Tracked from now on: nothing was stamped against it before.
                table_clock.mark_whole(*now, version);
            } else if !table_clock.accounts_for(version) {
                *now += 1;
                table_clock.mark_whole(*now, version);
            }
        }
    }

    /// A stamp for a text about to be rendered from rows read after this call.
    pub fn stamp(&self) -> u64 {
        self.lock().now
    }

    /// Whether a text stamped `stamp` with `depends` is still current, for each of
    /// `texts`: one lock for a page of them.
    pub fn current<'a>(&self, texts: impl Iterator<Item = (u64, Depends<'a>)>) -> Vec<bool> {
        let clock = self.lock();
        texts.map(|(stamp, d)| clock.holds(stamp, d)).collect()
    }

    /// After a write of this process that wrote `written`, with the versions before and
    /// after it (`None`: not read, and every tracked table it wrote is marked whole).
    pub(crate) fn after_write(
        &self,
        written: &Written,
        versions: Option<(&TableVersions, &TableVersions)>,
    ) {
        let mut clock = self.lock();
        let Clock { now, tables, .. } = &mut *clock;
        let mut marked = false;
        for (table, table_clock) in tables.iter_mut() {
            if !written.may_have_written(table) {
                continue;
            }
            if !marked {
                *now += 1;
                marked = true;
            }
            let Some((before, after)) = versions else {
                table_clock.mark_whole(*now, 0);
                continue;
            };
            let (found, left) = (before.of(&[table]), after.of(&[table]));
            match written.rows_updated(table) {
                Some(ids) if table_clock.accounts_for(found) => {
                    table_clock.mark_rows(*now, ids.iter().copied(), left)
                }
                _ => table_clock.mark_whole(*now, left),
            }
        }
    }

    /// Whether any table tracked here may be in `written` (a write then reads the
    /// versions before it, for `after_write`).
    pub(crate) fn tracks_any(&self, written: &Written) -> bool {
        (self.lock().tables.keys()).any(|table| written.may_have_written(table))
    }
}

impl Clock {
    fn holds(&self, stamp: u64, depends: Depends<'_>) -> bool {
        let rows_hold = depends.rows.iter().all(|(table, id)| {
            self.tables
                .get(table)
                .is_some_and(|t| t.whole <= stamp && t.rows.get(id).is_none_or(|&at| at <= stamp))
        });
        rows_hold
            && (depends.tables.iter())
                .all(|table| self.tables.get(table).is_some_and(|t| t.any <= stamp))
    }
}

#[cfg(test)]
mod tests;
