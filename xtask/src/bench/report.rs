//! Writes a backend's benchmark results as `bench-<backend>.json` and `bench-<backend>.md`.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{json, Value};

use super::load::LoadPhase;
use super::scale::Scale;
use super::server::Startup;

pub struct ScenarioResult {
    pub name: &'static str,
    /// Method and path, e.g. `GET /api/…`; for the write scenarios, what one request sends.
    pub request: String,
    pub connections: u32,
    pub outcome: Outcome,
}

pub enum Outcome {
    Measured(Measurement),
    Skipped(String),
}

pub struct Measurement {
    pub requests: u64,
    pub requests_per_s: f64,
    /// Objects written per second, for the write scenarios.
    pub objects_per_s: Option<f64>,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub errors: u64,
    pub non2xx: u64,
    /// Only for our server, whose process the harness watches.
    pub peak_rss_mib: Option<f64>,
}

impl ScenarioResult {
    pub fn measured(&self) -> Option<&Measurement> {
        match &self.outcome {
            Outcome::Measured(m) => Some(m),
            Outcome::Skipped(_) => None,
        }
    }
}

/// What the server holds after loading.
pub struct Counts {
    pub autonomous_systems: u64,
    pub exchanges: u64,
    pub connections: u64,
    pub sessions: u64,
}

pub struct Against {
    pub url: String,
    pub scenarios: Vec<ScenarioResult>,
}

pub struct Report<'a> {
    pub backend: &'a str,
    pub command: String,
    pub nproc: usize,
    pub scale: Scale,
    pub counts: Counts,
    pub duration_s: u64,
    pub connections: u32,
    pub load: &'a [LoadPhase],
    pub load_peak_rss_mib: f64,
    /// What was done to the database between the load and the measurements, if anything.
    pub after_load: Option<String>,
    pub startup: &'a Startup,
    pub peak_rss_mib: f64,
    /// The realistic traffic, which the report leads with.
    pub realistic: Vec<super::realistic::Row>,
    /// The same scenarios' answers served from files by nginx (`floor.rs`).
    pub floors: Vec<super::floor::Floor>,
    /// PostgreSQL's own limit on the statements of the detail scenarios.
    pub baselines: Vec<super::pgbench::Baseline>,
    pub write_rate: u32,
    /// One URL repeated per scenario, then bulk writes and templates.
    pub scenarios: Vec<ScenarioResult>,
    pub against: Option<Against>,
    /// The writes without and with webhooks, under `--webhooks N`.
    pub webhooks: Option<super::webhooks::Comparison>,
}

/// Rounds for display and JSON: more digits would be noise.
pub fn r(value: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (value * scale).round() / scale
}

