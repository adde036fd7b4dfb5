//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A network facility, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PdbNetworkFacility {
    pub id: i64,
    pub url: String,
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

impl Model for PdbNetworkFacility {
    type Brief = PdbNetworkFacility;
    fn spec() -> &'static ResourceSpec {
        ALL[37]
    }
    fn id(&self) -> i64 {
        self.id
    }
}
