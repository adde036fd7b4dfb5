//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// A contact assignment, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContactAssignment {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Content type
    pub content_type: String,
    /// Object ID
    pub object_id: i64,
    /// Object
    pub object: serde_json::Value,
    /// Contact
    pub contact: NestedContact,
    /// Role
    pub role: NestedContactRole,
    /// Created
    pub created: Timestamp,
    /// Updated
    pub updated: Timestamp,
}

/// The form nested in other objects of a contact assignment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedContactAssignment {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub contact: NestedContact,
    pub role: NestedContactRole,
}

/// The brief form, which is the nested form.
pub type BriefContactAssignment = NestedContactAssignment;

/// The filters of contact assignment lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct ContactAssignmentFilters {
    pub id: NumberFilter,
    pub content_type: TextFilter,
    pub object_id: NumberFilter,
    pub contact_id: RelationFilter,
    pub role_id: RelationFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub role: ValueFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
}

impl ContactAssignmentFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        content_type: TextFilter("content_type"),
        object_id: NumberFilter("object_id"),
        contact_id: RelationFilter("contact_id"),
        role_id: RelationFilter("role_id"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        role: ValueFilter("role"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
    };
}

impl Model for ContactAssignment {
    type Brief = BriefContactAssignment;
    type Filters = ContactAssignmentFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[16]
    }
    fn filters() -> ContactAssignmentFilters {
        ContactAssignmentFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a contact assignment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableContactAssignment {
    /// Content type
    pub content_type: String,
    /// Object ID
    pub object_id: i64,
    /// Contact
    pub contact: i64,
    /// Role
    pub role: i64,
}

impl WritableContactAssignment {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(content_type: String, object_id: i64, contact: i64, role: i64) -> Self {
        Self {
            content_type,
            object_id,
            contact,
            role,
        }
    }
}

impl Writable for WritableContactAssignment {
    fn spec() -> &'static ResourceSpec {
        ALL[16]
    }
}

/// The body of a partial update of a contact assignment: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchContactAssignment {
    /// Content type
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// Object ID
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object_id: Option<i64>,
    /// Contact
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contact: Option<i64>,
    /// Role
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<i64>,
}

impl Editable for ContactAssignment {
    type Writable = WritableContactAssignment;
    type Patch = PatchContactAssignment;
}
