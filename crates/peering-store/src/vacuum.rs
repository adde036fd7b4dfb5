//! On PostgreSQL, the tables a write changed are vacuumed by a background thread a moment
//! later. An update leaves its page "not all visible" until the next vacuum, and an index
//! scan must then read the table's rows to see which are live: walking 3,000 entries of an
//! index for a deep page of autonomous systems took 6.7 ms with 10 PATCHes of them a second
//! alongside, 0.7 ms once vacuumed; counts read the same way. Autovacuum comes only after a
//! fifth of a table has changed, or never where it is off. A vacuum reads only the pages
//! changed since the last one, skips a table another vacuum holds, and never truncates the
//! table (which would lock out its readers for a moment).

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use diesel::connection::SimpleConnection;

use crate::connection::Pool;
use crate::error::Error;

/// The shortest time between two vacuums. Each vacuum has PostgreSQL plan its statements
/// on those tables again (it updates their statistics): every second cost details 5-10%;
/// every 3 seconds kept most of what lists gained and cost details little.
const INTERVAL: Duration = Duration::from_secs(3);
/// A vacuum that took long is followed by a pause this many times as long, so that the
/// thread never takes more than a fraction of the database's time.
const PAUSE_FACTOR: u32 = 4;

/// The tables written since the last vacuum; the thread stops once the last store holding
/// this is dropped.
#[derive(Debug, Default)]
pub(crate) struct Vacuums {
    written: Mutex<BTreeSet<String>>,
}

impl Vacuums {
    /// Starts the thread that vacuums the tables written through `pool`'s database, on a
    /// connection of its own (a long vacuum holds up no request).
    pub(crate) fn start(pool: Pool) -> Result<Arc<Vacuums>, Error> {
        crate::background::start(
            "postgres-vacuum",
            Vacuums::default(),
            INTERVAL,
            move |vacuums: &Vacuums| {
                let tables = vacuums.take();
                if tables.is_empty() {
                    return INTERVAL;
                }
                let started = Instant::now();
                if let Err(e) = vacuum(&pool, &tables) {
                    log::warn!("vacuum of {tables:?} failed: {e}");
                }
                INTERVAL.max(started.elapsed() * PAUSE_FACTOR)
            },
        )
    }

    /// Notes tables a committed transaction wrote.
    pub(crate) fn wrote<'a>(&self, tables: impl Iterator<Item = &'a str>) {
        let mut written = self.written.lock().unwrap_or_else(PoisonError::into_inner);
        for table in tables {
            if !written.contains(table) {
                written.insert(table.to_owned());
            }
        }
    }

    fn take(&self) -> BTreeSet<String> {
        std::mem::take(&mut *self.written.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// The statement that vacuums `tables` (names as our statements write them, checked by
/// `written::is_table_name`: nothing to quote). `PARALLEL 0`: on a table with several
/// indexes PostgreSQL otherwise starts two worker processes for the index cleanup of every
/// pass, even when there is nothing to clean; starting them made a pass over a million
/// sessions and their change records 180-200 ms instead of 50.
fn vacuum_sql(tables: &BTreeSet<String>) -> String {
    let names: Vec<&str> = tables.iter().map(String::as_str).collect();
    format!(
        "VACUUM (SKIP_LOCKED, TRUNCATE false, PARALLEL 0) {}",
        names.join(", ")
    )
}

fn vacuum(pool: &Pool, tables: &BTreeSet<String>) -> Result<(), Error> {
    let mut conn = pool.get()?;
    conn.batch_execute(&vacuum_sql(tables))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::Sql;
    use crate::testing::{postgres_url, TestStore};
    use crate::Backend;

    #[test]
    fn the_statement_names_every_table_once() {
        let vacuums = Vacuums::default();
        vacuums.wrote(["users", "table_versions"].into_iter());
        vacuums.wrote(["users"].into_iter());
        assert_eq!(
            vacuum_sql(&vacuums.take()),
            "VACUUM (SKIP_LOCKED, TRUNCATE false, PARALLEL 0) table_versions, users"
        );
        assert!(vacuums.take().is_empty(), "taken once");
    }

    /// An edit of a comment leaves no dead index entry for the vacuum to look for, even
    /// on a page that was filled by inserts: the migration `room_for_edits_in_place` keeps
    /// room on it for the new row ("HOT"). Without that room the first page of a bulk
    /// insert is full and the edited row moves to another one.
    #[test]
    fn an_edit_of_a_row_on_a_filled_page_stays_on_its_page() {
        let store = TestStore::new(1);
        if store.backend() != Backend::Postgres {
            return;
        }
        let in_place = store
            .read(|db| {
                db.execute(&Sql::new(
                    "INSERT INTO autonomous_systems (asn, name, name_lc, created, updated) \
                     SELECT 64512 + n, 'AS ' || n, 'as ' || n, 0, 0 \
                     FROM generate_series(1, 400) AS n",
                ))?;
                db.execute(&Sql::new(
                    "UPDATE autonomous_systems SET comments = 'edited, and longer', \
                     updated = 1 WHERE asn = 64513",
                ))?;
                db.scalar(&Sql::new(
                    "SELECT n_tup_hot_upd FROM pg_stat_xact_user_tables \
                     WHERE relname = 'autonomous_systems'",
                ))
            })
            .unwrap();
        assert_eq!(in_place, Some(1));
    }

    #[test]
    fn tables_written_on_postgresql_are_vacuumed_soon_after() {
        let store = TestStore::new(2);
        let vacuums_of_users = || {
            store.read(|db| {
                db.scalar(&Sql::new(match db.backend() {
                    Backend::Postgres => {
                        "SELECT vacuum_count FROM pg_stat_user_tables WHERE relname = 'users'"
                    }
                    Backend::Sqlite => "SELECT 0",
                }))
            })
        };
        assert_eq!(vacuums_of_users().unwrap(), Some(0));
        store
            .users()
            .create_user("someone", "a long password", false)
            .unwrap();
        if postgres_url().is_none() {
            assert!(store.vacuums.is_none(), "SQLite has no vacuum thread");
            return;
        }
        let deadline = Instant::now() + Duration::from_secs(20);
        while vacuums_of_users().unwrap() == Some(0) {
            assert!(Instant::now() < deadline, "users was not vacuumed");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}
