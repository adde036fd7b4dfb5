//! Data sources (the reference's 1.10 `core.DataSource`): a synchronisation job reads a
//! directory (`files.rs`) or a Git repository (`git.rs`) within its bounds, then replaces
//! the source's data files and rewrites the templates that follow one of them, all at
//! once (`store.data_sources()`); a synchronisation that fails writes none of it and
//! leaves the source `failed`, with the job saying why.

mod files;
mod git;
mod linked;

use std::time::Instant;

use peering_domain::resources::{CONFIGURATION, DATA_SOURCE, EMAIL, EXPORT_TEMPLATE};
use peering_domain::{Record, ResourceSpec, Value};
use peering_jobs::Outcome;
use peering_store::{ChangeContext, Followers, FoundFile, Store, Synchronised};

pub use files::{fnmatch, Limits};
pub use linked::check_data_file;

/// The job synchronising the data source it names.
pub const SYNCHRONISE_DATA_SOURCE: &str = "core.datasource.synchronisation";

/// The templates that may take their text from a data file.
pub const FOLLOWING: [&ResourceSpec; 3] = [&CONFIGURATION, &EMAIL, &EXPORT_TEMPLATE];

/// Why a synchronisation failed.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error("No data source with ID {0} exists.")]
    Missing(i64),
    #[error("Data source is disabled, synchronisation aborted.")]
    Disabled,
    #[error("{0}")]
    Fetch(String),
    #[error("Too large: {0}.")]
    TooLarge(String),
    #[error("Fetching took longer than the {} s allowed.", .0.as_secs())]
    TimedOut(std::time::Duration),
    #[error("{0}")]
    Template(String),
    #[error("{0}")]
    Store(#[from] peering_store::Error),
}

/// Synchronises data source `id`: `completed` with what changed, or `errored` with why
/// (the source then `failed`, its files and templates as they were).
pub fn synchronise(store: &Store, limits: &Limits, id: i64, ctx: &ChangeContext) -> Outcome {
    let result = run(store, limits, id, ctx);
    match result {
        Ok(done) => Outcome::completed(report(&done)),
        Err(error) => {
            if !matches!(error, SyncError::Missing(_)) {
                if let Err(e) = store.data_sources().set_status(id, "failed", ctx) {
                    log::warn!("data source {id}: cannot mark it failed: {e}");
                }
            }
            Outcome::errored(format!("Failed to synchronise data source: {error}"))
        }
    }
}

fn report(done: &Synchronised) -> String {
    format!(
        "Successfully synchronised data source: {} files created, {} updated, {} deleted; {} templates updated.",
        done.created, done.updated, done.deleted, done.templates
    )
}

fn run(
    store: &Store,
    limits: &Limits,
    id: i64,
    ctx: &ChangeContext,
) -> Result<Synchronised, SyncError> {
    let (source, _) = store.get(&DATA_SOURCE, id)?.ok_or(SyncError::Missing(id))?;
    if source.get(&DATA_SOURCE, "enabled").as_bool() != Some(true) {
        return Err(SyncError::Disabled);
    }
    store.data_sources().set_status(id, "synchronising", ctx)?;
    let found = fetch(&source, limits)?;
    let followers = followers(store, id, &found)?;
    Ok(store
        .data_sources()
        .synchronised(id, &found, &followers, ctx)?)
}

/// The files the source holds now.
fn fetch(source: &Record, limits: &Limits) -> Result<Vec<FoundFile>, SyncError> {
    let deadline = Instant::now() + limits.timeout;
    let url = source.text(&DATA_SOURCE, "source_url");
    let mut found = files::Found::new(limits, source.text(&DATA_SOURCE, "ignore_rules"), deadline);
    match source.text(&DATA_SOURCE, "type") {
        "local" => files::read_directory(std::path::Path::new(files::local_path(url)), &mut found)?,
        "git" => {
            let parameters = match source.get(&DATA_SOURCE, "parameters") {
                Value::Json(parameters) => git::GitParameters::of(parameters),
                _ => git::GitParameters::default(),
            };
            git::read_repository(url, parameters, &mut found, deadline)?
        }
        other => return Err(SyncError::Fetch(format!("Unknown backend type: {other}"))),
    }
    Ok(found.files)
}

/// The templates following a file of source `id` that take its new text: each must parse,
/// or nothing is written.
fn followers(store: &Store, id: i64, found: &[FoundFile]) -> Result<Followers, SyncError> {
    let mut out = Followers::new();
    for spec in FOLLOWING {
        let mut ids = Vec::new();
        for record in store.everything(spec)? {
            let follows = record.get(spec, "data_source").as_int() == Some(id)
                && record.get(spec, "auto_synchronisation_enabled").as_bool() == Some(true)
                && record.get(spec, "data_file").as_int().is_some();
            if !follows {
                continue;
            }
            let path = record.text(spec, "data_path");
            if let Some(text) = found
                .iter()
                .find(|f| f.path == path)
                .and_then(|f| f.text.as_deref())
            {
                if let Err(e) = peering_render::check(text) {
                    let at = e.line.map(|l| format!(" at line {l}")).unwrap_or_default();
                    return Err(SyncError::Template(format!(
                        "{path}: invalid template{at} ({} {}): {}",
                        spec.verbose_name,
                        record.display(spec),
                        e.message
                    )));
                }
            }
            ids.push(record.id);
        }
        if !ids.is_empty() {
            out.push((spec, ids));
        }
    }
    Ok(out)
}
