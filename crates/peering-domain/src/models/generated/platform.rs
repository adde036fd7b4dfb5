//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// The choices of `PASSWORD_ALGORITHM`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PasswordAlgorithm {
    /// "Cisco Type 7"
    #[serde(rename = "cisco-type7")]
    CiscoType7,
    /// "Juniper Type 9"
    #[serde(rename = "juniper-type9")]
    JuniperType9,
    /// ""
    #[serde(rename = "")]
    Blank,
}

impl PasswordAlgorithm {
    /// The value as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            PasswordAlgorithm::CiscoType7 => "cisco-type7",
            PasswordAlgorithm::JuniperType9 => "juniper-type9",
            PasswordAlgorithm::Blank => "",
        }
    }

    /// The label the API shows beside the value.
    pub fn label(self) -> &'static str {
        match self {
            PasswordAlgorithm::CiscoType7 => "Cisco Type 7",
            PasswordAlgorithm::JuniperType9 => "Juniper Type 9",
            PasswordAlgorithm::Blank => "",
        }
    }
}

impl ChoiceValue for PasswordAlgorithm {
    fn as_str(self) -> &'static str {
        PasswordAlgorithm::as_str(self)
    }
}

/// A platform, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Platform {
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
    /// Password algorithm
    pub password_algorithm: PasswordAlgorithm,
    /// NAPALM driver
    pub napalm_driver: String,
    /// NAPALM arguments
    pub napalm_args: serde_json::Value,
    /// Tags
    pub tags: Vec<NestedTag>,
    /// Created
    pub created: Timestamp,
    /// Updated
    pub updated: Timestamp,
}

/// The form nested in other objects of a platform.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedPlatform {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
    pub slug: String,
}

/// The brief form, which is the nested form.
pub type BriefPlatform = NestedPlatform;

/// The filters of platform lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct PlatformFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
    pub slug: TextFilter,
    pub description: TextFilter,
    pub password_algorithm: ChoiceFilter<PasswordAlgorithm>,
    pub napalm_driver: TextFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
    pub tag: TagFilter,
}

impl PlatformFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
        slug: TextFilter("slug"),
        description: TextFilter("description"),
        password_algorithm: ChoiceFilter::new("password_algorithm"),
        napalm_driver: TextFilter("napalm_driver"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
        tag: TagFilter("tag"),
    };
}

impl Model for Platform {
    type Brief = BriefPlatform;
    type Filters = PlatformFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[11]
    }
    fn filters() -> PlatformFilters {
        PlatformFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a platform.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritablePlatform {
    /// Name
    pub name: String,
    /// Slug
    pub slug: String,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Password algorithm
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password_algorithm: Option<PasswordAlgorithm>,
    /// NAPALM driver
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub napalm_driver: Option<String>,
    /// NAPALM arguments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub napalm_args: Option<serde_json::Value>,
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
}

impl WritablePlatform {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(name: String, slug: String) -> Self {
        Self {
            name,
            slug,
            description: None,
            password_algorithm: None,
            napalm_driver: None,
            napalm_args: None,
            tags: None,
        }
    }
}

impl Writable for WritablePlatform {
    fn spec() -> &'static ResourceSpec {
        ALL[11]
    }
}

/// The body of a partial update of a platform: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchPlatform {
    /// Name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Slug
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Password algorithm
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password_algorithm: Option<PasswordAlgorithm>,
    /// NAPALM driver
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub napalm_driver: Option<String>,
    /// NAPALM arguments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub napalm_args: Option<serde_json::Value>,
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
}

impl Editable for Platform {
    type Writable = WritablePlatform;
    type Patch = PatchPlatform;
}
