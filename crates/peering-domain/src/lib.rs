//! The peering data model: resources described as data, values, choices, input validation.
#![doc = include_str!("../README.md")]

pub mod bodies;
pub mod choices;
pub mod errors;
pub mod grants;
pub mod input;
pub mod models;
pub mod names;
pub mod net;
pub mod password;
pub mod peeringdb;
pub mod peeringdb_rules;
pub mod permission;
pub mod record;
pub mod resources;
pub mod spec;
pub mod value;

pub use errors::FieldErrors;
pub use record::Record;
pub use spec::{Field, Kind, ResourceSpec};
pub use value::Value;
