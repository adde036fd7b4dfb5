//! Writes a backend's PeeringDB synchronisation results as `bench-peeringdb-<backend>.json`
//! and `.md`, beside (not over) the API benchmark's files: medians of the runs, each run
//! listed, against the targets.

use std::fmt::Write as _;
use std::path::Path;

use peeringdb_fake::{Sizes, NAMESPACES};
use serde_json::{json, Value};

use super::available::{self, Latencies, PeersRun};
use super::{Runs, SyncRun};
use crate::bench::report::{r, thousands};

/// The targets: full synchronisation per backend, incremental, peak memory of either, and
/// an exchange's available peers (median and p99 of the request).
const FULL_TARGET_S: [(&str, f64); 2] = [("sqlite", 20.0), ("postgres", 40.0)];
const INCREMENTAL_TARGET_S: f64 = 2.0;
const PEAK_RSS_TARGET_MIB: f64 = 200.0;
const AVAILABLE_PEERS_TARGET_MS: f64 = 50.0;

pub struct Report<'a> {
    pub backend: &'a str,
    pub command: String,
    pub nproc: usize,
    pub sizes: Sizes,
    /// The incremental scenario's changes, in words.
    pub changes: String,
    pub runs: &'a Runs,
}

/// One scenario's runs with its targets.
struct Scenario<'a> {
    name: &'static str,
    runs: &'a [SyncRun],
    target_s: f64,
}

impl Scenario<'_> {
    fn median_s(&self) -> f64 {
        median(self.runs.iter().map(|r| r.seconds).collect())
    }

    fn max_peak_rss_mib(&self) -> f64 {
        self.runs.iter().map(|r| r.peak_rss_mib).fold(0.0, f64::max)
    }

    fn json(&self) -> Value {
        let runs: Vec<Value> = self
            .runs
            .iter()
            .map(|run| {
                json!({"seconds": r(run.seconds, 3), "peak_rss_mib": r(run.peak_rss_mib, 1),
                       "created": run.totals.created, "updated": run.totals.updated,
                       "deleted": run.totals.deleted})
            })
            .collect();
        json!({
            "scenario": self.name,
            "runs": runs,
            "median_s": r(self.median_s(), 3),
            "target_s": self.target_s,
            "max_peak_rss_mib": r(self.max_peak_rss_mib(), 1),
            "target_peak_rss_mib": PEAK_RSS_TARGET_MIB,
        })
    }

    fn markdown_row(&self) -> String {
        let list = |f: fn(&SyncRun) -> f64, digits: usize| {
            let values: Vec<String> = self
                .runs
                .iter()
                .map(|run| format!("{:.*}", digits, f(run)))
                .collect();
            values.join(", ")
        };
        let (median, peak) = (self.median_s(), self.max_peak_rss_mib());
        format!(
            "| {} | {} | {median:.2} | < {} s: {} | {} | {peak:.1} | < {PEAK_RSS_TARGET_MIB} MiB: {} |\n",
            self.name,
            list(|run| run.seconds, 2),
            self.target_s,
            verdict(median < self.target_s),
            list(|run| run.peak_rss_mib, 1),
            verdict(peak < PEAK_RSS_TARGET_MIB),
        )
    }
}

/// The available-peers requests on one kind of server, over the runs.
struct Requests<'a> {
    name: &'static str,
    /// The server's answer cache in MiB (0: off).
    cache_mib: &'static str,
    runs: Vec<&'a Latencies>,
}

impl Requests<'_> {
    fn p50_ms(&self) -> f64 {
        median(self.runs.iter().map(|l| l.p50_ms).collect())
    }

    fn p99_ms(&self) -> f64 {
        median(self.runs.iter().map(|l| l.p99_ms).collect())
    }

    fn hits(&self) -> String {
        let hits: Vec<String> = self
            .runs
            .iter()
            .map(|l| l.cache_hits.map_or("?".into(), |n| n.to_string()))
            .collect();
        hits.join(", ")
    }

    fn json(&self) -> Value {
        let runs: Vec<Value> = self
            .runs
            .iter()
            .map(|l| json!({"p50_ms": r(l.p50_ms, 2), "p99_ms": r(l.p99_ms, 2), "cache_hits": l.cache_hits}))
            .collect();
        json!({
            "scenario": self.name,
            "response_cache_mib": self.cache_mib.parse::<u64>().ok(),
            "runs": runs,
            "p50_ms": r(self.p50_ms(), 2),
            "p99_ms": r(self.p99_ms(), 2),
            "target_ms": AVAILABLE_PEERS_TARGET_MS,
        })
    }

    fn markdown_row(&self) -> String {
        let list = |f: fn(&Latencies) -> f64| {
            let values: Vec<String> = self.runs.iter().map(|l| format!("{:.1}", f(l))).collect();
            values.join(", ")
        };
        let (p50, p99) = (self.p50_ms(), self.p99_ms());
        let cache = match self.cache_mib {
            "0" => "off".to_string(),
            mib => format!("{mib} MiB"),
        };
        format!(
            "| {} | {cache} | {} | {p50:.1} | {} | {p99:.1} | < {AVAILABLE_PEERS_TARGET_MS} ms: {} (p50), {} (p99) | {} |\n",
            self.name,
            list(|l| l.p50_ms),
            list(|l| l.p99_ms),
            verdict(p50 < AVAILABLE_PEERS_TARGET_MS),
            verdict(p99 < AVAILABLE_PEERS_TARGET_MS),
            self.hits(),
        )
    }
}

