//! One connection type over SQLite and PostgreSQL, its pool, and the handle queries run on.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use diesel::connection::{DefaultLoadingMode, SimpleConnection};
use diesel::pg::{PgConnection, PgRowByRowLoadingMode};
use diesel::r2d2::{self, CustomizeConnection};
use diesel::sqlite::SqliteConnection;
use diesel::{Connection, RunQueryDsl};

use peering_domain::spec::CHANGE_RECORDS;

use crate::error::Error;
use crate::follow::FollowChanges;
use crate::kept::KeptObjects;
use crate::pool_manager::Manager;
use crate::sql::{Bind, DbRow, Run, Sql};
use crate::written::{Writes, Written};

/// The connection every part of the store uses, whichever database is configured.
#[derive(diesel::MultiConnection)]
pub enum AnyConnection {
    Postgresql(PgConnection),
    Sqlite(SqliteConnection),
}

/// The database behind a store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgresql",
        }
    }
}

/// Where a database lives, chosen by URL scheme (never by trying each backend in turn).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Sqlite(String),
    Postgres(String),
}

impl Target {
    pub fn parse(url: &str) -> Result<Target, Error> {
        if let Some(path) = url.strip_prefix("sqlite://") {
            if path.is_empty() {
                return Err(Error::Config("sqlite:// needs a file path".into()));
            }
            return Ok(Target::Sqlite(path.to_string()));
        }
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let url = crate::pg_tls::plain_on_loopback(url, crate::pg_tls::set_in_environment);
            return Ok(Target::Postgres(url.into_owned()));
        }
        Err(Error::Config(format!(
            "unsupported database URL {url:?}: use sqlite://PATH or postgres://…"
        )))
    }

    pub fn backend(&self) -> Backend {
        match self {
            Target::Sqlite(_) => Backend::Sqlite,
            Target::Postgres(_) => Backend::Postgres,
        }
    }
}

/// How long a SQLite statement waits for a lock another connection holds.
pub(crate) const BUSY_TIMEOUT_MS: u32 = 5000;

/// Session settings applied to every new connection.
#[derive(Debug)]
pub(crate) struct Setup;

impl CustomizeConnection<AnyConnection, r2d2::Error> for Setup {
    fn on_acquire(&self, conn: &mut AnyConnection) -> Result<(), r2d2::Error> {
        let statements = match conn {
            // Foreign keys are off by default in SQLite; WAL lets readers run beside the
            // writer; the busy timeout makes a second writer wait instead of failing; a
            // small page cache per connection (the OS caches the file too) bounds memory.
            // A large write may outgrow that cache: it is not spilled to the file mid-way
            // (`cache_spill`), and statement journals stay in memory (`temp_store`), which
            // more than halves the cost of a bulk write. The log is checkpointed by the
            // store's own thread (`checkpoint.rs`), not by the write that fills it, and cut
            // back to 64 MiB once copied.
            AnyConnection::Sqlite(_) => format!(
                "PRAGMA foreign_keys = ON; PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}; \
                 PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
                 PRAGMA cache_size = -1024; PRAGMA cache_spill = OFF; \
                 PRAGMA temp_store = MEMORY; PRAGMA wal_autocheckpoint = 0; \
                 PRAGMA journal_size_limit = 67108864;"
            ),
            AnyConnection::Postgresql(_) => format!("SET TIME ZONE 'UTC'; {PLANNER_COSTS}"),
        };
        conn.batch_execute(&statements)
            .map_err(r2d2::Error::QueryError)
    }
}

/// PostgreSQL's default cost of a page read out of order (4, four times a page read in
/// order) assumes spinning disks and a cold cache; a peering database is small and stays
/// in memory, where both cost about the same. With the default, the planner filtered
/// every row with `LIKE` instead of reading the trigram index `q` is served by (1,600
/// searches a second instead of 6,200 on 5,000 autonomous systems). The value of the
/// usual advice for cached data is taken for this server's sessions only, and only where
/// the operator left the setting at its default (a value in `postgresql.conf`, or set for
/// the database or the role, is kept).
const PLANNER_COSTS: &str = "SELECT set_config('random_page_cost', '1.1', false) \
     FROM pg_settings WHERE name = 'random_page_cost' AND source = 'default'";

pub(crate) type Pool = r2d2::Pool<Manager>;

