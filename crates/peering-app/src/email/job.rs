//! The job that sends an e-mail to an autonomous system: the template rendered for the
//! user who asked (as they may read the data), one message to the recipients with their
//! carbon copies, then a journal entry on the autonomous system, written as any write is.
//! A failure to send leaves no entry; sending twice is not safe, so the job is not run
//! again when its worker dies.

use peering_domain::input::{self, Mode};
use peering_domain::resources::{AUTONOMOUS_SYSTEM, JOURNAL_ENTRY};
use peering_store::{ChangeContext, ClaimedJob, Error};
use serde_json::json;

use super::smtp::{deliver, one_line, Outgoing};
use super::Settings;
use crate::edits::Edits;
use crate::{Viewer, Work, WorkError};

/// The strings of the list `key` of a job's parameters.
fn addresses(params: &serde_json::Value, key: &str) -> Vec<String> {
    params[key]
        .as_array()
        .map(|list| {
            list.iter()
                .filter_map(|a| a.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Renders, sends and records the e-mail of `job` (on the autonomous system it names);
/// what was done, for the job's output.
pub fn send(
    work: &Work,
    edits: &Edits,
    settings: &Settings,
    job: &ClaimedJob,
    ctx: &ChangeContext,
) -> Result<String, WorkError> {
    let system = job
        .object_id
        .ok_or(WorkError::NotFound("autonomous system"))?;
    let email = job.params["email"]
        .as_i64()
        .ok_or(WorkError::NotFound("e-mail"))?;
    let viewer = Viewer::from_params(&job.params, job.user_id);
    let (to, cc) = (
        addresses(&job.params, "recipients"),
        addresses(&job.params, "cc"),
    );
    let (subject, body) = work.email(system, email, &viewer, None)?;
    let subject = one_line(&subject);
    let outgoing = Outgoing {
        to: &to,
        cc: &cc,
        subject: &subject,
        body,
    };
    deliver(settings, &outgoing).map_err(WorkError::Email)?;
    let from = settings.from.as_deref().unwrap_or_default();
    let comments = journal_text(&ctx.user_name, from, &outgoing);
    record(edits, system, job.user_id, comments, ctx).map_err(|e| {
        WorkError::Email(format!(
            "The e-mail was sent, but its journal entry was not written: {e}"
        ))
    })?;
    Ok(format!(
        "E-mail sent to {}{}: {subject}",
        to.join(", "),
        if cc.is_empty() {
            String::new()
        } else {
            format!(" (cc {})", cc.join(", "))
        }
    ))
}

/// The entry's text, laid out as the reference's: who sent it, to whom, from which
/// address, and its subject. Not its body, which shows what its sender may read, and
/// journal entries are read by others.
fn journal_text(user: &str, from: &str, outgoing: &Outgoing<'_>) -> String {
    let by = if user.is_empty() {
        String::new()
    } else {
        format!(" by {user}")
    };
    format!(
        "E-mail sent{by}.\n\n```\n     To: {}\n     CC: {}\n   From: {from}\nSubject: {}\n```\n",
        outgoing.to.join(", "),
        outgoing.cc.join(", "),
        outgoing.subject,
    )
}

/// Writes the journal entry on the autonomous system, in the name of `user`.
fn record(
    edits: &Edits,
    system: i64,
    user: Option<i64>,
    comments: String,
    ctx: &ChangeContext,
) -> Result<(), Error> {
    let body = json!({
        "assigned_object_type": AUTONOMOUS_SYSTEM.content_type(),
        "assigned_object_id": system,
        "created_by": user,
        "kind": "info",
        "comments": comments,
    });
    let draft = input::parse(&JOURNAL_ENTRY, &body, Mode::Create).map_err(Error::invalid)?;
    edits.create(&JOURNAL_ENTRY, vec![draft], ctx)?;
    Ok(())
}
