//! The write scenarios, timed by the harness itself (wrk would repeat one body): bulk POSTs
//! of 1,000 new sessions, then bulk PATCHes of the same sessions, then bulk DELETEs of
//! them, a few batches each.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::dataset;
use super::discover::SESSIONS;
use super::load::{Loaded, BATCH};
use super::report::{Measurement, Outcome, ScenarioResult};
use super::rss::RssMonitor;
use super::target::{ids_of, truncate, Target};

const WRITE_BATCHES: u64 = 5;
/// Sessions the write scenarios add after the loaded ones.
pub const WRITE_SESSIONS: u64 = WRITE_BATCHES * BATCH as u64;

/// One timed request per batch.
struct Batches {
    latencies: Vec<Duration>,
    objects: u64,
    errors: u64,
    non2xx: u64,
}

impl Batches {
    fn new() -> Self {
        Batches {
            latencies: Vec::new(),
            objects: 0,
            errors: 0,
            non2xx: 0,
        }
    }

    /// Sends one batch, expecting `expected`; returns the answer's body when it came.
    fn send(
        &mut self,
        target: &Target,
        method: &str,
        body: &[Value],
        expected: u16,
    ) -> Option<String> {
        let text = serde_json::to_string(body).expect("JSON values serialize");
        let started = Instant::now();
        let response = target.send(method, SESSIONS, Some(&text));
        self.latencies.push(started.elapsed());
        match response {
            Ok(r) if r.status == expected => {
                self.objects += body.len() as u64;
                Some(r.body)
            }
            Ok(r) => {
                self.non2xx += 1;
                eprintln!(
                    "   {method} {SESSIONS} answered {} instead of {expected}; first object sent: {}\n   answer: {}",
                    r.status,
                    body.first().unwrap_or(&Value::Null),
                    truncate(&r.body, 1000)
                );
                None
            }
            Err(e) => {
                self.errors += 1;
                eprintln!("   {e}");
                None
            }
        }
    }

    fn measurement(&self, monitor: &RssMonitor) -> Measurement {
        let seconds: f64 = self.latencies.iter().map(Duration::as_secs_f64).sum();
        let mut ms: Vec<f64> = self
            .latencies
            .iter()
            .map(|d| d.as_secs_f64() * 1000.0)
            .collect();
        ms.sort_by(f64::total_cmp);
        Measurement {
            requests: ms.len() as u64,
            requests_per_s: ms.len() as f64 / seconds.max(1e-9),
            objects_per_s: Some(self.objects as f64 / seconds.max(1e-9)),
            p50_ms: percentile(&ms, 50.0),
            p99_ms: percentile(&ms, 99.0),
            errors: self.errors,
            non2xx: self.non2xx,
            peak_rss_mib: Some(monitor.take_window_peak_mib()),
        }
    }
}

/// Nearest-rank percentile of sorted values (0 for none).
pub(super) fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (p / 100.0 * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Runs the write scenarios on our server, after the reads (they add sessions, and take
/// them away again).
pub fn measure(target: &Target, loaded: &Loaded, monitor: &RssMonitor) -> Vec<ScenarioResult> {
    measure_counting(target, loaded, monitor).0
}

/// [`measure`], with the number of objects the scenarios changed (created, updated and
/// deleted, each counted once per write).
pub fn measure_counting(
    target: &Target,
    loaded: &Loaded,
    monitor: &RssMonitor,
) -> (Vec<ScenarioResult>, u64) {
    monitor.take_window_peak_mib();
    let mut posts = Batches::new();
    let created = post_batches(target, loaded, &mut posts);
    let post = ScenarioResult {
        name: "session_bulk_post",
        request: format!("POST {SESSIONS} with 1,000 new sessions, {WRITE_BATCHES} times"),
        connections: 1,
        outcome: Outcome::Measured(posts.measurement(monitor)),
    };

    let mut patches = Batches::new();
    for (b, ids) in created.iter().enumerate() {
        let status = ["maintenance", "enabled"][b % 2];
        let batch: Vec<Value> = ids
            .iter()
            .map(|id| json!({"id": id, "status": status, "comments": format!("bulk patch {b}")}))
            .collect();
        patches.send(target, "PATCH", &batch, 200);
    }
    let request =
        format!("PATCH {SESSIONS} with 1,000 {{id, status, comments}}, once per created batch");
    let patch = ScenarioResult {
        name: "session_bulk_patch",
        request,
        connections: 1,
        outcome: of_created(&created, "patch", &patches, monitor),
    };

    let mut deletes = Batches::new();
    for ids in &created {
        let batch: Vec<Value> = ids.iter().map(|id| json!({"id": id})).collect();
        deletes.send(target, "DELETE", &batch, 204);
    }
    let delete = ScenarioResult {
        name: "session_bulk_delete",
        request: format!("DELETE {SESSIONS} with 1,000 {{id}}, once per created batch"),
        connections: 1,
        outcome: of_created(&created, "delete", &deletes, monitor),
    };
    let changes = posts.objects + patches.objects + deletes.objects;
    (vec![post, patch, delete], changes)
}

/// POSTs the new sessions in batches; returns the ids of each batch created.
fn post_batches(target: &Target, loaded: &Loaded, posts: &mut Batches) -> Vec<Vec<i64>> {
    let mut created: Vec<Vec<i64>> = Vec::new();
    for b in 0..WRITE_BATCHES {
        let first = loaded.sessions + b * BATCH as u64;
        let batch: Result<Vec<Value>, String> = (first..first + BATCH as u64)
            .map(|k| {
                let (exchange, address) = loaded.addresses.get(k)?;
                let peer = loaded.peer_ids[k as usize % loaded.peer_ids.len()];
                let connection = loaded.connection_ids[exchange as usize];
                Ok(dataset::session(k, peer, connection, address))
            })
            .collect();
        let batch = match batch {
            Ok(batch) => batch,
            Err(e) => {
                eprintln!("   {e}");
                break;
            }
        };
        if let Some(body) = posts.send(target, "POST", &batch, 201) {
            if let Some(ids) = ids_of(&body, batch.len()) {
                created.push(ids);
            }
        }
    }
    created
}

/// The measurement of batches sent to the created sessions, if any were created.
fn of_created(
    created: &[Vec<i64>],
    what: &str,
    batches: &Batches,
    monitor: &RssMonitor,
) -> Outcome {
    if created.is_empty() {
        Outcome::Skipped(format!("no session was created to {what}"))
    } else {
        Outcome::Measured(batches.measurement(monitor))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let five = [10.0, 20.0, 30.0, 40.0, 50.0];
        assert_eq!(percentile(&five, 50.0), 30.0);
        assert_eq!(percentile(&five, 99.0), 50.0);
        assert_eq!(percentile(&five, 0.0), 10.0);
        assert_eq!(percentile(&[], 50.0), 0.0);
    }
}
