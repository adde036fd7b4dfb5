//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A data file, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DataFile {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Source
    pub source: NestedDataSource,
    /// File path relative to the data source's root
    pub path: String,
    /// Updated
    pub updated: Timestamp,
    /// Size
    pub size: i64,
    /// SHA256 hash of the file data
    pub hash: String,
}

/// The form nested in other objects of a data file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedDataFile {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub path: String,
}

/// The brief form, which is the nested form.
pub type BriefDataFile = NestedDataFile;

/// The filters of data file lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct DataFileFilters {
    pub id: NumberFilter,
    pub source_id: RelationFilter,
    pub path: TextFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub size: NumberFilter,
    pub hash: TextFilter,
    pub source: ValueFilter,
}

impl DataFileFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        source_id: RelationFilter("source_id"),
        path: TextFilter("path"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        size: NumberFilter("size"),
        hash: TextFilter("hash"),
        source: ValueFilter("source"),
    };
}

impl Model for DataFile {
    type Brief = BriefDataFile;
    type Filters = DataFileFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[27]
    }
    fn filters() -> DataFileFilters {
        DataFileFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}
