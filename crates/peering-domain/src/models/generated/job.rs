//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
use crate::models::filters::*;
use crate::models::{Choice, Editable, Model, Timestamp, Writable};
use crate::resources::ALL;
use crate::spec::ResourceSpec;

/// The choices of `JOB_STATUS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum JobStatus {
    /// "Pending"
    #[serde(rename = "pending")]
    Pending,
    /// "Running"
    #[serde(rename = "running")]
    Running,
    /// "Completed"
    #[serde(rename = "completed")]
    Completed,
    /// "Errored"
    #[serde(rename = "errored")]
    Errored,
    /// "Failed"
    #[serde(rename = "failed")]
    Failed,
}

impl JobStatus {
    /// The value as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            JobStatus::Pending => "pending",
            JobStatus::Running => "running",
            JobStatus::Completed => "completed",
            JobStatus::Errored => "errored",
            JobStatus::Failed => "failed",
        }
    }

    /// The label the API shows beside the value.
    pub fn label(self) -> &'static str {
        match self {
            JobStatus::Pending => "Pending",
            JobStatus::Running => "Running",
            JobStatus::Completed => "Completed",
            JobStatus::Errored => "Errored",
            JobStatus::Failed => "Failed",
        }
    }
}

impl ChoiceValue for JobStatus {
    fn as_str(self) -> &'static str {
        JobStatus::as_str(self)
    }
}

/// A job, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Job {
    pub id: i64,
    pub url: String,
    pub display_url: String,
    pub display: String,
    /// Object type
    pub object_type: Option<String>,
    /// Object ID
    pub object_id: Option<i64>,
    /// Name
    pub name: String,
    /// Status
    pub status: Choice<JobStatus>,
    /// Created
    pub created: Timestamp,
    /// Started
    pub started: Option<Timestamp>,
    /// Completed
    pub completed: Option<Timestamp>,
    /// User
    pub user: Option<NestedUser>,
    /// Data
    pub data: serde_json::Value,
    /// Job ID
    pub job_id: uuid::Uuid,
    /// Output
    pub output: Option<String>,
}

/// The form nested in other objects of a job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedJob {
    pub url: String,
    pub created: Timestamp,
    pub completed: Option<Timestamp>,
    pub user: Option<NestedUser>,
    pub status: Choice<JobStatus>,
}

/// The filters of job lists, typed by kind.
#[derive(Debug, Clone, Copy)]
pub struct JobFilters {
    pub id: NumberFilter,
    pub object_type: TextFilter,
    pub object_id: NumberFilter,
    pub name: TextFilter,
    pub status: ChoiceFilter<JobStatus>,
    pub created: TimeFilter,
    pub started: TimeFilter,
    pub completed: TimeFilter,
    pub user_id: RelationFilter,
    pub user: RelationFilter,
    pub created_before: TimeFilter,
    pub created_after: TimeFilter,
    pub started_before: TimeFilter,
    pub started_after: TimeFilter,
    pub completed_before: TimeFilter,
    pub completed_after: TimeFilter,
}

impl JobFilters {
    /// Every filter.
    pub const ALL: Self = Self {
        id: NumberFilter("id"),
        object_type: TextFilter("object_type"),
        object_id: NumberFilter("object_id"),
        name: TextFilter("name"),
        status: ChoiceFilter::new("status"),
        created: TimeFilter("created"),
        started: TimeFilter("started"),
        completed: TimeFilter("completed"),
        user_id: RelationFilter("user_id"),
        user: RelationFilter("user"),
        created_before: TimeFilter("created__before"),
        created_after: TimeFilter("created__after"),
        started_before: TimeFilter("started__before"),
        started_after: TimeFilter("started__after"),
        completed_before: TimeFilter("completed__before"),
        completed_after: TimeFilter("completed__after"),
    };
}

impl Model for Job {
    type Brief = Job;
    type Filters = JobFilters;
    fn spec() -> &'static ResourceSpec {
        ALL[25]
    }
    fn filters() -> JobFilters {
        JobFilters::ALL
    }
    fn id(&self) -> i64 {
        self.id
    }
}
