//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// The choices of `BGP_SESSION_STATUS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BgpSessionStatus {
    /// "Requested"
    #[serde(rename = "requested")]
    Requested,
    /// "Provisioning"
    #[serde(rename = "provisioning")]
    Provisioning,
    /// "Enabled"
    #[serde(rename = "enabled")]
    Enabled,
    /// "Pre-maintenance"
    #[serde(rename = "pre-maintenance")]
    PreMaintenance,
    /// "Maintenance"
    #[serde(rename = "maintenance")]
    Maintenance,
    /// "Post-maintenance"
    #[serde(rename = "post-maintenance")]
    PostMaintenance,
    /// "Disabled"
    #[serde(rename = "disabled")]
    Disabled,
    /// "Decommissioning"
    #[serde(rename = "decommissioning")]
    Decommissioning,
    /// "Decommissioned"
    #[serde(rename = "decommissioned")]
    Decommissioned,
}

impl BgpSessionStatus {
    /// The value as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            BgpSessionStatus::Requested => "requested",
            BgpSessionStatus::Provisioning => "provisioning",
            BgpSessionStatus::Enabled => "enabled",
            BgpSessionStatus::PreMaintenance => "pre-maintenance",
            BgpSessionStatus::Maintenance => "maintenance",
            BgpSessionStatus::PostMaintenance => "post-maintenance",
            BgpSessionStatus::Disabled => "disabled",
            BgpSessionStatus::Decommissioning => "decommissioning",
            BgpSessionStatus::Decommissioned => "decommissioned",
        }
    }

    /// The label the API shows beside the value.
    pub fn label(self) -> &'static str {
        match self {
            BgpSessionStatus::Requested => "Requested",
            BgpSessionStatus::Provisioning => "Provisioning",
            BgpSessionStatus::Enabled => "Enabled",
            BgpSessionStatus::PreMaintenance => "Pre-maintenance",
            BgpSessionStatus::Maintenance => "Maintenance",
            BgpSessionStatus::PostMaintenance => "Post-maintenance",
            BgpSessionStatus::Disabled => "Disabled",
            BgpSessionStatus::Decommissioning => "Decommissioning",
            BgpSessionStatus::Decommissioned => "Decommissioned",
        }
    }
}

impl ChoiceValue for BgpSessionStatus {
    fn as_str(self) -> &'static str {
        BgpSessionStatus::as_str(self)
    }
}

/// The choices of `BGP_STATE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BgpState {
    /// "Idle"
    #[serde(rename = "idle")]
    Idle,
    /// "Connect"
    #[serde(rename = "connect")]
    Connect,
    /// "Active"
    #[serde(rename = "active")]
    Active,
    /// "OpenSent"
    #[serde(rename = "opensent")]
    Opensent,
    /// "OpenConfirm"
    #[serde(rename = "openconfirm")]
    Openconfirm,
    /// "Established"
    #[serde(rename = "established")]
    Established,
}

impl BgpState {
    /// The value as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            BgpState::Idle => "idle",
            BgpState::Connect => "connect",
            BgpState::Active => "active",
            BgpState::Opensent => "opensent",
            BgpState::Openconfirm => "openconfirm",
            BgpState::Established => "established",
        }
    }

    /// The label the API shows beside the value.
    pub fn label(self) -> &'static str {
        match self {
            BgpState::Idle => "Idle",
            BgpState::Connect => "Connect",
            BgpState::Active => "Active",
            BgpState::Opensent => "OpenSent",
            BgpState::Openconfirm => "OpenConfirm",
            BgpState::Established => "Established",
        }
    }
}

impl ChoiceValue for BgpState {
    fn as_str(self) -> &'static str {
        BgpState::as_str(self)
    }
}

/// An internet exchange peering session, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InternetExchangePeeringSession {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Service reference
    pub service_reference: Option<String>,
    /// Autonomous system
    pub autonomous_system: NestedAutonomousSystem,
    /// IXP connection
    pub ixp_connection: NestedConnection,
    /// IP address
    pub ip_address: std::net::IpAddr,
    /// Status
    pub status: Choice<BgpSessionStatus>,
    /// Password
    pub password: Option<String>,
    /// Encrypted password
    pub encrypted_password: Option<String>,
    /// Multihop TTL
    pub multihop_ttl: i64,
    /// Passive
    pub passive: bool,
    /// Route server
    pub is_route_server: bool,
    /// BFD
    pub bfd: Option<NestedBfd>,
    /// Import routing policies
    pub import_routing_policies: Vec<NestedRoutingPolicy>,
    /// Export routing policies
    pub export_routing_policies: Vec<NestedRoutingPolicy>,
    /// Communities
    pub communities: Vec<NestedCommunity>,
    /// Local context data
    pub local_context_data: serde_json::Value,
    /// Config context
    pub config_context: serde_json::Value,
    /// Exists in external database
    #[serde(alias = "exists_in_peeringdb")]
    pub exists_in_extdb: bool,
    /// Abandoned
    pub is_abandoned: bool,
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

