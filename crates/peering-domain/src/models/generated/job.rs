//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

#![allow(unused_imports)]

use serde::{Deserialize, Serialize};

use super::*;
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

/// A job, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Job {
    pub id: i64,
    pub url: String,
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

impl Model for Job {
    type Brief = Job;
    fn spec() -> &'static ResourceSpec {
        ALL[25]
    }
    fn id(&self) -> i64 {
        self.id
    }
}
