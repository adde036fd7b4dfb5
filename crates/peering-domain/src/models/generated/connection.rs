//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// The choices of `CONNECTION_STATUS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ConnectionStatus {
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
}

impl ConnectionStatus {
    /// The value as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ConnectionStatus::Enabled => "enabled",
            ConnectionStatus::PreMaintenance => "pre-maintenance",
            ConnectionStatus::Maintenance => "maintenance",
            ConnectionStatus::PostMaintenance => "post-maintenance",
            ConnectionStatus::Disabled => "disabled",
        }
    }

    /// The label the API shows beside the value.
    pub fn label(self) -> &'static str {
        match self {
            ConnectionStatus::Enabled => "Enabled",
            ConnectionStatus::PreMaintenance => "Pre-maintenance",
            ConnectionStatus::Maintenance => "Maintenance",
            ConnectionStatus::PostMaintenance => "Post-maintenance",
            ConnectionStatus::Disabled => "Disabled",
        }
    }
}

impl ChoiceValue for ConnectionStatus {
    fn as_str(self) -> &'static str {
        ConnectionStatus::as_str(self)
    }
}

/// A connection, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Connection {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Name
    pub name: String,
    /// External database record
    #[serde(alias = "peeringdb_netixlan")]
    pub extdb_netixlan: Option<i64>,
    /// Status
    pub status: Choice<ConnectionStatus>,
    /// VLAN
    pub vlan: Option<i64>,
    /// MAC address
    pub mac_address: Option<String>,
    /// IPv6 address
    pub ipv6_address: Option<ipnet::IpNet>,
    /// IPv4 address
    pub ipv4_address: Option<ipnet::IpNet>,
    /// Internet exchange point
    pub internet_exchange_point: Option<NestedInternetExchange>,
    /// Router
    pub router: Option<NestedRouter>,
    /// Interface
    pub interface: String,
    /// Description
    pub description: String,
    /// Local context data
    pub local_context_data: serde_json::Value,
    /// Config context
    pub config_context: serde_json::Value,
    /// Comments
    pub comments: String,
    /// Tags
    pub tags: Vec<NestedTag>,
    /// Created
    pub created: Timestamp,
    /// Updated
    pub updated: Timestamp,
}

/// The form nested in other objects of a connection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedConnection {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
    pub mac_address: Option<String>,
    pub ipv6_address: Option<ipnet::IpNet>,
    pub ipv4_address: Option<ipnet::IpNet>,
}

/// The brief form, which is the nested form.
pub type BriefConnection = NestedConnection;

/// The filters of connection lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionFilters {
    pub id: NumberFilter,
    pub status: ChoiceFilter<ConnectionStatus>,
    pub vlan: NumberFilter,
    pub mac_address: TextFilter,
    pub ipv6_address: TextFilter,
    pub ipv4_address: TextFilter,
    pub internet_exchange_point_id: RelationFilter,
    pub router_id: RelationFilter,
    pub interface: TextFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub internet_exchange_point: ValueFilter,
    pub router_name: ValueFilter,
    pub router: ValueFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
    pub tag: TagFilter,
}

impl ConnectionFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        status: ChoiceFilter::new("status"),
        vlan: NumberFilter("vlan"),
        mac_address: TextFilter("mac_address"),
        ipv6_address: TextFilter("ipv6_address"),
        ipv4_address: TextFilter("ipv4_address"),
        internet_exchange_point_id: RelationFilter("internet_exchange_point_id"),
        router_id: RelationFilter("router_id"),
        interface: TextFilter("interface"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        internet_exchange_point: ValueFilter("internet_exchange_point"),
        router_name: ValueFilter("router_name"),
        router: ValueFilter("router"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
        tag: TagFilter("tag"),
    };
}

impl Model for Connection {
    type Brief = BriefConnection;
    type Filters = ConnectionFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[4]
    }
    fn filters() -> ConnectionFilters {
        ConnectionFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a connection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableConnection {
    /// External database record
    #[serde(alias = "peeringdb_netixlan")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extdb_netixlan: Option<i64>,
    /// Status
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<ConnectionStatus>,
    /// VLAN
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vlan: Option<i64>,
    /// MAC address
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mac_address: Option<String>,
    /// IPv6 address
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ipv6_address: Option<ipnet::IpNet>,
    /// IPv4 address
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ipv4_address: Option<ipnet::IpNet>,
    /// Internet exchange point
    pub internet_exchange_point: Option<i64>,
    /// Router
    pub router: Option<i64>,
    /// Interface
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interface: Option<String>,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Local context data
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_context_data: Option<serde_json::Value>,
    /// Comments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
}

impl WritableConnection {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(internet_exchange_point: Option<i64>, router: Option<i64>) -> Self {
        Self {
            extdb_netixlan: None,
            status: None,
            vlan: None,
            mac_address: None,
            ipv6_address: None,
            ipv4_address: None,
            internet_exchange_point,
            router,
            interface: None,
            description: None,
            local_context_data: None,
            comments: None,
            tags: None,
        }
    }
}

impl Writable for WritableConnection {
    fn spec() -> &'static ResourceSpec {
        ALL[4]
    }
}

/// The body of a partial update of a connection: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchConnection {
    /// External database record
    #[serde(alias = "peeringdb_netixlan")]
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub extdb_netixlan: Option<Option<i64>>,
    /// Status
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<ConnectionStatus>,
    /// VLAN
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub vlan: Option<Option<i64>>,
    /// MAC address
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub mac_address: Option<Option<String>>,
    /// IPv6 address
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub ipv6_address: Option<Option<ipnet::IpNet>>,
    /// IPv4 address
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub ipv4_address: Option<Option<ipnet::IpNet>>,
    /// Internet exchange point
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub internet_exchange_point: Option<Option<i64>>,
    /// Router
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub router: Option<Option<i64>>,
    /// Interface
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interface: Option<String>,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Local context data
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_context_data: Option<serde_json::Value>,
    /// Comments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
}

impl Editable for Connection {
    type Writable = WritableConnection;
    type Patch = PatchConnection;
}
