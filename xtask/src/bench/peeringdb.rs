//! The PeeringDB synchronisation scenarios of `cargo xtask bench`: the release
//! binary's `peeringd peeringdb sync`, run as an operator runs it, against the fake
//! PeeringDB (`crates/peeringdb-fake`) at the real database's size on 127.0.0.1. A full
//! synchronisation into a fresh database, then an incremental one of 1,000 changes made to
//! the fake after it. Each run starts over with a new fake and a new database, so that
//! runs are alike; each synchronisation is timed from spawn to exit, with the child's peak
//! resident memory. Then the available peers of an exchange with 1,000 members, timed
//! through the API on a database of their own (`peeringdb/available.rs`).

mod available;
mod changes;
mod replay;
mod report;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use peeringdb_fake::{Dataset, FakePeeringDb, Sizes, NAMESPACES};

use super::database::Database;
use super::rss::PeakWatch;
use super::Backend;
use replay::Replay;

/// What a synchronisation reports having done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Totals {
    pub created: u64,
    pub updated: u64,
    pub deleted: u64,
}

/// One timed `peeringd peeringdb sync`.
pub struct SyncRun {
    pub seconds: f64,
    pub peak_rss_mib: f64,
    pub totals: Totals,
}

/// The runs of the scenarios on one backend.
#[derive(Default)]
pub struct Runs {
    pub full: Vec<SyncRun>,
    pub incremental: Vec<SyncRun>,
    pub available_peers: Vec<available::PeersRun>,
    /// The fake's recorded full answers, in bytes (the same every run).
    pub answer_bytes: u64,
}

/// Runs the scenarios `runs` times on one backend and writes
/// `bench-peeringdb-<backend>.json` and `.md` into `out`.
pub fn run_backend(binary: &Path, backend: Backend, runs: u32, out: &Path) -> Result<(), String> {
    let name = backend.name();
    let mut measured = Runs::default();
    for run in 1..=runs {
        eprintln!("== {name}: PeeringDB synchronisation, run {run} of {runs}");
        one_run(binary, backend, &mut measured)?;
    }
    let report = report::Report {
        backend: name,
        command: super::command_line(std::env::args().skip(1)),
        nproc: std::thread::available_parallelism().map_or(1, |n| n.get()),
        sizes: Sizes::REAL,
        changes: changes::describe(),
        runs: &measured,
    };
    println!("{}", report.write(out)?);
    Ok(())
}

/// A full synchronisation into a fresh database, then an incremental one of the changes;
/// each must report exactly the work expected, else the figures would measure something
/// else. Then the available peers.
fn one_run(binary: &Path, backend: Backend, measured: &mut Runs) -> Result<(), String> {
    let fake = FakePeeringDb::start(Dataset::new(Sizes::REAL));
    let replay = Replay::start(&fake)?;
    measured.answer_bytes = replay.bytes;
    let database = Database::create(backend)?;
    // Not timed: a fresh install migrates once, whatever it then does.
    peeringd(binary, &["migrate"], database.url(), &replay.url)?;

    let full = sync(binary, database.url(), &replay.url)?;
    let everything = NAMESPACES.iter().map(|n| Sizes::REAL.of(n) as u64).sum();
    let created = Totals {
        created: everything,
        updated: 0,
        deleted: 0,
    };
    check("full", &full, created)?;
    measured.full.push(full);

    // After the synchronisation's start, which the next one asks for changes since.
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    fake.edit(|d| changes::apply(d, now + 1));
    let incremental = sync(binary, database.url(), &replay.url)?;
    check("incremental", &incremental, changes::expected())?;
    measured.incremental.push(incremental);
    drop(database);

    // A database of their own, synchronised (not timed) from the recorded full answers:
    // the data before the changes, where LAN 1 has its 1,000 members (the changes add 50),
    // and no exchange of ours to follow in the incremental synchronisation above.
    let database = Database::create(backend)?;
    peeringd(binary, &["migrate"], database.url(), &replay.url)?;
    let synchronised = sync(binary, database.url(), &replay.url)?;
    if synchronised.totals != created {
        return Err(format!(
            "the synchronisation for the available peers did {:?}, not the {created:?} expected",
            synchronised.totals
        ));
    }
    eprintln!(
        "   available peers: a fresh database synchronised (not timed) in {:.2} s",
        synchronised.seconds
    );
    let peers = available::measure(binary, &database, &replay.url)?;
    measured.available_peers.push(peers);
    Ok(())
}

