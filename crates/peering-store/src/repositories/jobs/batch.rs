//! Jobs enqueued many at once, in as few statements as the database allows (one for a few
//! thousand): the webhook deliveries a bulk write sets off, in the write's transaction.

use peering_domain::value::{now, time_to_micros};

use super::NewJob;
use crate::connection::{Backend, Db};
use crate::error::Error;
use crate::sql::{Bind, Sql};

/// The columns a new job fills; the others keep their defaults.
const COLUMNS: &[&str] = &[
    "object_type",
    "object_id",
    "name",
    "name_lc",
    "status",
    "created",
    "user_id",
    "job_id",
    "params",
];

/// Inserts `jobs`, waiting, created now.
pub(crate) fn enqueue_many(db: &mut Db<'_>, jobs: &[NewJob]) -> Result<(), Error> {
    if jobs.is_empty() {
        return Ok(());
    }
    let created = time_to_micros(now());
    let rows = jobs.iter().map(|job| row(job, created)).collect();
    let backend = db.backend();
    for mut sql in Sql::inserts_by(backend, "jobs", COLUMNS, rows, rows_per_statement(backend)) {
        // Its text varies with the number of jobs: not worth a place in the cache.
        sql.uncacheable();
        db.execute(&sql)?;
    }
    Ok(())
}

/// The most jobs one statement inserts: on SQLite, as many as its bound parameters allow
/// (32,766), so that the deliveries of a bulk write of a thousand objects to a couple of
/// webhooks go in one; PostgreSQL binds one array per column, whatever their length.
fn rows_per_statement(backend: Backend) -> usize {
    match backend {
        Backend::Sqlite => 32_000 / COLUMNS.len(),
        Backend::Postgres => usize::MAX,
    }
}

fn row(job: &NewJob, created: i64) -> Vec<Bind> {
    let (object_type, object_id) = match &job.object {
        Some((t, id)) => (Bind::Text(t.clone()), Bind::Int(*id)),
        None => (Bind::NullText, Bind::NullInt),
    };
    vec![
        object_type,
        object_id,
        Bind::Text(job.name.clone()),
        Bind::Text(job.name.to_lowercase()),
        Bind::Text("pending".into()),
        Bind::Int(created),
        job.user_id.map_or(Bind::NullInt, Bind::Int),
        Bind::Text(uuid::Uuid::new_v4().to_string()),
        Bind::Text(job.params.to_string()),
    ]
}
