//! The data versions for the answer cache, read once for every request waiting on them.
//!
//! A cached answer may be served only if no write landed between the request's arrival and
//! the version read, so each request needs a read that *starts after it arrived*. Requests
//! that arrive together can share one: a thread reads the version in rounds, and a request
//! waits for the first round that starts after its arrival. Under load, one query answers
//! every request that arrived while the previous one ran, instead of one query (and, on
//! PostgreSQL, one round trip) per request; an idle server reads once per request, as
//! before.

use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use tokio::sync::watch;

/// The outcome of one round: its number and what the read gave.
#[derive(Debug, Clone)]
struct Round<V, E> {
    number: u64,
    /// When its read started.
    started: Instant,
    outcome: Result<V, E>,
}

/// What the waiters and the reading thread share.
#[derive(Debug, Default)]
struct Rounds {
    /// Rounds started so far (the reading thread counts one when it starts reading).
    started: u64,
    /// The highest round some waiter needs.
    wanted: u64,
    /// Set when the probe is dropped, to end the thread.
    closed: bool,
}

#[derive(Debug)]
struct Shared {
    rounds: Mutex<Rounds>,
    wake: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Rounds> {
        // The lock guards counters only, which a panic cannot leave half-updated.
        self.rounds.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Reads a version with `read` on its own thread, in rounds shared by concurrent callers.
#[derive(Debug)]
pub struct VersionProbe<V, E> {
    shared: Arc<Shared>,
    results: watch::Receiver<Round<V, E>>,
}

/// Why [`VersionProbe::current`] has no version.
#[derive(Debug, Clone, PartialEq)]
pub enum ProbeError<E> {
    /// The read failed; every request of its round gets the same error.
    Read(E),
    /// The reading thread is gone (it panicked).
    Stopped,
}

impl<V, E> VersionProbe<V, E>
where
    V: Clone + Default + Send + Sync + 'static,
    E: Clone + Send + Sync + 'static,
{
    pub fn spawn(read: impl Fn() -> Result<V, E> + Send + 'static) -> std::io::Result<Self> {
        let shared = Arc::new(Shared {
            rounds: Mutex::new(Rounds::default()),
            wake: Condvar::new(),
        });
        let (sender, results) = watch::channel(Round {
            number: 0,
            started: Instant::now(),
            outcome: Ok(V::default()),
        });
        let thread_shared = shared.clone();
        thread::Builder::new()
            .name("data-version".into())
            .spawn(move || read_rounds(&thread_shared, &sender, read))?;
        Ok(VersionProbe { shared, results })
    }

    /// The version as read by a round that started after this call.
    pub async fn current(&self) -> Result<V, ProbeError<E>> {
        let needed = {
            let mut rounds = self.shared.lock();
            let needed = rounds.started + 1;
            if rounds.wanted < needed {
                rounds.wanted = needed;
                self.shared.wake.notify_one();
            }
            needed
        };
        let mut results = self.results.clone();
        let round = results
            .wait_for(|round| round.number >= needed)
            .await
            .map_err(|_| ProbeError::Stopped)?;
        round.outcome.clone().map_err(ProbeError::Read)
    }
}

impl<V: Clone, E> VersionProbe<V, E> {
    /// What the last round read, without waiting for a new one, if that round started
    /// within `max_age` (and did not fail).
    pub fn recent(&self, max_age: Duration) -> Option<V> {
        let round = self.results.borrow();
        let fresh = round.number > 0 && round.started.elapsed() <= max_age;
        fresh
            .then(|| round.outcome.as_ref().ok().cloned())
            .flatten()
    }
}

impl<V, E> Drop for VersionProbe<V, E> {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.wake.notify_one();
    }
}

/// The reading thread: one read per round, while some caller waits for one.
fn read_rounds<V, E>(
    shared: &Shared,
    results: &watch::Sender<Round<V, E>>,
    read: impl Fn() -> Result<V, E>,
) {
    loop {
        let number = {
            let mut rounds = shared.lock();
            while rounds.wanted <= rounds.started && !rounds.closed {
                rounds = shared
                    .wake
                    .wait(rounds)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            if rounds.closed {
                return;
            }
            rounds.started += 1;
            rounds.started
        };
        let started = Instant::now();
        let outcome = read();
        results.send_replace(Round {
            number,
            started,
            outcome,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::Future;
    use std::sync::atomic::{AtomicI64, Ordering};
    use std::sync::mpsc;
    use std::task::{Context, Waker};
    use std::time::Duration;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
    }

    #[test]
    fn each_call_sees_a_read_that_started_after_it() {
        let reads = Arc::new(AtomicI64::new(0));
        let counter = reads.clone();
        let probe = VersionProbe::<i64, String>::spawn(move || {
            Ok(counter.fetch_add(1, Ordering::SeqCst) + 1)
        })
        .unwrap();
        let rt = runtime();
        // One caller at a time: every call is its own round, in order.
        for expected in 1..=5 {
            assert_eq!(rt.block_on(probe.current()), Ok(expected));
        }
        assert_eq!(reads.load(Ordering::SeqCst), 5);
    }

    #[test]
    fn callers_that_arrive_during_a_read_share_the_next_one() {
        // The read blocks until the test lets it go, so that callers pile up behind it.
        let (started_tx, started_rx) = mpsc::channel::<()>();
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let release_rx = Mutex::new(release_rx);
        let reads = Arc::new(AtomicI64::new(0));
        let counter = reads.clone();
        let probe = VersionProbe::<i64, String>::spawn(move || {
            started_tx.send(()).unwrap();
            // A bounded wait: a probe that read once per caller fails below, not hangs.
            let _ = release_rx
                .lock()
                .unwrap()
                .recv_timeout(Duration::from_secs(2));
            Ok(counter.fetch_add(1, Ordering::SeqCst) + 1)
        })
        .unwrap();
        // Polling a call once registers it; the futures are awaited properly later.
        let mut noop = Context::from_waker(Waker::noop());
        let mut first = Box::pin(probe.current());
        assert!(first.as_mut().poll(&mut noop).is_pending());
        started_rx.recv_timeout(Duration::from_secs(5)).unwrap();
        // Round 1 is reading; these arrive after it started, so it cannot answer them.
        let mut later: Vec<_> = (0..20).map(|_| Box::pin(probe.current())).collect();
        for call in &mut later {
            assert!(call.as_mut().poll(&mut noop).is_pending());
        }
        release_tx.send(()).unwrap();
        let rt = runtime();
        assert_eq!(rt.block_on(first), Ok(1));
        started_rx.recv_timeout(Duration::from_secs(5)).unwrap();
        release_tx.send(()).unwrap();
        for call in later {
            assert_eq!(rt.block_on(call), Ok(2));
        }
        assert_eq!(reads.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_recent_round_is_known_without_waiting_and_an_old_one_is_not() {
        let probe = VersionProbe::<i64, String>::spawn(|| Ok(7)).unwrap();
        assert_eq!(probe.recent(Duration::from_secs(60)), None, "no round yet");
        assert_eq!(runtime().block_on(probe.current()), Ok(7));
        assert_eq!(probe.recent(Duration::from_secs(60)), Some(7));
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(probe.recent(Duration::from_millis(10)), None);
    }

    #[test]
    fn a_failed_read_fails_its_round_only() {
        let reads = Arc::new(AtomicI64::new(0));
        let counter = reads.clone();
        let probe = VersionProbe::<i64, String>::spawn(move || {
            match counter.fetch_add(1, Ordering::SeqCst) {
                0 => Err("database unavailable".to_string()),
                n => Ok(n),
            }
        })
        .unwrap();
        let rt = runtime();
        assert_eq!(
            rt.block_on(probe.current()),
            Err(ProbeError::Read("database unavailable".to_string()))
        );
        assert_eq!(rt.block_on(probe.current()), Ok(1));
    }

    #[test]
    fn a_panicking_read_stops_the_probe_without_hanging_its_callers() {
        let probe = VersionProbe::<i64, String>::spawn(|| panic!("read failed")).unwrap();
        let rt = runtime();
        assert_eq!(rt.block_on(probe.current()), Err(ProbeError::Stopped));
        assert_eq!(rt.block_on(probe.current()), Err(ProbeError::Stopped));
    }

    #[test]
    fn dropping_the_probe_ends_its_thread() {
        let (ended_tx, ended_rx) = mpsc::channel::<()>();
        struct Ends(mpsc::Sender<()>);
        impl Drop for Ends {
            fn drop(&mut self) {
                let _ = self.0.send(());
            }
        }
        let ends = Ends(ended_tx);
        let probe = VersionProbe::<i64, String>::spawn(move || {
            let _ = &ends;
            Ok(1)
        })
        .unwrap();
        assert_eq!(runtime().block_on(probe.current()), Ok(1));
        drop(probe);
        ended_rx.recv_timeout(Duration::from_secs(5)).unwrap();
    }
}
