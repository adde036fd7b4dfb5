//! PeeringDB for peeringd: the local copy's synchronisation. A synchronisation downloads
//! what changed since the last one from PeeringDB's API (`fetch.rs`), or takes a directory
//! of answers in PeeringDB's format, then applies every object type in one transaction
//! (`apply.rs`), reading each answer one object at a time (`stream.rs`).
#![doc = include_str!("../README.md")]

mod apply;
pub mod downloads;
mod fetch;
pub mod follow;
pub mod import;
pub mod stream;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use peering_domain::peeringdb::Refused;
use peering_domain::resources::PEERINGDB_NAMESPACES;
use peering_domain::ResourceSpec;
use peering_store::{Counts, Store};

/// PeeringDB's public API.
pub const DEFAULT_URL: &str = "https://www.peeringdb.com/api";

/// How to reach PeeringDB.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// The API's base URL (`…/api`).
    pub url: String,
    /// Sent as `Authorization: Api-Key …`.
    pub api_key: Option<String>,
    /// A proxy for every request (`http://…`, `socks5://…`).
    pub proxy: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            url: DEFAULT_URL.into(),
            api_key: None,
            proxy: None,
        }
    }
}

/// How long a synchronisation from the API may wait and take, so that a PeeringDB that
/// stalls or crawls ends it with an error instead of holding it (and the write connection
/// it applies on) for ever.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// No byte from PeeringDB for this long ends the synchronisation (waiting for an answer
    /// to begin included).
    pub idle: Duration,
    /// The longest one object type's answer may take, from its request to its last byte.
    pub answer: Duration,
    /// The longest a whole synchronisation may take: downloads, pauses PeeringDB asked
    /// for, and applying.
    pub deadline: Duration,
}

impl Limits {
    /// The longest any of the bounds may be (a week): past it, a bound is a mistake.
    pub const LONGEST: Duration = Duration::from_secs(7 * 24 * 3600);

    /// Whether every bound is at least a second and at most [`Limits::LONGEST`].
    pub fn valid(&self) -> bool {
        [self.idle, self.answer, self.deadline]
            .iter()
            .all(|d| *d >= Duration::from_secs(1) && *d <= Self::LONGEST)
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            // PeeringDB takes tens of seconds to begin its largest answers.
            idle: Duration::from_secs(120),
            answer: Duration::from_secs(600),
            // A first synchronisation (about 70 MB) takes minutes; this leaves room for a
            // slow link without letting a crawling server hold on for hours.
            deadline: Duration::from_secs(1800),
        }
    }
}

/// Where a synchronisation takes PeeringDB's objects from.
#[derive(Debug, Clone)]
pub enum Source {
    /// The API: everything the first time, then what changed since the last
    /// synchronisation.
    Api(Settings),
    /// A directory of answers in the API's format (`net.json` = `{"data": [...]}`, …),
    /// for machines without internet. Object types without a file are left as they are.
    Directory(PathBuf),
}

