//! The data sources' action: a synchronisation, as a job (the reference's 1.10
//! `synchronise/`, also served as `sync/`).

use peering_domain::resources::DATA_SOURCE;

use super::{Action, Answer, Grant, Needs, Scope};

/// `POST data-sources/{id}/<name>/`: 202 with the job; the reference's permission first.
pub(super) const fn synchronise(name: &'static str) -> Action {
    Action {
        spec: &DATA_SOURCE,
        name,
        scope: Scope::Object,
        method: "POST",
        summary: "Synchronise the data source's files, and the templates that follow them (a job)",
        query: &[],
        body: None,
        answers: &[(202, "The job enqueued.", Answer::Job)],
        needs: Needs::Hold(&[Grant::Named("core.synchronise_datasource")]),
    }
}
