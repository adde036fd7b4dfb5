//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// An autonomous system, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AutonomousSystem {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// ASN
    pub asn: i64,
    /// Name
    pub name: String,
    /// Name sync
    #[serde(alias = "name_peeringdb_sync")]
    pub name_extdb_sync: bool,
    /// Description
    pub description: String,
    /// Comments
    pub comments: String,
    /// IRR AS-SET
    pub irr_as_set: Option<String>,
    /// IRR AS-SET sync
    #[serde(alias = "irr_as_set_peeringdb_sync")]
    pub irr_as_set_extdb_sync: bool,
    /// IPv6 max prefix
    pub ipv6_max_prefixes: Option<i64>,
    /// IPv6 max prefix sync
    #[serde(alias = "ipv6_max_prefixes_peeringdb_sync")]
    pub ipv6_max_prefixes_extdb_sync: bool,
    /// IPv4 max prefix
    pub ipv4_max_prefixes: Option<i64>,
    /// IPv4 max prefix sync
    #[serde(alias = "ipv4_max_prefixes_peeringdb_sync")]
    pub ipv4_max_prefixes_extdb_sync: bool,
    /// Import routing policies
    pub import_routing_policies: Vec<NestedRoutingPolicy>,
    /// Export routing policies
    pub export_routing_policies: Vec<NestedRoutingPolicy>,
    /// Communities
    pub communities: Vec<NestedCommunity>,
    /// Prefixes
    pub prefixes: serde_json::Value,
    /// Retrieve prefixes
    pub retrieve_prefixes: bool,
    /// AS list
    pub as_list: serde_json::Value,
    /// Retrieve AS list
    pub retrieve_as_list: bool,
    /// Override for PEERING_IRR_SOURCES, a comma separated list of sources, e.g. RIPE,RADB
    pub irr_sources_override: String,
    /// Override for PEERING_BGPQ_IPV6_ARGS
    pub irr_ipv6_prefixes_args_override: String,
    /// Override for PEERING_BGPQ_IPV4_ARGS
    pub irr_ipv4_prefixes_args_override: String,
    /// Affiliated
    pub affiliated: bool,
    /// Local context data
    pub local_context_data: serde_json::Value,
    /// Config context
    pub config_context: serde_json::Value,
    /// Tags
    pub tags: Vec<NestedTag>,
    /// Created
    pub created: Timestamp,
    /// Updated
    pub updated: Timestamp,
}

/// The form nested in other objects of an autonomous system.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedAutonomousSystem {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub asn: i64,
    pub name: String,
    pub ipv6_max_prefixes: Option<i64>,
    pub ipv4_max_prefixes: Option<i64>,
}

/// The brief form, which is the nested form.
pub type BriefAutonomousSystem = NestedAutonomousSystem;

/// The filters of autonomous system lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct AutonomousSystemFilters {
    pub id: NumberFilter,
    pub asn: NumberFilter,
    pub name: TextFilter,
    pub irr_as_set: TextFilter,
    pub ipv6_max_prefixes: NumberFilter,
    pub ipv4_max_prefixes: NumberFilter,
    pub affiliated: BoolFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
    pub tag: TagFilter,
}

impl AutonomousSystemFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        asn: NumberFilter("asn"),
        name: TextFilter("name"),
        irr_as_set: TextFilter("irr_as_set"),
        ipv6_max_prefixes: NumberFilter("ipv6_max_prefixes"),
        ipv4_max_prefixes: NumberFilter("ipv4_max_prefixes"),
        affiliated: BoolFilter("affiliated"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
        tag: TagFilter("tag"),
    };
}

