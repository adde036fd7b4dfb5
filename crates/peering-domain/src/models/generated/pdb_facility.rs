//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A facility, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PdbFacility {
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
    /// CLLI code
    pub clli: String,
    /// Rencode
    pub rencode: String,
    /// NPA-NXX
    pub npanxx: String,
    /// Technical e-mail
    pub tech_email: String,
    /// Technical phone
    pub tech_phone: String,
    /// Sales e-mail
    pub sales_email: String,
    /// Sales phone
    pub sales_phone: String,
    /// Property
    pub property: Option<String>,
    /// Diverse serving substations
    pub diverse_serving_substations: Option<bool>,
    /// Available voltage services
    pub available_voltage_services: serde_json::Value,
    /// Notes
    pub notes: String,
    /// Organization
    pub org: NestedPdbOrganization,
    /// Campus
    pub campus: Option<NestedPdbCampus>,
}

/// The form nested in other objects of a facility.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedPdbFacility {
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

/// The filters of facility lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct PdbFacilityFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
    pub org_id: RelationFilter,
    pub campus_id: RelationFilter,
}

impl PdbFacilityFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
        org_id: RelationFilter("org_id"),
        campus_id: RelationFilter("campus_id"),
    };
}

impl Model for PdbFacility {
    type Brief = PdbFacility;
    type Filters = PdbFacilityFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[32]
    }
    fn filters() -> PdbFacilityFilters {
        PdbFacilityFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}
