//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// An Internet Exchange LAN prefix, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PdbIXLanPrefix {
    pub id: i64,
    pub url: String,
    pub display: String,
    /// Notes
    pub notes: String,
    /// Protocol
    pub protocol: String,
    /// Prefix
    pub prefix: ipnet::IpNet,
    /// In DFZ
    pub in_dfz: bool,
    /// Internet Exchange LAN
    pub ixlan: NestedPdbIXLan,
}

/// The form nested in other objects of an Internet Exchange LAN prefix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedPdbIXLanPrefix {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub protocol: String,
    pub prefix: ipnet::IpNet,
}

impl Model for PdbIXLanPrefix {
    type Brief = PdbIXLanPrefix;
    fn spec() -> &'static ResourceSpec {
        ALL[34]
    }
    fn id(&self) -> i64 {
        self.id
    }
}