fn verdict(met: bool) -> &'static str {
    if met {
        "met"
    } else {
        "missed"
    }
}

/// The middle value (the mean of the two middle ones for an even count; 0 for none).
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

impl Report<'_> {
    fn scenarios(&self) -> [Scenario<'_>; 2] {
        let full_target = FULL_TARGET_S
            .iter()
            .find(|(backend, _)| *backend == self.backend)
            .map_or(f64::INFINITY, |t| t.1);
        [
            Scenario {
                name: "peeringdb_full_sync",
                runs: &self.runs.full,
                target_s: full_target,
            },
            Scenario {
                name: "peeringdb_incremental_1000",
                runs: &self.runs.incremental,
                target_s: INCREMENTAL_TARGET_S,
            },
        ]
    }

    /// Cache off first: the query's real cost.
    fn requests(&self) -> [Requests<'_>; 2] {
        let runs = &self.runs.available_peers;
        [
            Requests {
                name: "peeringdb_available_peers_1000",
                cache_mib: "0",
                runs: runs.iter().map(|p| &p.cache_off).collect(),
            },
            Requests {
                name: "peeringdb_available_peers_1000",
                cache_mib: available::CACHE_ON_MIB,
                runs: runs.iter().map(|p| &p.cache_on).collect(),
            },
        ]
    }

    fn objects(&self) -> (u64, String) {
        let total = NAMESPACES.iter().map(|n| self.sizes.of(n) as u64).sum();
        let each: Vec<String> = NAMESPACES
            .iter()
            .map(|n| format!("{} {n}", thousands(self.sizes.of(n) as f64)))
            .collect();
        (total, each.join(", "))
    }

    pub fn json(&self) -> Value {
        let objects: serde_json::Map<String, Value> = NAMESPACES
            .iter()
            .map(|n| (n.to_string(), json!(self.sizes.of(n))))
            .collect();
        json!({
            "backend": self.backend,
            "command": self.command,
            "nproc": self.nproc,
            "peeringdb": {"objects": objects, "total": self.objects().0,
                          "answer_bytes": self.runs.answer_bytes},
            "incremental_changes": self.changes,
            "peak_rss": "the child's VmHWM in /proc/<pid>/status, read every 10 ms",
            "scenarios": self.scenarios().iter().map(Scenario::json).collect::<Vec<_>>(),
            "available_peers": self.runs.available_peers.first().map(|p| json!({
                "lan": available::LAN,
                "lan_records": p.members,
                "peered_members": available::PEERED,
                "sessions": p.sessions,
                "available": p.available,
                "answer_bytes": p.answer_bytes,
                "warm_ups": available::WARM_UPS,
                "requests_per_run": available::REQUESTS,
            })),
            "request_scenarios": self.requests().iter().map(Requests::json).collect::<Vec<_>>(),
        })
    }

    pub fn markdown(&self) -> String {
        let mut md = String::new();
        let (total, each) = self.objects();
        let _ = writeln!(
            md,
            "# peeringd benchmark: PeeringDB synchronisation, {}\n",
            self.backend
        );
        let _ = writeln!(md, "- Command: `{}`", self.command);
        let _ = writeln!(md, "- Machine: nproc = {}", self.nproc);
        let _ = writeln!(
            md,
            "- PeeringDB: the fake (`crates/peeringdb-fake`) at the real size, {} objects ({each}); its full answers ({:.1} MB) recorded before the clock starts and replayed on 127.0.0.1",
            thousands(total as f64),
            self.runs.answer_bytes as f64 / 1e6
        );
        let _ = writeln!(
            md,
            "- Each run: a fresh database migrated by `peeringd migrate` (not timed), `peeringd peeringdb sync` (full), then 1,000 changes made to the fake, timed after the full synchronisation: {}; then `peeringd peeringdb sync` again (incremental)",
            self.changes
        );
        md.push_str("- Wall time from spawn to exit of the release binary; peak RSS is the child's `VmHWM` (`/proc/<pid>/status`), read every 10 ms\n\n");
        md.push_str("| scenario | wall s per run | median s | target | peak RSS MiB per run | max MiB | target |\n");
        md.push_str("|---|---|---:|---|---|---:|---|\n");
        for scenario in self.scenarios() {
            md.push_str(&scenario.markdown_row());
        }
        if let Some(peers) = self.runs.available_peers.first() {
            md.push_str(&available_peers_markdown(peers));
            for requests in self.requests() {
                md.push_str(&requests.markdown_row());
            }
        }
        md
    }

    /// Writes both files into `out` and returns the Markdown.
    pub fn write(&self, out: &Path) -> Result<String, String> {
        std::fs::create_dir_all(out)
            .map_err(|e| format!("cannot create {}: {e}", out.display()))?;
        let markdown = self.markdown();
        let json = serde_json::to_string_pretty(&self.json()).expect("JSON values serialize");
        for (ext, text) in [("json", json + "\n"), ("md", markdown.clone())] {
            let path = out.join(format!("bench-peeringdb-{}.{ext}", self.backend));
            std::fs::write(&path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            eprintln!("wrote {}", path.display());
        }
        Ok(markdown)
    }
}

