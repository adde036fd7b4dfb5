//! Router configurations, e-mails and exports rendered from Jinja2 templates over peering
//! data, as the reference system renders them: the same context, the same filters, the
//! same include tags. Rendering is sandboxed (templates reach only the data they are
//! given, never files or the network) and bounded (work, output size, include depth).
//!
//! The data comes through a [`DataSource`]; the server implements it over its database,
//! and any tool can implement it over its own records.
#![doc = include_str!("../README.md")]

pub mod budget;
pub mod context;
pub mod dataset;
mod engine;
mod error;
pub mod filters;
pub mod functions;
pub mod include;
pub mod limits;
pub mod memory;
pub mod model;
pub mod source;

pub use budget::CountingAllocator;
pub use dataset::{Audience, Dataset, Secrets, Tables};
pub use engine::{check, render, render_named, Bounds, RenderError, RenderErrorKind, Template};
pub use memory::MemorySource;
pub use minijinja::Value as TemplateValue;
pub use model::Model;
pub use source::{DataSource, StoredKind, StoredTemplate};
