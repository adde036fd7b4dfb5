//! Storage of peeringd: one connection type over SQLite and PostgreSQL, migrations,
//! queries derived from the resources' declarations, writes with their change records.
#![doc = include_str!("../README.md")]

mod accounts;
mod background;
mod caches;
mod checkpoint;
mod engine;
mod error;
mod gate;
mod import;
#[cfg(test)]
mod list_plans;
mod migrations;
mod pg_tls;
mod pool_manager;
#[cfg(test)]
mod reads_check;
mod repositories;
#[cfg(test)]
mod sql_snapshots;
mod store_resources;
mod store_upkeep;
pub mod testing;
mod together;
mod vacuum;
mod writers;

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use diesel::connection::Connection;
use diesel_migrations::{embed_migrations, EmbeddedMigrations};
use peering_domain::ResourceSpec;
use peering_filter::Catalog;

pub use caches::row_clock::{Depends, RowClock};
pub use changes::ChangeContext;
pub use connection::{Backend, Target};
pub use error::{Cause, Error, StorageProblem};
pub use follow::{ChangeAction, FollowChanges, WrittenChange};
pub use gate::Writing;
pub use import::ImportWriter;
pub use query::{EachSlice, PageSlice, PickIds};
pub use query::{Page, Related, Window};
pub use repositories::data_sources::{DataSources, Followers, FoundFile, Synchronised};
pub use repositories::jobs::{ClaimedJob, Claims, Ending, JobEnd, JobText, Jobs, NewJob};
pub use repositories::peeringdb::{Applied, CopyWriter, Counts, LanPresence, PeeringDb};
pub use repositories::schedules::{ClaimedRun, Schedules};
pub use repositories::users::{
    LoginRecord, NewToken, Principal, SessionRecord, TokenInfo, TokenRecord, Users,
};
pub use store_resources::{leaving_out_refused, LeftOut};
pub use store_upkeep::Upkeep;
pub use together::{Answer, Detail, Run};
pub use versions::TableVersions;
pub use write::ImportedObject;

use caches::commit_watch::CommitWatch;
use caches::{kept, order_ids, orders, versions};
use connection::{AnyConnection, Db, Mode, Pool};
use engine::{
    changes, computed, connection, copy, delete, follow, query, removals, schema, sql, write,
    written,
};
use written::Written;

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");
const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");

/// What the connection pool holds, for metrics.
#[derive(Debug, Clone, Copy)]
pub struct PoolState {
    pub connections: u32,
    pub idle: u32,
    /// Reads that waited for a write of the API to end before they started (`gate.rs`).
    pub reads_gave_way: u64,
}

/// A handle on the database; cheap to clone, shared by every request.
#[derive(Clone)]
pub struct Store {
    pool: Pool,
    /// Connections for writes alone, so that a write never waits for readers to hand one
    /// back (under a flood of reads, every connection of `pool` is taken).
    write_pool: Pool,
    /// Writes of the API under way, which reads on `pool` give way to (`gate.rs`).
    write_gate: Arc<gate::WriteGate>,
    /// Whether reads through this handle give way to writes (not those of a write).
    reads_give_way: bool,
    backend: Backend,
    queries: Arc<AtomicU64>,
    /// Reads of the tables' versions, counted apart: the API reads them for many requests
    /// at once, so they belong to no request's cost.
    version_reads: Arc<AtomicU64>,
    /// When rows were last written, for texts kept per object (`row_clock.rs`).
    clock: Arc<RowClock>,
    /// On SQLite, the tables' versions now without a round of reads (`commit_watch.rs`).
    watch: Option<Arc<CommitWatch>>,
    /// SQLite's log checkpointer, told of each write.
    checkpoints: Option<Arc<checkpoint::Checkpoints>>,
    /// PostgreSQL's vacuums of the tables written, told of each write.
    vacuums: Option<Arc<vacuum::Vacuums>>,
    /// SQLite's writers of this process, in the order they arrived.
    writers: Option<Arc<writers::WriterQueue>>,
    /// Related objects kept between reads (`kept.rs`).
    kept: Arc<kept::KeptObjects>,
    /// Details asked at the same time, read together (`together.rs`).
    together: Option<Arc<together::Together>>,
    /// What follows the changes of every write (`follow.rs`): set once, for all the
    /// handles on this store.
    follower: Arc<std::sync::OnceLock<Arc<dyn FollowChanges>>>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("backend", &self.backend)
            .finish()
    }
}