/// What a synchronisation is doing, for a progress display.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    /// Downloading the answer for an object type (PeeringDB's name: `net`, `ix`, …).
    Downloading { namespace: &'a str },
    /// The answer came: its size.
    Downloaded { namespace: &'a str, bytes: u64 },
    /// Applying an object type's objects.
    Applying { namespace: &'a str },
    /// More of them applied: how many so far.
    Progress { namespace: &'a str, objects: u64 },
    /// All of them applied.
    Applied { namespace: &'a str, objects: u64 },
}

/// What a synchronisation did.
#[derive(Debug, Clone)]
pub struct Report {
    /// Per object type (PeeringDB's name), in the order they were applied.
    pub counts: Vec<(&'static str, Counts)>,
    /// Objects refused, with their type and why; the rest was applied.
    pub refused: Vec<(&'static str, Refused)>,
    /// Object types without a file in the directory.
    pub missing: Vec<&'static str>,
    /// Changes asked since this time (UNIX seconds; 0: everything).
    pub since: i64,
    pub elapsed: Duration,
}

impl Report {
    pub fn total(&self) -> Counts {
        let mut total = Counts::default();
        for (_, c) in &self.counts {
            total.created += c.created;
            total.updated += c.updated;
            total.deleted += c.deleted;
        }
        total
    }
}

/// Why a synchronisation failed. Nothing of it was applied.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error("PeeringDB settings: {0}")]
    Settings(String),
    #[error("PeeringDB could not be reached for {namespace}: {message}")]
    Http { namespace: String, message: String },
    #[error("PeeringDB answered {status} for {namespace}: {message}")]
    Refused {
        namespace: String,
        status: u16,
        message: String,
    },
    #[error(
        "PeeringDB sent nothing for {secs} s while answering for {namespace} (the idle timeout)"
    )]
    Idle { namespace: String, secs: u64 },
    #[error("PeeringDB's answer for {namespace} took more than {secs} s (the read timeout)")]
    SlowAnswer { namespace: String, secs: u64 },
    #[error("the synchronisation took more than its deadline of {secs} s ({during})")]
    Deadline { secs: u64, during: String },
    #[error("{0}")]
    Malformed(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Store(peering_store::Error),
}

impl From<peering_store::Error> for SyncError {
    fn from(e: peering_store::Error) -> Self {
        match e {
            peering_store::Error::Aborted(m) => SyncError::Malformed(m),
            other => SyncError::Store(other),
        }
    }
}

/// The object type of the copy PeeringDB calls `namespace`.
pub fn resource(namespace: &str) -> Option<&'static ResourceSpec> {
    PEERINGDB_NAMESPACES
        .iter()
        .find(|(n, _)| *n == namespace)
        .map(|(_, s)| *s)
}

/// Synchronises the local copy from `source`, within the default [`Limits`]: everything
/// lands, or nothing does.
pub fn synchronise(
    store: &Store,
    source: &Source,
    progress: &dyn Fn(Event<'_>),
) -> Result<Report, SyncError> {
    synchronise_within(store, source, Limits::default(), progress)
}

/// Synchronises the local copy from `source`: everything lands, or nothing does. From the
/// API, the synchronisation ends with an error once it passes one of `limits`; the
/// answers go to a download folder of its own, removed however it ends, and folders that
/// killed synchronisations left behind are removed first (`downloads.rs`).
pub fn synchronise_within(
    store: &Store,
    source: &Source,
    limits: Limits,
    progress: &dyn Fn(Event<'_>),
) -> Result<Report, SyncError> {
    let clock = Instant::now();
    let started = peering_domain::value::now();
    let (since, applied, missing) = match source {
        Source::Directory(dir) => {
            let (applied, missing) = apply::directory(store, dir, started, None, progress)?;
            (0, applied, missing)
        }
        Source::Api(settings) => {
            let (since, applied) = from_api(store, settings, limits, (clock, started), progress)?;
            (since, applied, Vec::new())
        }
    };
    let name_of = |spec: &ResourceSpec| {
        PEERINGDB_NAMESPACES
            .iter()
            .find(|(_, s)| s.table == spec.table)
            .map_or("", |(n, _)| n)
    };
    Ok(Report {
        counts: applied
            .counts
            .iter()
            .map(|(spec, c)| (name_of(spec), *c))
            .collect(),
        refused: applied
            .refused
            .into_iter()
            .map(|(spec, r)| (name_of(spec), r))
            .collect(),
        missing,
        since,
        elapsed: clock.elapsed(),
    })
}

/// Downloads every object type's changes since the last synchronisation into a folder of
/// its own, then applies them, within `limits` from `clock`: the time of the last one and
/// what was applied.
fn from_api(
    store: &Store,
    settings: &Settings,
    limits: Limits,
    (clock, started): (Instant, chrono::DateTime<chrono::Utc>),
    progress: &dyn Fn(Event<'_>),
) -> Result<(i64, peering_store::Applied), SyncError> {
    if !limits.valid() {
        return Err(SyncError::Settings(format!(
            "the timeouts and the deadline must be between 1 s and {} s: {limits:?}",
            Limits::LONGEST.as_secs()
        )));
    }
    let deadline = clock + limits.deadline;
    let since = store
        .peeringdb()
        .last_synchronisation()?
        .map_or(0, |t| t.timestamp());
    let temporary = std::env::temp_dir();
    for folder in downloads::remove_abandoned(&temporary) {
        log::info!(
            "removed {}, left by an interrupted synchronisation",
            folder.display()
        );
    }
    let downloads = downloads::DownloadFolder::create_in(&temporary)?;
    let fetcher = fetch::Fetcher::new(settings, limits, deadline)?;
    for (namespace, _) in PEERINGDB_NAMESPACES {
        progress(Event::Downloading { namespace });
        let file = downloads.path().join(format!("{namespace}.json"));
        let bytes = fetcher.download(namespace, since, &file)?;
        progress(Event::Downloaded { namespace, bytes });
    }
    let within = Some((deadline, limits.deadline));
    let (applied, _) = apply::directory(store, downloads.path(), started, within, progress)?;
    Ok((since, applied))
}
