//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A tag, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tag {
    pub id: i64,
    pub url: String,
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

impl Model for Tag {
    type Brief = BriefTag;
    fn spec() -> &'static ResourceSpec {
        ALL[22]
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
