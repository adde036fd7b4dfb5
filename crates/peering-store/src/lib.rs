//! Storage of peeringd: one connection type over SQLite and PostgreSQL, migrations,
//! queries derived from the resources' declarations, writes with their change records.
#![doc = include_str!("../README.md")]

mod accounts;
mod changes;
mod checkpoint;
mod computed;
mod connection;
mod copy;
mod delete;
mod error;
mod import;
mod jobs;
mod migrations;
mod peeringdb;
mod peeringdb_reads;
mod query;
mod schema;
mod sql;
#[cfg(test)]
mod sql_snapshots;
pub mod testing;
mod users;
mod write;
mod writers;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use diesel::connection::Connection;
use diesel_migrations::{embed_migrations, EmbeddedMigrations};
use peering_domain::input::Draft;
use peering_domain::{FieldErrors, Record, ResourceSpec};
use peering_filter::{Catalog, Filter};

pub use changes::ChangeContext;
pub use connection::{Backend, Target};
pub use error::{Error, StorageProblem};
pub use import::ImportWriter;
pub use jobs::{ClaimedJob, JobEnd, NewJob};
pub use peeringdb::{Applied, CopyWriter, Counts};
pub use peeringdb_reads::LanPresence;
pub use query::{Page, Related, Window};
pub use users::{LoginRecord, NewToken, Principal, SessionRecord, TokenInfo, TokenRecord};
pub use write::ImportedObject;

use connection::{AnyConnection, Db, Pool};

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");
const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");

/// What the connection pool holds, for metrics.
#[derive(Debug, Clone, Copy)]
pub struct PoolState {
    pub connections: u32,
    pub idle: u32,
}

/// A handle on the database; cheap to clone, shared by every request.
#[derive(Clone)]
pub struct Store {
    pool: Pool,
    /// Connections for writes alone, so that a write never waits for readers to hand one
    /// back (under a flood of reads, every connection of `pool` is taken).
    write_pool: Pool,
    backend: Backend,
    queries: Arc<AtomicU64>,
    /// SQLite's log checkpointer, told of each write.
    checkpoints: Option<Arc<checkpoint::Checkpoints>>,
    /// SQLite's writers of this process, in the order they arrived.
    writers: Option<Arc<writers::WriterQueue>>,
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

fn ids_of(records: &[Record]) -> Vec<i64> {
    records.iter().map(|r| r.id).collect()
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
        let write_pool = connection::build_pool(target, WRITE_POOL_SIZE)?;
        let checkpoints = match backend {
            Backend::Sqlite => Some(checkpoint::Checkpoints::start(pool.clone())?),
            Backend::Postgres => None,
        };
        Ok(Store {
            pool,
            write_pool,
            backend,
            queries: Arc::new(AtomicU64::new(0)),
            checkpoints,
            writers: (backend == Backend::Sqlite).then(Arc::default),
        })
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// How many SQL statements this store has run (for tests that count queries).
    pub fn queries_executed(&self) -> u64 {
        self.queries.load(Ordering::Relaxed)
    }

    /// The filter catalog of a resource.
    pub fn catalog(spec: &ResourceSpec) -> Catalog<'static> {
        peering_filter::ResourceCatalog::of(spec).catalog()
    }

    fn read<T>(&self, f: impl FnOnce(&mut Db<'_>) -> Result<T, Error>) -> Result<T, Error> {
        let mut conn = self.pool.get()?;
        let mut db = match &mut *conn {
            AnyConnection::Sqlite(c) => Db::Sqlite(c, &self.queries),
            AnyConnection::Postgresql(c) => Db::Postgres(c, &self.queries),
        };
        f(&mut db)
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
        let mut versioned = |db: &mut Db<'_>| {
            let (out, changed) = f(db)?;
            if changed {
                next_data_version(db)?;
            }
            Ok(out)
        };
        let written = match &mut *conn {
            // IMMEDIATE takes the write lock up front, so two writers queue on the busy
            // timeout instead of failing when a read lock would have to be upgraded.
            AnyConnection::Sqlite(c) => {
                c.immediate_transaction(|c| versioned(&mut Db::Sqlite(c, counter)))
            }
            AnyConnection::Postgresql(c) => {
                c.transaction(|c| versioned(&mut Db::Postgres(c, counter)))
            }
        };
        if let Some(checkpoints) = &self.checkpoints {
            checkpoints.wrote();
        }
        written
    }

