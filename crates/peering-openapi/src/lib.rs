//! What the REST API serves, said apart from HTTP: the applications and their resources
//! (`layout`), every action's declaration without its handler (`actions`), and the OpenAPI 3
//! document built from those and the resource declarations (`document`).
//!
//! peering-api serves the document and maps each declared action to its handler;
//! `cargo xtask openapi` writes the document to `openapi.json` beside this crate's manifest,
//! which a test here compares with what the builder gives (`snapshot`).

pub mod actions;
mod document;
pub mod layout;
pub mod snapshot;

pub use document::{api, document, json, json_for, yaml_for, SCHEMA};
pub use layout::api_version;
