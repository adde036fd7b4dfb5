//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// The choices of `PEERINGDB_VISIBILITY`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PeeringdbVisibility {
    /// "Private"
    #[serde(rename = "Private")]
    Private,
    /// "Users"
    #[serde(rename = "Users")]
    Users,
    /// "Public"
    #[serde(rename = "Public")]
    Public,
}

impl PeeringdbVisibility {
    /// The value as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            PeeringdbVisibility::Private => "Private",
            PeeringdbVisibility::Users => "Users",
            PeeringdbVisibility::Public => "Public",
        }
    }

    /// The label the API shows beside the value.
    pub fn label(self) -> &'static str {
        match self {
            PeeringdbVisibility::Private => "Private",
            PeeringdbVisibility::Users => "Users",
            PeeringdbVisibility::Public => "Public",
        }
    }
}

impl ChoiceValue for PeeringdbVisibility {
    fn as_str(self) -> &'static str {
        PeeringdbVisibility::as_str(self)
    }
}

/// A network contact, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PdbNetworkContact {
    pub id: i64,
    pub display_url: String,
    pub display: String,
    /// Role
    pub role: String,
    /// Visibility
    pub visible: Choice<PeeringdbVisibility>,
    /// Name
    pub name: String,
    /// Phone
    pub phone: String,
    /// E-mail
    pub email: String,
    /// URL
    pub url: String,
    /// Network
    pub net: NestedPdbNetwork,
}

/// The form nested in other objects of a network contact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedPdbNetworkContact {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub role: String,
    pub name: String,
    pub email: String,
}

/// The filters of network contact lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct PdbNetworkContactFilters {
    pub id: NumberFilter,
    pub role: TextFilter,
    pub name: TextFilter,
    pub email: TextFilter,
    pub net_id: RelationFilter,
    pub net_asn: RelationFilter,
}

impl PdbNetworkContactFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        role: TextFilter("role"),
        name: TextFilter("name"),
        email: TextFilter("email"),
        net_id: RelationFilter("net_id"),
        net_asn: RelationFilter("net_asn"),
    };
}

impl Model for PdbNetworkContact {
    type Brief = PdbNetworkContact;
    type Filters = PdbNetworkContactFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[38]
    }
    fn filters() -> PdbNetworkContactFilters {
        PdbNetworkContactFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}