/// Says how a synchronisation went; an error unless it did exactly `expected`.
fn check(what: &str, run: &SyncRun, expected: Totals) -> Result<(), String> {
    let t = run.totals;
    eprintln!(
        "   {what}: {:.2} s, peak RSS {:.1} MiB ({} created, {} updated, {} deleted)",
        run.seconds, run.peak_rss_mib, t.created, t.updated, t.deleted
    );
    if t == expected {
        Ok(())
    } else {
        Err(format!(
            "the {what} synchronisation did {t:?}, not the {expected:?} expected"
        ))
    }
}

/// Times `peeringd peeringdb sync` from spawn to exit, watching its peak memory.
fn sync(binary: &Path, database_url: &str, peeringdb_url: &str) -> Result<SyncRun, String> {
    let started = Instant::now();
    let child = command(binary, &["peeringdb", "sync"], database_url, peeringdb_url)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
    let watch = PeakWatch::start(child.id());
    let output = child
        .wait_with_output()
        .map_err(|e| format!("peeringd peeringdb sync: {e}"))?;
    let seconds = started.elapsed().as_secs_f64();
    let peak_rss_mib = watch.finish();
    let stdout = succeeded("peeringdb sync", &output)?;
    let totals = parse_totals(&stdout)
        .ok_or_else(|| format!("no summary in peeringd peeringdb sync's output:\n{stdout}"))?;
    Ok(SyncRun {
        seconds,
        peak_rss_mib,
        totals,
    })
}

/// Runs another peeringd command to its end.
fn peeringd(
    binary: &Path,
    args: &[&str],
    database_url: &str,
    peeringdb_url: &str,
) -> Result<(), String> {
    let output = command(binary, args, database_url, peeringdb_url)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    succeeded(&args.join(" "), &output).map(drop)
}

/// peeringd on the database and the fake, with nothing from the environment that would
/// send its requests elsewhere than 127.0.0.1 (a proxy) or change them (an API key).
fn command(binary: &Path, args: &[&str], database_url: &str, peeringdb_url: &str) -> Command {
    let mut command = Command::new(binary);
    command
        .args(args)
        .env("PEERING_DATABASE_URL", database_url)
        .env("PEERING_PEERINGDB_URL", peeringdb_url)
        .env_remove("PEERING_PEERINGDB_PROXY")
        .env_remove("PEERING_PEERINGDB_API_KEY")
        .stdin(Stdio::null());
    command
}

/// The standard output of a command that succeeded, else an error with all it said.
fn succeeded(what: &str, output: &Output) -> Result<String, String> {
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    if output.status.success() {
        Ok(stdout)
    } else {
        Err(format!(
            "peeringd {what} failed ({}):\n{stdout}{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// The counts of the summary line `PeeringDB synchronised (…) in 1.2 s: 3 created,
/// 4 updated, 5 deleted`.
fn parse_totals(stdout: &str) -> Option<Totals> {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("PeeringDB synchronised"))?;
    let (_, counts) = line.rsplit_once(": ")?;
    let mut parts = counts.split(", ").map(|p| p.trim().split_once(' '));
    let mut count = |word: &str| match parts.next()?? {
        (n, w) if w == word => n.parse().ok(),
        _ => None,
    };
    Some(Totals {
        created: count("created")?,
        updated: count("updated")?,
        deleted: count("deleted")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_line() {
        let stdout = "PeeringDB synchronised (changes since 2026-11-25T14:31:36+00:00) in 1.2 s: 200 created, 600 updated, 200 deleted\n  org 50 created\n";
        assert_eq!(
            parse_totals(stdout),
            Some(Totals {
                created: 200,
                updated: 600,
                deleted: 200
            })
        );
        assert_eq!(parse_totals("PeeringDB synchronised: 1 created\n"), None);
        assert_eq!(parse_totals("nothing\n"), None);
    }
}
