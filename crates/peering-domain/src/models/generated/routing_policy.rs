//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// The choices of `ROUTING_POLICY_TYPE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RoutingPolicyType {
    /// "Export"
    #[serde(rename = "export-policy")]
    ExportPolicy,
    /// "Import"
    #[serde(rename = "import-policy")]
    ImportPolicy,
    /// "Import+Export"
    #[serde(rename = "import-export-policy")]
    ImportExportPolicy,
}

impl RoutingPolicyType {
    /// The value as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            RoutingPolicyType::ExportPolicy => "export-policy",
            RoutingPolicyType::ImportPolicy => "import-policy",
            RoutingPolicyType::ImportExportPolicy => "import-export-policy",
        }
    }

    /// The label the API shows beside the value.
    pub fn label(self) -> &'static str {
        match self {
            RoutingPolicyType::ExportPolicy => "Export",
            RoutingPolicyType::ImportPolicy => "Import",
            RoutingPolicyType::ImportExportPolicy => "Import+Export",
        }
    }
}

impl ChoiceValue for RoutingPolicyType {
    fn as_str(self) -> &'static str {
        RoutingPolicyType::as_str(self)
    }
}

/// A routing policy, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoutingPolicy {
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
    /// Type
    pub r#type: RoutingPolicyType,
    /// Weight
    pub weight: i64,
    /// Address family
    pub address_family: i64,
    /// Communities
    pub communities: Vec<NestedCommunity>,
    /// Comments
    pub comments: String,
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

/// The form nested in other objects of a routing policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedRoutingPolicy {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
    pub slug: String,
    pub r#type: RoutingPolicyType,
}

/// The brief form, which is the nested form.
pub type BriefRoutingPolicy = NestedRoutingPolicy;

/// The filters of routing policy lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct RoutingPolicyFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
    pub slug: TextFilter,
    pub weight: NumberFilter,
    pub address_family: ValueFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub r#type: ChoiceFilter<RoutingPolicyType>,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
    pub tag: TagFilter,
}

impl RoutingPolicyFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
        slug: TextFilter("slug"),
        weight: NumberFilter("weight"),
        address_family: ValueFilter("address_family"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        r#type: ChoiceFilter::new("type"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
        tag: TagFilter("tag"),
    };
}

impl Model for RoutingPolicy {
    type Brief = BriefRoutingPolicy;
    type Filters = RoutingPolicyFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[9]
    }
    fn filters() -> RoutingPolicyFilters {
        RoutingPolicyFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a routing policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableRoutingPolicy {
    /// Name
    pub name: String,
    /// Slug
    pub slug: String,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Type
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#type: Option<RoutingPolicyType>,
    /// Weight
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<i64>,
    /// Address family
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address_family: Option<i64>,
    /// Communities
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub communities: Option<Vec<i64>>,
    /// Comments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// Local context data
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_context_data: Option<serde_json::Value>,
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
}

impl WritableRoutingPolicy {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(name: String, slug: String) -> Self {
        Self {
            name,
            slug,
            description: None,
            r#type: None,
            weight: None,
            address_family: None,
            communities: None,
            comments: None,
            local_context_data: None,
            tags: None,
        }
    }
}

impl Writable for WritableRoutingPolicy {
    fn spec() -> &'static ResourceSpec {
        ALL[9]
    }
}

/// The body of a partial update of a routing policy: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchRoutingPolicy {
    /// Name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Slug
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Type
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#type: Option<RoutingPolicyType>,
    /// Weight
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<i64>,
    /// Address family
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address_family: Option<i64>,
    /// Communities
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub communities: Option<Vec<i64>>,
    /// Comments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// Local context data
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_context_data: Option<serde_json::Value>,
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
}

impl Editable for RoutingPolicy {
    type Writable = WritableRoutingPolicy;
    type Patch = PatchRoutingPolicy;
}
