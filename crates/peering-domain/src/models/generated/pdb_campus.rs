//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A campus, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PdbCampus {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Name
    pub name: String,
    /// Long name
    pub name_long: Option<String>,
    /// Also known as
    pub aka: Option<String>,
    /// Website
    pub website: Option<String>,
    /// Social media
    pub social_media: serde_json::Value,
    /// Notes
    pub notes: String,
    /// Organization
    pub org: NestedPdbOrganization,
}

/// The form nested in other objects of a campus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedPdbCampus {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
    pub name_long: Option<String>,
    pub aka: Option<String>,
    pub website: Option<String>,
}

/// The filters of campus lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct PdbCampusFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
    pub org_id: RelationFilter,
}

impl PdbCampusFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
        org_id: RelationFilter("org_id"),
    };
}

impl Model for PdbCampus {
    type Brief = PdbCampus;
    type Filters = PdbCampusFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[31]
    }
    fn filters() -> PdbCampusFilters {
        PdbCampusFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}
