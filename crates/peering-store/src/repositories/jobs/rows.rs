//! The job queue, kept in the `jobs` table so that it survives restarts and serves every
//! instance on one database. A worker claims the oldest waiting job with a lease, renews
//! the lease while it runs, and finishes it; a job whose worker died (its lease ended) is
//! claimed again. Every claim counts in the job's `attempts`, so that whoever runs it knows
//! a job taken back from a dead worker (that may have acted already) and can bound the
//! tries of one that kills its worker each time. A job may also go back to waiting until a
//! time (`run_after`, [`retry`]): claims skip it until then, and its `attempts` start
//! again, since its worker did not die. On PostgreSQL, claims skip rows other instances
//! are claiming (`FOR UPDATE SKIP LOCKED`), so each job goes to one worker; on SQLite,
//! writes are one at a time anyway.

use peering_domain::value::{now, time_to_micros};

use crate::connection::{Backend, Db};
use crate::error::Error;
use crate::sql::{Bind, Sql};
use crate::written::Writes;

/// A job to enqueue.
#[derive(Debug, Clone, PartialEq)]
pub struct NewJob {
    /// What it does, by the reference's names (`peering.router.generate_configuration`).
    pub name: String,
    /// The object it is about, as `app.model` and id.
    pub object: Option<(String, i64)>,
    pub user_id: Option<i64>,
    /// What the job needs to run, never shown.
    pub params: serde_json::Value,
}

/// A job a worker claimed.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimedJob {
    pub id: i64,
    pub name: String,
    pub object_id: Option<i64>,
    pub user_id: Option<i64>,
    pub params: serde_json::Value,
    /// Which time a worker takes it up: 1 the first time, more when it was taken back
    /// from a worker that died while running it.
    pub attempt: u32,
    /// What its earlier runs left, when it waited to be tried again (their log); `Null`
    /// the first time.
    pub data: serde_json::Value,
}

/// How a job ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobEnd {
    Completed,
    /// It could not do its work (a template that fails, a router that refuses).
    Errored,
    /// Its runner failed (a panic, an unknown kind of job).
    Failed,
}

impl JobEnd {
    fn status(self) -> &'static str {
        match self {
            JobEnd::Completed => "completed",
            JobEnd::Errored => "errored",
            JobEnd::Failed => "failed",
        }
    }
}

/// The table of the queue.
const JOBS: &str = "jobs";

fn micros_now() -> i64 {
    time_to_micros(now())
}

pub(crate) fn enqueue(db: &mut Db<'_>, job: &NewJob) -> Result<i64, Error> {
    enqueue_at(db, job, micros_now(), None)
}

/// Enqueues `job` as created at `created` (microseconds), with `data` shown while it waits.
pub(crate) fn enqueue_at(
    db: &mut Db<'_>,
    job: &NewJob,
    created: i64,
    data: Option<&serde_json::Value>,
) -> Result<i64, Error> {
    let (object_type, object_id) = match &job.object {
        Some((t, id)) => (Bind::Text(t.clone()), Bind::Int(*id)),
        None => (Bind::NullText, Bind::NullInt),
    };
    let mut sql = Sql::writing(
        Writes::adds(JOBS),
        "INSERT INTO jobs (object_type, object_id, name, name_lc, status, created, user_id, job_id, params, data) VALUES (",
    );
    sql.bind(object_type)
        .push(", ")
        .bind(object_id)
        .push(", ")
        .bind(Bind::Text(job.name.clone()))
        .push(", ")
        .bind(Bind::Text(job.name.to_lowercase()))
        .push(", 'pending', ")
        .bind(Bind::Int(created))
        .push(", ")
        .bind(job.user_id.map_or(Bind::NullInt, Bind::Int))
        .push(", ")
        .bind(Bind::Text(uuid::Uuid::new_v4().to_string()))
        .push(", ")
        .bind(Bind::Text(job.params.to_string()))
        .push(", ")
        .bind(data.map_or(Bind::NullText, |d| Bind::Text(d.to_string())))
        .push(") RETURNING id");
    db.scalar(&sql)?
        .ok_or_else(|| Error::Backend("the new job has no id".into()))
}

/// Whether a job named as `job` is, about the same object, waits or runs.
pub(crate) fn busy(db: &mut Db<'_>, job: &NewJob) -> Result<bool, Error> {
    let mut sql = Sql::new(
        "SELECT COUNT(*) FROM (SELECT 1 FROM jobs WHERE status IN ('pending', 'running') AND name = ",
    );
    sql.bind(Bind::Text(job.name.clone()));
    match &job.object {
        Some((object_type, id)) => sql
            .push(" AND object_type = ")
            .bind(Bind::Text(object_type.clone()))
            .push(" AND object_id = ")
            .bind(Bind::Int(*id)),
        None => sql.push(" AND object_id IS NULL"),
    };
    sql.push(" LIMIT 1) busy");
    Ok(db.scalar(&sql)?.unwrap_or(0) > 0)
}

