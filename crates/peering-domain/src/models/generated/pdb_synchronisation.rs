//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A synchronisation, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PdbSynchronisation {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Time
    pub time: Timestamp,
    /// Created
    pub created: i64,
    /// Updated
    pub updated: i64,
    /// Deleted
    pub deleted: i64,
}

/// The form nested in other objects of a synchronisation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedPdbSynchronisation {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub time: Timestamp,
}

/// The filters of synchronisation lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct PdbSynchronisationFilters {
    pub id: NumberFilter,
    pub time: TimeFilter,
    pub created: NumberFilter,
    pub updated: NumberFilter,
    pub deleted: NumberFilter,
}

impl PdbSynchronisationFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        time: TimeFilter("time"),
        created: NumberFilter("created"),
        updated: NumberFilter("updated"),
        deleted: NumberFilter("deleted"),
    };
}

impl Model for PdbSynchronisation {
    type Brief = PdbSynchronisation;
    type Filters = PdbSynchronisationFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[41]
    }
    fn filters() -> PdbSynchronisationFilters {
        PdbSynchronisationFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}
