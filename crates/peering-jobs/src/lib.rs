//! The workers that run jobs. Jobs wait in the database (`peering_store`), so they survive
//! restarts and serve every instance on one database; what a job does is a [`Runner`]
//! the server gives. A worker claims the oldest job with a lease, renews the lease while
//! the job runs, and records how it ended; a job that panics ends `errored` with the
//! panic's message. A job whose worker died is claimed again when its lease ends; it runs
//! again only if its runner declares it resumable ([`Runner::resumable`]), otherwise it ends
//! errored as interrupted, since it may have acted already; and no job is taken up more than
//! [`Settings::max_attempts`] times. A runner may instead ask for its job to be tried again
//! later ([`Outcome::retry`]): the job waits, pending, until then, keeping what the run left
//! in its data; this process's idle workers wake when it is due, other instances' at their
//! next poll. The processes jobs start are run by `peering-exec`.
#![doc = include_str!("../README.md")]

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use peering_store::{ClaimedJob, JobEnd, NewJob, Store};

pub use peering_store::Claims;

/// How a job ended, and what it leaves: its output and data.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub end: JobEnd,
    pub output: String,
    pub data: serde_json::Value,
    /// When set, the job has not ended: it waits this long, then runs again (its `end`
    /// is what it would have ended with).
    pub retry_after: Option<Duration>,
}

impl Outcome {
    /// The job runs again after `delay`, keeping `output` and `data` meanwhile (the
    /// runner finds the data in [`ClaimedJob::data`]).
    pub fn retry(delay: Duration, output: String, data: serde_json::Value) -> Outcome {
        Outcome {
            end: JobEnd::Errored,
            output,
            data,
            retry_after: Some(delay),
        }
    }

    pub fn completed(output: String) -> Outcome {
        Outcome::logged(JobEnd::Completed, output, "success")
    }

    pub fn errored(reason: String) -> Outcome {
        Outcome::logged(JobEnd::Errored, reason, "failure")
    }

    pub fn failed(reason: String) -> Outcome {
        Outcome::logged(JobEnd::Failed, reason, "failure")
    }

    /// Data as the reference keeps it: counts by level and the log; the log's one line is
    /// the output's first line.
    fn logged(end: JobEnd, output: String, level: &str) -> Outcome {
        let first_line = output.lines().next().unwrap_or_default();
        let message = if end == JobEnd::Completed {
            "done"
        } else {
            first_line
        };
        let mut counts = serde_json::json!({"success": 0, "info": 0, "warning": 0, "failure": 0});
        counts[level] = 1.into();
        counts["log"] = serde_json::json!([{"status": level, "message": message}]);
        Outcome {
            end,
            output,
            data: counts,
            retry_after: None,
        }
    }
}

/// How long a worker waits at most, before it claims or records a job, for a pause of
/// [`QUIET`] in the API's writes (`Store::give_way_to_writes`): a bulk write can set off
/// thousands of webhook deliveries, whose claims and ends would otherwise take the cores
/// and the writers' turns from the writes that follow it (a client's next batch comes a
/// few milliseconds after the last). Bounded, so that steady writes delay jobs, never stop
/// them.
pub const GIVE_WAY: Duration = Duration::from_millis(200);
/// The pause in the API's writes a worker waits for.
pub const QUIET: Duration = Duration::from_millis(50);

/// What jobs do, by their name.
pub trait Runner: Send + Sync + 'static {
    fn run(&self, job: &ClaimedJob) -> Outcome;

    /// Whether a job of this name may run again when taken back from a worker that died
    /// while running it. A job that acts outside peeringd (a configuration pushed to a
    /// router, a message sent) may have done so already: it must answer false, and then
    /// ends errored as interrupted. By default none is: a runner names those it knows to
    /// be safe to run twice.
    fn resumable(&self, _job_name: &str) -> bool {
        false
    }
}

/// How the workers run.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Jobs run at once by this process (0 runs none: another instance does).
    pub workers: usize,
    /// How long a claimed job counts as alive without news from its worker.
    pub lease: Duration,
    /// How often idle workers look for jobs enqueued by other instances.
    pub poll: Duration,
    /// How many times a job is taken up at most: past it, a job whose worker died on each
    /// try (it crashes the process, say) ends errored instead of coming back for ever.
    pub max_attempts: u32,
    /// Which jobs these workers take: workers of their own for some kinds of jobs keep
    /// those from holding up the others.
    pub claims: Claims,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            workers: 2,
            lease: Duration::from_secs(60),
            poll: Duration::from_secs(1),
            max_attempts: 3,
            claims: Claims::All,
        }
    }
}

/// Enqueues jobs and wakes this process's idle workers.
#[derive(Clone)]
pub struct Queue {
    store: Store,
    wake: Arc<(Mutex<Wakes>, Condvar)>,
    stopping: Arc<AtomicBool>,
}

