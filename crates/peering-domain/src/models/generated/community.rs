//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// The choices of `COMMUNITY_TYPE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CommunityType {
    /// "Egress"
    #[serde(rename = "egress")]
    Egress,
    /// "Ingress"
    #[serde(rename = "ingress")]
    Ingress,
}

impl CommunityType {
    /// The value as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            CommunityType::Egress => "egress",
            CommunityType::Ingress => "ingress",
        }
    }

    /// The label the API shows beside the value.
    pub fn label(self) -> &'static str {
        match self {
            CommunityType::Egress => "Egress",
            CommunityType::Ingress => "Ingress",
        }
    }
}

impl ChoiceValue for CommunityType {
    fn as_str(self) -> &'static str {
        CommunityType::as_str(self)
    }
}

/// A community, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Community {
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
    /// Value
    pub value: String,
    /// Type
    pub r#type: Option<CommunityType>,
    /// Kind
    pub kind: Option<String>,
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

/// The form nested in other objects of a community.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedCommunity {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
    pub slug: String,
    pub value: String,
    pub r#type: Option<CommunityType>,
}

/// The brief form, which is the nested form.
pub type BriefCommunity = NestedCommunity;

/// The filters of community lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct CommunityFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
    pub slug: TextFilter,
    pub value: TextFilter,
    pub r#type: ChoiceFilter<CommunityType>,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
    pub tag: TagFilter,
}

impl CommunityFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
        slug: TextFilter("slug"),
        value: TextFilter("value"),
        r#type: ChoiceFilter::new("type"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
        tag: TagFilter("tag"),
    };
}

impl Model for Community {
    type Brief = BriefCommunity;
    type Filters = CommunityFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[2]
    }
    fn filters() -> CommunityFilters {
        CommunityFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a community.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableCommunity {
    /// Name
    pub name: String,
    /// Slug
    pub slug: String,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Value
    pub value: String,
    /// Type
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#type: Option<CommunityType>,
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

impl WritableCommunity {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(name: String, slug: String, value: String) -> Self {
        Self {
            name,
            slug,
            description: None,
            value,
            r#type: None,
            comments: None,
            local_context_data: None,
            tags: None,
        }
    }
}

impl Writable for WritableCommunity {
    fn spec() -> &'static ResourceSpec {
        ALL[2]
    }
}

/// The body of a partial update of a community: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchCommunity {
    /// Name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Slug
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Value
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Type
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub r#type: Option<Option<CommunityType>>,
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

impl Editable for Community {
    type Writable = WritableCommunity;
    type Patch = PatchCommunity;
}
