//! `peeringd import peering-manager --url URL --token KEY [--dry-run]`: another system's
//! data brought in through its API, with a line per resource read on a terminal and a
//! report at the end.

use std::time::Instant;

use peering_import::{Event, Outcome, Report, Source};

use crate::config::Settings;

/// Objects not taken listed one by one; the rest are counted.
const LISTED: usize = 50;

pub fn peering_manager(
    settings: &Settings,
    url: &str,
    token: &str,
    dry_run: bool,
) -> Result<(), String> {
    let store = crate::open_store(settings, 2)?;
    let source = Source::new(url, token).map_err(|e| e.to_string())?;
    let clock = Instant::now();
    let progress = |event: Event| match event {
        Event::Reading(spec) => eprintln!("reading {}", spec.path),
        Event::Writing(spec, n) => eprintln!("writing {n} {}", spec.path),
    };
    let rules = settings.write_rules();
    let report = peering_app::imports::import(&store, &source, dry_run, &progress, rules)
        .map_err(|e| format!("import failed, nothing was written: {e}"))?;
    print!("{}", summary(&report, clock.elapsed().as_secs_f64()));
    Ok(())
}

/// Totals, a line per resource, what was not taken.
fn summary(report: &Report, seconds: f64) -> String {
    let verb = if report.dry_run {
        "Dry run (nothing written)"
    } else {
        "Imported"
    };
    let mut out = format!("{verb} from release {} in {seconds:.1} s\n", report.version);
    for (spec, outcome) in &report.resources {
        let line = match outcome {
            Outcome::Taken { read, taken } => format!("{taken} of {read}"),
            Outcome::Absent => "not served by the source".into(),
            Outcome::Refused(why) => format!("not readable with this token: {why}"),
        };
        out.push_str(&format!("  {:<36} {line}\n", spec.path));
    }
    if !report.problems.is_empty() {
        out.push_str(&format!("  {} objects not taken:\n", report.problems.len()));
        for problem in report.problems.iter().take(LISTED) {
            out.push_str(&format!("    {problem}\n"));
        }
        if report.problems.len() > LISTED {
            out.push_str(&format!(
                "    … and {} more\n",
                report.problems.len() - LISTED
            ));
        }
    }
    out.push_str(
        "Users come without passwords (an API does not give them): set them with `peeringd user set-password --username U`.\n",
    );
    out
}
