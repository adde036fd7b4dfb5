//! `--webhooks N`: what webhooks cost the writes. After the other scenarios, the harness
//! creates N webhooks that follow every change (create, update, delete) of the peering
//! data, each signed with a secret, sending to a receiver it runs on 127.0.0.1
//! (`webhooks/receiver.rs`). Then the bulk write scenarios and the realistic writer run
//! twice on the same server and data: with the webhooks disabled, then enabled. After each
//! part it waits, bounded in time, until the queue holds no delivery left to run, and counts
//! what the receiver got against what was due. The table is in `webhooks/table.rs`.

mod receiver;
mod table;

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::load::Loaded;
use super::reads::Run;
use super::realistic::{self, Bench, Cache, Mix, Population, Row};
use super::report::ScenarioResult;
use super::rss::RssMonitor;
use super::target::{truncate, Target};
use super::writes;
use receiver::Receiver;

pub use table::{json, markdown};

const WEBHOOKS: &str = "/api/extras/webhooks/";
/// The realistic writer runs at least this long in each phase: 400 writes at the default
/// 20 a second, so that its p99 is the fifth slowest, not the slowest of 60.
const WRITER_SECONDS: u64 = 20;
const JOBS: &str = "/api/core/jobs/";
/// The kind of job each delivery is.
const DELIVERY_JOB: &str = "extras.webhook.deliver";
/// The apps whose resources are the peering data the webhooks follow: every resource a
/// user edits about peering (not users, jobs, change records or the PeeringDB cache).
const FOLLOWED_APPS: &[&str] = &["peering", "net", "bgp", "devices", "messaging"];
/// The realistic scenario the writer runs beside: reads of random details.
const READ_MIX: &str = "as_detail";
/// How long the harness waits for the queue to drain after a part.
const DRAIN_LIMIT: Duration = Duration::from_secs(300);
/// Each poll counts the waiting jobs through the API, which costs the server a little.
const DRAIN_POLL: Duration = Duration::from_secs(1);

/// What a comparison runs on: the loaded server and what watches it.
pub struct Context<'a> {
    pub target: &'a Target,
    pub loaded: &'a Loaded,
    pub monitor: &'a RssMonitor,
    pub population: &'a Population,
    pub run: Run,
    pub write_rate: u32,
    pub on_postgres: bool,
}

/// Both states side by side: none enabled first, then all N.
pub struct Comparison {
    pub webhooks: u32,
    pub content_types: Vec<String>,
    pub read_mix: &'static str,
    pub phases: Vec<Phase>,
}

/// The writes with a number of webhooks enabled.
pub struct Phase {
    pub enabled: u32,
    /// The bulk POST, PATCH and DELETE scenarios.
    pub bulk: Vec<ScenarioResult>,
    /// The realistic writer and the reads it ran beside.
    pub writer: Row,
    /// What was due and delivered, for the bulk writes then for the writer.
    pub deliveries: [Deliveries; 2],
}

/// The deliveries of one part of a phase.
#[derive(Debug, Clone, PartialEq)]
pub struct Deliveries {
    /// Objects the part changed.
    pub changes: u64,
    /// One delivery per change and enabled webhook.
    pub expected: u64,
    /// Delivery jobs the server queued during the part.
    pub queued: u64,
    pub received: u64,
    /// Received with an `X-Hook-Signature` header.
    pub signed: u64,
    /// From the end of the part until no delivery was left to run, or the limit.
    pub drain_s: f64,
    /// Deliveries still pending or running when the harness stopped waiting.
    pub left: u64,
}

/// The content types the webhooks follow, e.g. `peering.autonomoussystem`.
pub fn content_types() -> Vec<String> {
    peering_domain::resources::ALL
        .iter()
        .filter(|r| FOLLOWED_APPS.contains(&r.app))
        .map(|r| format!("{}.{}", r.app, r.model))
        .collect()
}

