//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// An Internet Exchange, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PdbInternetExchange {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Name
    pub name: String,
    /// Long name
    pub name_long: String,
    /// Also known as
    pub aka: String,
    /// City
    pub city: String,
    /// Country
    pub country: String,
    /// Notes
    pub notes: String,
    /// Continental region
    pub region_continent: String,
    /// Media
    pub media: String,
    /// Unicast
    pub proto_unicast: bool,
    /// Multicast
    pub proto_multicast: bool,
    /// IPv6
    pub proto_ipv6: bool,
    /// Website
    pub website: String,
    /// Statistics URL
    pub url_stats: String,
    /// Technical e-mail
    pub tech_email: String,
    /// Technical phone
    pub tech_phone: String,
    /// Policy e-mail
    pub policy_email: String,
    /// Policy phone
    pub policy_phone: String,
    /// Sales e-mail
    pub sales_email: String,
    /// Sales phone
    pub sales_phone: String,
    /// IX-F network count
    pub ixf_net_count: i64,
    /// IX-F last import
    pub ixf_last_import: Option<Timestamp>,
    /// Service level
    pub service_level: String,
    /// Terms
    pub terms: String,
    /// Organization
    pub org: NestedPdbOrganization,
}

/// The form nested in other objects of an Internet Exchange.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedPdbInternetExchange {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
    pub name_long: String,
    pub aka: String,
    pub city: String,
    pub country: String,
}

/// The filters of Internet Exchange lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct PdbInternetExchangeFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
    pub org_id: RelationFilter,
}

impl PdbInternetExchangeFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
        org_id: RelationFilter("org_id"),
    };
}

impl Model for PdbInternetExchange {
    type Brief = PdbInternetExchange;
    type Filters = PdbInternetExchangeFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[33]
    }
    fn filters() -> PdbInternetExchangeFilters {
        PdbInternetExchangeFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}
