//! Schedules, reached through [`Store::schedules`]: the `schedules` table keeps, by name,
//! each schedule's interval and when its next run is due. Several instances on one
//! database look at the same rows; a run is claimed by the one statement that moves its
//! due time on while it is due, and its jobs are enqueued in the same transaction, so that
//! each run happens once whichever instance claims it (on PostgreSQL a second `UPDATE` of
//! the row waits for the first to commit and then finds it no longer due; on SQLite
//! writes are one at a time).

use std::time::Duration;

use peering_domain::value::{now, time_to_micros};

use crate::connection::Db;
use crate::repositories::jobs::rows;
use crate::sql::{Bind, Sql};
use crate::written::Writes;
use crate::{Error, NewJob, Store};

/// The table of the schedules.
const SCHEDULES: &str = "schedules";

/// The schedules of a store: `store.schedules().claim(…)`.
#[derive(Debug, Clone, Copy)]
pub struct Schedules<'s> {
    store: &'s Store,
}

impl Store {
    /// The schedules shared by the instances on this database.
    pub fn schedules(&self) -> Schedules<'_> {
        Schedules { store: self }
    }
}

/// A run claimed: the jobs it enqueued, and those it left out because the same job
/// (same name, same object) still waited or ran.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClaimedRun {
    pub enqueued: Vec<i64>,
    pub skipped: Vec<NewJob>,
}

fn micros(duration: Duration) -> i64 {
    i64::try_from(duration.as_micros()).unwrap_or(i64::MAX)
}

fn seconds(duration: Duration) -> i64 {
    i64::try_from(duration.as_secs()).unwrap_or(i64::MAX)
}

impl Schedules<'_> {
    /// Arms the schedule `name` to run every `interval`: a schedule the table does not
    /// hold yet, or holds with another interval, is first due one interval from now; one
    /// armed with this interval already keeps its due time (a restart neither delays nor
    /// repeats a run). Whether it was armed anew.
    pub fn arm(&self, name: &str, interval: Duration) -> Result<bool, Error> {
        let now = time_to_micros(now());
        self.store.write_changing(|db| {
            let mut sql = Sql::writing(
                Writes::adds(SCHEDULES),
                "INSERT INTO schedules (name, interval_secs, next_due) VALUES (",
            );
            sql.bind(Bind::Text(name.to_string()))
                .push(", ")
                .bind(Bind::Int(seconds(interval)))
                .push(", ")
                .bind(Bind::Int(now.saturating_add(micros(interval))))
                .push(
                    ") ON CONFLICT (name) DO UPDATE SET interval_secs = excluded.interval_secs, \
                     next_due = excluded.next_due \
                     WHERE schedules.interval_secs <> excluded.interval_secs",
                );
            let armed = db.execute(&sql)? == 1;
            Ok((armed, armed))
        })
    }

    /// Claims the run of `name` due now, if it is due and no other instance claimed it:
    /// its next run is then due one stored interval from now, and `jobs` are enqueued in
    /// the same transaction (created now, showing `data` while they wait), but for those
    /// whose like still waits or runs. `None` when the run was not this instance's to
    /// claim (not due yet, claimed by another, or never armed).
    pub fn claim(
        &self,
        name: &str,
        jobs: &[NewJob],
        data: &serde_json::Value,
    ) -> Result<Option<ClaimedRun>, Error> {
        let now = time_to_micros(now());
        self.store.write_changing(|db| {
            if !move_on(db, name, now)? {
                return Ok((None, false));
            }
            let mut run = ClaimedRun::default();
            for job in jobs {
                if rows::busy(db, job)? {
                    run.skipped.push(job.clone());
                } else {
                    run.enqueued
                        .push(rows::enqueue_at(db, job, now, Some(data))?);
                }
            }
            Ok((Some(run), true))
        })
    }

    /// When each of `names` the table holds is next due (microseconds since the epoch).
    pub fn next_due(&self, names: &[&str]) -> Result<Vec<(String, i64)>, Error> {
        if names.is_empty() {
            return Ok(Vec::new());
        }
        self.store.read(|db| {
            let mut sql = Sql::new("SELECT name, next_due FROM schedules WHERE name IN ");
            sql.bind_list(names.iter().map(|n| Bind::Text((*n).to_string())));
            Ok(db
                .load(&sql)?
                .into_iter()
                .map(|mut row| (row.take(0).into_text().unwrap_or_default(), row.int(1)))
                .collect())
        })
    }
}

