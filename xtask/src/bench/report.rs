//! Writes a backend's benchmark results as `bench-<backend>.json` and `bench-<backend>.md`.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::json;

use super::load::LoadStats;

pub struct ScenarioResult {
    pub name: &'static str,
    pub path: String,
    pub requests: u64,
    pub requests_per_s: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub errors: u64,
    pub non2xx: u64,
    pub peak_rss_mib: f64,
}

pub struct Report<'a> {
    pub backend: &'a str,
    pub command: String,
    pub nproc: usize,
    pub count: usize,
    pub duration_s: u64,
    pub connections: u32,
    pub load: &'a LoadStats,
    pub load_peak_rss_mib: f64,
    pub peak_rss_mib: f64,
    pub scenarios: Vec<ScenarioResult>,
}

/// Rounds for display and JSON: more digits would be noise.
fn r(value: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (value * scale).round() / scale
}

impl Report<'_> {
    pub fn json(&self) -> serde_json::Value {
        let scenarios: Vec<_> = self
            .scenarios
            .iter()
            .map(|s| {
                json!({
                    "scenario": s.name,
                    "path": s.path,
                    "requests": s.requests,
                    "requests_per_s": r(s.requests_per_s, 1),
                    "p50_ms": r(s.p50_ms, 3),
                    "p99_ms": r(s.p99_ms, 3),
                    "errors": s.errors,
                    "non2xx": s.non2xx,
                    "peak_rss_mib": r(s.peak_rss_mib, 1),
                })
            })
            .collect();
        json!({
            "backend": self.backend,
            "command": self.command,
            "nproc": self.nproc,
            "autonomous_systems": self.count,
            "duration_s": self.duration_s,
            "connections": self.connections,
            "load": {
                "objects": self.load.objects,
                "seconds": r(self.load.seconds, 3),
                "objects_per_s": r(self.load.objects_per_s(), 1),
                "peak_rss_mib": r(self.load_peak_rss_mib, 1),
            },
            "peak_rss_mib": r(self.peak_rss_mib, 1),
            "scenarios": scenarios,
        })
    }

    pub fn markdown(&self) -> String {
        let mut md = String::new();
        let _ = writeln!(md, "# peeringd benchmark: {}\n", self.backend);
        let _ = writeln!(md, "- Command: `{}`", self.command);
        let _ = writeln!(md, "- Machine: nproc = {}", self.nproc);
        let _ = writeln!(
            md,
            "- Load: {} objects ({} autonomous systems, bulk POSTs of 1000) in {:.2} s = {:.0} objects/s (peak RSS {:.1} MiB)",
            self.load.objects,
            self.count,
            self.load.seconds,
            self.load.objects_per_s(),
            self.load_peak_rss_mib
        );
        let _ = writeln!(
            md,
            "- wrk: {} connections, {} s per scenario; peak server RSS overall {:.1} MiB\n",
            self.connections, self.duration_s, self.peak_rss_mib
        );
        md.push_str("| scenario | requests/s | p50 ms | p99 ms | errors | peak RSS MiB |\n");
        md.push_str("|---|---:|---:|---:|---:|---:|\n");
        for s in &self.scenarios {
            let _ = writeln!(
                md,
                "| {} | {:.1} | {:.2} | {:.2} | {} | {:.1} |",
                s.name, s.requests_per_s, s.p50_ms, s.p99_ms, s.errors, s.peak_rss_mib
            );
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
            let path = out.join(format!("bench-{}.{ext}", self.backend));
            std::fs::write(&path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            eprintln!("wrote {}", path.display());
        }
        Ok(markdown)
    }
}