/// Creates `count` webhooks and runs both phases; leaves the webhooks disabled.
pub fn compare(context: &Context<'_>, count: u32) -> Result<Comparison, String> {
    let receiver = Receiver::start()?;
    let content_types = content_types();
    let ids = create(context.target, &receiver, count, &content_types)?;
    eprintln!(
        "== webhooks: {count} created on {} content types, sending to {}",
        content_types.len(),
        receiver.addr
    );
    let mixes = realistic::mixes(context.population);
    let mix = mixes
        .iter()
        .find(|m| m.name == READ_MIX)
        .ok_or_else(|| format!("no realistic scenario named {READ_MIX}"))?;
    let mut phases = Vec::new();
    for enabled in [0, count] {
        set_enabled(context.target, &ids, enabled > 0)?;
        phases.push(phase(context, &receiver, mix, enabled)?);
    }
    set_enabled(context.target, &ids, false)?;
    Ok(Comparison {
        webhooks: count,
        content_types,
        read_mix: READ_MIX,
        phases,
    })
}

/// The webhooks' bodies: all events, a secret each, one receiver path each (the API wants
/// the events and URL together unique); created disabled.
fn bodies(receiver: &Receiver, count: u32, content_types: &[String]) -> Vec<Value> {
    (0..count)
        .map(|n| {
            json!({
                "name": format!("bench webhook {n}"),
                "content_types": content_types,
                "type_create": true,
                "type_update": true,
                "type_delete": true,
                "payload_url": receiver.url(n),
                "enabled": false,
                "http_method": "POST",
                "http_content_type": "application/json",
                "secret": format!("bench-secret-{n}"),
            })
        })
        .collect()
}

fn create(
    target: &Target,
    receiver: &Receiver,
    count: u32,
    content_types: &[String],
) -> Result<Vec<i64>, String> {
    target.create_many(WEBHOOKS, &bodies(receiver, count, content_types))
}

/// Enables or disables the webhooks through the API, in one bulk PATCH.
fn set_enabled(target: &Target, ids: &[i64], enabled: bool) -> Result<(), String> {
    let body: Vec<Value> = ids
        .iter()
        .map(|id| json!({"id": id, "enabled": enabled}))
        .collect();
    let text = Value::Array(body).to_string();
    let response = target.send("PATCH", WEBHOOKS, Some(&text))?;
    if response.status != 200 {
        return Err(format!(
            "PATCH {WEBHOOKS} (enabled: {enabled}) answered {}: {}",
            response.status,
            truncate(&response.body, 500)
        ));
    }
    Ok(())
}

/// The bulk writes, then the writer beside the reads, with `enabled` webhooks on.
fn phase(
    context: &Context<'_>,
    receiver: &Receiver,
    mix: &Mix,
    enabled: u32,
) -> Result<Phase, String> {
    let target = context.target;
    eprintln!("== webhooks: bulk writes, {enabled} webhooks enabled");
    let before = Tally::take(target, receiver)?;
    let (bulk, changes) = writes::measure_counting(target, context.loaded, context.monitor);
    let bulk_deliveries = drain(target, receiver, &before, changes, enabled)?;

    eprintln!("== webhooks: realistic writer beside {READ_MIX}, {enabled} webhooks enabled");
    let before = Tally::take(target, receiver)?;
    let bench = Bench {
        target,
        cache: Cache::On,
        monitor: context.monitor,
        on_postgres: context.on_postgres,
    };
    // Long enough for a p99 of the writer's latency that is not its slowest write.
    let run = Run {
        duration_s: context.run.duration_s.max(WRITER_SECONDS),
        ..context.run
    };
    let writer = realistic::measure(&bench, context.population, mix, &run, context.write_rate)?;
    let writer_deliveries = drain(target, receiver, &before, writer.writes.done, enabled)?;
    Ok(Phase {
        enabled,
        bulk,
        writer,
        deliveries: [bulk_deliveries, writer_deliveries],
    })
}

