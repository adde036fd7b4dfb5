//! The store's job queue and housekeeping: purges, backups, the log checkpoint on exit,
//! the pool's state and health checks.

use peering_domain::spec::CHANGE_RECORDS;

use crate::connection::AnyConnection;
use crate::written::Writes;
use crate::{jobs, migrations, sql, Backend, ClaimedJob, Error, JobEnd, NewJob, PoolState, Store};
use crate::{POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS};

impl Store {
    /// Copies SQLite's write-ahead log into the database file and empties it, for a server
    /// that is stopping: the next start then has no log to read back (after a day of bulk
    /// writes, tens of megabytes and of milliseconds). Nothing to do on PostgreSQL.
    pub fn checkpoint_on_exit(&self) -> Result<(), Error> {
        use diesel::connection::SimpleConnection;
        let mut conn = self.pool.get()?;
        if let AnyConnection::Sqlite(c) = &mut *conn {
            c.batch_execute("PRAGMA wal_checkpoint(TRUNCATE);")?;
        }
        Ok(())
    }

    /// Deletes the change records older than `days` days; how many went. Run as a write,
    /// so that cached lists of change records are read anew.
    pub fn purge_changes(&self, days: u32) -> Result<usize, Error> {
        let cutoff = chrono::Utc::now() - chrono::Duration::days(i64::from(days));
        let cutoff = peering_domain::value::time_to_micros(cutoff);
        self.write(|db| {
            let mut sql = sql::Sql::writing(
                Writes::removes(CHANGE_RECORDS),
                "DELETE FROM object_changes WHERE time < ",
            );
            sql.bind(sql::Bind::Int(cutoff));
            db.execute(&sql)
        })
    }

    /// Adds a job to the queue; its id.
    pub fn enqueue_job(&self, job: &NewJob) -> Result<i64, Error> {
        self.write(|db| jobs::enqueue(db, job))
    }

    /// The oldest job waiting, claimed for `worker` for `lease` (none waits: `None`).
    pub fn claim_job(
        &self,
        worker: &str,
        lease: std::time::Duration,
    ) -> Result<Option<ClaimedJob>, Error> {
        let lease = i64::try_from(lease.as_micros()).unwrap_or(i64::MAX);
        // Most polls find nothing: a read says so without taking the write lock.
        if !self.read(jobs::any_waiting)? {
            return Ok(None);
        }
        self.write_changing(|db| {
            let claimed = jobs::claim(db, worker, lease)?;
            let changed = claimed.is_some();
            Ok((claimed, changed))
        })
    }

    /// Keeps a running job `worker`'s for `lease` more; false if it is not theirs any more.
    pub fn renew_job(
        &self,
        id: i64,
        worker: &str,
        lease: std::time::Duration,
    ) -> Result<bool, Error> {
        let lease = i64::try_from(lease.as_micros()).unwrap_or(i64::MAX);
        // The lease is not shown: renewing it leaves cached answers valid.
        self.write_changing(|db| Ok((jobs::renew(db, id, worker, lease)?, false)))
    }

    /// Records how `worker`'s job ended; false if it is not theirs any more.
    pub fn finish_job(
        &self,
        id: i64,
        worker: &str,
        end: JobEnd,
        output: &str,
        data: &serde_json::Value,
    ) -> Result<bool, Error> {
        self.write(|db| jobs::finish(db, id, worker, end, output, data))
    }

    /// Deletes jobs created more than `days` days ago; how many went.
    pub fn purge_jobs(&self, days: u32) -> Result<usize, Error> {
        self.write(|db| jobs::purge(db, days))
    }

    /// How many jobs wait to run.
    pub fn jobs_waiting(&self) -> Result<i64, Error> {
        self.read(jobs::waiting)
    }

    /// Writes a consistent copy of a SQLite database to `path` while it is in use
    /// (`VACUUM INTO`: a snapshot, compacted); PostgreSQL has its own tools (`pg_dump`).
    pub fn backup_to(&self, path: &std::path::Path) -> Result<(), Error> {
        if self.backend != Backend::Sqlite {
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
        self.read(|db| {
            let mut sql = sql::Sql::new("VACUUM INTO ");
            sql.bind(sql::Bind::Text(target.to_string()));
            db.execute(&sql).map(|_| ())
        })
    }

    /// The pool's connections: open, and open but unused.
    pub fn pool_state(&self) -> PoolState {
        let state = self.pool.state();
        PoolState {
            connections: state.connections,
            idle: state.idle_connections,
            reads_gave_way: self.write_gate.reads_gave_way(),
        }
    }

    /// Whether the database answers and every migration of this binary is applied.
    pub fn ready(&self) -> Result<bool, Error> {
        let mut conn = self.pool.get()?;
        migrations::current(&mut conn, SQLITE_MIGRATIONS, POSTGRES_MIGRATIONS)
    }

    pub fn ping(&self) -> bool {
        self.read(|db| db.scalar(&sql::Sql::new("SELECT 1")))
            .is_ok()
    }
}
