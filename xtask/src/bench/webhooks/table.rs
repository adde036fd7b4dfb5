//! The "Writes with webhooks" part of the report, in JSON and Markdown: each write scenario
//! and the realistic writer with no webhook enabled and with N, their change, the targets,
//! and the deliveries due against those received.

use std::fmt::Write as _;

use serde_json::{json, Value};

use super::{Comparison, Deliveries, Phase, DRAIN_LIMIT};
use crate::bench::report::{r, scenario_json, thousands, Measurement, ScenarioResult};

/// The longest a 1,000-object batch may take with webhooks.
const BATCH_TARGET_MS: f64 = 1000.0;
/// How much lower the writer's rate may be with webhooks, in percent.
const WRITER_TARGET_PCT: f64 = 10.0;
/// The parts of a phase, in the order of [`Phase::deliveries`].
const PARTS: [&str; 2] = ["bulk writes", "realistic writer"];

pub fn json(c: &Comparison) -> Value {
    let phases: Vec<Value> = c.phases.iter().map(phase_json).collect();
    json!({
        "webhooks": c.webhooks,
        "content_types": c.content_types,
        "read_mix": c.read_mix,
        "drain_limit_s": DRAIN_LIMIT.as_secs(),
        "phases": phases,
    })
}

fn phase_json(p: &Phase) -> Value {
    let w = &p.writer.writes;
    let reads = p.writer.scenario.measured();
    let deliveries: Vec<Value> = PARTS
        .iter()
        .zip(&p.deliveries)
        .map(|(part, d)| {
            json!({"part": part, "changes": d.changes, "expected": d.expected,
                   "queued": d.queued, "received": d.received, "signed": d.signed,
                   "left": d.left, "drain_s": r(d.drain_s, 2)})
        })
        .collect();
    json!({
        "webhooks_enabled": p.enabled,
        "bulk": p.bulk.iter().map(scenario_json).collect::<Vec<_>>(),
        "writer": {"planned": w.planned, "done": w.done, "failed": w.failed,
                   "done_per_s": r(w.done_per_s(), 2), "p50_ms": r(w.p50_ms, 2),
                   "p99_ms": r(w.p99_ms, 2)},
        "reads_alongside": {"scenario": p.writer.scenario.name,
                            "requests_per_s": reads.map(|m| r(m.requests_per_s, 1)),
                            "p99_ms": reads.map(|m| r(m.p99_ms, 2))},
        "deliveries": deliveries,
    })
}

/// `with` against `without`, in percent (`+4.0%`), or a dash when there is nothing to
/// compare with.
fn change(without: Option<f64>, with: f64) -> String {
    match without {
        Some(without) if without > 0.0 => format!("{:+.1}%", (with / without - 1.0) * 100.0),
        _ => "–".into(),
    }
}

pub fn markdown(c: &Comparison) -> String {
    let mut md = String::from("## Writes with webhooks\n\n");
    let _ = writeln!(
        md,
        "{} webhooks on {} content types of the peering data (create, update and delete, \
         each signed with a secret), sending to a receiver the harness runs on 127.0.0.1 \
         that answers 200 at once. The same writes on the same server and data, with no \
         webhook enabled, then with all of them; after each part the harness waits until no \
         delivery is left to run (at most {} s).\n",
        c.webhooks,
        c.content_types.len(),
        DRAIN_LIMIT.as_secs()
    );
    let none = c.phases.iter().find(|p| p.enabled == 0);
    bulk_table(&mut md, &c.phases, none);
    writer_table(&mut md, c, none);
    deliveries_table(&mut md, &c.phases);
    targets(&mut md, c, none);
    md
}

fn bulk_table(md: &mut String, phases: &[Phase], none: Option<&Phase>) {
    md.push_str("Bulk writes of 1,000 sessions a request (p99 of a few batches: the slowest):\n\n");
    md.push_str("| scenario | webhooks enabled | objects/s | vs none | p50 ms | p99 ms | errors + non-2xx |\n");
    md.push_str("|---|---:|---:|---:|---:|---:|---:|\n");
    let scenarios = phases.first().map_or(0, |p| p.bulk.len());
    for i in 0..scenarios {
        for p in phases {
            let Some(s) = p.bulk.get(i) else { continue };
            let Some(m) = s.measured() else {
                let _ = writeln!(md, "| {} | {} | skipped | | | | |", s.name, p.enabled);
                continue;
            };
            let objects = m.objects_per_s.unwrap_or(0.0);
            let baseline = none
                .filter(|_| p.enabled > 0)
                .and_then(|n| n.bulk.get(i))
                .and_then(objects_per_s);
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {:.1} | {:.1} | {} |",
                s.name,
                p.enabled,
                thousands(objects),
                change(baseline, objects),
                m.p50_ms,
                m.p99_ms,
                m.errors + m.non2xx
            );
        }
    }
    md.push('\n');
}

