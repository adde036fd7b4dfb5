//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// The choices of `OBJECT_CHANGE_ACTION`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ObjectChangeAction {
    /// "Created"
    #[serde(rename = "create")]
    Create,
    /// "Updated"
    #[serde(rename = "update")]
    Update,
    /// "Deleted"
    #[serde(rename = "delete")]
    Delete,
}

impl ObjectChangeAction {
    /// The value as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ObjectChangeAction::Create => "create",
            ObjectChangeAction::Update => "update",
            ObjectChangeAction::Delete => "delete",
        }
    }

    /// The label the API shows beside the value.
    pub fn label(self) -> &'static str {
        match self {
            ObjectChangeAction::Create => "Created",
            ObjectChangeAction::Update => "Updated",
            ObjectChangeAction::Delete => "Deleted",
        }
    }
}

impl ChoiceValue for ObjectChangeAction {
    fn as_str(self) -> &'static str {
        ObjectChangeAction::as_str(self)
    }
}

/// An object change, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObjectChange {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Time
    pub time: Timestamp,
    /// User
    pub user: Option<NestedUser>,
    /// User name
    pub user_name: String,
    /// Request ID
    pub request_id: uuid::Uuid,
    /// Action
    pub action: Choice<ObjectChangeAction>,
    /// Changed object type
    pub changed_object_type: String,
    /// Changed object ID
    pub changed_object_id: i64,
    /// Changed object
    pub changed_object: serde_json::Value,
    /// Pre-change data
    pub prechange_data: serde_json::Value,
    /// Post-change data
    pub postchange_data: serde_json::Value,
}

/// The form nested in other objects of an object change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedObjectChange {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub action: Choice<ObjectChangeAction>,
}

/// The brief form, which is the nested form.
pub type BriefObjectChange = NestedObjectChange;

/// The filters of object change lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct ObjectChangeFilters {
    pub id: NumberFilter,
    pub time: TimeFilter,
    pub user_id: RelationFilter,
    pub user_name: TextFilter,
    pub request_id: UuidFilter,
    pub action: ChoiceFilter<ObjectChangeAction>,
    pub changed_object_type: TextFilter,
    pub changed_object_id: NumberFilter,
    pub object_repr: TextFilter,
    pub user: TextFilter,
    pub time_after: TimeFilter,
    pub time_before: TimeFilter,
}

impl ObjectChangeFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        time: TimeFilter("time"),
        user_id: RelationFilter("user_id"),
        user_name: TextFilter("user_name"),
        request_id: UuidFilter("request_id"),
        action: ChoiceFilter::new("action"),
        changed_object_type: TextFilter("changed_object_type"),
        changed_object_id: NumberFilter("changed_object_id"),
        object_repr: TextFilter("object_repr"),
        user: TextFilter("user"),
        time_after: TimeFilter("time_after"),
        time_before: TimeFilter("time_before"),
    };
}

impl Model for ObjectChange {
    type Brief = BriefObjectChange;
    type Filters = ObjectChangeFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[23]
    }
    fn filters() -> ObjectChangeFilters {
        ObjectChangeFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}