    /// A value that changes with every write, through any instance on this database: equal
    /// values mean equal data (for caches of rendered answers).
    pub fn data_version(&self) -> Result<i64, Error> {
        self.read(|db| {
            Ok(db
                .scalar(&sql::Sql::new(
                    "SELECT version FROM data_version WHERE id = 1",
                ))?
                .unwrap_or_default())
        })
    }

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

    /// Whether the database answers.
    /// Deletes the change records older than `days` days; how many went. Run as a write,
    /// so that cached lists of change records are read anew.
    pub fn purge_changes(&self, days: u32) -> Result<usize, Error> {
        let cutoff = chrono::Utc::now() - chrono::Duration::days(i64::from(days));
        let cutoff = peering_domain::value::time_to_micros(cutoff);
        self.write(|db| {
            let mut sql = sql::Sql::new("DELETE FROM object_changes WHERE time < ");
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

    /// Every object of a resource in list order, with its relation lists (many-to-many
    /// ids, tags) but without loading the related objects themselves.
    pub fn everything(&self, spec: &'static ResourceSpec) -> Result<Vec<Record>, Error> {
        self.read(|db| query::everything(db, spec))
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

    /// One page of a list; `relations: false` skips loading related objects (for
    /// representations that show none).
    pub fn list(
        &self,
        spec: &'static ResourceSpec,
        filter: &Filter,
        window: Window,
        relations: bool,
    ) -> Result<Page, Error> {
        self.read(|db| query::list(db, spec, filter, window, relations))
    }

    /// Every id of a list, in list order (for answers read in slices).
    pub fn list_ids(
        &self,
        spec: &'static ResourceSpec,
        filter: &Filter,
    ) -> Result<Vec<i64>, Error> {
        self.read(|db| query::list_ids(db, spec, filter))
    }

    /// Objects by id, in the order given; `relations` as in [`Store::list`].
    pub fn objects(
        &self,
        spec: &'static ResourceSpec,
        ids: &[i64],
        relations: bool,
    ) -> Result<(Vec<Record>, Related), Error> {
        self.read(|db| query::in_order(db, spec, ids, relations))
    }

    pub fn get(
        &self,
        spec: &'static ResourceSpec,
        id: i64,
    ) -> Result<Option<(Record, Related)>, Error> {
        self.read(|db| {
            let (mut records, related) = query::by_ids(db, spec, &[id])?;
            Ok(records.pop().map(|r| (r, related)))
        })
    }

    /// The first filter value that names no object, as `(parameter, value)`: foreign keys
    /// by id or attribute and tags must name existing objects, as in the reference system.
    pub fn unknown_filter_value(
        &self,
        spec: &'static ResourceSpec,
        filter: &Filter,
    ) -> Result<Option<(String, String)>, Error> {
        let table = schema::table(spec);
        let checks: Vec<_> = filter
            .predicates
            .iter()
            .filter_map(|p| {
                let must_exist = table.targets.get(p.field)?.must_exist()?;
                let values: Vec<String> = p
                    .values
                    .iter()
                    .filter(|v| **v != peering_filter::Value::Null)
                    .map(ToString::to_string)
                    .collect();
                (!values.is_empty()).then_some((p, must_exist, values))
            })
            .collect();
        if checks.is_empty() {
            return Ok(None);
        }
        self.read(|db| {
            for (p, must_exist, values) in checks {
                let numeric = matches!(p.kind, peering_filter::FilterKind::ForeignKey);
                let mut sql = sql::Sql::new(&format!(
                    "SELECT {column} FROM {table} WHERE {column} IN ",
                    column = must_exist.column,
                    table = must_exist.table,
                ));
                sql.bind_list(values.iter().map(|v| match v.parse::<i64>() {
                    Ok(n) if numeric => sql::Bind::Int(n),
                    _ => sql::Bind::Text(v.clone()),
                }));
                let known: Vec<String> = db
                    .load(&sql)?
                    .into_iter()
                    .filter_map(|mut r| r.take(0).into_text())
                    .collect();
                if let Some(missing) = values.into_iter().find(|v| !known.contains(v)) {
                    return Ok(Some((p.param.clone(), missing)));
                }
            }
            Ok(None)
        })
    }

    /// Creates objects all-or-none; returns them as a read shows them.
    pub fn create(
        &self,
        spec: &'static ResourceSpec,
        drafts: Vec<Draft>,
        ctx: &ChangeContext,
    ) -> Result<(Vec<Record>, Related), Error> {
        self.write(|db| {
            accounts::require_active(db, &ctx.authority)?;
            let guard = accounts::Guard::before(db, spec, &[], &ctx.authority)?;
            let (records, related) = write::create(db, spec, drafts.clone(), ctx)?;
            guard.after(db, &ids_of(&records))?;
            with_related(db, spec, records, related)
        })
    }

    /// Updates existing objects all-or-none (unknown ids are skipped); returns them as a
    /// read shows them.
    pub fn update(
        &self,
        spec: &'static ResourceSpec,
        items: Vec<(i64, Draft)>,
        ctx: &ChangeContext,
    ) -> Result<(Vec<Record>, Related), Error> {
        let ids: Vec<i64> = items.iter().map(|(id, _)| *id).collect();
        self.write(|db| {
            accounts::require_active(db, &ctx.authority)?;
            write::lock_rows(db, spec, &ids, write::Lock::NoKeyUpdate)?;
            let guard = accounts::Guard::before(db, spec, &ids, &ctx.authority)?;
            let passwords = accounts::Passwords::before(db, spec, &ids)?;
            let (records, related) = write::update(db, spec, items.clone(), ctx)?;
            guard.after(db, &ids_of(&records))?;
            passwords.end_sessions_of_changed(db)?;
            with_related(db, spec, records, related)
        })
    }

    /// Deletes objects all-or-none (unknown ids are skipped).
    pub fn delete(
        &self,
        spec: &'static ResourceSpec,
        ids: &[i64],
        ctx: &ChangeContext,
    ) -> Result<(), Error> {
        self.write(|db| {
            accounts::require_active(db, &ctx.authority)?;
            write::lock_rows(db, spec, ids, write::Lock::Update)?;
            let guard = accounts::Guard::before(db, spec, ids, &ctx.authority)?;
            delete::delete(db, spec, ids, ctx)?;
            guard.after(db, &[])
        })
    }

    pub fn token_by_hash(&self, hash: &str) -> Result<Option<TokenRecord>, Error> {
        self.read(|db| users::token_by_hash(db, hash))
    }

    pub fn touch_token(&self, id: i64) -> Result<(), Error> {
        self.read(|db| users::touch_token(db, id))
    }

    pub fn create_user(
        &self,
        username: &str,
        password_hash: &str,
        superuser: bool,
    ) -> Result<i64, Error> {
        self.write(|db| users::create_user(db, username, password_hash, superuser))
    }

    pub fn user_id(&self, username: &str) -> Result<Option<i64>, Error> {
        self.read(|db| users::user_id(db, username))
    }

    pub fn count_users(&self) -> Result<i64, Error> {
        self.read(users::count_users)
    }

    pub fn create_token(&self, token: &NewToken) -> Result<i64, Error> {
        self.write(|db| users::create_token(db, token))
    }

    /// Tokens of one user (`Some`) or of everyone, newest first.
    pub fn list_tokens(&self, user_id: Option<i64>) -> Result<Vec<TokenInfo>, Error> {
        self.read(|db| users::list_tokens(db, user_id))
    }

    pub fn token(&self, id: i64) -> Result<Option<TokenInfo>, Error> {
        self.read(|db| users::token(db, id))
    }

    /// Deletes a token; whether it existed.
    pub fn delete_token(&self, id: i64) -> Result<bool, Error> {
        self.write(|db| users::delete_token(db, id))
    }

    pub fn login_record(&self, username: &str) -> Result<Option<LoginRecord>, Error> {
        self.read(|db| users::login_record(db, username))
    }

    pub fn principal(&self, user_id: i64) -> Result<Option<Principal>, Error> {
        self.read(|db| users::principal(db, user_id))
    }

    /// Sets a user's password hash; whether the user exists.
    pub fn set_password(&self, username: &str, hash: &str) -> Result<bool, Error> {
        self.write(|db| users::set_password(db, username, hash))
    }

    pub fn create_session(
        &self,
        key_hash: &str,
        user_id: i64,
        csrf_token: &str,
        expires: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), Error> {
        self.write(|db| users::create_session(db, key_hash, user_id, csrf_token, expires))
    }

    pub fn session_by_hash(&self, key_hash: &str) -> Result<Option<SessionRecord>, Error> {
        self.read(|db| users::session_by_hash(db, key_hash))
    }

    pub fn delete_session(&self, key_hash: &str) -> Result<(), Error> {
        self.write(|db| users::delete_session(db, key_hash))
    }

    /// A user's preferences (a JSON object).
    pub fn preferences(&self, user_id: i64) -> Result<serde_json::Value, Error> {
        self.read(|db| users::preferences(db, user_id))
    }

    pub fn set_preferences(&self, user_id: i64, value: &serde_json::Value) -> Result<(), Error> {
        self.write(|db| users::set_preferences(db, user_id, value))
    }
}

/// Gives the data version a new random value (random, not a counter, so that a database
/// restored from a backup does not repeat a value seen before).
fn next_data_version(db: &mut Db<'_>) -> Result<(), Error> {
    let (high, _) = uuid::Uuid::new_v4().as_u64_pair();
    let mut sql = sql::Sql::new("UPDATE data_version SET version = ");
    sql.bind(sql::Bind::Int(high as i64)).push(" WHERE id = 1");
    db.execute(&sql)?;
    Ok(())
}

/// Written objects with the objects they point to, as an answer nests them; `related`
/// holds those the write's checks already loaded (objects of other resources, which the
/// write did not change), so that only the rest are read.
fn with_related(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    mut records: Vec<Record>,
    mut related: Related,
) -> Result<(Vec<Record>, Related), Error> {
    query::load_related(db, spec, &mut records, &mut related)?;
    Ok((records, related))
}

/// What `leaving_out_refused` gives: the last write's result (none when every item was
/// refused) and the items left out, with their errors.
pub type LeftOut<T, R> = (Option<R>, Vec<(T, FieldErrors)>);

/// Writes items with `write`; one the checks refuse (`Error::Invalid` at its place) is left
/// out, with its errors, and the others are written again. What the last write returned
/// (none when every item was refused), and the items left out.
pub fn leaving_out_refused<T: Clone, R>(
    mut items: Vec<T>,
    mut write: impl FnMut(Vec<T>) -> Result<R, Error>,
) -> Result<LeftOut<T, R>, Error> {
    let mut refused = Vec::new();
    while !items.is_empty() {
        match write(items.clone()) {
            Ok(written) => return Ok((Some(written), refused)),
            Err(Error::Invalid {
                index: Some(index),
                errors,
            }) if index < items.len() => refused.push((items.remove(index), errors)),
            Err(e) => return Err(e),
        }
    }
    Ok((None, refused))
}
