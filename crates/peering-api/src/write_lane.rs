//! Writes run on threads of their own instead of the blocking pool that reads queue in, so
//! that under a flood of reads a write waits for no read to finish before it starts: the
//! blocking pool runs its tasks in arrival order, and each worker's few threads were all
//! busy with reads (a PATCH then waited for pages of 1,000 sessions to be read and rendered;
//! docs/performance.md, ninth round, has the figures). With the store's own connections for
//! writes (`Store`'s write pool), a write waits only for other writes.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};

use crate::error::ApiError;

type Job = Box<dyn FnOnce() + Send>;

/// A few threads that run the writes handed to them, in order of arrival.
#[derive(Debug)]
pub struct WriteLane {
    /// `None` when the threads could not start: writes then share the blocking pool.
    jobs: Option<mpsc::Sender<Job>>,
    /// The store whose reads give way to each write while it runs (`Store::writing`).
    store: Option<peering_store::Store>,
}

impl WriteLane {
    /// Starts `threads` threads, which end when the lane is dropped; while one of them
    /// runs a write, `store`'s reads give way to it.
    pub fn new(threads: usize, store: Option<peering_store::Store>) -> WriteLane {
        match WriteLane::start(threads) {
            Ok(jobs) => WriteLane {
                jobs: Some(jobs),
                store,
            },
            Err(e) => {
                log::warn!("write threads not started ({e}): writes share the read pool");
                WriteLane { jobs: None, store }
            }
        }
    }

    fn start(threads: usize) -> std::io::Result<mpsc::Sender<Job>> {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for n in 0..threads.max(1) {
            let queue = queue.clone();
            std::thread::Builder::new()
                .name(format!("writes-{n}"))
                .spawn(move || loop {
                    // The lock is held only while waiting for the next job.
                    let next = queue.lock().unwrap_or_else(PoisonError::into_inner).recv();
                    match next {
                        Ok(job) => job(),
                        Err(mpsc::RecvError) => return,
                    }
                })?;
        }
        Ok(jobs)
    }

    /// Runs `write` on the lane and waits for its result without holding up the caller's
    /// async worker. A write that panics is an internal error; its thread carries on.
    pub async fn run<T: Send + 'static>(
        &self,
        write: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let Some(jobs) = &self.jobs else {
            return Ok(actix_web::web::block(write).await?);
        };
        let (done, result) = tokio::sync::oneshot::channel();
        let writing = self.store.as_ref().map(peering_store::Store::writing);
        let job: Job = Box::new(move || {
            let outcome = catch_unwind(AssertUnwindSafe(write));
            // Reads go on before the caller hears of the result: a read the caller makes
            // next must not wait for a write that has already ended.
            drop(writing);
            let _ = done.send(outcome);
        });
        jobs.send(job)
            .map_err(|_| ApiError::Internal("the write threads are gone".into()))?;
        match result.await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(_panic)) => Err(ApiError::Internal("a write failed unexpectedly".into())),
            Err(_) => Err(ApiError::Internal("the write threads are gone".into())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[actix_web::test]
    async fn writes_run_and_a_panic_leaves_the_lane_working() {
        let lane = WriteLane::new(1, None);
        assert_eq!(lane.run(|| 2 + 2).await.ok(), Some(4));
        let failed = lane.run(|| -> i32 { panic!("boom") }).await;
        assert!(matches!(failed, Err(ApiError::Internal(_))));
        // The one thread survived the panic.
        assert_eq!(lane.run(|| "still here").await.ok(), Some("still here"));
    }

    #[actix_web::test]
    async fn a_long_write_does_not_hold_up_the_next() {
        let lane = WriteLane::new(2, None);
        let (tell, told) = mpsc::channel();
        // The first write waits until the second has run: it can only be told if the
        // second runs beside it, on the other thread.
        let first = lane.run(move || told.recv_timeout(std::time::Duration::from_secs(10)));
        let second = lane.run(move || tell.send(()).is_ok());
        let (first, second) = futures_util::future::join(first, second).await;
        assert_eq!(second.ok(), Some(true));
        assert_eq!(first.ok(), Some(Ok(())));
    }

    #[actix_web::test]
    async fn reads_started_during_a_write_give_way_to_it() {
        let db = peering_store::testing::TestDatabase::sqlite();
        let store = peering_store::Store::open(&db.url, 1).expect("store");
        let lane = WriteLane::new(1, Some(store.clone()));
        let reader = store.clone();
        // Reads on another thread while the lane runs a write: the page read waits for the
        // write; the version read, which the answer cache needs at once, does not.
        let during = lane.run(move || {
            std::thread::spawn(move || reader.data_version().and(reader.jobs().waiting()))
                .join()
                .map(|read| read.is_ok())
        });
        assert_eq!(during.await.ok().map(Result::ok), Some(Some(true)));
        assert_eq!(store.upkeep().pool_state().reads_gave_way, 1);
        // With no write under way, reads go at once.
        store.jobs().waiting().expect("a read");
        assert_eq!(store.upkeep().pool_state().reads_gave_way, 1);
    }
}
