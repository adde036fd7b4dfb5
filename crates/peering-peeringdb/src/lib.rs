//! PeeringDB for peeringd: the local copy's synchronisation. A synchronisation downloads
//! what changed since the last one from PeeringDB's API (`fetch.rs`), or takes a directory
//! of answers in PeeringDB's format, then applies every object type in one transaction
//! (`apply.rs`), reading each answer one object at a time (`stream.rs`).
#![doc = include_str!("../README.md")]

mod apply;
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

/// Synchronises the local copy from `source`: everything lands, or nothing does.
pub fn synchronise(
    store: &Store,
    source: &Source,
    progress: &dyn Fn(Event<'_>),
) -> Result<Report, SyncError> {
    let clock = Instant::now();
    let started = peering_domain::value::now();
    let (since, applied, missing) = match source {
        Source::Directory(dir) => {
            let (applied, missing) = apply::directory(store, dir, started, progress)?;
            (0, applied, missing)
        }
        Source::Api(settings) => {
            let since = store
                .last_peeringdb_synchronisation()?
                .map_or(0, |t| t.timestamp());
            let downloads = tempfile::Builder::new()
                .prefix("peeringd-peeringdb-")
                .tempdir()?;
            let fetcher = fetch::Fetcher::new(settings)?;
            for (namespace, _) in PEERINGDB_NAMESPACES {
                progress(Event::Downloading { namespace });
                let file = downloads.path().join(format!("{namespace}.json"));
                let bytes = fetcher.download(namespace, since, &file)?;
                progress(Event::Downloaded { namespace, bytes });
            }
            let (applied, _) = apply::directory(store, downloads.path(), started, progress)?;
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
