//! What the store keeps in this process between reads, and how it knows when it no longer
//! holds: the tables' versions (`versions.rs`), the related objects kept (`kept.rs`) and
//! the lists' orders (`orders.rs`, their ids in `order_ids.rs`), and when rows were
//! last written, for texts kept per object (`row_clock.rs`); on SQLite, whether anything
//! was committed since the versions were last read (`commit_watch.rs`).

pub(crate) mod commit_watch;
pub(crate) mod kept;
pub(crate) mod order_ids;
pub(crate) mod orders;
pub mod row_clock;
pub(crate) mod versions;