/// Claims the oldest job waiting (or abandoned by a dead worker) for `worker`, until
/// `lease_micros` from now.
pub(crate) fn claim(
    db: &mut Db<'_>,
    worker: &str,
    lease_micros: i64,
    claims: Claims,
) -> Result<Option<ClaimedJob>, Error> {
    let now = micros_now();
    let skip_locked = match db.backend() {
        Backend::Postgres => " FOR UPDATE SKIP LOCKED",
        Backend::Sqlite => "",
    };
    let writes =
        Writes::updates(JOBS).setting(&["status", "started", "lease_until", "worker", "attempts"]);
    let mut sql = Sql::writing(writes, "UPDATE jobs SET status = 'running', started = ");
    sql.bind(Bind::Int(now))
        .push(", lease_until = ")
        .bind(Bind::Int(now + lease_micros))
        .push(", worker = ")
        .bind(Bind::Text(worker.to_string()))
        .push(", attempts = attempts + 1")
        .push(" WHERE id = COALESCE(");
    // A job left by a dead worker first: it has waited longest.
    push_oldest(&mut sql, now, claims, Waiting::Abandoned, skip_locked);
    sql.push(", ");
    push_oldest(&mut sql, now, claims, Waiting::Pending, skip_locked);
    sql.push(") RETURNING id, name, object_id, user_id, params, attempts, data");
    let Some(mut row) = db.load(&sql)?.pop() else {
        return Ok(None);
    };
    let params = row.take(4).into_text().unwrap_or_default();
    let data = row.take(6).into_text();
    Ok(Some(ClaimedJob {
        id: row.int(0),
        name: row.take(1).into_text().unwrap_or_default(),
        object_id: row.take(2).int(),
        user_id: row.take(3).int(),
        params: serde_json::from_str(&params).unwrap_or(serde_json::Value::Null),
        attempt: u32::try_from(row.int(5)).unwrap_or(u32::MAX),
        data: data
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or(serde_json::Value::Null),
    }))
}

/// Whether a job of `claims` waits to be claimed (or was left by a dead worker).
pub(crate) fn any_waiting(db: &mut Db<'_>, claims: Claims) -> Result<bool, Error> {
    let now = micros_now();
    let mut sql = Sql::new("SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM jobs WHERE ");
    push_waiting(&mut sql, now, claims, Waiting::Abandoned);
    sql.push(" LIMIT 1) abandoned) + (SELECT COUNT(*) FROM (SELECT 1 FROM jobs WHERE ");
    push_waiting(&mut sql, now, claims, Waiting::Pending);
    sql.push(" LIMIT 1) pending)");
    Ok(db.scalar(&sql)?.unwrap_or(0) > 0)
}

/// The two ways a job waits for a worker. Each is looked for apart, along the index
/// `jobs_waiting (status, created, id, name, run_after)` in creation order, so that the
/// oldest costs one index entry to find, not a sort of every waiting job: a bulk write
/// may leave thousands of webhook deliveries pending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Waiting {
    /// Running under a lease that ended: its worker died.
    Abandoned,
    /// Pending, and due (not waiting to be tried again later).
    Pending,
}

/// `(SELECT id …)` of the oldest job of `claims` waiting as `waiting`.
fn push_oldest(sql: &mut Sql, now: i64, claims: Claims, waiting: Waiting, skip_locked: &str) {
    sql.push("(SELECT id FROM jobs WHERE ");
    push_waiting(sql, now, claims, waiting);
    sql.push(&format!(" ORDER BY created, id LIMIT 1{skip_locked})"));
}

/// Which jobs a worker takes, by their names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Claims {
    /// Every job.
    #[default]
    All,
    /// Only jobs of these names.
    Named(&'static [&'static str]),
    /// Every job but those of these names.
    Others(&'static [&'static str]),
}

/// The condition of the jobs `claims` may take that wait at `now` as `waiting`.
fn push_waiting(sql: &mut Sql, now: i64, claims: Claims, waiting: Waiting) {
    match waiting {
        Waiting::Pending => sql
            .push("status = 'pending' AND (run_after IS NULL OR run_after <= ")
            .bind(Bind::Int(now))
            .push(")"),
        Waiting::Abandoned => sql
            .push("status = 'running' AND lease_until < ")
            .bind(Bind::Int(now)),
    };
    let (names, operator) = match claims {
        Claims::All => return,
        Claims::Named([]) => {
            sql.push(" AND 1 = 0");
            return;
        }
        Claims::Others([]) => return,
        Claims::Named(names) => (names, " AND name IN ("),
        Claims::Others(names) => (names, " AND name NOT IN ("),
    };
    sql.push(operator);
    for (n, name) in names.iter().enumerate() {
        if n > 0 {
            sql.push(", ");
        }
        sql.bind(Bind::Text((*name).to_string()));
    }
    sql.push(")");
}

