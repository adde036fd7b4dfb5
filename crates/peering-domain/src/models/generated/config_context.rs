//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A config context, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfigContext {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Name
    pub name: String,
    /// Description
    pub description: String,
    /// Active
    pub is_active: bool,
    /// Data
    pub data: serde_json::Value,
}

/// The form nested in other objects of a config context.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedConfigContext {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
}

/// The brief form, which is the nested form.
pub type BriefConfigContext = NestedConfigContext;

/// The filters of config context lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct ConfigContextFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
    pub description: TextFilter,
    pub is_active: BoolFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
}

impl ConfigContextFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
        description: TextFilter("description"),
        is_active: BoolFilter("is_active"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
    };
}

impl Model for ConfigContext {
    type Brief = BriefConfigContext;
    type Filters = ConfigContextFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[17]
    }
    fn filters() -> ConfigContextFilters {
        ConfigContextFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a config context.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableConfigContext {
    /// Name
    pub name: String,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Active
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_active: Option<bool>,
    /// Data
    pub data: serde_json::Value,
}

impl WritableConfigContext {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(name: String, data: serde_json::Value) -> Self {
        Self {
            name,
            description: None,
            is_active: None,
            data,
        }
    }
}

impl Writable for WritableConfigContext {
    fn spec() -> &'static ResourceSpec {
        ALL[17]
    }
}

/// The body of a partial update of a config context: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchConfigContext {
    /// Name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Active
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_active: Option<bool>,
    /// Data
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<serde_json::Value>,
}

impl Editable for ConfigContext {
    type Writable = WritableConfigContext;
    type Patch = PatchConfigContext;
}
