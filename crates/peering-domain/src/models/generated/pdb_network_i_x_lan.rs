//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A Public Peering Exchange Point, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PdbNetworkIXLan {
    pub id: i64,
    pub url: String,
    pub display: String,
    /// ASN
    pub asn: i64,
    /// IPv4
    pub ipaddr4: Option<std::net::IpAddr>,
    /// IPv6
    pub ipaddr6: Option<std::net::IpAddr>,
    /// Route server peer
    pub is_rs_peer: bool,
    /// Notes
    pub notes: String,
    /// Speed
    pub speed: i64,
    /// Operational
    pub operational: bool,
    /// Network
    pub net: NestedPdbNetwork,
    /// Internet Exchange LAN
    pub ixlan: NestedPdbIXLan,
}

/// The form nested in other objects of a Public Peering Exchange Point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedPdbNetworkIXLan {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub asn: i64,
    pub ipaddr4: Option<std::net::IpAddr>,
    pub ipaddr6: Option<std::net::IpAddr>,
    pub is_rs_peer: bool,
}

impl Model for PdbNetworkIXLan {
    type Brief = PdbNetworkIXLan;
    fn spec() -> &'static ResourceSpec {
        ALL[38]
    }
    fn id(&self) -> i64 {
        self.id
    }
}
