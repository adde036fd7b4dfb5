//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A config context assignment, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfigContextAssignment {
    pub id: i64,
    pub url: String,
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

/// The brief form of a config context assignment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BriefConfigContextAssignment {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub config_context: NestedConfigContext,
}

/// The form nested in other objects of a config context assignment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedConfigContextAssignment {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub config_context: NestedConfigContext,
}

impl Model for ConfigContextAssignment {
    type Brief = BriefConfigContextAssignment;
    fn spec() -> &'static ResourceSpec {
        ALL[18]
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
