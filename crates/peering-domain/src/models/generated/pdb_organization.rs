//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// An organization, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PdbOrganization {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Address 1
    pub address1: String,
    /// Address 2
    pub address2: String,
    /// City
    pub city: String,
    /// State
    pub state: String,
    /// Zip code
    pub zipcode: String,
    /// Country
    pub country: String,
    /// Latitude
    pub latitude: Option<String>,
    /// Longitude
    pub longitude: Option<String>,
    /// Suite
    pub suite: String,
    /// Floor
    pub floor: String,
    /// Name
    pub name: String,
    /// Long name
    pub name_long: String,
    /// Also known as
    pub aka: String,
    /// Website
    pub website: String,
    /// Notes
    pub notes: String,
}

/// The form nested in other objects of an organization.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedPdbOrganization {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
    pub name_long: String,
    pub aka: String,
    pub website: String,
    pub city: String,
    pub country: String,
}

/// The filters of organization lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct PdbOrganizationFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
}

impl PdbOrganizationFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
    };
}

impl Model for PdbOrganization {
    type Brief = PdbOrganization;
    type Filters = PdbOrganizationFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[30]
    }
    fn filters() -> PdbOrganizationFilters {
        PdbOrganizationFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}
