//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A direct peering session, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DirectPeeringSession {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Service reference
    pub service_reference: Option<String>,
    /// Local autonomous system
    pub local_autonomous_system: NestedAutonomousSystem,
    /// Local IP address
    pub local_ip_address: Option<ipnet::IpNet>,
    /// Autonomous system
    pub autonomous_system: NestedAutonomousSystem,
    /// BGP group
    pub bgp_group: Option<NestedBgpGroup>,
    /// IP address
    pub ip_address: ipnet::IpNet,
    /// Status
    pub status: Choice<BgpSessionStatus>,
    /// Relationship
    pub relationship: NestedRelationship,
    /// Password
    pub password: Option<String>,
    /// Encrypted password
    pub encrypted_password: Option<String>,
    /// Multihop TTL
    pub multihop_ttl: i64,
    /// Passive
    pub passive: bool,
    /// BFD
    pub bfd: Option<NestedBfd>,
    /// Import routing policies
    pub import_routing_policies: Vec<NestedRoutingPolicy>,
    /// Export routing policies
    pub export_routing_policies: Vec<NestedRoutingPolicy>,
    /// Communities
    pub communities: Vec<NestedCommunity>,
    /// Router
    pub router: Option<NestedRouter>,
    /// Network connection on which this session lives
    pub connection: Option<NestedConnection>,
    /// Local context data
    pub local_context_data: serde_json::Value,
    /// Config context
    pub config_context: serde_json::Value,
    /// BGP state
    pub bgp_state: Option<BgpState>,
    /// Received prefixes
    pub received_prefix_count: i64,
    /// Accepted prefixes
    pub accepted_prefix_count: i64,
    /// Advertised prefixes
    pub advertised_prefix_count: i64,
    /// Last established state
    pub last_established_state: Option<Timestamp>,
    /// Comments
    pub comments: String,
    /// Tags
    pub tags: Vec<NestedTag>,
    /// Created
    pub created: Timestamp,
    /// Updated
    pub updated: Timestamp,
}

/// The form nested in other objects of a direct peering session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedDirectPeeringSession {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub ip_address: ipnet::IpNet,
    pub status: Choice<BgpSessionStatus>,
}

/// The brief form, which is the nested form.
pub type BriefDirectPeeringSession = NestedDirectPeeringSession;

/// The filters of direct peering session lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct DirectPeeringSessionFilters {
    pub id: NumberFilter,
    pub service_reference: TextFilter,
    pub local_autonomous_system_id: RelationFilter,
    pub local_ip_address: TextFilter,
    pub autonomous_system_id: RelationFilter,
    pub bgp_group_id: RelationFilter,
    pub ip_address: TextFilter,
    pub status: ChoiceFilter<BgpSessionStatus>,
    pub relationship_id: RelationFilter,
    pub multihop_ttl: NumberFilter,
    pub passive: BoolFilter,
    pub bfd_id: RelationFilter,
    pub router_id: RelationFilter,
    pub connection_id: RelationFilter,
    pub bgp_state: ChoiceFilter<BgpState>,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub local_autonomous_system_asn: RelationFilter,
    pub local_autonomous_system: ValueFilter,
    pub autonomous_system_asn: RelationFilter,
    pub autonomous_system: ValueFilter,
    pub bgp_group: ValueFilter,
    pub relationship: ValueFilter,
    pub router_name: ValueFilter,
    pub router: ValueFilter,
    pub bfd: ValueFilter,
    pub address_family: RelationFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
    pub tag: TagFilter,
}

impl DirectPeeringSessionFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        service_reference: TextFilter("service_reference"),
        local_autonomous_system_id: RelationFilter("local_autonomous_system_id"),
        local_ip_address: TextFilter("local_ip_address"),
        autonomous_system_id: RelationFilter("autonomous_system_id"),
        bgp_group_id: RelationFilter("bgp_group_id"),
        ip_address: TextFilter("ip_address"),
        status: ChoiceFilter::new("status"),
        relationship_id: RelationFilter("relationship_id"),
        multihop_ttl: NumberFilter("multihop_ttl"),
        passive: BoolFilter("passive"),
        bfd_id: RelationFilter("bfd_id"),
        router_id: RelationFilter("router_id"),
        connection_id: RelationFilter("connection_id"),
        bgp_state: ChoiceFilter::new("bgp_state"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        local_autonomous_system_asn: RelationFilter("local_autonomous_system_asn"),
        local_autonomous_system: ValueFilter("local_autonomous_system"),
        autonomous_system_asn: RelationFilter("autonomous_system_asn"),
        autonomous_system: ValueFilter("autonomous_system"),
        bgp_group: ValueFilter("bgp_group"),
        relationship: ValueFilter("relationship"),
        router_name: ValueFilter("router_name"),
        router: ValueFilter("router"),
        bfd: ValueFilter("bfd"),
        address_family: RelationFilter("address_family"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
        tag: TagFilter("tag"),
    };
}

