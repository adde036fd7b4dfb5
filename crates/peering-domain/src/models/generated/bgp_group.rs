//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// The choices of `BGP_GROUP_STATUS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BgpGroupStatus {
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

impl BgpGroupStatus {
    /// The value as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            BgpGroupStatus::Enabled => "enabled",
            BgpGroupStatus::PreMaintenance => "pre-maintenance",
            BgpGroupStatus::Maintenance => "maintenance",
            BgpGroupStatus::PostMaintenance => "post-maintenance",
            BgpGroupStatus::Disabled => "disabled",
        }
    }

    /// The label the API shows beside the value.
    pub fn label(self) -> &'static str {
        match self {
            BgpGroupStatus::Enabled => "Enabled",
            BgpGroupStatus::PreMaintenance => "Pre-maintenance",
            BgpGroupStatus::Maintenance => "Maintenance",
            BgpGroupStatus::PostMaintenance => "Post-maintenance",
            BgpGroupStatus::Disabled => "Disabled",
        }
    }
}

impl ChoiceValue for BgpGroupStatus {
    fn as_str(self) -> &'static str {
        BgpGroupStatus::as_str(self)
    }
}

/// A BGP group, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BgpGroup {
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
    /// Import routing policies
    pub import_routing_policies: Vec<NestedRoutingPolicy>,
    /// Export routing policies
    pub export_routing_policies: Vec<NestedRoutingPolicy>,
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

/// The form nested in other objects of a BGP group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedBgpGroup {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
    pub slug: String,
    pub status: Choice<BgpGroupStatus>,
}

/// The brief form, which is the nested form.
pub type BriefBgpGroup = NestedBgpGroup;

/// The filters of BGP group lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct BgpGroupFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
    pub slug: TextFilter,
    pub status: ChoiceFilter<BgpGroupStatus>,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
    pub tag: TagFilter,
}

impl BgpGroupFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
        slug: TextFilter("slug"),
        status: ChoiceFilter::new("status"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
        tag: TagFilter("tag"),
    };
}

impl Model for BgpGroup {
    type Brief = BriefBgpGroup;
    type Filters = BgpGroupFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[1]
    }
    fn filters() -> BgpGroupFilters {
        BgpGroupFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a BGP group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableBgpGroup {
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
    /// Import routing policies
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub import_routing_policies: Option<Vec<i64>>,
    /// Export routing policies
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub export_routing_policies: Option<Vec<i64>>,
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

impl WritableBgpGroup {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(name: String, slug: String) -> Self {
        Self {
            name,
            slug,
            description: None,
            status: None,
            import_routing_policies: None,
            export_routing_policies: None,
            communities: None,
            comments: None,
            local_context_data: None,
            tags: None,
        }
    }
}

impl Writable for WritableBgpGroup {
    fn spec() -> &'static ResourceSpec {
        ALL[1]
    }
}

/// The body of a partial update of a BGP group: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchBgpGroup {
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
    /// Import routing policies
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub import_routing_policies: Option<Vec<i64>>,
    /// Export routing policies
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub export_routing_policies: Option<Vec<i64>>,
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

impl Editable for BgpGroup {
    type Writable = WritableBgpGroup;
    type Patch = PatchBgpGroup;
}
