//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A contact, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Contact {
    pub id: i64,
    pub url: String,
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

/// The brief form of a contact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BriefContact {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
}

/// The form nested in other objects of a contact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedContact {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub name: String,
}

impl Model for Contact {
    type Brief = BriefContact;
    fn spec() -> &'static ResourceSpec {
        ALL[14]
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
