//! At most N renders answered inline at once (`render-synchronous/`, `?export=`, the
//! configuration and e-mail previews). A render may take seconds of CPU; run without a
//! cap, a handful of them took every core from the other requests. A request waits a
//! little for a place, so that a few clients' quick renders pass one after the other; past
//! that it is told to come back later, or to ask for the job form, which runs on the job
//! workers.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The seconds a refused caller is told to wait (`Retry-After`).
pub const RETRY_AFTER_SECONDS: u64 = 2;
/// How long a request waits for a place before it is refused.
const WAIT: Duration = Duration::from_secs(2);

/// How many inline renders may run at once.
#[derive(Debug, Clone)]
pub struct InlineRenders {
    places: Arc<Semaphore>,
    limit: usize,
    wait: Duration,
}

/// No place came free in time: as many inline renders as allowed ran all along.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{limit} template renders are already running at once; retry in {retry_after} s, or ask for the job form of this render")]
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
    /// At most `limit` at once (zero is taken as one, so inline renders are never refused
    /// outright), each request waiting up to two seconds for a place.
    pub fn new(limit: usize) -> InlineRenders {
        InlineRenders::waiting(limit, WAIT)
    }

    fn waiting(limit: usize, wait: Duration) -> InlineRenders {
        let limit = limit.max(1);
        InlineRenders {
            places: Arc::new(Semaphore::new(limit)),
            limit,
            wait,
        }
    }

    /// The limit when none is set: the cores this process may use but one (at least one),
    /// which stays free for the other requests. On 2 cores, reads beside four clients
    /// rendering without pause: p99 3.5 ms with one render at once, 5.9 ms with two, 9.0
    /// ms uncapped (1.1-1.3 ms alone; `cargo xtask bench --only renders`).
    pub fn default_limit() -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1))
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    /// A place, waited for without holding a thread; given back when the permit drops (in
    /// the render's closure, so that it counts the render, not the request).
    pub async fn enter(&self) -> Result<OwnedSemaphorePermit, Busy> {
        let place = self.places.clone().acquire_owned();
        match actix_web::rt::time::timeout(self.wait, place).await {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(Busy {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn run<T>(work: impl std::future::Future<Output = T>) -> T {
        actix_web::rt::System::new().block_on(work)
    }

    #[test]
    fn past_the_limit_a_request_waits_then_is_refused() {
        run(async {
            let gate = InlineRenders::waiting(2, Duration::from_millis(50));
            let first = gate.enter().await.expect("first");
            let second = gate.enter().await.expect("second");
            let busy = gate.enter().await.expect_err("third refused after waiting");
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
                detail.contains("job form") && detail.contains("2 template renders"),
                "{detail}"
            );
            drop(first);
            let third = gate.enter().await.expect("a place was given back");
            drop((second, third));
        });
    }

    #[test]
    fn a_request_waiting_gets_the_place_given_back() {
        run(async {
            let gate = InlineRenders::waiting(1, Duration::from_secs(10));
            let held = gate.enter().await.expect("first");
            let waiting = actix_web::rt::spawn({
                let gate = gate.clone();
                async move { gate.enter().await.map(drop) }
            });
            actix_web::rt::time::sleep(Duration::from_millis(20)).await;
            drop(held);
            assert_eq!(waiting.await.expect("joined"), Ok(()));
        });
    }

    #[test]
    fn a_limit_of_zero_still_lets_one_in() {
        assert_eq!(InlineRenders::new(0).limit(), 1);
        assert!(InlineRenders::default_limit() >= 1);
    }
}
