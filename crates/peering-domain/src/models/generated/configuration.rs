//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A configuration, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Configuration {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Name
    pub name: String,
    /// Description
    pub description: String,
    /// Template
    pub template: String,
    /// Trim
    pub jinja2_trim: bool,
    /// Lstrip
    pub jinja2_lstrip: bool,
    /// Comments
    pub comments: String,
    /// Tags
    pub tags: Vec<NestedTag>,
    /// Created
    pub created: Timestamp,
    /// Updated
    pub updated: Timestamp,
    /// Data source
    pub data_source: Option<NestedDataSource>,
    /// Data file
    pub data_file: Option<NestedDataFile>,
    /// Path to the remote file, relative to its data source root
    pub data_path: String,
    /// Enable automatic synchronisation of data when the data file is updated
    pub auto_synchronisation_enabled: bool,
    /// Data synchronised
    pub data_synchronised: Option<Timestamp>,
}

/// The form nested in other objects of a configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedConfiguration {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
}

/// The brief form, which is the nested form.
pub type BriefConfiguration = NestedConfiguration;

/// The filters of configuration lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct ConfigurationFilters {
    pub id: NumberFilter,
    pub jinja2_trim: BoolFilter,
    pub jinja2_lstrip: BoolFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub data_source_id: RelationFilter,
    pub data_file_id: RelationFilter,
    pub auto_synchronisation_enabled: BoolFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
    pub tag: TagFilter,
}

impl ConfigurationFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        jinja2_trim: BoolFilter("jinja2_trim"),
        jinja2_lstrip: BoolFilter("jinja2_lstrip"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        data_source_id: RelationFilter("data_source_id"),
        data_file_id: RelationFilter("data_file_id"),
        auto_synchronisation_enabled: BoolFilter("auto_synchronisation_enabled"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
        tag: TagFilter("tag"),
    };
}

impl Model for Configuration {
    type Brief = BriefConfiguration;
    type Filters = ConfigurationFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[12]
    }
    fn filters() -> ConfigurationFilters {
        ConfigurationFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableConfiguration {
    /// Name
    pub name: String,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Template
    pub template: String,
    /// Trim
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jinja2_trim: Option<bool>,
    /// Lstrip
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jinja2_lstrip: Option<bool>,
    /// Comments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
    /// Data file
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_file: Option<i64>,
    /// Enable automatic synchronisation of data when the data file is updated
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_synchronisation_enabled: Option<bool>,
}

impl WritableConfiguration {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(name: String, template: String) -> Self {
        Self {
            name,
            description: None,
            template,
            jinja2_trim: None,
            jinja2_lstrip: None,
            comments: None,
            tags: None,
            data_file: None,
            auto_synchronisation_enabled: None,
        }
    }
}

impl Writable for WritableConfiguration {
    fn spec() -> &'static ResourceSpec {
        ALL[12]
    }
}

/// The body of a partial update of a configuration: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchConfiguration {
    /// Name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Template
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    /// Trim
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jinja2_trim: Option<bool>,
    /// Lstrip
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jinja2_lstrip: Option<bool>,
    /// Comments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
    /// Data file
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub data_file: Option<Option<i64>>,
    /// Enable automatic synchronisation of data when the data file is updated
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_synchronisation_enabled: Option<bool>,
}

impl Editable for Configuration {
    type Writable = WritableConfiguration;
    type Patch = PatchConfiguration;
}
