//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A network, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PdbNetwork {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// ASN
    pub asn: i64,
    /// Name
    pub name: String,
    /// Long name
    pub name_long: String,
    /// Also known as
    pub aka: String,
    /// IRR AS-SET/ROUTE-SET
    pub irr_as_set: String,
    /// Website
    pub website: String,
    /// Looking glass
    pub looking_glass: String,
    /// Route server
    pub route_server: String,
    /// Notes
    pub notes: String,
    /// Private notes
    pub notes_private: String,
    /// Traffic
    pub info_traffic: String,
    /// Ratio
    pub info_ratio: String,
    /// Scope
    pub info_scope: String,
    /// Type
    pub info_type: String,
    /// Types
    pub info_types: serde_json::Value,
    /// IPv4 prefixes
    pub info_prefixes4: Option<i64>,
    /// IPv6 prefixes
    pub info_prefixes6: Option<i64>,
    /// Unicast
    pub info_unicast: bool,
    /// Multicast
    pub info_multicast: bool,
    /// IPv6
    pub info_ipv6: bool,
    /// Never via route servers
    pub info_never_via_route_servers: bool,
    /// Policy URL
    pub policy_url: String,
    /// General policy
    pub policy_general: String,
    /// Locations policy
    pub policy_locations: String,
    /// Ratio policy
    pub policy_ratio: bool,
    /// Contracts policy
    pub policy_contracts: String,
    /// Organization
    pub org: NestedPdbOrganization,
}

/// The form nested in other objects of a network.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedPdbNetwork {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub asn: i64,
    pub name: String,
    pub irr_as_set: String,
}

/// The filters of network lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct PdbNetworkFilters {
    pub id: NumberFilter,
    pub asn: NumberFilter,
    pub name: TextFilter,
    pub org_id: RelationFilter,
}

impl PdbNetworkFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        asn: NumberFilter("asn"),
        name: TextFilter("name"),
        org_id: RelationFilter("org_id"),
    };
}

impl Model for PdbNetwork {
    type Brief = PdbNetwork;
    type Filters = PdbNetworkFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[37]
    }
    fn filters() -> PdbNetworkFilters {
        PdbNetworkFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}