/// What the available-peers scenario does, and its table's head.
fn available_peers_markdown(peers: &PeersRun) -> String {
    format!(
        "\n- Available peers, each run: a fresh database migrated and synchronised (not timed) from the same recorded answers, where LAN {lan} has {members} records; then through the API, on a server started on it: our autonomous system (the ASN of the LAN's first dual-stack member), a router, the exchange, a connection on that member's addresses, `link-to-peeringdb`; {peered} other members' autonomous systems and {sessions} sessions on all their addresses (bulk POSTs); PostgreSQL's tables analysed (`VACUUM (ANALYZE)`, as autovacuum would after the synchronisation)\n\
         - Then `GET /api/peering/internet-exchanges/<id>/available-peers/` ({available} records, {kb:.0} kB), one request at a time from xtask over loopback (a new connection each), checked whole once, {warm} warm-ups, then {requests} timed; on the server with its answer cache off (`PEERING_RESPONSE_CACHE_MIB=0`), then restarted with {on} MiB (the default); p50 and p99 are the medians of the runs' figures; cache hits are the server's `peeringd_answer_cache_hits_total` over the timed requests\n\n\
         | scenario | answer cache | p50 ms per run | p50 ms | p99 ms per run | p99 ms | target | cache hits per run |\n\
         |---|---|---|---:|---|---:|---|---|\n",
        lan = available::LAN,
        members = thousands(peers.members as f64),
        peered = available::PEERED,
        sessions = peers.sessions,
        available = peers.available,
        kb = peers.answer_bytes as f64 / 1000.0,
        warm = available::WARM_UPS,
        requests = available::REQUESTS,
        on = available::CACHE_ON_MIB,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::peeringdb::Totals;

    #[test]
    fn medians() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(Vec::new()), 0.0);
    }

    #[test]
    fn rows_say_whether_targets_are_met() {
        let run = |seconds, peak_rss_mib| SyncRun {
            seconds,
            peak_rss_mib,
            totals: Totals {
                created: 1,
                updated: 0,
                deleted: 0,
            },
        };
        let runs = [run(12.0, 150.0), run(25.0, 210.0), run(11.0, 120.0)];
        let scenario = Scenario {
            name: "peeringdb_full_sync",
            runs: &runs,
            target_s: 20.0,
        };
        assert_eq!(
            scenario.markdown_row(),
            "| peeringdb_full_sync | 12.00, 25.00, 11.00 | 12.00 | < 20 s: met | 150.0, 210.0, 120.0 | 210.0 | < 200 MiB: missed |\n"
        );
    }

    #[test]
    fn request_rows_judge_p50_and_p99() {
        let latencies = |p50_ms, p99_ms, cache_hits| Latencies {
            p50_ms,
            p99_ms,
            cache_hits,
        };
        let runs = [
            latencies(20.0, 40.0, Some(0)),
            latencies(22.0, 61.0, None),
            latencies(21.0, 55.0, Some(0)),
        ];
        let requests = Requests {
            name: "peeringdb_available_peers_1000",
            cache_mib: "0",
            runs: runs.iter().collect(),
        };
        assert_eq!(
            requests.markdown_row(),
            "| peeringdb_available_peers_1000 | off | 20.0, 22.0, 21.0 | 21.0 | 40.0, 61.0, 55.0 | 55.0 | < 50 ms: met (p50), missed (p99) | 0, ?, 0 |\n"
        );
        assert_eq!(requests.json()["p99_ms"], json!(55.0));
        assert_eq!(requests.json()["response_cache_mib"], json!(0));
    }
}
