//! The job queue, reached through [`Store::jobs`]: jobs enqueued, claimed by workers under
//! a lease, renewed, finished or put back to wait, and purged (the statements in `rows.rs`).

mod batch;
pub(crate) mod rows;

pub use batch::JobText;
pub(crate) use batch::{enqueue_many, enqueue_texts};
pub use rows::{ClaimedJob, Claims, Ending, JobEnd, NewJob};

use crate::{Error, Store};
use rows as jobs;

/// The job queue of a store: `store.jobs().claim(…)`.
#[derive(Debug, Clone, Copy)]
pub struct Jobs<'s> {
    store: &'s Store,
}

impl Store {
    /// The job queue.
    pub fn jobs(&self) -> Jobs<'_> {
        Jobs { store: self }
    }
}

impl Jobs<'_> {
    /// Adds a job to the queue; its id.
    pub fn enqueue(&self, job: &NewJob) -> Result<i64, Error> {
        self.store.write(|db| jobs::enqueue(db, job))
    }

    /// Adds jobs to the queue in as few statements as the database allows.
    pub fn enqueue_many(&self, jobs: &[NewJob]) -> Result<(), Error> {
        self.store.write(|db| enqueue_many(db, jobs))
    }

    /// The oldest job waiting, claimed for `worker` for `lease` (none waits: `None`).
    pub fn claim(
        &self,
        worker: &str,
        lease: std::time::Duration,
    ) -> Result<Option<ClaimedJob>, Error> {
        self.claim_of(worker, lease, Claims::All)
    }

    /// The oldest job of `claims` waiting, claimed for `worker` for `lease`.
    pub fn claim_of(
        &self,
        worker: &str,
        lease: std::time::Duration,
        claims: Claims,
    ) -> Result<Option<ClaimedJob>, Error> {
        let lease = i64::try_from(lease.as_micros()).unwrap_or(i64::MAX);
        // Most polls find nothing: a read says so without taking the write lock.
        if !self.store.read(|db| jobs::any_waiting(db, claims))? {
            return Ok(None);
        }
        self.store.write_changing(|db| {
            let claimed = jobs::claim(db, worker, lease, claims)?;
            let changed = claimed.is_some();
            Ok((claimed, changed))
        })
    }

    /// Keeps a running job `worker`'s for `lease` more; false if it is not theirs any more.
    pub fn renew(&self, id: i64, worker: &str, lease: std::time::Duration) -> Result<bool, Error> {
        let lease = i64::try_from(lease.as_micros()).unwrap_or(i64::MAX);
        // The lease is not shown: renewing it leaves cached answers valid.
        self.store
            .write_changing(|db| Ok((jobs::renew(db, id, worker, lease)?, false)))
    }

    /// Records how `worker`'s job ended; false if it is not theirs any more.
    pub fn finish(
        &self,
        id: i64,
        worker: &str,
        end: JobEnd,
        output: &str,
        data: &serde_json::Value,
    ) -> Result<bool, Error> {
        self.store
            .write(|db| jobs::finish(db, id, worker, end, output, data))
    }

    /// Puts `worker`'s job back to waiting for `after`, keeping what this run left; false
    /// if it is not theirs any more.
    pub fn retry(
        &self,
        id: i64,
        worker: &str,
        after: std::time::Duration,
        output: &str,
        data: &serde_json::Value,
    ) -> Result<bool, Error> {
        let after = i64::try_from(after.as_micros()).unwrap_or(i64::MAX);
        self.store
            .write(|db| jobs::retry(db, id, worker, after, output, data))
    }

    /// Records how a worker's job ended, or that it waits to run again ([`Ending`]); false
    /// if it is not theirs any more.
    pub fn record(&self, ending: &Ending<'_>) -> Result<bool, Error> {
        self.store.write(|db| jobs::record(db, ending))
    }

    /// [`Jobs::record`], and the oldest job of `claims` waiting claimed for the same worker
    /// in the same transaction: a busy worker takes its next job in the write that ends
    /// the last, one transaction a job instead of two (each waits its turn among the
    /// writers, the API's included, and a bulk write may set off thousands of deliveries).
    pub fn record_and_claim(
        &self,
        ending: &Ending<'_>,
        lease: std::time::Duration,
        claims: Claims,
    ) -> Result<(bool, Option<ClaimedJob>), Error> {
        let lease = i64::try_from(lease.as_micros()).unwrap_or(i64::MAX);
        self.store.write(|db| {
            let recorded = jobs::record(db, ending)?;
            Ok((recorded, jobs::claim(db, ending.worker, lease, claims)?))
        })
    }

    /// Deletes jobs created more than `days` days ago; how many went.
    pub fn purge(&self, days: u32) -> Result<usize, Error> {
        self.store.write(|db| jobs::purge(db, days))
    }

    /// How many jobs wait to run.
    pub fn waiting(&self) -> Result<i64, Error> {
        self.store.read(jobs::waiting)
    }
}
