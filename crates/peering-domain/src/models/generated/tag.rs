//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A tag, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tag {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Name
    pub name: String,
    /// Slug
    pub slug: String,
    /// Color
    pub color: String,
    /// Description
    pub description: String,
    /// Tagged items
    pub tagged_items: i64,
}

/// The brief form of a tag.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BriefTag {
    pub id: i64,
    pub url: String,
    pub name: String,
    pub slug: String,
    pub color: String,
}

/// The form nested in other objects of a tag.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedTag {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
    pub slug: String,
    pub color: String,
}

/// The filters of tag lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct TagFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
    pub slug: TextFilter,
    pub color: TextFilter,
    pub description: TextFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub content_type: ValueFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
}

impl TagFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
        slug: TextFilter("slug"),
        color: TextFilter("color"),
        description: TextFilter("description"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        content_type: ValueFilter("content_type"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
    };
}

impl Model for Tag {
    type Brief = BriefTag;
    type Filters = TagFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[22]
    }
    fn filters() -> TagFilters {
        TagFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a tag.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableTag {
    /// Name
    pub name: String,
    /// Slug
    pub slug: String,
    /// Color
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

impl WritableTag {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(name: String, slug: String) -> Self {
        Self {
            name,
            slug,
            color: None,
            description: None,
        }
    }
}

impl Writable for WritableTag {
    fn spec() -> &'static ResourceSpec {
        ALL[22]
    }
}

/// The body of a partial update of a tag: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchTag {
    /// Name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Slug
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// Color
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

impl Editable for Tag {
    type Writable = WritableTag;
    type Patch = PatchTag;
}
