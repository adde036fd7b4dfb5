//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// An IX-API, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IxApi {
    pub id: i64,
    pub display_url: String,
    pub display: String,
    /// Name
    pub name: String,
    /// URL
    pub url: String,
    /// API URL
    pub api_url: String,
    /// API key
    pub api_key: Option<String>,
    /// API secret
    pub api_secret: Option<String>,
    /// Identity
    pub identity: String,
}

/// The form nested in other objects of an IX-API.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedIxApi {
    pub id: i64,
    pub display: String,
    pub name: String,
    pub url: String,
}

/// The brief form, which is the nested form.
pub type BriefIxApi = NestedIxApi;

/// The filters of IX-API lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct IxApiFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
    pub api_key: TextFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub api_url: TextFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
}

impl IxApiFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
        api_key: TextFilter("api_key"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        api_url: TextFilter("api_url"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
    };
}

impl Model for IxApi {
    type Brief = BriefIxApi;
    type Filters = IxApiFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[21]
    }
    fn filters() -> IxApiFilters {
        IxApiFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces an IX-API.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableIxApi {
    /// Name
    pub name: String,
    /// URL
    pub url: String,
    /// API key
    pub api_key: String,
    /// API secret
    pub api_secret: String,
    /// Identity
    pub identity: String,
}

impl WritableIxApi {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        name: String,
        url: String,
        api_key: String,
        api_secret: String,
        identity: String,
    ) -> Self {
        Self {
            name,
            url,
            api_key,
            api_secret,
            identity,
        }
    }
}

impl Writable for WritableIxApi {
    fn spec() -> &'static ResourceSpec {
        ALL[21]
    }
}

/// The body of a partial update of an IX-API: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchIxApi {
    /// Name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// URL
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// API key
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key: Option<String>,
    /// API secret
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_secret: Option<String>,
    /// Identity
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identity: Option<String>,
}

impl Editable for IxApi {
    type Writable = WritableIxApi;
    type Patch = PatchIxApi;
}