/// The form nested in other objects of an internet exchange peering session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedInternetExchangePeeringSession {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub ip_address: std::net::IpAddr,
    pub status: BgpSessionStatus,
    pub is_route_server: bool,
}

/// The brief form, which is the nested form.
pub type BriefInternetExchangePeeringSession = NestedInternetExchangePeeringSession;

/// The filters of internet exchange peering session lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct InternetExchangePeeringSessionFilters {
    pub id: NumberFilter,
    pub service_reference: TextFilter,
    pub autonomous_system_id: RelationFilter,
    pub ixp_connection_id: RelationFilter,
    pub ip_address: TextFilter,
    pub status: ChoiceFilter<BgpSessionStatus>,
    pub multihop_ttl: NumberFilter,
    pub passive: BoolFilter,
    pub is_route_server: BoolFilter,
    pub bfd_id: RelationFilter,
    pub bgp_state: ChoiceFilter<BgpState>,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub exists_in_extdb: BoolFilter,
    pub is_abandoned: BoolFilter,
    pub autonomous_system_asn: RelationFilter,
    pub autonomous_system: ValueFilter,
    pub bfd: ValueFilter,
    pub internet_exchange_id: RelationFilter,
    pub internet_exchange: ValueFilter,
    pub address_family: RelationFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
    pub tag: TagFilter,
}

impl InternetExchangePeeringSessionFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        service_reference: TextFilter("service_reference"),
        autonomous_system_id: RelationFilter("autonomous_system_id"),
        ixp_connection_id: RelationFilter("ixp_connection_id"),
        ip_address: TextFilter("ip_address"),
        status: ChoiceFilter::new("status"),
        multihop_ttl: NumberFilter("multihop_ttl"),
        passive: BoolFilter("passive"),
        is_route_server: BoolFilter("is_route_server"),
        bfd_id: RelationFilter("bfd_id"),
        bgp_state: ChoiceFilter::new("bgp_state"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        exists_in_extdb: BoolFilter("exists_in_extdb"),
        is_abandoned: BoolFilter("is_abandoned"),
        autonomous_system_asn: RelationFilter("autonomous_system_asn"),
        autonomous_system: ValueFilter("autonomous_system"),
        bfd: ValueFilter("bfd"),
        internet_exchange_id: RelationFilter("internet_exchange_id"),
        internet_exchange: ValueFilter("internet_exchange"),
        address_family: RelationFilter("address_family"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
        tag: TagFilter("tag"),
    };
}

impl Model for InternetExchangePeeringSession {
    type Brief = BriefInternetExchangePeeringSession;
    type Filters = InternetExchangePeeringSessionFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[6]
    }
    fn filters() -> InternetExchangePeeringSessionFilters {
        InternetExchangePeeringSessionFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces an internet exchange peering session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableInternetExchangePeeringSession {
    /// Service reference
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_reference: Option<String>,
    /// Autonomous system
    pub autonomous_system: i64,
    /// IXP connection
    pub ixp_connection: i64,
    /// IP address
    pub ip_address: std::net::IpAddr,
    /// Status
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<BgpSessionStatus>,
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
    /// Route server
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_route_server: Option<bool>,
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

impl WritableInternetExchangePeeringSession {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(autonomous_system: i64, ixp_connection: i64, ip_address: std::net::IpAddr) -> Self {
        Self {
            service_reference: None,
            autonomous_system,
            ixp_connection,
            ip_address,
            status: None,
            password: None,
            encrypted_password: None,
            multihop_ttl: None,
            passive: None,
            is_route_server: None,
            bfd: None,
            import_routing_policies: None,
            export_routing_policies: None,
            communities: None,
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

impl Writable for WritableInternetExchangePeeringSession {
    fn spec() -> &'static ResourceSpec {
        ALL[6]
    }
}

/// The body of a partial update of an internet exchange peering session: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchInternetExchangePeeringSession {
    /// Service reference
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub service_reference: Option<Option<String>>,
    /// Autonomous system
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub autonomous_system: Option<i64>,
    /// IXP connection
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ixp_connection: Option<i64>,
    /// IP address
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ip_address: Option<std::net::IpAddr>,
    /// Status
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<BgpSessionStatus>,
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
    /// Route server
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_route_server: Option<bool>,
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

impl Editable for InternetExchangePeeringSession {
    type Writable = WritableInternetExchangePeeringSession;
    type Patch = PatchInternetExchangePeeringSession;
}
