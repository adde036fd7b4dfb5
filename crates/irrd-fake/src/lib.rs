//! A fake IRR server for tests: IRRd's whois `!` commands as bgpq4 asks them (`!!`, `!n`,
//! `!v`, `!s`, `!a`, `!i`, `!g`, `!6`, `!q`) over the AS-SETs and route objects a test
//! gives it (`registry.rs`), served on 127.0.0.1 (`server.rs`) with a log of every query.
#![doc = include_str!("../README.md")]

mod registry;
mod server;

pub use registry::{asn_of, Answer, Registry};
pub use server::{Behaviour, FakeIrrd};
