//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A config context assignment, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfigContextAssignment {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Content type
    pub content_type: String,
    /// Object ID
    pub object_id: i64,
    /// Object
    pub object: serde_json::Value,
    /// Config context
    pub config_context: NestedConfigContext,
    /// Weight
    pub weight: i64,
    /// Created
    pub created: Timestamp,
    /// Updated
    pub updated: Timestamp,
}

/// The form nested in other objects of a config context assignment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedConfigContextAssignment {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub config_context: NestedConfigContext,
}

/// The brief form, which is the nested form.
pub type BriefConfigContextAssignment = NestedConfigContextAssignment;

/// The filters of config context assignment lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct ConfigContextAssignmentFilters {
    pub id: NumberFilter,
    pub content_type: TextFilter,
    pub object_id: NumberFilter,
    pub config_context_id: RelationFilter,
    pub weight: NumberFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
}

impl ConfigContextAssignmentFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        content_type: TextFilter("content_type"),
        object_id: NumberFilter("object_id"),
        config_context_id: RelationFilter("config_context_id"),
        weight: NumberFilter("weight"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
    };
}

impl Model for ConfigContextAssignment {
    type Brief = BriefConfigContextAssignment;
    type Filters = ConfigContextAssignmentFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[18]
    }
    fn filters() -> ConfigContextAssignmentFilters {
        ConfigContextAssignmentFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a config context assignment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableConfigContextAssignment {
    /// Content type
    pub content_type: String,
    /// Object ID
    pub object_id: i64,
    /// Config context
    pub config_context: i64,
    /// Weight
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<i64>,
}

impl WritableConfigContextAssignment {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(content_type: String, object_id: i64, config_context: i64) -> Self {
        Self {
            content_type,
            object_id,
            config_context,
            weight: None,
        }
    }
}

impl Writable for WritableConfigContextAssignment {
    fn spec() -> &'static ResourceSpec {
        ALL[18]
    }
}

/// The body of a partial update of a config context assignment: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchConfigContextAssignment {
    /// Content type
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// Object ID
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object_id: Option<i64>,
    /// Config context
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config_context: Option<i64>,
    /// Weight
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<i64>,
}

impl Editable for ConfigContextAssignment {
    type Writable = WritableConfigContextAssignment;
    type Patch = PatchConfigContextAssignment;
}
