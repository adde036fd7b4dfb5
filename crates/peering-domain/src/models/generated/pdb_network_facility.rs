//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A network facility, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PdbNetworkFacility {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Local ASN
    pub local_asn: Option<i64>,
    /// SONET
    pub avail_sonet: bool,
    /// Ethernet
    pub avail_ethernet: bool,
    /// ATM
    pub avail_atm: bool,
    /// Network
    pub net: NestedPdbNetwork,
    /// Facility
    pub fac: NestedPdbFacility,
}

/// The form nested in other objects of a network facility.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedPdbNetworkFacility {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub local_asn: Option<i64>,
    pub net: NestedPdbNetwork,
    pub fac: NestedPdbFacility,
}

/// The filters of network facility lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct PdbNetworkFacilityFilters {
    pub id: NumberFilter,
    pub local_asn: NumberFilter,
    pub net_id: RelationFilter,
    pub fac_id: RelationFilter,
}

impl PdbNetworkFacilityFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        local_asn: NumberFilter("local_asn"),
        net_id: RelationFilter("net_id"),
        fac_id: RelationFilter("fac_id"),
    };
}

impl Model for PdbNetworkFacility {
    type Brief = PdbNetworkFacility;
    type Filters = PdbNetworkFacilityFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[39]
    }
    fn filters() -> PdbNetworkFacilityFilters {
        PdbNetworkFacilityFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}
