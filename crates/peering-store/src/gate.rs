//! Reads give way to writes. Under a flood of reads, every core is busy with readers' queries
//! (and, on PostgreSQL, their backends), and a write's statements each wait their turn for a
//! core behind them: a PATCH that takes 3 ms alone took 50 to 150 under load. While a write
//! of this process runs, a read about to take a connection waits for it to end (at most
//! [`MAX_WAIT`], so that a stream of writes cannot starve reads); reads already running
//! finish. Writes are rare beside reads, and short once they have the cores, so reads lose
//! little and writes keep their latency.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The longest a read waits for writes to end.
pub(crate) const MAX_WAIT: Duration = Duration::from_millis(20);

#[derive(Debug, Default)]
pub(crate) struct WriteGate {
    /// Writes running now (read without the lock on every read, which is the common case).
    writing: AtomicUsize,
    lock: Mutex<()>,
    ended: Condvar,
    /// Reads that waited, for metrics.
    gave_way: AtomicU64,
    /// When the last write ended, in microseconds after `born`.
    last_ended: AtomicU64,
    born: OnceInstant,
}

/// The gate's creation time (`Instant` has no default).
#[derive(Debug)]
struct OnceInstant(Instant);

impl Default for OnceInstant {
    fn default() -> Self {
        OnceInstant(Instant::now())
    }
}

/// A write under way; reads may go on when the last one is dropped.
#[derive(Debug)]
pub struct Writing {
    gate: Arc<WriteGate>,
}

impl Drop for Writing {
    fn drop(&mut self) {
        let since_born = self.gate.born.0.elapsed().as_micros();
        self.gate.last_ended.store(
            u64::try_from(since_born).unwrap_or(u64::MAX),
            Ordering::Release,
        );
        if self.gate.writing.fetch_sub(1, Ordering::AcqRel) == 1 {
            // Taken so that a reader between its check and its wait does not miss this.
            let _held = self
                .gate
                .lock
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            self.gate.ended.notify_all();
        }
    }
}

impl WriteGate {
    /// Marks a write under way until the returned value is dropped.
    pub fn writing(self: &Arc<Self>) -> Writing {
        self.writing.fetch_add(1, Ordering::AcqRel);
        Writing { gate: self.clone() }
    }

    /// Waits until no write runs, at most `max_wait`; returns whether it waited at all.
    pub fn before_read(&self, max_wait: Duration) -> bool {
        if self.writing.load(Ordering::Acquire) == 0 {
            return false;
        }
        self.gave_way.fetch_add(1, Ordering::Relaxed);
        let held = self.lock.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = self
            .ended
            .wait_timeout_while(held, max_wait, |_| self.writing.load(Ordering::Acquire) > 0)
            .unwrap_or_else(PoisonError::into_inner);
        true
    }

    /// Waits until no write has run for `quiet`, at most `max_wait`; returns whether it
    /// waited at all. For background work: writes that come one after another (a client's
    /// bulk batches) leave it only the pauses at least `quiet` long.
    pub fn before_background(&self, max_wait: Duration, quiet: Duration) -> bool {
        let deadline = Instant::now() + max_wait;
        let mut waited = false;
        loop {
            let now = Instant::now();
            let wait = self.quiet_left(quiet, now);
            if wait.is_zero() || now >= deadline {
                return waited;
            }
            waited = true;
            let held = self.lock.lock().unwrap_or_else(PoisonError::into_inner);
            let _ = self
                .ended
                .wait_timeout(held, wait.min(deadline - now))
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// How long until no write will have run for `quiet`: all of `quiet` while one runs.
    fn quiet_left(&self, quiet: Duration, now: Instant) -> Duration {
        if self.writing.load(Ordering::Acquire) > 0 {
            return quiet;
        }
        let ended = self.last_ended.load(Ordering::Acquire);
        if ended == 0 {
            return Duration::ZERO;
        }
        let since = now
            .saturating_duration_since(self.born.0)
            .saturating_sub(Duration::from_micros(ended));
        quiet.saturating_sub(since)
    }

    /// How many reads have waited so far.
    pub fn reads_gave_way(&self) -> u64 {
        self.gave_way.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn a_read_passes_at_once_when_nothing_is_written() {
        let gate = Arc::new(WriteGate::default());
        assert!(!gate.before_read(Duration::from_secs(5)));
        drop(gate.writing());
        assert!(!gate.before_read(Duration::from_secs(5)));
    }

    #[test]
    fn a_read_waits_for_the_write_to_end() {
        let gate = Arc::new(WriteGate::default());
        let writing = gate.writing();
        let (done_tx, done_rx) = mpsc::channel();
        let reader_gate = gate.clone();
        let reader = std::thread::spawn(move || {
            reader_gate.before_read(Duration::from_secs(10));
            done_tx.send(()).unwrap();
        });
        assert!(
            done_rx.recv_timeout(Duration::from_millis(100)).is_err(),
            "the read went on during the write"
        );
        drop(writing);
        done_rx
            .recv_timeout(Duration::from_secs(5))
            .expect("the read went on when the write ended");
        reader.join().unwrap();
    }

    #[test]
    fn background_work_waits_for_a_pause_after_the_last_write() {
        let gate = Arc::new(WriteGate::default());
        assert!(
            !gate.before_background(Duration::from_secs(5), Duration::from_millis(50)),
            "nothing was ever written"
        );
        drop(gate.writing());
        let started = Instant::now();
        assert!(gate.before_background(Duration::from_secs(5), Duration::from_millis(50)));
        assert!(
            started.elapsed() >= Duration::from_millis(40),
            "{:?}",
            started.elapsed()
        );
        assert!(!gate.before_background(Duration::from_secs(5), Duration::from_millis(50)));
    }

    #[test]
    fn background_work_gives_up_waiting_at_its_limit() {
        let gate = Arc::new(WriteGate::default());
        let _writing = gate.writing();
        let started = Instant::now();
        assert!(gate.before_background(Duration::from_millis(60), Duration::from_secs(60)));
        let waited = started.elapsed();
        assert!(waited >= Duration::from_millis(60), "{waited:?}");
        assert!(waited < Duration::from_secs(30), "{waited:?}");
    }

    #[test]
    fn a_read_gives_up_waiting_at_its_limit() {
        let gate = Arc::new(WriteGate::default());
        let first = gate.writing();
        let _second = gate.writing();
        // Returns (having waited) although both writes still run.
        assert!(gate.before_read(Duration::from_millis(30)));
        drop(first);
        assert_eq!(
            gate.writing.load(Ordering::Acquire),
            1,
            "one write still runs"
        );
        assert!(gate.before_read(Duration::from_millis(1)));
        assert_eq!(gate.reads_gave_way(), 2);
    }
}