impl Model for AutonomousSystem {
    type Brief = BriefAutonomousSystem;
    type Filters = AutonomousSystemFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[0]
    }
    fn filters() -> AutonomousSystemFilters {
        AutonomousSystemFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces an autonomous system.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableAutonomousSystem {
    /// ASN
    pub asn: i64,
    /// Name
    pub name: String,
    /// Name sync
    #[serde(alias = "name_peeringdb_sync")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_extdb_sync: Option<bool>,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Comments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// IRR AS-SET
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub irr_as_set: Option<String>,
    /// IRR AS-SET sync
    #[serde(alias = "irr_as_set_peeringdb_sync")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub irr_as_set_extdb_sync: Option<bool>,
    /// IPv6 max prefix
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ipv6_max_prefixes: Option<i64>,
    /// IPv6 max prefix sync
    #[serde(alias = "ipv6_max_prefixes_peeringdb_sync")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ipv6_max_prefixes_extdb_sync: Option<bool>,
    /// IPv4 max prefix
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ipv4_max_prefixes: Option<i64>,
    /// IPv4 max prefix sync
    #[serde(alias = "ipv4_max_prefixes_peeringdb_sync")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ipv4_max_prefixes_extdb_sync: Option<bool>,
    /// Import routing policies
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub import_routing_policies: Option<Vec<i64>>,
    /// Export routing policies
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub export_routing_policies: Option<Vec<i64>>,
    /// Communities
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub communities: Option<Vec<i64>>,
    /// Retrieve prefixes
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retrieve_prefixes: Option<bool>,
    /// Retrieve AS list
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retrieve_as_list: Option<bool>,
    /// Override for PEERING_IRR_SOURCES, a comma separated list of sources, e.g. RIPE,RADB
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub irr_sources_override: Option<String>,
    /// Override for PEERING_BGPQ_IPV6_ARGS
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub irr_ipv6_prefixes_args_override: Option<String>,
    /// Override for PEERING_BGPQ_IPV4_ARGS
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub irr_ipv4_prefixes_args_override: Option<String>,
    /// Affiliated
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affiliated: Option<bool>,
    /// Local context data
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_context_data: Option<serde_json::Value>,
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
}

impl WritableAutonomousSystem {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(asn: i64, name: String) -> Self {
        Self {
            asn,
            name,
            name_extdb_sync: None,
            description: None,
            comments: None,
            irr_as_set: None,
            irr_as_set_extdb_sync: None,
            ipv6_max_prefixes: None,
            ipv6_max_prefixes_extdb_sync: None,
            ipv4_max_prefixes: None,
            ipv4_max_prefixes_extdb_sync: None,
            import_routing_policies: None,
            export_routing_policies: None,
            communities: None,
            retrieve_prefixes: None,
            retrieve_as_list: None,
            irr_sources_override: None,
            irr_ipv6_prefixes_args_override: None,
            irr_ipv4_prefixes_args_override: None,
            affiliated: None,
            local_context_data: None,
            tags: None,
        }
    }
}

impl Writable for WritableAutonomousSystem {
    fn spec() -> &'static ResourceSpec {
        ALL[0]
    }
}

/// The body of a partial update of an autonomous system: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchAutonomousSystem {
    /// ASN
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asn: Option<i64>,
    /// Name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Name sync
    #[serde(alias = "name_peeringdb_sync")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_extdb_sync: Option<bool>,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Comments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// IRR AS-SET
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub irr_as_set: Option<Option<String>>,
    /// IRR AS-SET sync
    #[serde(alias = "irr_as_set_peeringdb_sync")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub irr_as_set_extdb_sync: Option<bool>,
    /// IPv6 max prefix
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub ipv6_max_prefixes: Option<Option<i64>>,
    /// IPv6 max prefix sync
    #[serde(alias = "ipv6_max_prefixes_peeringdb_sync")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ipv6_max_prefixes_extdb_sync: Option<bool>,
    /// IPv4 max prefix
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub ipv4_max_prefixes: Option<Option<i64>>,
    /// IPv4 max prefix sync
    #[serde(alias = "ipv4_max_prefixes_peeringdb_sync")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ipv4_max_prefixes_extdb_sync: Option<bool>,
    /// Import routing policies
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub import_routing_policies: Option<Vec<i64>>,
    /// Export routing policies
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub export_routing_policies: Option<Vec<i64>>,
    /// Communities
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub communities: Option<Vec<i64>>,
    /// Retrieve prefixes
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retrieve_prefixes: Option<bool>,
    /// Retrieve AS list
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retrieve_as_list: Option<bool>,
    /// Override for PEERING_IRR_SOURCES, a comma separated list of sources, e.g. RIPE,RADB
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub irr_sources_override: Option<String>,
    /// Override for PEERING_BGPQ_IPV6_ARGS
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub irr_ipv6_prefixes_args_override: Option<String>,
    /// Override for PEERING_BGPQ_IPV4_ARGS
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub irr_ipv4_prefixes_args_override: Option<String>,
    /// Affiliated
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affiliated: Option<bool>,
    /// Local context data
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_context_data: Option<serde_json::Value>,
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
}

impl Editable for AutonomousSystem {
    type Writable = WritableAutonomousSystem;
    type Patch = PatchAutonomousSystem;
}