pub(crate) fn build_pool(target: Target, size: u32) -> Result<Pool, Error> {
    r2d2::Pool::builder()
        .max_size(size)
        .connection_timeout(Duration::from_secs(10))
        // Each checkout checks its connection (`Manager::is_valid`), without a round trip
        // to the database. Without it, every connection the database ended under the
        // server failed the next request that took it with a 503.
        .test_on_check_out(true)
        .connection_customizer(Box::new(Setup))
        .build(Manager { target })
        .map_err(|e| Error::Unavailable(e.to_string()))
}

/// The log target of the statements run (trace level).
pub const SQL_LOG: &str = "peering_store::sql";

/// A borrowed backend connection on which queries run, counted for tests and metrics, with
/// what it serves (`Mode`).
pub(crate) enum Db<'a> {
    Sqlite(&'a mut SqliteConnection, &'a AtomicU64, Mode<'a>),
    Postgres(&'a mut PgConnection, &'a AtomicU64, Mode<'a>),
}

/// What a borrowed connection serves.
#[derive(Clone, Copy)]
pub(crate) enum Mode<'a> {
    /// Reads, which take related objects from those kept between reads, if given.
    Read(Option<&'a KeptObjects>),
    /// A write transaction, with the tables written so far (`versions.rs`), and what
    /// follows its changes (`follow.rs`), if anything does.
    Write(&'a RefCell<Written>, Option<&'a dyn FollowChanges>),
}

impl<'a> Db<'a> {
    fn count(&self) {
        let counter = match self {
            Db::Sqlite(_, c, _) | Db::Postgres(_, c, _) => c,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    fn mode(&self) -> Mode<'a> {
        match self {
            Db::Sqlite(_, _, mode) | Db::Postgres(_, _, mode) => *mode,
        }
    }

    fn written(&self) -> Option<&RefCell<Written>> {
        match self.mode() {
            Mode::Write(written, _) => Some(written),
            Mode::Read(_) => None,
        }
    }

    /// Notes that jobs following this transaction's changes were enqueued.
    pub fn note_followed(&self) {
        if let Some(written) = self.written() {
            written.borrow_mut().note_followed();
        }
    }

    /// What follows the changes of this write transaction, if anything does.
    pub fn follower(&self) -> Option<&'a dyn FollowChanges> {
        match self.mode() {
            Mode::Write(_, follower) => follower,
            Mode::Read(_) => None,
        }
    }

    /// The related objects kept between reads, for a read that may take them.
    pub fn kept(&self) -> Option<&'a KeptObjects> {
        match self.mode() {
            Mode::Read(kept) => kept,
            Mode::Write(..) => None,
        }
    }

    /// Notes what `sql` declares it writes, in a write transaction.
    fn note(&self, sql: &Sql) {
        let Some(written) = self.written() else {
            return;
        };
        match sql.writes() {
            Some(writes) => written.borrow_mut().note(writes),
            None => debug_assert!(
                !writes_undeclared(sql.head()),
                "a write that does not say what it writes: {}",
                sql.head()
            ),
        }
    }

    pub fn backend(&self) -> Backend {
        match self {
            Db::Sqlite(..) => Backend::Sqlite,
            Db::Postgres(..) => Backend::Postgres,
        }
    }

    /// Counts a statement, and writes it to the SQL trace log when that is on
    /// (`RUST_LOG=peering_store::sql=trace`): one JSON object per statement, which the
    /// benchmark replays with `pgbench`.
    fn count_and_trace(&self, sql: &Sql) {
        self.count();
        if log::log_enabled!(target: SQL_LOG, log::Level::Trace) {
            log::trace!(target: SQL_LOG, "{}", sql.logged());
        }
    }

    pub fn load(&mut self, sql: &Sql) -> Result<Vec<DbRow>, Error> {
        self.note(sql);
        self.count_and_trace(sql);
        let rows = match self {
            Db::Sqlite(c, ..) => Run(sql).load::<DbRow>(*c),
            Db::Postgres(c, ..) => Run(sql).load::<DbRow>(*c),
        };
        rows.map_err(Error::from)
    }

    /// Hands the rows of `sql` to `each` one at a time, as the database sends them, so that
    /// a long result is never held whole; the first error, the database's or `each`'s, ends
    /// the reading. An order's ids are read so, an id a row on SQLite and texts of many
    /// ids on PostgreSQL, where libpq makes a result of each row read one by one
    /// (`query/ordered.rs`).
    pub fn for_each_row(
        &mut self,
        sql: &Sql,
        mut each: impl FnMut(DbRow) -> Result<(), Error>,
    ) -> Result<(), Error> {
        self.note(sql);
        self.count_and_trace(sql);
        // `?` at the first error: stepped again, SQLite would run the statement anew.
        match self {
            Db::Sqlite(c, ..) => {
                for row in Run(sql).load_iter::<DbRow, DefaultLoadingMode>(*c)? {
                    each(row?)?;
                }
            }
            Db::Postgres(c, ..) => {
                for row in Run(sql).load_iter::<DbRow, PgRowByRowLoadingMode>(*c)? {
                    each(row?)?;
                }
            }
        }
        Ok(())
    }

    pub fn execute(&mut self, sql: &Sql) -> Result<usize, Error> {
        self.note(sql);
        self.execute_unnoted(sql)
    }

    /// Runs a statement whose write is not a change of data (the versions' own).
    pub fn execute_unnoted(&mut self, sql: &Sql) -> Result<usize, Error> {
        self.count_and_trace(sql);
        let n = match self {
            Db::Sqlite(c, ..) => Run(sql).execute(*c),
            Db::Postgres(c, ..) => Run(sql).execute(*c),
        };
        n.map_err(Error::from)
    }

    /// Inserts rows (one bind per column) into `table`, in as few statements as the
    /// backend allows (`Sql::inserts`).
    pub fn insert(
        &mut self,
        table: &'static str,
        columns: &[&str],
        rows: Vec<Vec<Bind>>,
    ) -> Result<(), Error> {
        for sql in Sql::inserts(self.backend(), table, columns, rows) {
            self.execute(&sql)?;
        }
        Ok(())
    }

    /// Inserts change records: copied on PostgreSQL (`copy.rs`), in multi-row inserts on
    /// SQLite.
    pub fn insert_object_changes(&mut self, rows: Vec<Vec<Bind>>) -> Result<(), Error> {
        match self {
            Db::Postgres(c, counter, mode) if !rows.is_empty() => {
                counter.fetch_add(1, Ordering::Relaxed);
                if let Mode::Write(written, _) = mode {
                    written.borrow_mut().note(&Writes::adds(CHANGE_RECORDS));
                }
                crate::copy::object_changes(c, &rows)
            }
            _ => self.insert(CHANGE_RECORDS, crate::copy::OBJECT_CHANGES_COLUMNS, rows),
        }
    }

    /// The first column of the first row, as an integer.
    pub fn scalar(&mut self, sql: &Sql) -> Result<Option<i64>, Error> {
        Ok(self.load(sql)?.first().map(|r| r.int(0)))
    }
}

