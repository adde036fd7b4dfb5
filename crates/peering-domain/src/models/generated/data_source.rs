//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// The choices of `DATA_SOURCE_STATUS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DataSourceStatus {
    /// "New"
    #[serde(rename = "new")]
    New,
    /// "Queued"
    #[serde(rename = "queued")]
    Queued,
    /// "Synchronising"
    #[serde(rename = "synchronising")]
    Synchronising,
    /// "Pushing"
    #[serde(rename = "pushing")]
    Pushing,
    /// "Completed"
    #[serde(rename = "completed")]
    Completed,
    /// "Failed"
    #[serde(rename = "failed")]
    Failed,
}

impl DataSourceStatus {
    /// The value as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            DataSourceStatus::New => "new",
            DataSourceStatus::Queued => "queued",
            DataSourceStatus::Synchronising => "synchronising",
            DataSourceStatus::Pushing => "pushing",
            DataSourceStatus::Completed => "completed",
            DataSourceStatus::Failed => "failed",
        }
    }

    /// The label the API shows beside the value.
    pub fn label(self) -> &'static str {
        match self {
            DataSourceStatus::New => "New",
            DataSourceStatus::Queued => "Queued",
            DataSourceStatus::Synchronising => "Synchronising",
            DataSourceStatus::Pushing => "Pushing",
            DataSourceStatus::Completed => "Completed",
            DataSourceStatus::Failed => "Failed",
        }
    }
}

impl ChoiceValue for DataSourceStatus {
    fn as_str(self) -> &'static str {
        DataSourceStatus::as_str(self)
    }
}

/// The choices of `DATA_SOURCE_TYPE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DataSourceType {
    /// "Local"
    #[serde(rename = "local")]
    Local,
    /// "Git"
    #[serde(rename = "git")]
    Git,
}

impl DataSourceType {
    /// The value as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            DataSourceType::Local => "local",
            DataSourceType::Git => "git",
        }
    }

    /// The label the API shows beside the value.
    pub fn label(self) -> &'static str {
        match self {
            DataSourceType::Local => "Local",
            DataSourceType::Git => "Git",
        }
    }
}

impl ChoiceValue for DataSourceType {
    fn as_str(self) -> &'static str {
        DataSourceType::as_str(self)
    }
}

/// A data source, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DataSource {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Name
    pub name: String,
    /// Type
    pub r#type: Choice<DataSourceType>,
    /// URL
    pub source_url: String,
    /// Enabled
    pub enabled: bool,
    /// Status
    pub status: Choice<DataSourceStatus>,
    /// Description
    pub description: String,
    /// Comments
    pub comments: String,
    /// Parameters
    pub parameters: serde_json::Value,
    /// Patterns (one per line) matching files to ignore when synchronising
    pub ignore_rules: String,
    /// Last synchronised
    pub last_synchronised: Option<Timestamp>,
    /// Created
    pub created: Timestamp,
    /// Updated
    pub updated: Timestamp,
    /// File count
    pub file_count: i64,
}

/// The form nested in other objects of a data source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedDataSource {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
}

/// The brief form, which is the nested form.
pub type BriefDataSource = NestedDataSource;

/// The filters of data source lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct DataSourceFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
    pub r#type: ChoiceFilter<DataSourceType>,
    pub enabled: BoolFilter,
    pub status: ChoiceFilter<DataSourceStatus>,
    pub description: TextFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
}

impl DataSourceFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
        r#type: ChoiceFilter::new("type"),
        enabled: BoolFilter("enabled"),
        status: ChoiceFilter::new("status"),
        description: TextFilter("description"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
    };
}

impl Model for DataSource {
    type Brief = BriefDataSource;
    type Filters = DataSourceFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[26]
    }
    fn filters() -> DataSourceFilters {
        DataSourceFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a data source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableDataSource {
    /// Name
    pub name: String,
    /// Type
    pub r#type: DataSourceType,
    /// URL
    pub source_url: String,
    /// Enabled
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Comments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// Parameters
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<serde_json::Value>,
    /// Patterns (one per line) matching files to ignore when synchronising
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ignore_rules: Option<String>,
}

impl WritableDataSource {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(name: String, r#type: DataSourceType, source_url: String) -> Self {
        Self {
            name,
            r#type,
            source_url,
            enabled: None,
            description: None,
            comments: None,
            parameters: None,
            ignore_rules: None,
        }
    }
}

impl Writable for WritableDataSource {
    fn spec() -> &'static ResourceSpec {
        ALL[26]
    }
}

/// The body of a partial update of a data source: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchDataSource {
    /// Name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Type
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#type: Option<DataSourceType>,
    /// URL
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_url: Option<String>,
    /// Enabled
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Comments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// Parameters
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<serde_json::Value>,
    /// Patterns (one per line) matching files to ignore when synchronising
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ignore_rules: Option<String>,
}

impl Editable for DataSource {
    type Writable = WritableDataSource;
    type Patch = PatchDataSource;
}