/// How long a SQLite writer waits for the writers queued before it.
const WRITER_PATIENCE: std::time::Duration = std::time::Duration::from_secs(30);
/// How many times a transaction that lost a race with other writers runs again.
const WRITE_RETRIES: u32 = 6;
/// Connections kept for writes: one for each of the API's two write threads, and one for
/// the job workers and commands (a PeeringDB synchronisation holds one for seconds).
/// SQLite writes one at a time anyway (`writers.rs`).
const WRITE_POOL_SIZE: u32 = 3;

/// A pause before running a transaction again: growing, and random so that the writers
/// that collided do not collide again.
fn retry_pause(attempt: u32) -> std::time::Duration {
    let base_ms = 5u64 << attempt.min(6);
    let jitter_ms = (uuid::Uuid::new_v4().as_u128() % 1000) as u64 * base_ms / 1000;
    std::time::Duration::from_millis(base_ms + jitter_ms)
}

/// Applies pending migrations; returns how many were applied (see `migrations.rs`).
pub fn migrate(url: &str) -> Result<usize, Error> {
    migrations::migrate(url, SQLITE_MIGRATIONS, POSTGRES_MIGRATIONS)
}

/// Names of the embedded migrations of each backend, for the drift check.
pub fn migration_names() -> (Vec<String>, Vec<String>) {
    let names = |m: &EmbeddedMigrations| -> Vec<String> {
        use diesel::migration::MigrationSource;
        MigrationSource::<diesel::sqlite::Sqlite>::migrations(m)
            .map(|list| list.iter().map(|m| m.name().to_string()).collect())
            .unwrap_or_default()
    };
    (names(&SQLITE_MIGRATIONS), names(&POSTGRES_MIGRATIONS))
}

impl Store {
    /// Opens the database at `url`, applying pending migrations first.
    pub fn open(url: &str, pool_size: u32) -> Result<Store, Error> {
        migrate(url)?;
        let target = Target::parse(url)?;
        let backend = target.backend();
        let pool = connection::build_pool(target.clone(), pool_size.max(1))?;
        let write_pool = connection::build_pool(target.clone(), WRITE_POOL_SIZE)?;
        let watch = CommitWatch::open(&target)?;
        let (checkpoints, vacuums) = match backend {
            Backend::Sqlite => (Some(checkpoint::Checkpoints::start(pool.clone())?), None),
            Backend::Postgres => {
                let own_connection = connection::build_pool(target, 1)?;
                (None, Some(vacuum::Vacuums::start(own_connection)?))
            }
        };
        Ok(Store {
            pool,
            write_pool,
            write_gate: Arc::default(),
            reads_give_way: true,
            backend,
            queries: Arc::new(AtomicU64::new(0)),
            version_reads: Arc::new(AtomicU64::new(0)),
            kept: Arc::default(),
            clock: Arc::default(),
            watch: watch.map(Arc::new),
            checkpoints,
            vacuums,
            writers: (backend == Backend::Sqlite).then(Arc::default),
            together: Some(Arc::default()),
            follower: Arc::default(),
        })
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Has `follower` enqueue, in each write's transaction, the jobs that follow its
    /// changes; for every handle on this store. Only the first follower given counts:
    /// false when one was given before.
    pub fn follow_changes(&self, follower: Arc<dyn FollowChanges>) -> bool {
        self.follower.set(follower).is_ok()
    }

    /// How many SQL statements this store has run (for tests that count queries), reads of
    /// the tables' versions aside.
    pub fn queries_executed(&self) -> u64 {
        self.queries.load(Ordering::Relaxed)
    }

    /// The same store reading through the connections kept for writes: for the reads a
    /// write request makes before it writes (its caller's token, the object's existence),
    /// which then wait for no reader to hand back a connection.
    pub fn on_write_connections(&self) -> Store {
        Store {
            pool: self.write_pool.clone(),
            reads_give_way: false,
            // Its few reads are each a write's own: they wait for no other's.
            together: None,
            ..self.clone()
        }
    }

    /// The same store, whose statements are tallied apart from [`Store::queries_executed`]:
    /// for the job workers' own bookkeeping (looking for jobs, leases, recording ends),
    /// which runs whenever the workers please and would otherwise land in the middle of a
    /// test's count of what a request costs.
    pub fn tallied_apart(&self) -> Store {
        Store {
            queries: Arc::new(AtomicU64::new(0)),
            ..self.clone()
        }
    }

    /// How many times the tables' versions were read.
    pub fn version_reads(&self) -> u64 {
        self.version_reads.load(Ordering::Relaxed)
    }

    /// The filter catalog of a resource.
    pub fn catalog(spec: &ResourceSpec) -> Catalog<'static> {
        peering_filter::ResourceCatalog::of(spec).catalog()
    }