fn objects_per_s(s: &ScenarioResult) -> Option<f64> {
    s.measured().and_then(|m| m.objects_per_s)
}

fn writer_table(md: &mut String, c: &Comparison, none: Option<&Phase>) {
    let _ = writeln!(
        md,
        "The realistic writer (PATCHes of random autonomous systems and sessions at a set \
         rate) beside the `{}` reads, answer cache on:\n",
        c.read_mix
    );
    md.push_str("| webhooks enabled | writes/s | vs none | done/due | write p50 ms | write p99 ms | vs none | reads req/s | reads p99 ms |\n");
    md.push_str("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for p in &c.phases {
        let base = none.filter(|_| p.enabled > 0).map(|n| &n.writer.writes);
        let w = &p.writer.writes;
        let reads = p.writer.scenario.measured();
        let _ = writeln!(
            md,
            "| {} | {:.2} | {} | {}/{} | {:.1} | {:.1} | {} | {} | {} |",
            p.enabled,
            w.done_per_s(),
            change(base.map(|b| b.done_per_s()), w.done_per_s()),
            w.done,
            w.planned,
            w.p50_ms,
            w.p99_ms,
            change(base.map(|b| b.p99_ms), w.p99_ms),
            reads.map_or("–".into(), |m: &Measurement| thousands(m.requests_per_s)),
            reads.map_or("–".into(), |m| format!("{:.2}", m.p99_ms)),
        );
    }
    md.push('\n');
}

fn deliveries_table(md: &mut String, phases: &[Phase]) {
    md.push_str(
        "Deliveries (due: one per change and enabled webhook; queued: the server's delivery \
         jobs; received: requests the receiver got during the part and its wait, so a \
         backlog left by a part arrives in the next one's row):\n\n",
    );
    md.push_str("| part | webhooks enabled | changes | due | queued | received | signed | left | drained after s |\n");
    md.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (i, part) in PARTS.iter().enumerate() {
        for p in phases {
            let d: &Deliveries = &p.deliveries[i];
            let _ = writeln!(
                md,
                "| {part} | {} | {} | {} | {} | {} | {} | {} | {:.1} |",
                p.enabled,
                thousands(d.changes as f64),
                thousands(d.expected as f64),
                thousands(d.queued as f64),
                thousands(d.received as f64),
                thousands(d.signed as f64),
                thousands(d.left as f64),
                d.drain_s
            );
        }
    }
    md.push('\n');
}