/// Whether a statement's text starts as a write does (`INSERT`, `UPDATE`, `DELETE`): a
/// guard of debug builds on the declarations, which say what each write writes (one that
/// said nothing would leave stale answers cached).
fn writes_undeclared(head: &str) -> bool {
    let verb = head.trim_start().get(..6).unwrap_or_default();
    ["INSERT", "UPDATE", "DELETE"]
        .iter()
        .any(|v| verb.eq_ignore_ascii_case(v))
}

#[cfg(test)]
mod tests {
    use diesel::sql_types::Integer;
    use diesel::{Connection, QueryableByName, RunQueryDsl, SqliteConnection};

    #[derive(QueryableByName)]
    struct Used {
        #[diesel(sql_type = Integer)]
        used: i32,
    }

    fn compiled_with(c: &mut SqliteConnection, option: &str) -> bool {
        diesel::sql_query(format!(
            "SELECT sqlite_compileoption_used('{option}') AS used"
        ))
        .get_result::<Used>(c)
        .expect("compile option")
        .used
            == 1
    }

    /// SQLite is built without its per-connection locks, memory statistics and shared page
    /// cache (`.cargo/config.toml`): the store never shares a connection between threads.
    /// Its planner ignores bound values (QPSG), so that a cached statement is not prepared
    /// again whenever a page's LIMIT or OFFSET is bound.
    #[test]
    fn sqlite_is_built_without_locks_the_store_does_not_need() {
        let mut c = SqliteConnection::establish(":memory:").expect("open");
        assert!(compiled_with(&mut c, "THREADSAFE=2"));
        assert!(compiled_with(&mut c, "DEFAULT_MEMSTATUS=0"));
        assert!(!compiled_with(&mut c, "ENABLE_MEMORY_MANAGEMENT"));
        assert!(compiled_with(&mut c, "ENABLE_QPSG"));
    }
}