/// Counts taken before a part, to tell the part's own.
struct Tally {
    queued: u64,
    received: u64,
    signed: u64,
}

impl Tally {
    fn take(target: &Target, receiver: &Receiver) -> Result<Tally, String> {
        Ok(Tally {
            queued: delivery_jobs(target, None)?,
            received: receiver.requests(),
            signed: receiver.signed(),
        })
    }
}

/// How many delivery jobs the server holds, in `status` or in any.
fn delivery_jobs(target: &Target, status: Option<&str>) -> Result<u64, String> {
    let mut path = format!("{JOBS}?name={DELIVERY_JOB}&limit=1");
    if let Some(status) = status {
        path.push_str(&format!("&status={status}"));
    }
    let page = target.get_json(&path)?;
    page["count"]
        .as_u64()
        .ok_or_else(|| format!("GET {path}: no count in the answer"))
}

/// Waits until no delivery is pending or running (at most [`DRAIN_LIMIT`]), then counts
/// the part's deliveries.
fn drain(
    target: &Target,
    receiver: &Receiver,
    before: &Tally,
    changes: u64,
    enabled: u32,
) -> Result<Deliveries, String> {
    let started = Instant::now();
    let left = loop {
        let left =
            delivery_jobs(target, Some("pending"))? + delivery_jobs(target, Some("running"))?;
        if left == 0 || started.elapsed() >= DRAIN_LIMIT {
            break left;
        }
        std::thread::sleep(DRAIN_POLL);
    };
    let deliveries = Deliveries {
        changes,
        expected: changes * u64::from(enabled),
        queued: delivery_jobs(target, None)?.saturating_sub(before.queued),
        received: receiver.requests() - before.received,
        signed: receiver.signed() - before.signed,
        drain_s: started.elapsed().as_secs_f64(),
        left,
    };
    eprintln!(
        "   {} changes, {} deliveries due, {} queued, {} received ({} signed), {} left after {:.1} s",
        deliveries.changes,
        deliveries.expected,
        deliveries.queued,
        deliveries.received,
        deliveries.signed,
        deliveries.left,
        deliveries.drain_s
    );
    if deliveries.expected > 0 && deliveries.queued == 0 {
        eprintln!("   the server queued no delivery job: this build sends no webhook");
    }
    Ok(deliveries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn webhooks_follow_the_peering_data_the_writes_touch() {
        let types = content_types();
        for written in [
            "peering.internetexchangepeeringsession",
            "peering.autonomoussystem",
            "peering.internetexchange",
            "net.connection",
        ] {
            assert!(types.iter().any(|t| t == written), "{written} in {types:?}");
        }
        for not_followed in [
            "core.job",
            "users.user",
            "extras.webhook",
            "extras.objectchange",
        ] {
            assert!(!types.iter().any(|t| t == not_followed), "{not_followed}");
        }
        // Every one names a resource the API knows.
        assert!(types
            .iter()
            .all(|t| peering_domain::resources::by_content_type(t).is_some()));
    }

    #[test]
    fn webhook_bodies_are_signed_distinct_and_created_disabled() {
        let receiver = Receiver::start().unwrap();
        let bodies = bodies(&receiver, 2, &content_types());
        assert_eq!(bodies.len(), 2);
        assert_ne!(bodies[0]["payload_url"], bodies[1]["payload_url"]);
        assert_ne!(bodies[0]["name"], bodies[1]["name"]);
        for body in &bodies {
            assert_eq!(body["enabled"], false);
            assert!(!body["secret"].as_str().unwrap().is_empty());
            for event in ["type_create", "type_update", "type_delete"] {
                assert_eq!(body[event], true);
            }
            let url = body["payload_url"].as_str().unwrap();
            assert!(url.starts_with(&format!("http://{}/", receiver.addr)));
        }
    }
}
