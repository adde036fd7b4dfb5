//! The retention job: deletes the change records and the jobs older than their retention
//! (`PEERING_CHANGELOG_RETENTION_DAYS`, `PEERING_JOB_RETENTION_DAYS`; 0 keeps them all),
//! as the reference's nightly housekeeping does. The days are the job's parameters, taken
//! from the settings of the instance that enqueued it.

use peering_jobs::Outcome;
use peering_store::Store;

use super::Retention;

/// The retention job's name.
pub const PURGE_RETENTION: &str = "core.retention.purge";

/// The parameters of a retention job.
pub(super) fn params(retention: Retention) -> serde_json::Value {
    serde_json::json!({
        "changes_days": retention.changes_days,
        "jobs_days": retention.jobs_days,
    })
}

/// Days from a job's parameter; a missing or unreadable one keeps everything.
fn days(params: &serde_json::Value, key: &str) -> u32 {
    params[key]
        .as_u64()
        .and_then(|d| u32::try_from(d).ok())
        .unwrap_or(0)
}

/// Runs a retention job: what it deleted, or why it could not.
pub fn purge(store: &Store, params: &serde_json::Value) -> Outcome {
    let (changes_days, jobs_days) = (days(params, "changes_days"), days(params, "jobs_days"));
    let mut done = Vec::new();
    if changes_days > 0 {
        match store.upkeep().purge_changes(changes_days) {
            Ok(n) => done.push(format!(
                "deleted {n} change records older than {changes_days} days"
            )),
            Err(e) => return Outcome::errored(format!("change record retention: {e}")),
        }
    }
    if jobs_days > 0 {
        match store.jobs().purge(jobs_days) {
            Ok(n) => done.push(format!("deleted {n} jobs older than {jobs_days} days")),
            Err(e) => return Outcome::errored(format!("job retention: {e}")),
        }
    }
    if done.is_empty() {
        done.push("nothing to delete: both retentions keep everything".into());
    }
    let report = done.join("\n");
    log::info!("retention: {}", report.replace('\n', "; "));
    Outcome::completed(report)
}