/// Extends a running job's lease; false if the job is no longer this worker's.
pub(crate) fn renew(
    db: &mut Db<'_>,
    id: i64,
    worker: &str,
    lease_micros: i64,
) -> Result<bool, Error> {
    let renews = Writes::updates(JOBS)
        .setting(&["lease_until"])
        .of_rows(vec![id]);
    let mut sql = Sql::writing(renews, "UPDATE jobs SET lease_until = ");
    sql.bind(Bind::Int(micros_now() + lease_micros));
    owned_by(&mut sql, id, worker);
    Ok(db.execute(&sql)? == 1)
}

fn owned_by(sql: &mut Sql, id: i64, worker: &str) {
    sql.push(" WHERE id = ")
        .bind(Bind::Int(id))
        .push(" AND status = 'running' AND worker = ")
        .bind(Bind::Text(worker.to_string()));
}

/// How a worker's job ended, to record.
#[derive(Debug, Clone, Copy)]
pub struct Ending<'a> {
    pub id: i64,
    pub worker: &'a str,
    pub end: JobEnd,
    /// When set, the job has not ended: it waits this long, then runs again.
    pub retry_after: Option<std::time::Duration>,
    pub output: &'a str,
    pub data: &'a serde_json::Value,
}

/// Records `ending`: [`finish`], or [`retry`] when the job runs again.
pub(crate) fn record(db: &mut Db<'_>, ending: &Ending<'_>) -> Result<bool, Error> {
    let Ending {
        id,
        worker,
        output,
        data,
        ..
    } = *ending;
    match ending.retry_after {
        Some(after) => {
            let after = i64::try_from(after.as_micros()).unwrap_or(i64::MAX);
            retry(db, id, worker, after, output, data)
        }
        None => finish(db, id, worker, ending.end, output, data),
    }
}

/// Records how a job ended; false if it was not this worker's any more (its lease ended
/// and another worker took it, or it was deleted).
pub(crate) fn finish(
    db: &mut Db<'_>,
    id: i64,
    worker: &str,
    end: JobEnd,
    output: &str,
    data: &serde_json::Value,
) -> Result<bool, Error> {
    let ends = Writes::updates(JOBS)
        .setting(&["status", "completed", "output", "data", "lease_until"])
        .of_rows(vec![id]);
    let mut sql = Sql::writing(ends, "UPDATE jobs SET status = ");
    sql.bind(Bind::Text(end.status().into()))
        .push(", completed = ")
        .bind(Bind::Int(micros_now()))
        .push(", output = ")
        .bind(Bind::Text(output.to_string()))
        .push(", data = ")
        .bind(Bind::Text(data.to_string()))
        .push(", lease_until = NULL");
    owned_by(&mut sql, id, worker);
    Ok(db.execute(&sql)? == 1)
}

/// Puts `worker`'s job back to waiting until `after_micros` from now, with the output and
/// data of the run that asked for it; false if it was not this worker's any more. Its
/// `attempts` start again: the next claim is the first of the next try.
pub(crate) fn retry(
    db: &mut Db<'_>,
    id: i64,
    worker: &str,
    after_micros: i64,
    output: &str,
    data: &serde_json::Value,
) -> Result<bool, Error> {
    let columns = [
        "status",
        "run_after",
        "output",
        "data",
        "lease_until",
        "worker",
        "attempts",
    ];
    let waits = Writes::updates(JOBS).setting(&columns).of_rows(vec![id]);
    let mut sql = Sql::writing(waits, "UPDATE jobs SET status = 'pending', run_after = ");
    sql.bind(Bind::Int(micros_now().saturating_add(after_micros)))
        .push(", output = ")
        .bind(Bind::Text(output.to_string()))
        .push(", data = ")
        .bind(Bind::Text(data.to_string()))
        .push(", lease_until = NULL, worker = NULL, attempts = 0");
    owned_by(&mut sql, id, worker);
    Ok(db.execute(&sql)? == 1)
}

/// Deletes the jobs created more than `days` days ago; how many went.
pub(crate) fn purge(db: &mut Db<'_>, days: u32) -> Result<usize, Error> {
    let cutoff = chrono::Utc::now() - chrono::Duration::days(i64::from(days));
    let mut sql = Sql::writing(Writes::removes(JOBS), "DELETE FROM jobs WHERE created < ");
    sql.bind(Bind::Int(time_to_micros(cutoff)));
    db.execute(&sql)
}

/// How many jobs wait to run (for metrics).
pub(crate) fn waiting(db: &mut Db<'_>) -> Result<i64, Error> {
    let sql = Sql::new("SELECT COUNT(*) FROM jobs WHERE status = 'pending'");
    Ok(db.scalar(&sql)?.unwrap_or(0))
}