#[cfg(test)]
mod planner_costs {
    use diesel::connection::SimpleConnection;
    use diesel::{Connection, PgConnection};

    use crate::sql::Sql;
    use crate::testing::{postgres_url, TestDatabase};
    use crate::Store;

    /// `random_page_cost` of a new session of a store on `url`, in tenths.
    fn random_page_cost_of_a_session(url: &str) -> i64 {
        let store = Store::open(url, 1).unwrap();
        store
            .read(|db| {
                db.scalar(&Sql::new(
                    "SELECT CAST(CAST(current_setting('random_page_cost') AS FLOAT8) * 10 \
                     AS BIGINT)",
                ))
            })
            .unwrap()
            .unwrap()
    }

    #[test]
    fn random_reads_cost_as_cached_unless_the_operator_chose_a_cost() {
        if postgres_url().is_none() {
            return; // a PostgreSQL setting; SQLite has no such cost
        }
        let db = TestDatabase::new();
        assert_eq!(
            random_page_cost_of_a_session(&db.url),
            11,
            "default replaced"
        );
        let name = db.url.rsplit('/').next().unwrap();
        PgConnection::establish(&db.url)
            .unwrap()
            .batch_execute(&format!("ALTER DATABASE {name} SET random_page_cost = 2"))
            .unwrap();
        assert_eq!(
            random_page_cost_of_a_session(&db.url),
            20,
            "operator's kept"
        );
    }
}

#[cfg(test)]
mod rows_handed_over {
    use super::Backend;
    use crate::sql::{Bind, Sql};
    use crate::testing::TestStore;

    /// Every row of a long result, in the statement's order, with a bound value, alone or
    /// in a read's snapshot.
    #[test]
    fn every_row_comes_in_order() {
        let store = TestStore::new(1);
        let last = 70_000;
        let mut sql =
            Sql::new("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ");
        sql.bind(Bind::Int(last))
            .push(") SELECT CAST(i AS BIGINT) FROM n ORDER BY i DESC");
        let read = |db: &mut super::Db<'_>| {
            let mut seen = Vec::new();
            db.for_each_row(&sql, |row| {
                seen.push(row.int(0));
                Ok(())
            })?;
            Ok(seen)
        };
        let expected: Vec<i64> = (1..=last).rev().collect();
        assert_eq!(store.read(read).unwrap(), expected, "alone");
        assert_eq!(
            store.read_snapshot(read).unwrap(),
            expected,
            "in a snapshot"
        );
        assert_eq!(store.read(read).unwrap(), expected, "after a snapshot");
    }

    /// An error after some rows ends the reading with it, and the connection reads on.
    #[test]
    fn an_error_midway_is_returned() {
        let store = TestStore::new(1);
        let outcome = store.read(|db| {
            let failing = Sql::new(match db.backend() {
                Backend::Sqlite => "SELECT 1 UNION ALL SELECT abs(-9223372036854775808)",
                Backend::Postgres => "SELECT CAST(10 / i AS BIGINT) FROM (VALUES (10), (0)) v(i)",
            });
            let mut seen = Vec::new();
            let read = db.for_each_row(&failing, |row| {
                seen.push(row.int(0));
                Ok(())
            });
            Ok((read.is_err(), seen, db.scalar(&Sql::new("SELECT 7"))?))
        });
        assert_eq!(outcome.unwrap(), (true, vec![1], Some(7)));
    }
}

#[cfg(all(test, debug_assertions))]
mod declarations {
    use crate::sql::Sql;
    use crate::testing::TestStore;

    /// A write that does not say what it writes would leave answers cached that it made
    /// stale: debug builds stop it.
    #[test]
    #[should_panic(expected = "does not say what it writes")]
    fn a_write_that_says_nothing_is_stopped() {
        let store = TestStore::new(1);
        let _ = store.write(|db| db.execute(&Sql::new("DELETE FROM tags")));
    }
}
