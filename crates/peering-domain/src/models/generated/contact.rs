//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A contact, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Contact {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Name
    pub name: String,
    /// Title
    pub title: String,
    /// Phone
    pub phone: String,
    /// Email
    pub email: String,
    /// Address
    pub address: String,
    /// Description
    pub description: String,
    /// Comments
    pub comments: String,
    /// Tags
    pub tags: Vec<NestedTag>,
    /// Created
    pub created: Timestamp,
    /// Updated
    pub updated: Timestamp,
}

/// The form nested in other objects of a contact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedContact {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
}

/// The brief form, which is the nested form.
pub type BriefContact = NestedContact;

/// The filters of contact lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct ContactFilters {
    pub id: NumberFilter,
    pub name: TextFilter,
    pub title: TextFilter,
    pub phone: TextFilter,
    pub email: TextFilter,
    pub address: TextFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
    pub tag: TagFilter,
}

impl ContactFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        name: TextFilter("name"),
        title: TextFilter("title"),
        phone: TextFilter("phone"),
        email: TextFilter("email"),
        address: TextFilter("address"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
        tag: TagFilter("tag"),
    };
}

impl Model for Contact {
    type Brief = BriefContact;
    type Filters = ContactFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[14]
    }
    fn filters() -> ContactFilters {
        ContactFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a contact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableContact {
    /// Name
    pub name: String,
    /// Title
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Phone
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    /// Email
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Address
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Comments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
}

impl WritableContact {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(name: String) -> Self {
        Self {
            name,
            title: None,
            phone: None,
            email: None,
            address: None,
            description: None,
            comments: None,
            tags: None,
        }
    }
}

impl Writable for WritableContact {
    fn spec() -> &'static ResourceSpec {
        ALL[14]
    }
}

/// The body of a partial update of a contact: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchContact {
    /// Name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Title
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Phone
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    /// Email
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Address
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// Description
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Comments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
}

impl Editable for Contact {
    type Writable = WritableContact;
    type Patch = PatchContact;
}
