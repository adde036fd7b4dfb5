//! Reads give way to writes. Under a flood of reads, every core is busy with readers' queries
//! (and, on PostgreSQL, their backends), and a write's statements each wait their turn for a
//! core behind them: a PATCH that takes 3 ms alone took 50 to 150 under load. While a write
//! of this process runs, a read about to take a connection waits for it to end (at most
//! [`MAX_WAIT`], so that a stream of writes cannot starve reads); reads already running
//! finish. Writes are rare beside reads, and short once they have the cores, so reads lose
//! little and writes keep their latency.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

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
}

/// A write under way; reads may go on when the last one is dropped.
#[derive(Debug)]
pub struct Writing {
    gate: Arc<WriteGate>,
}

impl Drop for Writing {
    fn drop(&mut self) {
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
