//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// An Internet Exchange facility, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PdbInternetExchangeFacility {
    pub id: i64,
    pub url: String,
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

impl Model for PdbInternetExchangeFacility {
    type Brief = PdbInternetExchangeFacility;
    fn spec() -> &'static ResourceSpec {
        ALL[32]
    }
    fn id(&self) -> i64 {
        self.id
    }
}