impl Model for DirectPeeringSession {
    type Brief = BriefDirectPeeringSession;
    type Filters = DirectPeeringSessionFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[7]
    }
    fn filters() -> DirectPeeringSessionFilters {
        DirectPeeringSessionFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a direct peering session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableDirectPeeringSession {
    /// Service reference
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_reference: Option<String>,
    /// Local autonomous system
    pub local_autonomous_system: i64,
    /// Local IP address
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_ip_address: Option<ipnet::IpNet>,
    /// Autonomous system
    pub autonomous_system: i64,
    /// BGP group
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bgp_group: Option<i64>,
    /// IP address
    pub ip_address: ipnet::IpNet,
    /// Status
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<BgpSessionStatus>,
    /// Relationship
    pub relationship: i64,
    /// Password
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,
    /// Encrypted password
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_password: Option<String>,
    /// Multihop TTL
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multihop_ttl: Option<i64>,
    /// Passive
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passive: Option<bool>,
    /// BFD
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bfd: Option<i64>,
    /// Import routing policies
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub import_routing_policies: Option<Vec<i64>>,
    /// Export routing policies
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub export_routing_policies: Option<Vec<i64>>,
    /// Communities
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub communities: Option<Vec<i64>>,
    /// Router
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub router: Option<i64>,
    /// Network connection on which this session lives
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connection: Option<i64>,
    /// Local context data
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_context_data: Option<serde_json::Value>,
    /// BGP state
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bgp_state: Option<BgpState>,
    /// Received prefixes
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub received_prefix_count: Option<i64>,
    /// Accepted prefixes
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted_prefix_count: Option<i64>,
    /// Advertised prefixes
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advertised_prefix_count: Option<i64>,
    /// Last established state
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_established_state: Option<Timestamp>,
    /// Comments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
}

impl WritableDirectPeeringSession {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        local_autonomous_system: i64,
        autonomous_system: i64,
        ip_address: ipnet::IpNet,
        relationship: i64,
    ) -> Self {
        Self {
            service_reference: None,
            local_autonomous_system,
            local_ip_address: None,
            autonomous_system,
            bgp_group: None,
            ip_address,
            status: None,
            relationship,
            password: None,
            encrypted_password: None,
            multihop_ttl: None,
            passive: None,
            bfd: None,
            import_routing_policies: None,
            export_routing_policies: None,
            communities: None,
            router: None,
            connection: None,
            local_context_data: None,
            bgp_state: None,
            received_prefix_count: None,
            accepted_prefix_count: None,
            advertised_prefix_count: None,
            last_established_state: None,
            comments: None,
            tags: None,
        }
    }
}

impl Writable for WritableDirectPeeringSession {
    fn spec() -> &'static ResourceSpec {
        ALL[7]
    }
}

/// The body of a partial update of a direct peering session: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchDirectPeeringSession {
    /// Service reference
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub service_reference: Option<Option<String>>,
    /// Local autonomous system
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_autonomous_system: Option<i64>,
    /// Local IP address
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub local_ip_address: Option<Option<ipnet::IpNet>>,
    /// Autonomous system
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub autonomous_system: Option<i64>,
    /// BGP group
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub bgp_group: Option<Option<i64>>,
    /// IP address
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ip_address: Option<ipnet::IpNet>,
    /// Status
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<BgpSessionStatus>,
    /// Relationship
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relationship: Option<i64>,
    /// Password
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub password: Option<Option<String>>,
    /// Encrypted password
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub encrypted_password: Option<Option<String>>,
    /// Multihop TTL
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multihop_ttl: Option<i64>,
    /// Passive
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passive: Option<bool>,
    /// BFD
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub bfd: Option<Option<i64>>,
    /// Import routing policies
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub import_routing_policies: Option<Vec<i64>>,
    /// Export routing policies
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub export_routing_policies: Option<Vec<i64>>,
    /// Communities
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub communities: Option<Vec<i64>>,
    /// Router
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub router: Option<Option<i64>>,
    /// Network connection on which this session lives
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub connection: Option<Option<i64>>,
    /// Local context data
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_context_data: Option<serde_json::Value>,
    /// BGP state
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub bgp_state: Option<Option<BgpState>>,
    /// Received prefixes
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub received_prefix_count: Option<i64>,
    /// Accepted prefixes
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted_prefix_count: Option<i64>,
    /// Advertised prefixes
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advertised_prefix_count: Option<i64>,
    /// Last established state
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub last_established_state: Option<Option<Timestamp>>,
    /// Comments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
}

impl Editable for DirectPeeringSession {
    type Writable = WritableDirectPeeringSession;
    type Patch = PatchDirectPeeringSession;
}
