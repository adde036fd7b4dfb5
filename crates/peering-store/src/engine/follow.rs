//! Work that follows writes: jobs enqueued in the write's own transaction, so that they
//! exist exactly when the write does (a webhook delivery for each change an enabled webhook
//! selects). What follows which change is the application's rule ([`FollowChanges`]); the
//! store reads the enabled webhooks in the transaction, so that a webhook written by
//! another instance counts at once, and inserts the jobs in as few statements as the
//! database allows.

use peering_domain::resources::WEBHOOK;
use peering_domain::{Record, ResourceSpec};

use crate::changes::{Action, ChangeContext};
use crate::connection::Db;
use crate::error::Error;
use crate::query::{shallow_by_ids, Related};
use crate::repositories::jobs::{enqueue_texts, JobText};
use crate::sql::{Bind, Sql};

/// What a change did to its object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeAction {
    Create,
    Update,
    Delete,
}

impl ChangeAction {
    /// The reference's name of the action (`create`, `update`, `delete`).
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeAction::Create => "create",
            ChangeAction::Update => "update",
            ChangeAction::Delete => "delete",
        }
    }
}

impl From<Action> for ChangeAction {
    fn from(action: Action) -> ChangeAction {
        match action {
            Action::Create => ChangeAction::Create,
            Action::Update => ChangeAction::Update,
            Action::Delete => ChangeAction::Delete,
        }
    }
}

/// A change as it is recorded: the object (as it is after a create or an update, as it was
/// before a delete) and the snapshots its change record keeps, as compact JSON text.
#[derive(Debug, Clone, Copy)]
pub struct WrittenChange<'a> {
    pub spec: &'static ResourceSpec,
    pub action: ChangeAction,
    pub record: &'a Record,
    pub prechange: Option<&'a str>,
    pub postchange: Option<&'a str>,
}

/// The application's rule of what follows changes.
pub trait FollowChanges: Send + Sync {
    /// The jobs to enqueue with `changes`, given the webhooks enabled at the time of the
    /// write; `related` holds the objects the changed ones refer to (as far as they were
    /// read for the write).
    fn jobs_for(
        &self,
        ctx: &ChangeContext,
        webhooks: &[Record],
        related: &Related,
        changes: &[WrittenChange<'_>],
    ) -> Vec<JobText>;

    /// Told after a write that enqueued jobs has committed (to wake the workers).
    fn committed(&self) {}
}

/// Enqueues what follows `changes` in the transaction of `db`, if anything follows them.
pub(crate) fn follow(
    db: &mut Db<'_>,
    ctx: &ChangeContext,
    related: &Related,
    changes: &[WrittenChange<'_>],
) -> Result<(), Error> {
    let Some(follower) = db.follower() else {
        return Ok(());
    };
    if changes.is_empty() {
        return Ok(());
    }
    let webhooks = enabled_webhooks(db)?;
    if webhooks.is_empty() {
        return Ok(());
    }
    let jobs = follower.jobs_for(ctx, &webhooks, related, changes);
    if !jobs.is_empty() {
        db.note_followed();
    }
    enqueue_texts(db, jobs)
}

/// The webhooks that are enabled, read in the transaction.
fn enabled_webhooks(db: &mut Db<'_>) -> Result<Vec<Record>, Error> {
    let mut sql = Sql::new("SELECT id FROM webhooks WHERE enabled = ");
    sql.bind(Bind::Bool(true));
    let ids: Vec<i64> = db.load(&sql)?.iter().map(|row| row.int(0)).collect();
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    shallow_by_ids(db, &WEBHOOK, &ids)
}
