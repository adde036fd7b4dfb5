//! The thread that starts the schedules' runs: it arms each schedule turned on, then wakes
//! about once a second (sooner when a run is due sooner), claims each run due, enqueues its
//! jobs in the claim's transaction and logs them. It stops when its [`Scheduler`] is dropped,
//! or with the process.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use peering_domain::value::{now, time_to_micros};
use peering_jobs::Queue;
use peering_store::Store;

use super::{jobs_of, Schedule, Settings};

/// The longest the thread sleeps: a run armed by another instance, or a database back
/// after an outage, is seen within it.
const TICK: Duration = Duration::from_secs(1);

/// The running scheduler; dropping it stops its thread.
pub struct Scheduler {
    stop: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Scheduler {
    fn drop(&mut self) {
        let (stopped, wake) = &*self.stop;
        *stopped.lock().unwrap_or_else(|e| e.into_inner()) = true;
        wake.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Starts the thread running `settings`' schedules on `store`, waking `queue`'s workers
/// for the jobs it enqueues; `None` when no schedule is on.
pub fn start(store: Store, queue: Queue, settings: Settings) -> std::io::Result<Option<Scheduler>> {
    if settings.schedules.is_empty() {
        return Ok(None);
    }
    let stop = Arc::new((Mutex::new(false), Condvar::new()));
    let looping = Looping {
        store,
        queue,
        settings,
        armed: Vec::new(),
        stop: stop.clone(),
    };
    let thread = std::thread::Builder::new()
        .name("schedules".into())
        .spawn(move || looping.run())?;
    Ok(Some(Scheduler {
        stop,
        thread: Some(thread),
    }))
}

struct Looping {
    store: Store,
    queue: Queue,
    settings: Settings,
    /// The schedules armed in the table by this process (once each, at its start).
    armed: Vec<&'static str>,
    stop: Arc<(Mutex<bool>, Condvar)>,
}

impl Looping {
    fn run(mut self) {
        loop {
            self.arm();
            let sleep = self.tick().unwrap_or_else(|e| {
                log::warn!("schedules: {e}");
                TICK
            });
            if self.sleep(sleep) {
                return;
            }
        }
    }

    /// Sleeps `duration` or until stopped; whether it was stopped.
    fn sleep(&self, duration: Duration) -> bool {
        let (stopped, wake) = &*self.stop;
        let guard = stopped.lock().unwrap_or_else(|e| e.into_inner());
        let (guard, _) = wake
            .wait_timeout_while(guard, duration, |stopped| !*stopped)
            .unwrap_or_else(|e| e.into_inner());
        *guard
    }

    /// Arms the schedules not armed yet (the database may have been away at the start).
    fn arm(&mut self) {
        for schedule in &self.settings.schedules {
            let name = schedule.what.name();
            if self.armed.contains(&name) {
                continue;
            }
            match self.store.schedules().arm(name, schedule.every.duration()) {
                Ok(anew) => {
                    let when = if anew { "armed, first run in" } else { "every" };
                    log::info!("schedule {name}: {when} {}", schedule.every);
                    self.armed.push(name);
                }
                Err(e) => log::warn!("schedule {name} not armed yet: {e}"),
            }
        }
    }

    /// Claims and starts the runs due; how long until the next one may be.
    fn tick(&self) -> Result<Duration, peering_store::Error> {
        let names: Vec<&str> = self.armed.clone();
        let due: HashMap<String, i64> = self
            .store
            .schedules()
            .next_due(&names)?
            .into_iter()
            .collect();
        let now = time_to_micros(now());
        let mut soonest = TICK;
        for schedule in &self.settings.schedules {
            let Some(&at) = due.get(schedule.what.name()) else {
                continue;
            };
            if at <= now {
                self.start_run(schedule)?;
            } else {
                let wait = Duration::from_micros(u64::try_from(at - now).unwrap_or(0));
                soonest = soonest.min(wait);
            }
        }
        // Never a busy loop, whatever the clocks say.
        Ok(soonest.max(Duration::from_millis(10)))
    }

    /// Claims a due run of `schedule` and logs what it started; another instance may have
    /// claimed it first, and then this one starts nothing.
    fn start_run(&self, schedule: &Schedule) -> Result<(), peering_store::Error> {
        let jobs = jobs_of(&self.store, schedule, self.settings.retention)?;
        let label = schedule.label();
        let data = serde_json::json!({ "schedule": label });
        let Some(run) = self
            .store
            .schedules()
            .claim(schedule.what.name(), &jobs, &data)?
        else {
            return Ok(());
        };
        if !run.enqueued.is_empty() {
            self.queue.jobs_added();
        }
        log::info!(
            "schedule {label}: started {} job(s) {} {:?}",
            run.enqueued.len(),
            schedule.what.job_name(),
            run.enqueued
        );
        for skipped in &run.skipped {
            let about = skipped
                .object
                .as_ref()
                .map(|(kind, id)| format!(" for {kind} {id}"))
                .unwrap_or_default();
            log::info!(
                "schedule {label}: {}{about} not started, the previous one still waits or runs",
                skipped.name
            );
        }
        Ok(())
    }
}
