//! A fake PeeringDB: a deterministic generator of PeeringDB's objects (`data.rs`) at the
//! real database's size or any fraction of it, with changes layered on top, served on
//! 127.0.0.1 as PeeringDB's API serves them (`server.rs`): `GET /api/{type}?since=&depth=0`,
//! `since` giving the objects changed after it (deleted ones included), and faults on
//! demand (an HTTP status, a malformed answer, an answer trickled a byte at a time).
#![doc = include_str!("../README.md")]

mod data;
mod objects;
mod server;

pub use data::{Dataset, Sizes, NAMESPACES};
pub use server::{FakePeeringDb, Fault};
