//! `peeringd peeringdb sync`: synchronises the local PeeringDB copy from PeeringDB's API
//! (or a directory of its answers), showing progress on a terminal and a report at the end.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use peering_peeringdb::follow::Followed;
use peering_peeringdb::{Event, Report, Source};
use peering_store::ChangeContext;

use crate::config::Settings;

/// Refused objects listed one by one; the rest are counted.
const LISTED: usize = 20;

pub fn sync(settings: &Settings, from_dir: Option<PathBuf>) -> Result<(), String> {
    let store = crate::open_store(settings, 2)?;
    let source = match from_dir {
        Some(dir) if !dir.is_dir() => return Err(format!("{} is not a directory", dir.display())),
        Some(dir) => Source::Directory(dir),
        None => Source::Api(settings.peeringdb.clone()),
    };
    let display = Display::new();
    let limits = settings.peeringdb_limits;
    let report =
        peering_peeringdb::synchronise_within(&store, &source, limits, &|e| display.show(e))
            .map_err(|e| format!("synchronisation failed, nothing was changed: {e}"))?;
    display.finish();
    print!("{}", summary(&report));
    // As the reference's synchronisation: links and autonomous systems follow the copy.
    let ctx = ChangeContext {
        request_id: uuid::Uuid::new_v4().to_string(),
        user_id: None,
        user_name: "peeringdb-sync".into(),
        authority: peering_domain::grants::Authority::operator(),
    };
    let followed = peering_peeringdb::follow::after_synchronisation(&store, &ctx).map_err(|e| {
        format!("the copy is synchronised, but updating the peering data from it failed: {e}")
    })?;
    print!("{}", followed_summary(&followed));
    Ok(())
}

/// What the peering data took from the copy.
fn followed_summary(followed: &Followed) -> String {
    let mut out = format!(
        "Peering data updated from PeeringDB: {} connections linked, {} exchanges updated, {} autonomous systems updated\n",
        followed.connections_linked, followed.exchanges_updated, followed.autonomous_systems_updated
    );
    for problem in followed.problems.iter().take(LISTED) {
        out.push_str(&format!("    left as it was: {problem}\n"));
    }
    out
}

/// A line per object type: a spinner while it downloads, a count and a rate while it is
/// applied. Hidden when standard error is not a terminal.
struct Display {
    bars: MultiProgress,
    lines: std::sync::Mutex<HashMap<String, ProgressBar>>,
}

impl Display {
    fn new() -> Display {
        Display {
            bars: MultiProgress::new(),
            lines: Default::default(),
        }
    }

    fn line(&self, namespace: &str) -> ProgressBar {
        let mut lines = self.lines.lock().expect("progress lines");
        lines
            .entry(namespace.to_string())
            .or_insert_with(|| {
                let bar = self.bars.add(ProgressBar::new_spinner());
                bar.set_style(
                    ProgressStyle::with_template("{spinner} {prefix:>9} {msg} ({elapsed})")
                        .expect("a valid template"),
                );
                bar.set_prefix(namespace.to_string());
                bar.enable_steady_tick(Duration::from_millis(120));
                bar
            })
            .clone()
    }

    fn show(&self, event: Event<'_>) {
        match event {
            Event::Downloading { namespace } => self.line(namespace).set_message("downloading"),
            Event::Downloaded { namespace, bytes } => self
                .line(namespace)
                .set_message(format!("downloaded {}", indicatif::HumanBytes(bytes))),
            Event::Applying { namespace } => {
                let line = self.line(namespace);
                line.set_style(
                    ProgressStyle::with_template(
                        "{spinner} {prefix:>9} {human_pos} objects, {per_sec} {msg}",
                    )
                    .expect("a valid template"),
                );
                line.set_position(0);
                line.reset_elapsed();
            }
            Event::Progress { namespace, objects } => self.line(namespace).set_position(objects),
            Event::Applied { namespace, objects } => {
                let line = self.line(namespace);
                line.set_position(objects);
                line.finish_with_message("done");
            }
        }
    }

    fn finish(&self) {
        for line in self.lines.lock().expect("progress lines").values() {
            line.finish();
        }
    }
}

/// The final report: totals, then a line per object type, then what was refused.
fn summary(report: &Report) -> String {
    let total = report.total();
    let since = match report.since {
        0 => "everything".to_string(),
        t => format!(
            "changes since {}",
            chrono::DateTime::from_timestamp(t, 0).map_or(t.to_string(), |d| d.to_rfc3339())
        ),
    };
    let mut out = format!(
        "PeeringDB synchronised ({since}) in {:.1} s: {} created, {} updated, {} deleted\n",
        report.elapsed.as_secs_f64(),
        total.created,
        total.updated,
        total.deleted
    );
    for (namespace, c) in &report.counts {
        out.push_str(&format!(
            "  {namespace:<9} {:>8} created {:>8} updated {:>8} deleted\n",
            c.created, c.updated, c.deleted
        ));
    }
    if !report.missing.is_empty() {
        out.push_str(&format!(
            "  no file for: {} (left as they were)\n",
            report.missing.join(", ")
        ));
    }
    if !report.refused.is_empty() {
        out.push_str(&format!("  {} objects refused:\n", report.refused.len()));
        for (namespace, refused) in report.refused.iter().take(LISTED) {
            out.push_str(&format!("    {namespace} {refused}\n"));
        }
        if report.refused.len() > LISTED {
            out.push_str(&format!(
                "    … and {} more\n",
                report.refused.len() - LISTED
            ));
        }
    }
    out
}
