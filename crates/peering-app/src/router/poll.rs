//! Recording what a router reports of its sessions: state, prefix counts and, once
//! established, when, on the sessions of ours whose address it reports, in the name of
//! the user who asked.

use peering_domain::input::{Draft, Input};
use peering_domain::{ResourceSpec, Value};
use peering_store::ChangeContext;
use serde_json::Value as Json;

use super::Ask;
use crate::{Work, WorkError};

/// A session state a router reported.
struct Reported {
    state: Option<String>,
    counts: [(&'static str, Option<i64>); 3],
}

fn reported(entry: &Json) -> Reported {
    let count = |name| entry.get(name).and_then(Json::as_i64);
    Reported {
        state: entry
            .get("state")
            .and_then(Json::as_str)
            .map(str::to_lowercase)
            .filter(|s| peering_domain::choices::BGP_STATE.contains(s)),
        counts: [
            ("received_prefix_count", count("received_prefix_count")),
            ("accepted_prefix_count", count("accepted_prefix_count")),
            ("advertised_prefix_count", count("advertised_prefix_count")),
        ],
    }
}

impl Work {
    /// Polls a router's sessions and records what it reports; a summary.
    pub fn poll_router(
        &self,
        command: &[String],
        router: i64,
        ctx: &ChangeContext,
    ) -> Result<String, WorkError> {
        let answer = self.ask_router(command, router, &Ask::Poll)?;
        let entries = answer["sessions"].as_array().cloned().unwrap_or_default();
        let mut updated = 0;
        for (spec, ids) in self.router_sessions(router)? {
            let mut items = Vec::new();
            for (id, address) in ids {
                let Some(entry) = entries.iter().find(|e| {
                    e["ip_address"]
                        .as_str()
                        .is_some_and(|a| same_address(a, &address))
                }) else {
                    continue;
                };
                items.push((id, poll_draft(spec, &reported(entry))));
            }
            updated += items.len();
            if !items.is_empty() {
                self.store.update(spec, items, ctx)?;
            }
        }
        Ok(format!(
            "{updated} of {} reported sessions updated",
            entries.len()
        ))
    }
}

/// Whether a reported address (maybe with a prefix length) is a stored one.
pub(super) fn same_address(reported: &str, stored: &str) -> bool {
    let host = |t: &str| {
        t.split('/')
            .next()
            .unwrap_or(t)
            .parse::<std::net::IpAddr>()
            .ok()
    };
    host(reported).is_some() && host(reported) == host(stored)
}

/// The change a poll makes to a session: state, counts and, when established, the time it
/// was last seen so (now, as the reference records it).
fn poll_draft(spec: &ResourceSpec, report: &Reported) -> Draft {
    let mut draft = Draft::empty(spec);
    let mut set = |name: &str, value: Value| {
        draft.set(spec, name, Input::Value(value));
    };
    if let Some(state) = &report.state {
        set("bgp_state", Value::Text(state.clone()));
        if state == "established" {
            set(
                "last_established_state",
                Value::Time(peering_domain::value::now()),
            );
        }
    }
    for (name, count) in report.counts {
        if let Some(n) = count {
            set(name, Value::Int(n.max(0)));
        }
    }
    draft
}
