//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// An Internet Exchange LAN prefix, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PdbIXLanPrefix {
    pub id: i64,
    pub url: String,
    pub display_url: String,
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

/// The filters of Internet Exchange LAN prefix lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct PdbIXLanPrefixFilters {
    pub id: NumberFilter,
    pub in_dfz: BoolFilter,
    pub ixlan_id: RelationFilter,
}

impl PdbIXLanPrefixFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        in_dfz: BoolFilter("in_dfz"),
        ixlan_id: RelationFilter("ixlan_id"),
    };
}

impl Model for PdbIXLanPrefix {
    type Brief = PdbIXLanPrefix;
    type Filters = PdbIXLanPrefixFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[36]
    }
    fn filters() -> PdbIXLanPrefixFilters {
        PdbIXLanPrefixFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}
