//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// An Internet Exchange facility, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PdbInternetExchangeFacility {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Internet Exchange
    pub ix: NestedPdbInternetExchange,
    /// Facility
    pub fac: NestedPdbFacility,
}

/// The form nested in other objects of an Internet Exchange facility.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedPdbInternetExchangeFacility {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub ix: NestedPdbInternetExchange,
    pub fac: NestedPdbFacility,
}

/// The filters of Internet Exchange facility lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct PdbInternetExchangeFacilityFilters {
    pub id: NumberFilter,
    pub ix_id: RelationFilter,
    pub fac_id: RelationFilter,
}

impl PdbInternetExchangeFacilityFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        ix_id: RelationFilter("ix_id"),
        fac_id: RelationFilter("fac_id"),
    };
}

impl Model for PdbInternetExchangeFacility {
    type Brief = PdbInternetExchangeFacility;
    type Filters = PdbInternetExchangeFacilityFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[34]
    }
    fn filters() -> PdbInternetExchangeFacilityFilters {
        PdbInternetExchangeFacilityFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}
