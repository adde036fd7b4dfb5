//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// An internet exchange, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InternetExchange {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Name
    pub name: String,
    /// Slug
    pub slug: String,
    /// Description
    pub description: String,
    /// Status
    pub status: Choice<BgpGroupStatus>,
    /// External database IX LAN
    #[serde(alias = "peeringdb_ixlan")]
    pub extdb_ixlan: Option<i64>,
    /// External database prefixes
    #[serde(alias = "peeringdb_prefixes")]
    pub extdb_prefixes: serde_json::Value,
    /// IX-API endpoint
    pub ixapi_endpoint: Option<NestedIxApi>,
    /// Local autonomous system
    pub local_autonomous_system: NestedAutonomousSystem,
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
    /// Tags
    pub tags: Vec<NestedTag>,
    /// Created
    pub created: Timestamp,
    /// Updated
    pub updated: Timestamp,
}

/// The form nested in other objects of an internet exchange.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedInternetExchange {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
    pub slug: String,
    pub status: BgpGroupStatus,
}

/// The brief form, which is the nested form.
pub type BriefInternetExchange = NestedInternetExchange;

/// The filters of internet exchange lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct InternetExchangeFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
    pub slug: TextFilter,
    pub status: ChoiceFilter<BgpGroupStatus>,
    pub ixapi_endpoint_id: RelationFilter,
    pub local_autonomous_system_id: RelationFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub local_autonomous_system_asn: RelationFilter,
    pub local_autonomous_system: ValueFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
    pub tag: TagFilter,
}

impl InternetExchangeFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
        slug: TextFilter("slug"),
        status: ChoiceFilter::new("status"),
        ixapi_endpoint_id: RelationFilter("ixapi_endpoint_id"),
        local_autonomous_system_id: RelationFilter("local_autonomous_system_id"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        local_autonomous_system_asn: RelationFilter("local_autonomous_system_asn"),
        local_autonomous_system: ValueFilter("local_autonomous_system"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
        tag: TagFilter("tag"),
    };
}

impl Model for InternetExchange {
    type Brief = BriefInternetExchange;
    type Filters = InternetExchangeFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[3]
    }
    fn filters() -> InternetExchangeFilters {
        InternetExchangeFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces an internet exchange.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableInternetExchange {
    /// Name
    pub name: String,
    /// Slug
    pub slug: String,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Status
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<BgpGroupStatus>,
    /// External database IX LAN
    #[serde(alias = "peeringdb_ixlan")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extdb_ixlan: Option<i64>,
    /// IX-API endpoint
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ixapi_endpoint: Option<i64>,
    /// Local autonomous system
    pub local_autonomous_system: i64,
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
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
}

impl WritableInternetExchange {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(name: String, slug: String, local_autonomous_system: i64) -> Self {
        Self {
            name,
            slug,
            description: None,
            status: None,
            extdb_ixlan: None,
            ixapi_endpoint: None,
            local_autonomous_system,
            import_routing_policies: None,
            export_routing_policies: None,
            communities: None,
            local_context_data: None,
            tags: None,
        }
    }
}

impl Writable for WritableInternetExchange {
    fn spec() -> &'static ResourceSpec {
        ALL[3]
    }
}

/// The body of a partial update of an internet exchange: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchInternetExchange {
    /// Name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Slug
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Status
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<BgpGroupStatus>,
    /// External database IX LAN
    #[serde(alias = "peeringdb_ixlan")]
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub extdb_ixlan: Option<Option<i64>>,
    /// IX-API endpoint
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub ixapi_endpoint: Option<Option<i64>>,
    /// Local autonomous system
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_autonomous_system: Option<i64>,
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
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
}

impl Editable for InternetExchange {
    type Writable = WritableInternetExchange;
    type Patch = PatchInternetExchange;
}
