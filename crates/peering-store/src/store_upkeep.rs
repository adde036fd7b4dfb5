//! The store's housekeeping, reached through [`Store::upkeep`]: purges, backups, the log
//! checkpoint on exit, the pool's state and health checks.

use diesel::RunQueryDsl;
use peering_domain::spec::CHANGE_RECORDS;

use crate::connection::AnyConnection;
use crate::written::Writes;
use crate::{migrations, sql, Backend, Error, PoolState, Store};
use crate::{POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS};

/// How many times a stopping server tries to empty the write-ahead log, 100 ms apart.
const EXIT_CHECKPOINT_TRIES: usize = 50;

/// The first column of `PRAGMA wal_checkpoint`'s answer: 1 when it could not finish.
#[derive(diesel::QueryableByName)]
struct CheckpointAnswer {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    busy: i32,
}

/// The housekeeping of a store: `store.upkeep().ready()`.
#[derive(Debug, Clone, Copy)]
pub struct Upkeep<'s> {
    store: &'s Store,
}

impl Store {
    /// Purges, backups, the checkpoint on exit, the pool's state and health checks.
    pub fn upkeep(&self) -> Upkeep<'_> {
        Upkeep { store: self }
    }
}

impl Upkeep<'_> {
    /// Copies SQLite's write-ahead log into the database file and empties it, for a server
    /// that is stopping: the next start then has no log to read back (after a day of bulk
    /// writes, tens of megabytes and of milliseconds). Nothing to do on PostgreSQL.
    pub fn checkpoint_on_exit(&self) -> Result<(), Error> {
        let mut conn = self.store.pool.get()?;
        let AnyConnection::Sqlite(c) = &mut *conn else {
            return Ok(());
        };
        // The checkpoint answers "busy" rather than failing when another is running (the
        // background thread's) or a reader still holds the log: tried again, for a while.
        for _ in 0..EXIT_CHECKPOINT_TRIES {
            let answer: Vec<CheckpointAnswer> =
                RunQueryDsl::load(diesel::sql_query("PRAGMA wal_checkpoint(TRUNCATE)"), c)?;
            if answer.first().is_none_or(|a| a.busy == 0) {
                return Ok(());
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        Err(Error::Busy(
            "the write-ahead log stayed in use: not emptied on exit"
                .to_string()
                .into(),
        ))
    }

    /// Deletes the change records older than `days` days; how many went. Run as a write,
    /// so that cached lists of change records are read anew.
    pub fn purge_changes(&self, days: u32) -> Result<usize, Error> {
        let cutoff = chrono::Utc::now() - chrono::Duration::days(i64::from(days));
        let cutoff = peering_domain::value::time_to_micros(cutoff);
        self.store.write(|db| {
            let mut sql = sql::Sql::writing(
                Writes::removes(CHANGE_RECORDS),
                "DELETE FROM object_changes WHERE time < ",
            );
            sql.bind(sql::Bind::Int(cutoff));
            db.execute(&sql)
        })
    }

    /// Writes a consistent copy of a SQLite database to `path` while it is in use
    /// (`VACUUM INTO`: a snapshot, compacted); PostgreSQL has its own tools (`pg_dump`).
    pub fn backup_to(&self, path: &std::path::Path) -> Result<(), Error> {
        if self.store.backend != Backend::Sqlite {
            return Err(Error::Config(
                "peeringd backup copies SQLite databases; for PostgreSQL use pg_dump".into(),
            ));
        }
        if path.exists() {
            return Err(Error::Config(format!("{} already exists", path.display())));
        }
        let target = path
            .to_str()
            .ok_or_else(|| Error::Config("the backup path is not UTF-8".into()))?;
        self.store.read(|db| {
            let mut sql = sql::Sql::new("VACUUM INTO ");
            sql.bind(sql::Bind::Text(target.to_string()));
            db.execute(&sql).map(|_| ())
        })
    }

    /// The pool's connections: open, and open but unused.
    pub fn pool_state(&self) -> PoolState {
        let state = self.store.pool.state();
        PoolState {
            connections: state.connections,
            idle: state.idle_connections,
            reads_gave_way: self.store.write_gate.reads_gave_way(),
        }
    }

    /// Whether the database answers and every migration of this binary is applied.
    pub fn ready(&self) -> Result<bool, Error> {
        let mut conn = self.store.pool.get()?;
        migrations::current(&mut conn, SQLITE_MIGRATIONS, POSTGRES_MIGRATIONS)
    }

    pub fn ping(&self) -> bool {
        self.store
            .read(|db| db.scalar(&sql::Sql::new("SELECT 1")))
            .is_ok()
    }
}
