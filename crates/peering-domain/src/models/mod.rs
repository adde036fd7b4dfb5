//! Typed models of every resource, for tools that use the domain as a library.
//!
//! For each resource, `generated.rs` (written by `cargo xtask codegen` from the declarations
//! in `resources/`, and checked by CI to be current) holds:
//! - the object as the API shows it (`AutonomousSystem`), its brief form
//!   (`BriefAutonomousSystem`) and the nested form other objects embed
//!   (`NestedAutonomousSystem`);
//! - for resources clients may edit, the body of a create or replace
//!   (`WritableAutonomousSystem`) and of a partial update (`PatchAutonomousSystem`, where a
//!   nullable field is `Option<Option<T>>`: absent, null, or a value);
//! - an enum per choice set (`SessionStatus`);
//! - the filters of its lists, typed by kind (`AutonomousSystem::filters().asn.gte(64500)`:
//!   [`filters`]).
//!
//! Writable forms are validated by the server's own rules ([`Writable::validate`]) and
//! convert to and from [`Record`](crate::Record).
//!
//! ```
//! use peering_domain::models::{Writable, WritableAutonomousSystem};
//!
//! let mut system = WritableAutonomousSystem::new(64500, "Example".into());
//! assert!(system.validate().is_ok());
//! system.asn = 0;
//! let errors = system.validate().unwrap_err();
//! assert_eq!(
//!     errors.into_json()["asn"][0],
//!     "Ensure this value is greater than or equal to 1."
//! );
//! ```

mod convert;
pub mod filters;
mod generated;
mod support;

pub use convert::{Editable, Model, RelatedRecords, Writable};
pub use generated::*;
pub use support::{nullable, Choice, Timestamp};
