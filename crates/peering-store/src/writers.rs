//! The queue of a process's SQLite writers. SQLite has one write lock per database, and
//! its busy handler polls for it with growing sleeps, so under load a late writer often
//! wins over one that has waited for seconds. Writers of this process instead take turns
//! in the order they arrived, and only the one whose turn it is asks SQLite for the lock.

use std::collections::BTreeSet;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::error::Error;

#[derive(Debug, Default)]
pub(crate) struct WriterQueue {
    turns: Mutex<Turns>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct Turns {
    /// The ticket the next writer to arrive takes.
    next: u64,
    /// The ticket whose holder may write now.
    serving: u64,
    /// Tickets of writers that stopped waiting: their turn is skipped.
    abandoned: BTreeSet<u64>,
}

impl Turns {
    fn advance(&mut self) {
        self.serving += 1;
        while self.abandoned.remove(&self.serving) {
            self.serving += 1;
        }
    }
}

/// A writer's turn; the next writer's begins when it is dropped.
#[derive(Debug)]
pub(crate) struct Turn<'a> {
    queue: &'a WriterQueue,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.queue.lock().advance();
        self.queue.changed.notify_all();
    }
}

impl WriterQueue {
    fn lock(&self) -> MutexGuard<'_, Turns> {
        // A writer that panicked left the counters consistent (they change in one step).
        self.turns.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for this writer's turn, at most `patience`; a writer still waiting then gives
    /// up with `Error::Busy`.
    pub fn enter(&self, patience: Duration) -> Result<Turn<'_>, Error> {
        let deadline = Instant::now() + patience;
        let mut turns = self.lock();
        let ticket = turns.next;
        turns.next += 1;
        while turns.serving != ticket {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                turns.abandoned.insert(ticket);
                return Err(Error::Busy(
                    format!(
                        "waited {} s for the writes queued before this one",
                        patience.as_secs()
                    )
                    .into(),
                ));
            }
            turns = self
                .changed
                .wait_timeout(turns, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        Ok(Turn { queue: self })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn writers_take_turns_in_the_order_they_arrived() {
        let queue = Arc::new(WriterQueue::default());
        let order = Arc::new(Mutex::new(Vec::new()));
        let first = queue.enter(Duration::from_secs(5)).unwrap();
        let mut waiting = Vec::new();
        for i in 0..8 {
            let (mine, order) = (queue.clone(), order.clone());
            waiting.push(std::thread::spawn(move || {
                let _turn = mine.enter(Duration::from_secs(5)).unwrap();
                order.lock().unwrap().push(i);
            }));
            // Each thread takes its ticket before the next one starts.
            while queue.lock().next < i as u64 + 2 {
                std::thread::yield_now();
            }
        }
        drop(first);
        for t in waiting {
            t.join().unwrap();
        }
        assert_eq!(*order.lock().unwrap(), (0..8).collect::<Vec<_>>());
    }

    #[test]
    fn a_writer_that_gives_up_does_not_hold_up_the_next() {
        let queue = WriterQueue::default();
        let first = queue.enter(Duration::from_secs(1)).unwrap();
        let refused = queue.enter(Duration::from_millis(20));
        assert!(matches!(refused, Err(Error::Busy(_))));
        drop(first);
        // The abandoned ticket is skipped: the third writer goes at once, without waiting.
        assert!(queue.enter(Duration::ZERO).is_ok());
    }
}
