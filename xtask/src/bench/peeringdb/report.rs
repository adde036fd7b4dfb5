//! Writes a backend's PeeringDB synchronisation results as `bench-peeringdb-<backend>.json`
//! and `.md`, beside (not over) the API benchmark's files: medians of the runs, each run
//! listed, against the targets.

use std::fmt::Write as _;
use std::path::Path;

use peeringdb_fake::{Sizes, NAMESPACES};
use serde_json::{json, Value};

use super::{Runs, SyncRun};
use crate::bench::report::{r, thousands};

/// The targets: full synchronisation per backend, incremental, peak memory of either.
const FULL_TARGET_S: [(&str, f64); 2] = [("sqlite", 20.0), ("postgres", 40.0)];
const INCREMENTAL_TARGET_S: f64 = 2.0;
const PEAK_RSS_TARGET_MIB: f64 = 200.0;

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
}
