//! At most N renders answered inline at once (`render-synchronous/`, `?export=`, the
//! configuration and e-mail previews). A render may take seconds of CPU; run without a
//! cap, a handful of them took every core from the other requests. Past N the caller is
//! told to come back later or to ask for the job form, which runs on the job workers.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The seconds a refused caller is told to wait (`Retry-After`).
pub const RETRY_AFTER_SECONDS: u64 = 2;

/// How many inline renders may run at once, and how many do.
#[derive(Debug, Clone)]
pub struct InlineRenders {
    running: Arc<AtomicUsize>,
    limit: usize,
}

/// Leave to run one inline render; the place is given back when it is dropped.
#[derive(Debug)]
pub struct Permit {
    running: Arc<AtomicUsize>,
}

/// No place was free: as many inline renders as allowed are running.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{limit} renders are already running at once; retry in {retry_after} s, or ask for the job form of this render")]
pub struct Busy {
    pub limit: usize,
    /// Seconds to wait before trying again, for `Retry-After`.
    pub retry_after: u64,
}

impl Busy {
    /// The answer's body: `{"detail": "..."}`, as the API's other refusals.
    pub fn detail(&self) -> serde_json::Value {
        serde_json::json!({ "detail": self.to_string() })
    }
}

impl InlineRenders {
    /// At most `limit` at once; a limit of zero is taken as one, so inline renders are
    /// never refused outright.
    pub fn new(limit: usize) -> InlineRenders {
        InlineRenders {
            running: Arc::new(AtomicUsize::new(0)),
            limit: limit.max(1),
        }
    }

    /// The limit when none is set: the number of cores this process may use.
    pub fn default_limit() -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    /// How many are running now.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::Acquire)
    }

    /// A place if one is free, without waiting.
    pub fn try_enter(&self) -> Result<Permit, Busy> {
        let taken = self
            .running
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |running| {
                (running < self.limit).then_some(running + 1)
            });
        match taken {
            Ok(_) => Ok(Permit {
                running: self.running.clone(),
            }),
            Err(_) => Err(Busy {
                limit: self.limit,
                retry_after: RETRY_AFTER_SECONDS,
            }),
        }
    }
}

impl Default for InlineRenders {
    fn default() -> Self {
        InlineRenders::new(InlineRenders::default_limit())
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        self.running.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Barrier;

    #[test]
    fn places_are_refused_past_the_limit_and_given_back_on_drop() {
        let gate = InlineRenders::new(2);
        let first = gate.try_enter().expect("first");
        let second = gate.try_enter().expect("second");
        assert_eq!(gate.running(), 2);
        let busy = gate.try_enter().expect_err("third refused");
        assert_eq!(
            busy,
            Busy {
                limit: 2,
                retry_after: RETRY_AFTER_SECONDS
            }
        );
        let detail = busy.detail()["detail"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(
            detail.contains("job form") && detail.contains("2 renders"),
            "{detail}"
        );
        drop(first);
        assert_eq!(gate.running(), 1);
        let third = gate.try_enter().expect("a place was given back");
        drop((second, third));
        assert_eq!(gate.running(), 0);
    }

    #[test]
    fn a_limit_of_zero_still_lets_one_in() {
        let gate = InlineRenders::new(0);
        assert_eq!(gate.limit(), 1);
        let only = gate.try_enter().expect("one");
        assert!(gate.try_enter().is_err());
        drop(only);
        assert!(gate.try_enter().is_ok());
        assert!(InlineRenders::default().limit() >= 1);
    }

    #[test]
    fn threads_racing_for_places_never_exceed_the_limit() {
        let gate = InlineRenders::new(3);
        let threads = 16;
        let start = Arc::new(Barrier::new(threads));
        let admitted: usize = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    let (gate, start) = (gate.clone(), start.clone());
                    scope.spawn(move || {
                        start.wait();
                        gate.try_enter().ok()
                    })
                })
                .collect();
            let permits: Vec<Option<Permit>> = handles
                .into_iter()
                .map(|h| h.join().expect("joined"))
                .collect();
            let admitted = permits.iter().flatten().count();
            assert_eq!(gate.running(), admitted);
            admitted
        });
        // Every thread held its place until all had tried: exactly three got one.
        assert_eq!(admitted, 3);
        assert_eq!(gate.running(), 0);
    }
}
