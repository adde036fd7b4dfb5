//! The deliveries a write sets off: for each change, each enabled webhook that selects its
//! content type and event gets a job carrying what the reference sends (the object as the
//! API shows it, without secrets, and the change record's snapshots), rendered once per
//! change whatever the number of webhooks.

use std::sync::Arc;

use peering_domain::names::FieldNames;
use peering_domain::resources::WEBHOOK;
use peering_domain::{Record, ResourceSpec, Value};
use peering_represent::objects::{Renderer, SecretView};
use peering_store::{
    ChangeAction, ChangeContext, FollowChanges, NewJob, Related, Store, WrittenChange,
};
use serde_json::{json, Value as Json};

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
    ) -> Vec<NewJob> {
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
            jobs.extend(selecting.into_iter().map(|webhook| {
                let mut params = payload.clone();
                params["webhook"] = webhook.into();
                NewJob {
                    name: DELIVER_WEBHOOK.into(),
                    object: Some((WEBHOOK.content_type(), webhook)),
                    user_id: ctx.user_id,
                    params,
                }
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
    /// What a delivery of `change` carries, but the webhook.
    fn payload(
        &self,
        ctx: &ChangeContext,
        related: &Related,
        change: &WrittenChange<'_>,
        timestamp: &str,
    ) -> Json {
        let renderer = Renderer {
            related,
            base: &self.base,
            show_secrets: SecretView::Hidden,
            names: self.names,
        };
        let mut data = String::new();
        renderer.full(&mut data, change.spec, change.record);
        json!({
            "event": change.action.as_str(),
            "timestamp": timestamp,
            "model": change.spec.model,
            "username": ctx.user_name,
            "request_id": ctx.request_id,
            "data": parsed(Some(&data)),
            "snapshots": {
                "prechange": parsed(change.prechange),
                "postchange": parsed(change.postchange),
            },
        })
    }
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

/// JSON text written by the store or the renderer, as a value (null when absent).
fn parsed(text: Option<&str>) -> Json {
    text.and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or(Json::Null)
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
        assert_eq!(parsed(None), Json::Null);
        assert_eq!(parsed(Some("{")), Json::Null);
        assert_eq!(parsed(Some(r#"{"a":1}"#)), json!({"a": 1}));
    }
}
