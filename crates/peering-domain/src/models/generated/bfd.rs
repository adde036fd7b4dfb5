//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A BFD configuration, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bfd {
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
    /// Minimum transmit interval
    pub minimum_transmit_interval: i64,
    /// Minimum receive interval
    pub minimum_receive_interval: i64,
    /// Detection multiplier
    pub detection_multiplier: i64,
    /// Hold time
    pub hold_time: i64,
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

/// The form nested in other objects of a BFD configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedBfd {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
    pub slug: String,
}

/// The brief form, which is the nested form.
pub type BriefBfd = NestedBfd;

/// The filters of BFD configuration lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct BfdFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
    pub slug: TextFilter,
    pub minimum_transmit_interval: NumberFilter,
    pub minimum_receive_interval: NumberFilter,
    pub detection_multiplier: NumberFilter,
    pub hold_time: NumberFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
    pub tag: TagFilter,
}

impl BfdFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
        slug: TextFilter("slug"),
        minimum_transmit_interval: NumberFilter("minimum_transmit_interval"),
        minimum_receive_interval: NumberFilter("minimum_receive_interval"),
        detection_multiplier: NumberFilter("detection_multiplier"),
        hold_time: NumberFilter("hold_time"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
        tag: TagFilter("tag"),
    };
}

impl Model for Bfd {
    type Brief = BriefBfd;
    type Filters = BfdFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[5]
    }
    fn filters() -> BfdFilters {
        BfdFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a BFD configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableBfd {
    /// Name
    pub name: String,
    /// Slug
    pub slug: String,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Minimum transmit interval
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum_transmit_interval: Option<i64>,
    /// Minimum receive interval
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum_receive_interval: Option<i64>,
    /// Detection multiplier
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detection_multiplier: Option<i64>,
    /// Hold time
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hold_time: Option<i64>,
    /// Local context data
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_context_data: Option<serde_json::Value>,
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
}

impl WritableBfd {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(name: String, slug: String) -> Self {
        Self {
            name,
            slug,
            description: None,
            minimum_transmit_interval: None,
            minimum_receive_interval: None,
            detection_multiplier: None,
            hold_time: None,
            local_context_data: None,
            tags: None,
        }
    }
}

impl Writable for WritableBfd {
    fn spec() -> &'static ResourceSpec {
        ALL[5]
    }
}

/// The body of a partial update of a BFD configuration: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchBfd {
    /// Name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Slug
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Minimum transmit interval
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum_transmit_interval: Option<i64>,
    /// Minimum receive interval
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum_receive_interval: Option<i64>,
    /// Detection multiplier
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detection_multiplier: Option<i64>,
    /// Hold time
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hold_time: Option<i64>,
    /// Local context data
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_context_data: Option<serde_json::Value>,
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
}

impl Editable for Bfd {
    type Writable = WritableBfd;
    type Patch = PatchBfd;
}
