//! Migrations, applied by one process at a time: instances starting together on an empty
//! database would otherwise both create the same tables, and one would fail. The first
//! takes a lock (a PostgreSQL advisory lock; on SQLite an exclusive transaction around
//! the migrations), the others wait for it, then find nothing left to do. A database
//! migrated by a newer peeringd is refused: this binary would not know its tables.

use diesel::connection::SimpleConnection;
use diesel::migration::{MigrationSource, MigrationVersion};
use diesel::pg::{Pg, PgConnection};
use diesel::sqlite::{Sqlite, SqliteConnection};
use diesel::Connection;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness};

use crate::connection::Target;
use crate::error::{Cause, Error};

/// The key of the advisory lock migrations hold on PostgreSQL ("peeringd" in ASCII).
const ADVISORY_LOCK_KEY: i64 = 0x7065_6572_696e_6764;

/// How long a SQLite instance waits for another one's migrations.
const SQLITE_WAIT_MS: u32 = 120_000;

type Boxed = Box<dyn std::error::Error + Send + Sync>;

fn failed(e: Boxed) -> Error {
    Error::Backend(Cause::from_boxed(format!("migration failed: {e}"), e))
}

pub(crate) fn migrate(
    url: &str,
    sqlite: EmbeddedMigrations,
    postgres: EmbeddedMigrations,
) -> Result<usize, Error> {
    match Target::parse(url)? {
        Target::Sqlite(path) => {
            let mut c = SqliteConnection::establish(&path)
                .map_err(|e| Error::Unavailable(e.to_string()))?;
            c.batch_execute(&format!("PRAGMA busy_timeout = {SQLITE_WAIT_MS};"))?;
            // The migrations run as savepoints inside the exclusive transaction.
            c.exclusive_transaction(|c| {
                refuse_newer::<Sqlite>(c, &sqlite)?;
                apply_pending::<Sqlite>(c, sqlite)
            })
        }
        Target::Postgres(url) => {
            let mut c =
                PgConnection::establish(&url).map_err(|e| Error::Unavailable(e.to_string()))?;
            c.batch_execute(&format!("SELECT pg_advisory_lock({ADVISORY_LOCK_KEY})"))?;
            let applied = refuse_newer::<Pg>(&mut c, &postgres)
                .and_then(|()| apply_pending::<Pg>(&mut c, postgres));
            c.batch_execute(&format!("SELECT pg_advisory_unlock({ADVISORY_LOCK_KEY})"))?;
            applied
        }
    }
}

/// Applies the migrations not yet applied, oldest first, each in its own transaction (a
/// savepoint on SQLite), logging each one's name as it lands so that an operator sees
/// what an upgrade changed, and which migration a failure stopped at; how many.
fn apply_pending<DB>(
    c: &mut impl MigrationHarness<DB>,
    source: EmbeddedMigrations,
) -> Result<usize, Error>
where
    DB: diesel::backend::Backend,
    EmbeddedMigrations: MigrationSource<DB>,
{
    let pending = c.pending_migrations(source).map_err(failed)?;
    if !pending.is_empty() {
        log::info!("applying {} database migration(s)", pending.len());
    }
    for migration in &pending {
        let started = std::time::Instant::now();
        c.run_migration(&**migration).map_err(|e| {
            log::error!("migration {} failed: {e}", migration.name());
            failed(e)
        })?;
        log::info!(
            "applied migration {} in {} ms",
            migration.name(),
            started.elapsed().as_millis()
        );
    }
    Ok(pending.len())
}

/// Refuses a database on which a migration this binary does not know was applied.
fn refuse_newer<DB>(
    c: &mut impl MigrationHarness<DB>,
    known: &EmbeddedMigrations,
) -> Result<(), Error>
where
    DB: diesel::backend::Backend,
    EmbeddedMigrations: MigrationSource<DB>,
{
    let known: Vec<MigrationVersion<'static>> = MigrationSource::<DB>::migrations(known)
        .map_err(failed)?
        .iter()
        .map(|m| m.name().version().as_owned())
        .collect();
    let applied = c.applied_migrations().map_err(failed)?;
    match applied.iter().find(|v| !known.contains(v)) {
        Some(unknown) => Err(Error::Config(format!(
            "the database was migrated by a newer peeringd (migration {unknown} is unknown to \
             this one): run a peeringd at least as new as the one that migrated it"
        ))),
        None => Ok(()),
    }
}

/// Whether every migration this binary knows is applied (for readiness probes): a
/// database another instance is still migrating, or an older one, is not ready.
pub(crate) fn current(
    conn: &mut crate::connection::AnyConnection,
    sqlite: EmbeddedMigrations,
    postgres: EmbeddedMigrations,
) -> Result<bool, Error> {
    let pending = match conn {
        crate::connection::AnyConnection::Sqlite(c) => c.has_pending_migration(sqlite),
        crate::connection::AnyConnection::Postgresql(c) => c.has_pending_migration(postgres),
    };
    pending.map(|p| !p).map_err(failed)
}
