//! The deliveries a write sets off: for each change, each enabled webhook that selects its
//! content type and event gets a job carrying what the reference sends (the object as the
//! API shows it, without secrets, and the change record's snapshots), written as JSON
//! text once per change whatever the number of webhooks: the object's representation and
//! the snapshots are text already, and are copied into it rather than parsed into values
//! (a bulk write of a thousand objects to two webhooks carries two thousand payloads).

use std::sync::Arc;

use peering_domain::names::FieldNames;
use peering_domain::resources::WEBHOOK;
use peering_domain::{Record, ResourceSpec, Value};
use peering_represent::objects::{Renderer, SecretView};
use peering_store::{
    ChangeAction, ChangeContext, FollowChanges, JobText, Related, Store, WrittenChange,
};
use serde_json::Value as Json;

use crate::jobs::DELIVER_WEBHOOK;

/// Turns changes into webhook deliveries.
#[derive(Clone)]
pub struct Deliveries {
    /// What object URLs in the data start with (the base path, as the reference's
    /// serializer without a request writes relative URLs).
    pub base: String,
    /// The spelling of the external database's fields in the data.
    pub names: FieldNames,
    /// The queue whose workers to wake once deliveries are enqueued (none: another
    /// instance's workers find them when they next look).
    pub wake: Option<crate::jobs::Queue>,
}

/// Has every write through `store` (and its clones) enqueue the webhook deliveries its
/// changes set off.
pub fn follow_writes(store: &Store, deliveries: Deliveries) {
    store.follow_changes(Arc::new(deliveries));
}

impl FollowChanges for Deliveries {
    fn jobs_for(
        &self,
        ctx: &ChangeContext,
        webhooks: &[Record],
        related: &Related,
        changes: &[WrittenChange<'_>],
    ) -> Vec<JobText> {
        let timestamp = reference_timestamp(chrono::Utc::now());
        let mut jobs = Vec::new();
        for change in changes {
            let selecting: Vec<i64> = webhooks
                .iter()
                .filter(|webhook| selects(webhook, change.spec, change.action))
                .map(|webhook| webhook.id)
                .collect();
            if selecting.is_empty() {
                continue;
            }
            let payload = self.payload(ctx, related, change, &timestamp);
            // The payload's members after its opening brace, behind each webhook's id.
            let members = payload.strip_prefix('{').unwrap_or(&payload);
            jobs.extend(selecting.into_iter().map(|webhook| JobText {
                name: DELIVER_WEBHOOK,
                object: Some((WEBHOOK.content_type(), webhook)),
                user_id: ctx.user_id,
                params: format!("{{\"webhook\":{webhook},{members}"),
            }));
        }
        jobs
    }

    fn committed(&self) {
        if let Some(queue) = &self.wake {
            queue.wake();
        }
    }
}

impl Deliveries {
    /// What a delivery of `change` carries, but the webhook, as a JSON object's text.
    fn payload(
        &self,
        ctx: &ChangeContext,
        related: &Related,
        change: &WrittenChange<'_>,
        timestamp: &str,
    ) -> String {
        let renderer = Renderer {
            related,
            base: &self.base,
            show_secrets: SecretView::Hidden,
            names: self.names,
            // A receiver asked through no layout: the links name the 1.8 paths.
            layout: peering_domain::resources::Layout::V1_8,
        };
        let mut text = String::with_capacity(4096);
        text.push_str("{\"event\":");
        push_string(&mut text, change.action.as_str());
        text.push_str(",\"timestamp\":");
        push_string(&mut text, timestamp);
        text.push_str(",\"model\":");
        push_string(&mut text, change.spec.model);
        text.push_str(",\"username\":");
        push_string(&mut text, &ctx.user_name);
        text.push_str(",\"request_id\":");
        push_string(&mut text, &ctx.request_id);
        text.push_str(",\"data\":");
        renderer.full(&mut text, change.spec, change.record);
        text.push_str(",\"snapshots\":{\"prechange\":");
        push_snapshot(&mut text, change.prechange);
        text.push_str(",\"postchange\":");
        push_snapshot(&mut text, change.postchange);
        text.push_str("}}");
        text
    }
}

/// `value` as a JSON string.
fn push_string(text: &mut String, value: &str) {
    text.push_str(&Json::from(value).to_string());
}

/// A snapshot's JSON text as the store wrote it, or null when absent or not JSON (checked
/// without building a value).
fn push_snapshot(text: &mut String, snapshot: Option<&str>) {
    let valid = snapshot.filter(|s| serde_json::from_str::<serde::de::IgnoredAny>(s).is_ok());
    text.push_str(valid.unwrap_or("null"));
}

/// Whether `webhook` is set off by `action` on objects of `spec`.
fn selects(webhook: &Record, spec: &ResourceSpec, action: ChangeAction) -> bool {
    let event = match action {
        ChangeAction::Create => "type_create",
        ChangeAction::Update => "type_update",
        ChangeAction::Delete => "type_delete",
    };
    if webhook.get(&WEBHOOK, event) != &Value::Bool(true) {
        return false;
    }
    let content_type = spec.content_type();
    match webhook.get(&WEBHOOK, "content_types") {
        Value::Json(types) => types
            .as_array()
            .is_some_and(|types| types.iter().any(|t| t.as_str() == Some(&content_type))),
        _ => false,
    }
}

/// A time as the reference writes it in a delivery (Python's `str` of an aware
/// datetime): `2026-12-06 21:30:00.123456+00:00`.
fn reference_timestamp(time: chrono::DateTime<chrono::Utc>) -> String {
    time.format("%Y-%m-%d %H:%M:%S%.6f+00:00").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_written_as_the_reference_writes_them() {
        let time = chrono::DateTime::parse_from_rfc3339("2026-12-06T21:30:00.5Z")
            .map(|t| t.with_timezone(&chrono::Utc))
            .expect("a time");
        assert_eq!(
            reference_timestamp(time),
            "2026-12-06 21:30:00.500000+00:00"
        );
    }

    #[test]
    fn absent_or_broken_snapshots_are_null() {
        let written = |snapshot| {
            let mut text = String::new();
            push_snapshot(&mut text, snapshot);
            text
        };
        assert_eq!(written(None), "null");
        assert_eq!(written(Some("{")), "null");
        assert_eq!(written(Some(r#"{"a":1}"#)), r#"{"a":1}"#);
    }

    #[test]
    fn strings_are_escaped() {
        let mut text = String::new();
        push_string(&mut text, "a \"quoted\"\n name");
        assert_eq!(text, r#""a \"quoted\"\n name""#);
    }
}