/// When idle workers wake: each time they are woken (counted), and when a job this
/// process put back to wait is due.
#[derive(Debug, Default)]
struct Wakes {
    count: u64,
    due: Vec<Instant>,
}

impl std::fmt::Debug for Queue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Queue")
    }
}

impl Queue {
    /// A queue whose jobs this process does not run (no workers are started).
    pub fn new(store: Store) -> Queue {
        Queue {
            store,
            wake: Arc::new((Mutex::new(Wakes::default()), Condvar::new())),
            stopping: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Wakes every idle worker (to take a job, or to stop).
    fn wake_all(&self) {
        let (count, waiting) = &*self.wake;
        count.lock().unwrap_or_else(|e| e.into_inner()).count += 1;
        waiting.notify_all();
    }

    /// Has idle workers wake at `at`, when a job put back to wait is due.
    fn wake_at(&self, at: Instant) {
        let (wakes, waiting) = &*self.wake;
        wakes.lock().unwrap_or_else(|e| e.into_inner()).due.push(at);
        waiting.notify_all();
    }

    /// Tells idle workers that jobs were enqueued some other way (in a write's own
    /// transaction, say) than through [`Queue::enqueue`].
    pub fn wake(&self) {
        self.wake_all();
    }

    /// Adds a job; its id.
    pub fn enqueue(&self, job: &NewJob) -> Result<i64, peering_store::Error> {
        let id = self.store.jobs().enqueue(job)?;
        self.wake_all();
        Ok(id)
    }

    /// Wakes this process's idle workers for jobs enqueued other than through
    /// [`Queue::enqueue`] (with a schedule's run, in the transaction that claims it).
    pub fn jobs_added(&self) {
        self.wake_all();
    }

    /// How many times workers were woken so far: read before looking for a job, so that a
    /// job enqueued while they look is not slept through ([`Queue::idle`]).
    fn wakes(&self) -> u64 {
        self.wake.0.lock().unwrap_or_else(|e| e.into_inner()).count
    }

    /// Waits until workers are woken again after `seen` wakes (a job enqueued here, or the
    /// stop), `timeout` passes, or a job put back to wait here is due.
    fn idle(&self, seen: u64, timeout: Duration) {
        let (wakes, waiting) = &*self.wake;
        let mut wakes = wakes.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        wakes.due.retain(|at| *at > now);
        let timeout = match wakes.due.iter().min() {
            Some(at) => timeout.min(at.duration_since(now)),
            None => timeout,
        };
        let _ = waiting.wait_timeout_while(wakes, timeout, |wakes| wakes.count == seen);
    }
}

/// The running workers; dropping them stops them once their jobs end.
pub struct Workers {
    queue: Queue,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Drop for Workers {
    fn drop(&mut self) {
        self.queue.stopping.store(true, Ordering::SeqCst);
        self.queue.wake_all();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// Starts `settings.workers` worker threads, which run until the [`Workers`] are dropped.
pub fn start(
    queue: &Queue,
    runner: Arc<dyn Runner>,
    settings: Settings,
) -> std::io::Result<Workers> {
    let mut workers = Workers {
        queue: queue.clone(),
        threads: Vec::new(),
    };
    for n in 0..settings.workers {
        // The queue's bookkeeping is not a request's work: tallied apart.
        let own_queue = Queue {
            store: queue.store.tallied_apart(),
            ..queue.clone()
        };
        let worker = Worker {
            id: format!("{}-{n}", uuid::Uuid::new_v4()),
            queue: own_queue,
            runner: runner.clone(),
            settings,
        };
        let thread = std::thread::Builder::new()
            .name(format!("job-worker-{n}"))
            // Templates nest (includes, macros): room to recurse to their bound.
            .stack_size(16 << 20)
            .spawn(move || worker.work())?;
        workers.threads.push(thread);
    }
    Ok(workers)
}

struct Worker {
    id: String,
    queue: Queue,
    runner: Arc<dyn Runner>,
    settings: Settings,
}

impl Worker {
    fn work(&self) {
        // The job claimed with the last one's end, if any: run even when the workers were
        // told to stop meanwhile, as a job claimed just before is (no claim follows then).
        let mut next: Option<ClaimedJob> = None;
        loop {
            if let Some(job) = next.take() {
                next = self.run(&job);
                continue;
            }
            if self.queue.stopping.load(Ordering::SeqCst) {
                break;
            }
            let seen = self.queue.wakes();
            self.queue.store.give_way_to_writes(GIVE_WAY, QUIET);
            let claimed = self.queue.store.jobs().claim_of(
                &self.id,
                self.settings.lease,
                self.settings.claims,
            );
            match claimed {
                Ok(Some(job)) => next = self.run(&job),
                Ok(None) => self.queue.idle(seen, self.settings.poll),
                Err(e) => {
                    log::warn!("job queue: {e}");
                    // Tried again soon, whatever the polling interval.
                    self.queue
                        .idle(seen, self.settings.poll.min(Duration::from_secs(1)));
                }
            }
        }
    }

    /// Runs a claimed job while another thread keeps its lease, then records its end and
    /// claims the next job in the same write; a job taken back from a dead worker that may
    /// not run again ends at once.
    fn run(&self, job: &ClaimedJob) -> Option<ClaimedJob> {
        let outcome = match self.refusal(job) {
            Some(refused) => refused,
            None => self.run_leased(job),
        };
        self.record(job, &outcome)
    }

    /// Why a job taken back from a worker that died must not run again, if it must not.
    fn refusal(&self, job: &ClaimedJob) -> Option<Outcome> {
        let tries = self.settings.max_attempts;
        let reason = if job.attempt > tries {
            format!(
                "gave up after {tries} attempts: the worker running this job stopped during each of them"
            )
        } else if job.attempt > 1 && !self.runner.resumable(&job.name) {
            "interrupted: the worker running this job stopped before it ended (the server was \
             killed or crashed); it is not run again, since it acts outside peeringd and may \
             have done so already"
                .to_string()
        } else {
            return None;
        };
        log::warn!("job {} ({}) not run again: {reason}", job.id, job.name);
        Some(Outcome::errored(reason))
    }

    /// Runs a job while another thread keeps its lease.
    fn run_leased(&self, job: &ClaimedJob) -> Outcome {
        let done = Arc::new((Mutex::new(false), Condvar::new()));
        std::thread::scope(|scope| {
            scope.spawn(|| self.keep_lease(job.id, &done));
            let outcome = catch_unwind(AssertUnwindSafe(|| self.runner.run(job)))
                .unwrap_or_else(|panic| Outcome::errored(panic_message(&panic)));
            let (finished, wake) = &*done;
            *finished.lock().unwrap_or_else(|e| e.into_inner()) = true;
            wake.notify_all();
            outcome
        })
    }

    /// Records how a job ended, or that it waits to run again, if it is still this
    /// worker's; unless the workers are stopping, claims the next job in the same write.
    fn record(&self, job: &ClaimedJob, outcome: &Outcome) -> Option<ClaimedJob> {
        let jobs = self.queue.store.jobs();
        let ending = peering_store::Ending {
            id: job.id,
            worker: &self.id,
            end: outcome.end,
            retry_after: outcome.retry_after,
            output: &outcome.output,
            data: &outcome.data,
        };
        self.queue.store.give_way_to_writes(GIVE_WAY, QUIET);
        let (stored, next) = if self.queue.stopping.load(Ordering::SeqCst) {
            (jobs.record(&ending), None)
        } else {
            match jobs.record_and_claim(&ending, self.settings.lease, self.settings.claims) {
                Ok((recorded, next)) => (Ok(recorded), next),
                Err(e) => (Err(e), None),
            }
        };
        self.log_recorded(job, outcome, stored);
        next
    }

    fn log_recorded(
        &self,
        job: &ClaimedJob,
        outcome: &Outcome,
        stored: Result<bool, peering_store::Error>,
    ) {
        match (stored, outcome.retry_after) {
            (Ok(true), Some(delay)) => {
                log::info!("job {} ({}) runs again in {delay:?}", job.id, job.name);
                if let Some(at) = Instant::now().checked_add(delay) {
                    self.queue.wake_at(at);
                }
            }
            (Ok(true), None) => log::info!("job {} ({}) ended {:?}", job.id, job.name, outcome.end),
            (Ok(false), _) => {
                log::warn!("job {} was taken from this worker before it ended", job.id)
            }
            (Err(e), _) => log::warn!("job {}: its end could not be recorded: {e}", job.id),
        }
    }

    /// Renews the lease every third of it until the job is done.
    fn keep_lease(&self, id: i64, done: &(Mutex<bool>, Condvar)) {
        let (finished, wake) = done;
        let mut over = finished.lock().unwrap_or_else(|e| e.into_inner());
        while !*over {
            let (guard, timeout) = wake
                .wait_timeout(over, self.settings.lease / 3)
                .unwrap_or_else(|e| e.into_inner());
            over = guard;
            if !*over && timeout.timed_out() {
                if let Err(e) = self
                    .queue
                    .store
                    .jobs()
                    .renew(id, &self.id, self.settings.lease)
                {
                    log::warn!("job {id}: lease not renewed: {e}");
                }
            }
        }
    }
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    let text = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown cause".into());
    format!("the job panicked: {text}")
}
