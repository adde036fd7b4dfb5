//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A group, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Group {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Name
    pub name: String,
    /// User count
    pub user_count: i64,
    /// Permission names such as peering.add_autonomoussystem (view, add, change, delete).
    pub permissions: serde_json::Value,
}

/// The form nested in other objects of a group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedGroup {
    pub id: i64,
    pub url: String,
    pub name: String,
}

/// The brief form, which is the nested form.
pub type BriefGroup = NestedGroup;

/// The filters of group lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct GroupFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
}

impl GroupFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
    };
}

impl Model for Group {
    type Brief = BriefGroup;
    type Filters = GroupFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[29]
    }
    fn filters() -> GroupFilters {
        GroupFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableGroup {
    /// Name
    pub name: String,
    /// Permission names such as peering.add_autonomoussystem (view, add, change, delete).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permissions: Option<serde_json::Value>,
}

impl WritableGroup {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(name: String) -> Self {
        Self {
            name,
            permissions: None,
        }
    }
}

impl Writable for WritableGroup {
    fn spec() -> &'static ResourceSpec {
        ALL[29]
    }
}

/// The body of a partial update of a group: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchGroup {
    /// Name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Permission names such as peering.add_autonomoussystem (view, add, change, delete).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permissions: Option<serde_json::Value>,
}

impl Editable for Group {
    type Writable = WritableGroup;
    type Patch = PatchGroup;
}
