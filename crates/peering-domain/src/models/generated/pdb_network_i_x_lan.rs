//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A Public Peering Exchange Point, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PdbNetworkIXLan {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// ASN
    pub asn: i64,
    /// IPv4
    pub ipaddr4: Option<std::net::IpAddr>,
    /// IPv6
    pub ipaddr6: Option<std::net::IpAddr>,
    /// Route server peer
    pub is_rs_peer: bool,
    /// BFD support
    pub bfd_support: bool,
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
    /// Network side
    pub net_side: Option<NestedPdbFacility>,
    /// IXP side
    pub ix_side: Option<NestedPdbFacility>,
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

/// The filters of Public Peering Exchange Point lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct PdbNetworkIXLanFilters {
    pub id: NumberFilter,
    pub asn: NumberFilter,
    pub ipaddr4: TextFilter,
    pub ipaddr6: TextFilter,
    pub is_rs_peer: BoolFilter,
    pub bfd_support: BoolFilter,
    pub net_id: RelationFilter,
    pub ixlan_id: RelationFilter,
    pub net_asn: RelationFilter,
    pub net_info_traffic: TextFilter,
    pub net_info_scope: TextFilter,
    pub net_info_type: TextFilter,
    pub net_policy_general: TextFilter,
    pub net_policy_locations: TextFilter,
    pub net_policy_ratio: BoolFilter,
    pub net_policy_contracts: TextFilter,
}

impl PdbNetworkIXLanFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        asn: NumberFilter("asn"),
        ipaddr4: TextFilter("ipaddr4"),
        ipaddr6: TextFilter("ipaddr6"),
        is_rs_peer: BoolFilter("is_rs_peer"),
        bfd_support: BoolFilter("bfd_support"),
        net_id: RelationFilter("net_id"),
        ixlan_id: RelationFilter("ixlan_id"),
        net_asn: RelationFilter("net_asn"),
        net_info_traffic: TextFilter("net__info_traffic"),
        net_info_scope: TextFilter("net__info_scope"),
        net_info_type: TextFilter("net__info_type"),
        net_policy_general: TextFilter("net__policy_general"),
        net_policy_locations: TextFilter("net__policy_locations"),
        net_policy_ratio: BoolFilter("net__policy_ratio"),
        net_policy_contracts: TextFilter("net__policy_contracts"),
    };
}

impl Model for PdbNetworkIXLan {
    type Brief = PdbNetworkIXLan;
    type Filters = PdbNetworkIXLanFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[40]
    }
    fn filters() -> PdbNetworkIXLanFilters {
        PdbNetworkIXLanFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}
