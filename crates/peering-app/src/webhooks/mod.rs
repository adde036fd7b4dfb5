//! Webhooks: each change an enabled webhook selects becomes a delivery job, enqueued in the
//! write's own transaction (`enqueue.rs`), so that a write never waits for a receiver and a
//! delivery exists exactly when its write does.

mod enqueue;

pub use enqueue::{follow_writes, Deliveries};
