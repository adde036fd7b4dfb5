//! Jobs enqueued many at once, in as few statements as the database allows (one for a few
//! thousand): the webhook deliveries a bulk write sets off, in the write's transaction.
//! Those arrive as [`JobText`]s, their parameters already JSON text: a write's deliveries
//! carry the same payload for each webhook, written once and copied as text rather than
//! built as a value per copy and serialized again.

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

/// A job to enqueue whose parameters are JSON text already.
#[derive(Debug, Clone, PartialEq)]
pub struct JobText {
    /// What it does, by the reference's names.
    pub name: &'static str,
    /// The object it is about, as `app.model` and id.
    pub object: Option<(String, i64)>,
    pub user_id: Option<i64>,
    /// What the job needs to run, as JSON text (an object), never shown.
    pub params: String,
}

/// Inserts `jobs`, waiting, created now.
pub(crate) fn enqueue_many(db: &mut Db<'_>, jobs: &[NewJob]) -> Result<(), Error> {
    let created = time_to_micros(now());
    let rows = (jobs.iter())
        .map(|job| {
            let params = job.params.to_string();
            row(&job.name, job.object.clone(), job.user_id, params, created)
        })
        .collect();
    insert_rows(db, rows)
}

/// Inserts `jobs`, waiting, created now, their parameters moved into the statement.
pub(crate) fn enqueue_texts(db: &mut Db<'_>, jobs: Vec<JobText>) -> Result<(), Error> {
    let created = time_to_micros(now());
    let rows = (jobs.into_iter())
        .map(|job| row(job.name, job.object, job.user_id, job.params, created))
        .collect();
    insert_rows(db, rows)
}

fn insert_rows(db: &mut Db<'_>, rows: Vec<Vec<Bind>>) -> Result<(), Error> {
    if rows.is_empty() {
        return Ok(());
    }
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

/// The values of a job's row.
fn row(
    name: &str,
    object: Option<(String, i64)>,
    user_id: Option<i64>,
    params: String,
    created: i64,
) -> Vec<Bind> {
    let (object_type, object_id) = match object {
        Some((t, id)) => (Bind::Text(t), Bind::Int(id)),
        None => (Bind::NullText, Bind::NullInt),
    };
    vec![
        object_type,
        object_id,
        Bind::Text(name.to_owned()),
        Bind::Text(name.to_lowercase()),
        Bind::Text("pending".into()),
        Bind::Int(created),
        user_id.map_or(Bind::NullInt, Bind::Int),
        Bind::Text(uuid::Uuid::new_v4().to_string()),
        Bind::Text(params),
    ]
}