    /// The catalog of a caller who sees `spec`'s secret fields, or of one who does not
    /// (who neither filters nor orders by them).
    pub fn catalog_for(spec: &ResourceSpec, sees_secrets: bool) -> Catalog<'static> {
        if sees_secrets {
            return Self::catalog(spec);
        }
        peering_filter::ResourceCatalog::without_secrets(spec).catalog()
    }

    fn read<T>(&self, f: impl FnOnce(&mut Db<'_>) -> Result<T, Error>) -> Result<T, Error> {
        if self.reads_give_way {
            self.write_gate.before_read(gate::MAX_WAIT);
        }
        self.read_counted(&self.queries, f)
    }

    /// Marks a write of the API under way until the value returned is dropped: meanwhile,
    /// reads about to start wait for it to end (at most a few milliseconds), so that a
    /// write keeps its latency under a flood of reads. Long writes (a synchronisation, an
    /// import) are not marked: reads would wait for each of them.
    pub fn writing(&self) -> Writing {
        self.write_gate.writing()
    }

    /// Waits until no write of the API has run for `quiet`, at most `max_wait`; whether it
    /// waited. For background work (jobs): it leaves the cores and the writers' turns to
    /// the writes that callers wait for, including a client's next batch of a series.
    pub fn give_way_to_writes(
        &self,
        max_wait: std::time::Duration,
        quiet: std::time::Duration,
    ) -> bool {
        self.write_gate.before_background(max_wait, quiet)
    }

    fn read_counted<T>(
        &self,
        counter: &AtomicU64,
        f: impl FnOnce(&mut Db<'_>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let mut conn = self.pool.get()?;
        let mut db = match &mut *conn {
            AnyConnection::Sqlite(c) => Db::Sqlite(c, counter, Mode::Read(Some(&self.kept))),
            AnyConnection::Postgresql(c) => Db::Postgres(c, counter, Mode::Read(Some(&self.kept))),
        };
        f(&mut db)
    }

    /// Like [`Store::read`], with every statement of `f` reading the same snapshot of the
    /// data (a read-only transaction; repeatable read on PostgreSQL), so that a read in
    /// several statements sees no write that landed between them.
    fn read_snapshot<T>(
        &self,
        f: impl FnOnce(&mut Db<'_>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        if self.reads_give_way {
            self.write_gate.before_read(gate::MAX_WAIT);
        }
        let mut conn = self.pool.get()?;
        let counter = &self.queries;
        let mode = Mode::Read(Some(&self.kept));
        match &mut *conn {
            AnyConnection::Sqlite(c) => c.transaction(|c| f(&mut Db::Sqlite(c, counter, mode))),
            AnyConnection::Postgresql(c) => c
                .build_transaction()
                .read_only()
                .repeatable_read()
                .run(|c| f(&mut Db::Postgres(c, counter, mode))),
        }
    }

    /// Runs `f` in one transaction: everything it writes lands, or nothing does. The data
    /// version changes in the same transaction, last (so that writers never wait on its row
    /// while holding it). On SQLite, the process's writers take turns (`writers.rs`). A
    /// transaction that lost a race with other writers (a deadlock, a serialization
    /// failure, a lock wait past its limit) wrote nothing and runs again, a few times, after
    /// a short random pause; then it fails with `Error::Busy`.
    fn write<T>(&self, mut f: impl FnMut(&mut Db<'_>) -> Result<T, Error>) -> Result<T, Error> {
        self.write_changing(|db| f(db).map(|out| (out, true)))
    }

    /// Like [`Store::write`], for a transaction that may turn out to change nothing
    /// visible (a claim that found no job): `f` says whether it did, and the data version
    /// changes only then, so that cached answers stay valid.
    fn write_changing<T>(
        &self,
        mut f: impl FnMut(&mut Db<'_>) -> Result<(T, bool), Error>,
    ) -> Result<T, Error> {
        let _turn = match &self.writers {
            Some(queue) => Some(queue.enter(WRITER_PATIENCE)?),
            None => None,
        };
        let mut attempt = 0;
        loop {
            match self.write_once(&mut f) {
                Err(e) if e.is_contention() && attempt < WRITE_RETRIES => {
                    attempt += 1;
                    log::info!("write retried ({attempt}): {e}");
                    std::thread::sleep(retry_pause(attempt));
                }
                done => return done,
            }
        }
    }

    fn write_once<T>(
        &self,
        f: &mut impl FnMut(&mut Db<'_>) -> Result<(T, bool), Error>,
    ) -> Result<T, Error> {
        let mut conn = self.write_pool.get()?;
        let counter = &self.queries;
        let written = RefCell::new(Written::default());
        let follower = self.follower.get().map(|f| f.as_ref());
        let orders = self.kept.orders();
        // The versions before and after the write, when an order it may keep reads a
        // table it wrote (`orders.rs`), or it may keep related objects of one (`kept.rs`).
        let around = RefCell::new(None);
        let mut versioned = |db: &mut Db<'_>| {
            let (out, changed) = f(db)?;
            if changed {
                // Moving jobs along the queue carries nothing kept through it: what was
                // kept of the jobs is read again (the queue's writes lock no row others
                // hold, see `versions.rs`).
                let read_before = !written.borrow().only_moves_the_queue()
                    && (orders.any_reading(|t| written.borrow().may_have_written(t))
                        || self.kept.carried_by(&written.borrow())
                        || self.clock.tracks_any(&written.borrow()));
                let before = read_before
                    .then(|| versions::read_before_advance(db))
                    .transpose()?
                    .flatten();
                let version = versions::advance(db, &written.borrow())?;
                let after = before
                    .as_ref()
                    .map(|b| b.advanced(&written.borrow(), version));
                *around.borrow_mut() = before.zip(after);
            }
            Ok(out)
        };
        let done = match &mut *conn {
            // IMMEDIATE takes the write lock up front, so two writers queue on the busy
            // timeout instead of failing when a read lock would have to be upgraded.
            AnyConnection::Sqlite(c) => c.immediate_transaction(|c| {
                versioned(&mut Db::Sqlite(c, counter, Mode::Write(&written, follower)))
            }),
            AnyConnection::Postgresql(c) => c.transaction(|c| {
                versioned(&mut Db::Postgres(
                    c,
                    counter,
                    Mode::Write(&written, follower),
                ))
            }),
        };
        if let Some(checkpoints) = &self.checkpoints {
            checkpoints.wrote();
        }
        if done.is_ok() {
            self.after_commit(&written.borrow(), around.borrow().as_ref(), follower);
        }
        done
    }

    /// Tells those who follow writes what a write that committed wrote.
    fn after_commit(
        &self,
        written: &Written,
        around: Option<&(TableVersions, TableVersions)>,
        follower: Option<&dyn FollowChanges>,
    ) {
        if let Some(vacuums) = &self.vacuums {
            vacuums.wrote(written.tables());
        }
        if let Some(follower) = follower.filter(|_| written.followed()) {
            follower.committed();
        }
        // Reads after this write would find the orders of the tables it wrote out of
        // date: forgotten now, they are not tried first, unless the write changed
        // nothing they are read from (`orders.rs`).
        let versions = around.map(|(before, after)| (before, after));
        self.kept.orders().after_write(written, versions);
        self.kept.after_write(written, versions);
        self.clock.after_write(written, versions);
    }

    /// When rows were last written, as this process knows it: for texts kept per object.
    pub fn row_clock(&self) -> &RowClock {
        &self.clock
    }

    /// A value that changes with every write, through any instance on this database: equal
    /// values mean equal data (for caches of rendered answers).
    pub fn data_version(&self) -> Result<i64, Error> {
        self.read_counted(&self.version_reads, versions::read_whole)
    }

    /// The version of every table, for caches keyed by the tables an answer reads: equal
    /// [`TableVersions::of`] mean those tables hold the same data.
    pub fn table_versions(&self) -> Result<TableVersions, Error> {
        self.read_counted(&self.version_reads, versions::read)
    }

    /// The tables' versions now, when they can be told at once, without waiting (SQLite:
    /// `commit_watch.rs`); else `None`, and the caller reads them, or waits for a read.
    pub fn table_versions_at_once(&self) -> Option<Arc<TableVersions>> {
        self.watch.as_ref()?.versions_now(&self.version_reads)
    }

    /// [`Store::table_versions`], or `previous` itself when no write has landed since it
    /// was read. A busy server reads the versions many times between two writes: this
    /// reads no row of them then, and builds no new set.
    pub fn table_versions_since(
        &self,
        previous: Option<&Arc<TableVersions>>,
    ) -> Result<Arc<TableVersions>, Error> {
        let Some(previous) = previous else {
            return self.table_versions().map(Arc::new);
        };
        let changed = self.read_counted(&self.version_reads, |db| {
            versions::read_if_changed(db, previous)
        })?;
        Ok(changed.map_or_else(|| Arc::clone(previous), Arc::new))
    }
}
