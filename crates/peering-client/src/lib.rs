//! An async client of peeringd's REST API, typed by `peering-domain`'s models.
#![doc = include_str!("../README.md")]

mod actions;
mod client;
mod error;
mod query;
mod resources;

pub use actions::Session;
pub use client::Client;
pub use error::{Error, ValidationErrors};
pub use peering_domain::bodies::{Prefixes, RenderedEmail};
pub use query::Query;
pub use resources::Page;
// The method of `Client::action`.
pub use reqwest::Method;
