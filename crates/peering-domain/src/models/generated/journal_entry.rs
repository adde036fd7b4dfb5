//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// The choices of `JOURNAL_ENTRY_KIND`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum JournalEntryKind {
    /// "Info"
    #[serde(rename = "info")]
    Info,
    /// "Success"
    #[serde(rename = "success")]
    Success,
    /// "Warning"
    #[serde(rename = "warning")]
    Warning,
    /// "Danger"
    #[serde(rename = "danger")]
    Danger,
}

impl JournalEntryKind {
    /// The value as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            JournalEntryKind::Info => "info",
            JournalEntryKind::Success => "success",
            JournalEntryKind::Warning => "warning",
            JournalEntryKind::Danger => "danger",
        }
    }

    /// The label the API shows beside the value.
    pub fn label(self) -> &'static str {
        match self {
            JournalEntryKind::Info => "Info",
            JournalEntryKind::Success => "Success",
            JournalEntryKind::Warning => "Warning",
            JournalEntryKind::Danger => "Danger",
        }
    }
}

impl ChoiceValue for JournalEntryKind {
    fn as_str(self) -> &'static str {
        JournalEntryKind::as_str(self)
    }
}

/// A journal entry, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JournalEntry {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Assigned object type
    pub assigned_object_type: String,
    /// Assigned object ID
    pub assigned_object_id: i64,
    /// Assigned object
    pub assigned_object: serde_json::Value,
    /// Created
    pub created: Timestamp,
    /// Updated
    pub updated: Timestamp,
    /// Created by
    pub created_by: Option<NestedUser>,
    /// Kind
    pub kind: Choice<JournalEntryKind>,
    /// Comments
    pub comments: String,
    /// Tags
    pub tags: Vec<NestedTag>,
}

/// The form nested in other objects of a journal entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedJournalEntry {
    pub id: i64,
    pub url: String,
    pub display: String,
    pub created: Timestamp,
}

/// The brief form, which is the nested form.
pub type BriefJournalEntry = NestedJournalEntry;

/// The filters of journal entry lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct JournalEntryFilters {
    pub id: NumberFilter,
    pub assigned_object_type: TextFilter,
    pub assigned_object_id: NumberFilter,
    pub created: TimeFilter,
    pub updated: TimeFilter,
    pub created_by_id: RelationFilter,
    pub kind: ChoiceFilter<JournalEntryKind>,
    pub created_by: ValueFilter,
    pub created_by_request: UuidFilter,
    pub updated_by_request: UuidFilter,
    pub tag: TagFilter,
}

impl JournalEntryFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        assigned_object_type: TextFilter("assigned_object_type"),
        assigned_object_id: NumberFilter("assigned_object_id"),
        created: TimeFilter("created"),
        updated: TimeFilter("updated"),
        created_by_id: RelationFilter("created_by_id"),
        kind: ChoiceFilter::new("kind"),
        created_by: ValueFilter("created_by"),
        created_by_request: UuidFilter("created_by_request"),
        updated_by_request: UuidFilter("updated_by_request"),
        tag: TagFilter("tag"),
    };
}

impl Model for JournalEntry {
    type Brief = BriefJournalEntry;
    type Filters = JournalEntryFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[24]
    }
    fn filters() -> JournalEntryFilters {
        JournalEntryFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}

/// The body that creates or replaces a journal entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WritableJournalEntry {
    /// Assigned object type
    pub assigned_object_type: String,
    /// Assigned object ID
    pub assigned_object_id: i64,
    /// Created by
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by: Option<i64>,
    /// Kind
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<JournalEntryKind>,
    /// Comments
    pub comments: String,
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
}

impl WritableJournalEntry {
    /// A body with the required fields; the others are left to their defaults.
    #[allow(clippy::too_many_arguments)]
    pub fn new(assigned_object_type: String, assigned_object_id: i64, comments: String) -> Self {
        Self {
            assigned_object_type,
            assigned_object_id,
            created_by: None,
            kind: None,
            comments,
            tags: None,
        }
    }
}

impl Writable for WritableJournalEntry {
    fn spec() -> &'static ResourceSpec {
        ALL[24]
    }
}

/// The body of a partial update of a journal entry: only the fields given change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchJournalEntry {
    /// Assigned object type
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assigned_object_type: Option<String>,
    /// Assigned object ID
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assigned_object_id: Option<i64>,
    /// Created by
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::models::nullable"
    )]
    pub created_by: Option<Option<i64>>,
    /// Kind
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<JournalEntryKind>,
    /// Comments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// Tags
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<i64>>,
}

impl Editable for JournalEntry {
    type Writable = WritableJournalEntry;
    type Patch = PatchJournalEntry;
}
