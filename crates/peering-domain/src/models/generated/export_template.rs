//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// An export template, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportTemplate {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Name
    pub name: String,
    /// Content type
    pub content_type: String,
    /// Description
    pub description: String,
    /// Template
    pub template: String,
    /// Trim
    pub jinja2_trim: bool,
    /// Lstrip
    pub jinja2_lstrip: bool,
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

/// The form nested in other objects of an export template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedExportTemplate {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
}

/// The brief form, which is the nested form.
pub type BriefExportTemplate = NestedExportTemplate;

/// The filters of export template lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct ExportTemplateFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
    pub content_type: TextFilter,
    pub description: TextFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub data_source_id: RelationFilter,
    pub data_file_id: RelationFilter,
    pub auto_synchronisation_enabled: BoolFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
}

impl ExportTemplateFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
        content_type: TextFilter("content_type"),
        description: TextFilter("description"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        data_source_id: RelationFilter("data_source_id"),
        data_file_id: RelationFilter("data_file_id"),
        auto_synchronisation_enabled: BoolFilter("auto_synchronisation_enabled"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
    };
}

impl Model for ExportTemplate {
    type Brief = BriefExportTemplate;
    type Filters = ExportTemplateFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[19]
    }
    fn filters() -> ExportTemplateFilters {
        ExportTemplateFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces an export template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableExportTemplate {
    /// Name
    pub name: String,
    /// Content type
    pub content_type: String,
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
    /// Data file
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_file: Option<i64>,
    /// Enable automatic synchronisation of data when the data file is updated
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_synchronisation_enabled: Option<bool>,
}

impl WritableExportTemplate {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(name: String, content_type: String, template: String) -> Self {
        Self {
            name,
            content_type,
            description: None,
            template,
            jinja2_trim: None,
            jinja2_lstrip: None,
            data_file: None,
            auto_synchronisation_enabled: None,
        }
    }
}

impl Writable for WritableExportTemplate {
    fn spec() -> &'static ResourceSpec {
        ALL[19]
    }
}

/// The body of a partial update of an export template: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchExportTemplate {
    /// Name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Content type
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
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

impl Editable for ExportTemplate {
    type Writable = WritableExportTemplate;
    type Patch = PatchExportTemplate;
}
