//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// The choices of `DEVICE_STATUS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DeviceStatus {
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

impl DeviceStatus {
    /// The value as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            DeviceStatus::Enabled => "enabled",
            DeviceStatus::PreMaintenance => "pre-maintenance",
            DeviceStatus::Maintenance => "maintenance",
            DeviceStatus::PostMaintenance => "post-maintenance",
            DeviceStatus::Disabled => "disabled",
        }
    }

    /// The label the API shows beside the value.
    pub fn label(self) -> &'static str {
        match self {
            DeviceStatus::Enabled => "Enabled",
            DeviceStatus::PreMaintenance => "Pre-maintenance",
            DeviceStatus::Maintenance => "Maintenance",
            DeviceStatus::PostMaintenance => "Post-maintenance",
            DeviceStatus::Disabled => "Disabled",
        }
    }
}

impl ChoiceValue for DeviceStatus {
    fn as_str(self) -> &'static str {
        DeviceStatus::as_str(self)
    }
}

/// A router, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Router {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Name
    pub name: String,
    /// Hostname
    pub hostname: String,
    /// Platform
    pub platform: NestedPlatform,
    /// Status
    pub status: Choice<DeviceStatus>,
    /// Encrypt passwords
    pub encrypt_passwords: bool,
    /// Poll BGP sessions state
    pub poll_bgp_sessions_state: bool,
    /// Poll BGP sessions last updated
    pub poll_bgp_sessions_last_updated: Option<Timestamp>,
    /// Configuration template
    pub configuration_template: Option<NestedConfiguration>,
    /// Communities
    pub communities: Vec<NestedCommunity>,
    /// Local autonomous system
    pub local_autonomous_system: NestedAutonomousSystem,
    /// NetBox device
    pub netbox_device_id: i64,
    /// Use NetBox
    pub use_netbox: bool,
    /// NAPALM username
    pub napalm_username: Option<String>,
    /// NAPALM password
    pub napalm_password: Option<String>,
    /// NAPALM timeout
    pub napalm_timeout: i64,
    /// NAPALM arguments
    pub napalm_args: serde_json::Value,
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

/// The form nested in other objects of a router.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedRouter {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
    pub hostname: String,
}

/// The brief form, which is the nested form.
pub type BriefRouter = NestedRouter;

/// The filters of router lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct RouterFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
    pub hostname: TextFilter,
    pub platform_id: RelationFilter,
    pub status: ChoiceFilter<DeviceStatus>,
    pub encrypt_passwords: BoolFilter,
    pub configuration_template_id: RelationFilter,
    pub local_autonomous_system_id: RelationFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub local_autonomous_system_asn: RelationFilter,
    pub local_autonomous_system: ValueFilter,
    pub platform: ValueFilter,
    pub configuration_template: ValueFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
    pub tag: TagFilter,
}

impl RouterFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
        hostname: TextFilter("hostname"),
        platform_id: RelationFilter("platform_id"),
        status: ChoiceFilter::new("status"),
        encrypt_passwords: BoolFilter("encrypt_passwords"),
        configuration_template_id: RelationFilter("configuration_template_id"),
        local_autonomous_system_id: RelationFilter("local_autonomous_system_id"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        local_autonomous_system_asn: RelationFilter("local_autonomous_system_asn"),
        local_autonomous_system: ValueFilter("local_autonomous_system"),
        platform: ValueFilter("platform"),
        configuration_template: ValueFilter("configuration_template"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
        tag: TagFilter("tag"),
    };
}

impl Model for Router {
    type Brief = BriefRouter;
    type Filters = RouterFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[8]
    }
    fn filters() -> RouterFilters {
        RouterFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a router.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableRouter {
    /// Name
    pub name: String,
    /// Hostname
    pub hostname: String,
    /// Platform
    pub platform: i64,
    /// Status
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<DeviceStatus>,
    /// Encrypt passwords
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypt_passwords: Option<bool>,
    /// Poll BGP sessions state
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_bgp_sessions_state: Option<bool>,
    /// Configuration template
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration_template: Option<i64>,
    /// Communities
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub communities: Option<Vec<i64>>,
    /// Local autonomous system
    pub local_autonomous_system: i64,
    /// NetBox device
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub netbox_device_id: Option<i64>,
    /// Use NetBox
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub use_netbox: Option<bool>,
    /// NAPALM username
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub napalm_username: Option<String>,
    /// NAPALM password
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub napalm_password: Option<String>,
    /// NAPALM timeout
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub napalm_timeout: Option<i64>,
    /// NAPALM arguments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub napalm_args: Option<serde_json::Value>,
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

impl WritableRouter {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        name: String,
        hostname: String,
        platform: i64,
        local_autonomous_system: i64,
    ) -> Self {
        Self {
            name,
            hostname,
            platform,
            status: None,
            encrypt_passwords: None,
            poll_bgp_sessions_state: None,
            configuration_template: None,
            communities: None,
            local_autonomous_system,
            netbox_device_id: None,
            use_netbox: None,
            napalm_username: None,
            napalm_password: None,
            napalm_timeout: None,
            napalm_args: None,
            local_context_data: None,
            comments: None,
            tags: None,
        }
    }
}

impl Writable for WritableRouter {
    fn spec() -> &'static ResourceSpec {
        ALL[8]
    }
}

/// The body of a partial update of a router: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchRouter {
    /// Name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Hostname
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hostname: Option<String>,
    /// Platform
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<i64>,
    /// Status
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<DeviceStatus>,
    /// Encrypt passwords
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypt_passwords: Option<bool>,
    /// Poll BGP sessions state
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_bgp_sessions_state: Option<bool>,
    /// Configuration template
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub configuration_template: Option<Option<i64>>,
    /// Communities
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub communities: Option<Vec<i64>>,
    /// Local autonomous system
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_autonomous_system: Option<i64>,
    /// NetBox device
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub netbox_device_id: Option<i64>,
    /// Use NetBox
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub use_netbox: Option<bool>,
    /// NAPALM username
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub napalm_username: Option<Option<String>>,
    /// NAPALM password
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub napalm_password: Option<Option<String>>,
    /// NAPALM timeout
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub napalm_timeout: Option<i64>,
    /// NAPALM arguments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub napalm_args: Option<serde_json::Value>,
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

impl Editable for Router {
    type Writable = WritableRouter;
    type Patch = PatchRouter;
}
