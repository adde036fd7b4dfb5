//! Webhooks: requests sent to other systems when objects change, as the reference sends
//! them. Each change an enabled webhook selects becomes a delivery job, enqueued in the
//! write's own transaction (`enqueue.rs`), so that a write never waits for a receiver and
//! a delivery exists exactly when its write does. The job (`deliver.rs`) checks the
//! webhook's conditions (`conditions.rs`), renders what it sends (`payload.rs`), signs it
//! (`signature.rs`) and sends it (`send.rs`), trying again with back-off when the receiver
//! fails.

pub mod conditions;
mod deliver;
mod enqueue;
mod payload;
mod send;
pub mod signature;

use std::time::Duration;

pub use deliver::{deliver, USER_AGENT};
pub use enqueue::{follow_writes, Deliveries};

/// How deliveries are made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// How long one attempt may take, connecting and answering included.
    pub timeout: Duration,
    /// How many attempts a delivery makes at most (at least one).
    pub attempts: u32,
    /// The wait after the first failed attempt; each next wait is three times longer (at
    /// most an hour).
    pub retry_delay: Duration,
    /// A proxy for every delivery (`http://host:port`); none: direct.
    pub proxy: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            timeout: Duration::from_secs(10),
            attempts: 5,
            retry_delay: Duration::from_secs(10),
            proxy: None,
        }
    }
}

/// How many deliveries a process runs at once, on workers of their own: each mostly
/// waits on a receiver, and one that never answers holds one of them until its timeout.
pub const WEBHOOK_WORKERS: usize = 4;