fn ms(duration: std::time::Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// Ours divided by theirs, when both were measured and theirs is not zero.
fn ratio(ours: &ScenarioResult, theirs: &ScenarioResult) -> Option<f64> {
    let (ours, theirs) = (ours.measured()?, theirs.measured()?);
    (theirs.requests_per_s > 0.0).then(|| ours.requests_per_s / theirs.requests_per_s)
}

pub(super) fn scenario_json(s: &ScenarioResult) -> Value {
    let mut v = json!({"scenario": s.name, "request": s.request, "connections": s.connections});
    match &s.outcome {
        Outcome::Skipped(why) => v["skipped"] = json!(why),
        Outcome::Measured(m) => {
            v["requests"] = json!(m.requests);
            v["requests_per_s"] = json!(r(m.requests_per_s, 1));
            if let Some(objects) = m.objects_per_s {
                v["objects_per_s"] = json!(r(objects, 1));
            }
            v["p50_ms"] = json!(r(m.p50_ms, 3));
            v["p99_ms"] = json!(r(m.p99_ms, 3));
            v["errors"] = json!(m.errors);
            v["non2xx"] = json!(m.non2xx);
            if let Some(rss) = m.peak_rss_mib {
                v["peak_rss_mib"] = json!(r(rss, 1));
            }
        }
    }
    v
}

/// `1234567.8` as `1,234,568`.
pub fn thousands(value: f64) -> String {
    let digits = format!("{:.0}", value.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl Report<'_> {
    fn load_totals(&self) -> (u64, f64) {
        let objects = self.load.iter().map(|p| p.objects).sum();
        let seconds = self.load.iter().map(|p| p.seconds).sum();
        (objects, seconds)
    }

    pub fn json(&self) -> Value {
        let (objects, seconds) = self.load_totals();
        let phases: Vec<_> = self
            .load
            .iter()
            .map(|p| {
                json!({"data": p.name, "objects": p.objects, "seconds": r(p.seconds, 3),
                       "objects_per_s": r(p.objects_per_s(), 1)})
            })
            .collect();
        let mut report = json!({
            "backend": self.backend,
            "command": self.command,
            "nproc": self.nproc,
            "scale": self.scale.name(),
            "counts": {
                "autonomous_systems": self.counts.autonomous_systems,
                "internet_exchanges": self.counts.exchanges,
                "connections": self.counts.connections,
                "sessions": self.counts.sessions,
            },
            "duration_s": self.duration_s,
            "connections": self.connections,
            "load": {
                "phases": phases,
                "objects": objects,
                "seconds": r(seconds, 3),
                "objects_per_s": r(objects as f64 / seconds, 1),
                "peak_rss_mib": r(self.load_peak_rss_mib, 1),
            },
            "after_load": self.after_load,
            "startup": {
                "first_status_ms": r(ms(self.startup.first_status), 1),
                "first_list_ms": r(ms(self.startup.first_list), 1),
            },
            "peak_rss_mib": r(self.peak_rss_mib, 1),
            "write_rate": self.write_rate,
            "realistic": super::realistic::json(&self.realistic),
            "floor": super::floor::json(&self.realistic, &self.floors),
            "postgres_baselines": super::realistic::baselines_json(&self.realistic, &self.baselines),
            "scenarios": self.scenarios.iter().map(scenario_json).collect::<Vec<_>>(),
        });
        if let Some(against) = &self.against {
            let scenarios: Vec<_> = against
                .scenarios
                .iter()
                .map(|theirs| {
                    let mut v = scenario_json(theirs);
                    let ours = self.scenarios.iter().find(|s| s.name == theirs.name);
                    if let Some(ratio) = ours.and_then(|ours| ratio(ours, theirs)) {
                        v["ours_per_theirs"] = json!(r(ratio, 3));
                    }
                    v
                })
                .collect();
            report["against"] = json!({"url": against.url, "scenarios": scenarios});
        }
        if let Some(webhooks) = &self.webhooks {
            report["writes_with_webhooks"] = super::webhooks::json(webhooks);
        }
        report
    }

    pub fn markdown(&self) -> String {
        let mut md = String::new();
        let c = &self.counts;
        let _ = writeln!(
            md,
            "# peeringd benchmark: {}, scale {}\n",
            self.backend,
            self.scale.name()
        );
        let _ = writeln!(md, "- Command: `{}`", self.command);
        let _ = writeln!(md, "- Machine: nproc = {}", self.nproc);
        let _ = writeln!(
            md,
            "- Data: {} autonomous systems (the local one included), {} internet exchanges with a connection each, {} sessions at exchanges; server run with `--max-page-size 0`",
            thousands(c.autonomous_systems as f64),
            thousands(c.exchanges as f64),
            thousands(c.sessions as f64),
        );
        if let Some(after_load) = &self.after_load {
            let _ = writeln!(md, "- After the load: {after_load}");
        }
        let _ = writeln!(
            md,
            "- Startup on the loaded database: first answer (`/api/status/`) {:.1} ms after the process started, first list page at {:.1} ms",
            ms(self.startup.first_status),
            ms(self.startup.first_list)
        );
        let _ = writeln!(
            md,
            "- wrk: {} connections (unless the table says otherwise), {} s per read scenario; peak server RSS overall {:.1} MiB\n",
            self.connections, self.duration_s, self.peak_rss_mib
        );

        let (objects, seconds) = self.load_totals();
        let _ = writeln!(
            md,
            "Load through the API, bulk POSTs of 1,000 (peak RSS {:.1} MiB):\n",
            self.load_peak_rss_mib
        );
        md.push_str("| data | objects | seconds | objects/s |\n|---|---:|---:|---:|\n");
        for p in self.load {
            let _ = writeln!(
                md,
                "| {} | {} | {:.2} | {} |",
                p.name,
                thousands(p.objects as f64),
                p.seconds,
                thousands(p.objects_per_s())
            );
        }
        let _ = writeln!(
            md,
            "| total | {} | {seconds:.2} | {} |\n",
            thousands(objects as f64),
            thousands(objects as f64 / seconds)
        );

        md.push_str(&super::realistic::markdown(
            &self.realistic,
            &self.floors,
            self.write_rate,
        ));
        md.push_str(&super::floor::markdown(&self.realistic, &self.floors));
        md.push_str(&super::realistic::baselines_markdown(
            &self.realistic,
            &self.baselines,
        ));
        if !self.scenarios.is_empty() {
            self.scenarios_markdown(&mut md);
        }
        if let Some(webhooks) = &self.webhooks {
            md.push('\n');
            md.push_str(&super::webhooks::markdown(webhooks));
        }
        md
    }

    fn scenarios_markdown(&self, md: &mut String) {
        md.push_str("## One URL repeated, bulk writes, templates\n\n");
        md.push_str("| scenario | conns | req/s | objects/s | p50 ms | p99 ms | errors | non-2xx | peak RSS MiB |\n");
        md.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for s in &self.scenarios {
            md.push_str(&table_row(s));
        }
        md.push_str("\nRequests:\n\n");
        for s in &self.scenarios {
            let _ = writeln!(md, "- {}: `{}`", s.name, s.request);
        }
        if let Some(against) = &self.against {
            self.against_markdown(md, against);
        }
    }

    fn against_markdown(&self, md: &mut String, against: &Against) {
        let _ = writeln!(md, "\n## Against {}\n", against.url);
        md.push_str("| scenario | ours req/s | theirs req/s | ours/theirs | theirs p50 ms | theirs p99 ms | theirs errors | theirs non-2xx |\n");
        md.push_str("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for theirs in &against.scenarios {
            let ours = self.scenarios.iter().find(|s| s.name == theirs.name);
            let ours_rate = ours
                .and_then(ScenarioResult::measured)
                .map_or("–".into(), |m| format!("{:.1}", m.requests_per_s));
            let ratio = ours
                .and_then(|ours| ratio(ours, theirs))
                .map_or("–".into(), |x| format!("{x:.2}"));
            let row = match &theirs.outcome {
                Outcome::Skipped(why) => format!("skipped: {why} | | | | |"),
                Outcome::Measured(m) => format!(
                    "{:.1} | {ratio} | {:.2} | {:.2} | {} | {}",
                    m.requests_per_s, m.p50_ms, m.p99_ms, m.errors, m.non2xx
                ),
            };
            let _ = writeln!(md, "| {} | {ours_rate} | {row} |", theirs.name);
        }
        md.push_str("\nTheir requests:\n\n");
        for s in &against.scenarios {
            let _ = writeln!(md, "- {}: `{}`", s.name, s.request);
        }
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

fn table_row(s: &ScenarioResult) -> String {
    match &s.outcome {
        Outcome::Skipped(why) => format!("| {} | | skipped: {why} | | | | | | |\n", s.name),
        Outcome::Measured(m) => format!(
            "| {} | {} | {:.1} | {} | {:.2} | {:.2} | {} | {} | {} |\n",
            s.name,
            s.connections,
            m.requests_per_s,
            m.objects_per_s.map_or("".into(), thousands),
            m.p50_ms,
            m.p99_ms,
            m.errors,
            m.non2xx,
            m.peak_rss_mib.map_or("".into(), |x| format!("{x:.1}")),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0.4), "0");
        assert_eq!(thousands(999.0), "999");
        assert_eq!(thousands(1000.0), "1,000");
        assert_eq!(thousands(1_234_567.8), "1,234,568");
    }

    fn measured(rate: f64) -> ScenarioResult {
        ScenarioResult {
            name: "as_list_50",
            request: "GET /api/peering/autonomous-systems/?limit=50".into(),
            connections: 32,
            outcome: Outcome::Measured(Measurement {
                requests: 100,
                requests_per_s: rate,
                objects_per_s: None,
                p50_ms: 1.0,
                p99_ms: 2.0,
                errors: 0,
                non2xx: 0,
                peak_rss_mib: None,
            }),
        }
    }

    #[test]
    fn ratios_need_both_measurements() {
        assert_eq!(ratio(&measured(300.0), &measured(100.0)), Some(3.0));
        assert_eq!(ratio(&measured(300.0), &measured(0.0)), None);
        let skipped = ScenarioResult {
            outcome: Outcome::Skipped("too big".into()),
            ..measured(1.0)
        };
        assert_eq!(ratio(&skipped, &measured(100.0)), None);
    }
}