/// Whether the run met the targets, said in a few lines under the tables.
fn targets(md: &mut String, c: &Comparison, none: Option<&Phase>) {
    let Some(with) = c.phases.iter().find(|p| p.enabled > 0) else {
        return;
    };
    let met = |ok: bool| if ok { "met" } else { "missed" };
    let slowest = with
        .bulk
        .iter()
        .filter_map(ScenarioResult::measured)
        .map(|m| m.p99_ms)
        .fold(0.0, f64::max);
    let _ = writeln!(
        md,
        "- Slowest 1,000-object batch with {} webhooks: {slowest:.0} ms (target: under {BATCH_TARGET_MS:.0} ms): {}",
        with.enabled,
        met(slowest < BATCH_TARGET_MS)
    );
    if let Some(none) = none {
        let (before, after) = (
            none.writer.writes.done_per_s(),
            with.writer.writes.done_per_s(),
        );
        let drop_pct = (1.0 - after / before.max(1e-9)) * 100.0;
        let how = if drop_pct >= 0.0 { "lower" } else { "higher" };
        let _ = writeln!(
            md,
            "- The writer's rate with {} webhooks: {after:.2}/s against {before:.2}/s with none, {:.1}% {how} (target: at most {WRITER_TARGET_PCT:.0}% lower): {}",
            with.enabled,
            drop_pct.abs(),
            met(drop_pct <= WRITER_TARGET_PCT)
        );
    }
    let (due, queued, received) = with.deliveries.iter().fold((0, 0, 0), |(a, b, c), d| {
        (a + d.expected, b + d.queued, c + d.received)
    });
    let _ = writeln!(
        md,
        "- Deliveries received: {} of {} due",
        thousands(received as f64),
        thousands(due as f64)
    );
    if let Some(d) = with.deliveries.iter().find(|d| d.left > 0) {
        let _ = writeln!(
            md,
            "- The queue did not drain: {} deliveries were still waiting after {:.0} s, and \
             what was measured after them ran beside that backlog",
            thousands(d.left as f64),
            d.drain_s
        );
    }
    if due > 0 && queued == 0 {
        md.push_str(
            "- The server queued no delivery job: this build sends no webhook, so the \
             figures above measure no webhook cost\n",
        );
    }
    md.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::cpu::CpuPerRequest;
    use crate::bench::realistic::{Cache, Row};
    use crate::bench::report::Outcome;
    use crate::bench::writer::WriterStats;

    fn measured(name: &'static str, objects_per_s: f64, p99_ms: f64) -> ScenarioResult {
        ScenarioResult {
            name,
            request: String::new(),
            connections: 1,
            outcome: Outcome::Measured(Measurement {
                requests: 5,
                requests_per_s: objects_per_s / 1000.0,
                objects_per_s: Some(objects_per_s),
                p50_ms: p99_ms / 2.0,
                p99_ms,
                errors: 0,
                non2xx: 0,
                peak_rss_mib: None,
            }),
        }
    }

    fn phase(enabled: u32, objects_per_s: f64, batch_ms: f64, writes_done: u64) -> Phase {
        let deliveries = |changes: u64| Deliveries {
            changes,
            expected: changes * u64::from(enabled),
            queued: changes * u64::from(enabled),
            received: changes * u64::from(enabled),
            signed: changes * u64::from(enabled),
            drain_s: 0.5,
            left: 0,
        };
        Phase {
            enabled,
            bulk: vec![measured("session_bulk_post", objects_per_s, batch_ms)],
            writer: Row {
                cache: Cache::On,
                scenario: measured("as_detail", 0.0, 3.0),
                writes: WriterStats {
                    planned: 200,
                    done: writes_done,
                    failed: 0,
                    p50_ms: 4.0,
                    p99_ms: 20.0,
                    seconds: 10.0,
                },
                cpu: CpuPerRequest {
                    server_ms: 0.1,
                    database_ms: None,
                },
            },
            deliveries: [deliveries(15_000), deliveries(writes_done)],
        }
    }

    fn comparison(with: Phase) -> Comparison {
        Comparison {
            webhooks: 2,
            content_types: vec!["peering.autonomoussystem".into()],
            read_mix: "as_detail",
            phases: vec![phase(0, 2000.0, 500.0, 200), with],
        }
    }

    #[test]
    fn the_table_puts_both_states_side_by_side_and_judges_the_targets() {
        let md = markdown(&comparison(phase(2, 1500.0, 800.0, 190)));
        assert!(md.starts_with("## Writes with webhooks\n"));
        assert!(md.contains("| session_bulk_post | 0 | 2,000 | – |"), "{md}");
        assert!(
            md.contains("| session_bulk_post | 2 | 1,500 | -25.0% |"),
            "{md}"
        );
        assert!(md.contains("| 0 | 20.00 | – | 200/200 |"), "{md}");
        assert!(md.contains("| 2 | 19.00 | -5.0% | 190/200 |"), "{md}");
        assert!(md.contains("| bulk writes | 2 | 15,000 | 30,000 | 30,000 | 30,000 |"));
        assert!(md.contains("800 ms (target: under 1000 ms): met"), "{md}");
        assert!(
            md.contains("5.0% lower (target: at most 10% lower): met"),
            "{md}"
        );
        assert!(
            md.contains("Deliveries received: 30,380 of 30,380 due"),
            "{md}"
        );

        let slow = markdown(&comparison(phase(2, 900.0, 1200.0, 150)));
        assert!(
            slow.contains("1200 ms (target: under 1000 ms): missed"),
            "{slow}"
        );
        assert!(slow.contains("25.0% lower (target: at most 10% lower): missed"));
        let faster = markdown(&comparison(phase(2, 1500.0, 800.0, 210)));
        assert!(
            faster.contains("5.0% higher (target: at most 10% lower): met"),
            "{faster}"
        );
        let mut none_queued = phase(2, 1500.0, 800.0, 190);
        for d in &mut none_queued.deliveries {
            (d.queued, d.received, d.signed) = (0, 0, 0);
        }
        let unsent = markdown(&comparison(none_queued));
        assert!(
            unsent.contains("Deliveries received: 0 of 30,380 due"),
            "{unsent}"
        );
        assert!(
            unsent.contains("The server queued no delivery job"),
            "{unsent}"
        );
        let value = json(&comparison(phase(2, 1500.0, 800.0, 190)));
        assert_eq!(value["phases"][1]["webhooks_enabled"], 2);
        assert_eq!(value["phases"][1]["deliveries"][0]["received"], 30_000);
        assert_eq!(value["phases"][0]["writer"]["done_per_s"], 20.0);
    }

    #[test]
    fn changes_are_signed_percentages_against_a_baseline() {
        assert_eq!(change(Some(100.0), 90.0), "-10.0%");
        assert_eq!(change(Some(100.0), 125.0), "+25.0%");
        assert_eq!(change(Some(0.0), 5.0), "–");
        assert_eq!(change(None, 5.0), "–");
    }
}