/// Moves the due time of `name` one interval past `now` if it is due at `now`; whether it
/// was (this transaction then holds the run).
fn move_on(db: &mut Db<'_>, name: &str, now: i64) -> Result<bool, Error> {
    let writes = Writes::updates(SCHEDULES).setting(&["next_due"]);
    let mut sql = Sql::writing(writes, "UPDATE schedules SET next_due = ");
    sql.bind(Bind::Int(now))
        .push(" + interval_secs * 1000000 WHERE name = ")
        .bind(Bind::Text(name.to_string()))
        .push(" AND next_due <= ")
        .bind(Bind::Int(now));
    Ok(db.execute(&sql)? == 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TestStore;

    fn sync_job() -> NewJob {
        NewJob {
            name: "peeringdb.synchronise".into(),
            object: None,
            user_id: None,
            params: serde_json::json!({}),
        }
    }

    /// Makes `name` due now, as if its interval had passed.
    fn make_due(store: &Store, name: &str) {
        store
            .write(|db| {
                let mut sql = Sql::writing(
                    Writes::updates(SCHEDULES),
                    "UPDATE schedules SET next_due = 0 WHERE name = ",
                );
                sql.bind(Bind::Text(name.into()));
                db.execute(&sql)
            })
            .unwrap();
    }

    #[test]
    fn a_due_run_is_claimed_once_with_its_jobs_and_not_while_they_wait() {
        let store = TestStore::new(2);
        let schedules = store.schedules();
        let data = serde_json::json!({"schedule": "every 1h"});
        assert_eq!(schedules.claim("sync", &[sync_job()], &data).unwrap(), None);
        assert!(schedules.arm("sync", Duration::from_secs(3600)).unwrap());
        assert!(!schedules.arm("sync", Duration::from_secs(3600)).unwrap());
        let due = schedules.next_due(&["sync", "other"]).unwrap()[0].1;
        let in_an_hour = time_to_micros(now()) + 3_600_000_000;
        assert!(
            (in_an_hour - 5_000_000..=in_an_hour).contains(&due),
            "{due}"
        );
        assert_eq!(schedules.claim("sync", &[sync_job()], &data).unwrap(), None);
        make_due(&store, "sync");
        let run = schedules.claim("sync", &[sync_job()], &data).unwrap();
        let run = run.expect("due");
        assert_eq!(run.enqueued.len(), 1);
        assert_eq!(schedules.claim("sync", &[sync_job()], &data).unwrap(), None);
        assert_eq!(store.jobs().waiting().unwrap(), 1);
        // Due again while the first job still waits: the run happens, without a second job.
        make_due(&store, "sync");
        let run = schedules.claim("sync", &[sync_job()], &data).unwrap();
        assert_eq!(
            run.map(|r| (r.enqueued.len(), r.skipped.len())),
            Some((0, 1))
        );
        assert_eq!(store.jobs().waiting().unwrap(), 1);
        // Another interval arms it anew, one interval from now.
        assert!(schedules.arm("sync", Duration::from_secs(60)).unwrap());
        let due = schedules.next_due(&["sync"]).unwrap()[0].1;
        assert!(due <= time_to_micros(now()) + 60_000_000, "{due}");
        assert_eq!(schedules.next_due(&["other"]).unwrap(), vec![]);
    }
}
