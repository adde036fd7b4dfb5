//! Bringing a running Peering Manager's data (releases 1.8 to 1.10, or another peeringd's)
//! into a peeringd database that holds no peering data yet, through the source's REST API:
//! every resource a token can read, in dependency order, each object with its id, its
//! times and its tags, validated as any creation, all in one transaction (an interrupted
//! import leaves nothing, and runs again from the start). A dry run reads and validates
//! everything and writes nothing.
#![doc = include_str!("../README.md")]

mod bounded;
mod changes;
mod convert;
mod order;
mod source;

use peering_domain::input::Draft;
use peering_domain::resources::{GROUP, OBJECT_CHANGE, USER};
use peering_domain::ResourceSpec;
use peering_store::{ImportWriter, ImportedObject, Store};

pub use bounded::MAX_PAGE_BYTES;
pub use order::import_order;
pub use source::Source;

use source::{Read, Stop};

/// Why an import did not run, or stopped. Nothing of it was written.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("the source: {0}")]
    Source(String),
    #[error("the database already holds peering data: an import goes into an empty one")]
    NotEmpty,
    #[error("{0}")]
    Store(#[from] peering_store::Error),
}

/// What happened to one resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Objects read, and how many were taken.
    Taken { read: usize, taken: usize },
    /// The source does not serve it.
    Absent,
    /// The token may not read it.
    Refused(String),
}

/// What an import did.
#[derive(Debug, Clone)]
pub struct Report {
    /// The source's release.
    pub version: String,
    pub resources: Vec<(&'static ResourceSpec, Outcome)>,
    /// Objects not taken, and why (a reference to one not taken, a value refused).
    pub problems: Vec<String>,
    pub dry_run: bool,
}

/// A step of an import, for a progress display.
#[derive(Debug, Clone, Copy)]
pub enum Event {
    Reading(&'static ResourceSpec),
    Writing(&'static ResourceSpec, usize),
}

/// The write rules an imported object must pass before it is written (templates that
/// parse, passwords as hashes): the application layer's, which this crate does not know.
/// An object they refuse is left out and reported.
pub type Admit<'a> =
    &'a (dyn Fn(&'static ResourceSpec, &mut Draft) -> Result<(), peering_store::Error> + Sync);

/// Imports everything the token reads from `source` into `store`: each page read is
/// written before the next is asked for, so that memory holds one page whatever the size.
pub fn import(
    store: &Store,
    source: &Source,
    dry_run: bool,
    progress: &dyn Fn(Event),
    admit: Admit<'_>,
) -> Result<Report, ImportError> {
    let version = source.version()?;
    if !store.holds_no_peering_data()? {
        return Err(ImportError::NotEmpty);
    }
    // Change records keep their ids: brought over only into a database with none yet.
    let with_changes = store.count_of(&OBJECT_CHANGE)? == 0;
    let accounts = Accounts::read(store)?;
    let mut failed = None;
    let written = store.import(dry_run, |writer| {
        let mut resources = Vec::new();
        let mut problems = Vec::new();
        let changes = std::iter::once(&OBJECT_CHANGE).filter(|_| with_changes);
        for spec in import_order().into_iter().chain(changes) {
            progress(Event::Reading(spec));
            let mut context = Context {
                problems: &mut problems,
                accounts: &accounts,
                progress,
                admit,
            };
            match import_resource(writer, source, spec, &mut context) {
                Ok(outcome) => resources.push((spec, outcome)),
                Err(Stop::Taker(e)) => return Err(e),
                Err(Stop::Source(e)) => {
                    failed = Some(e);
                    return Err(peering_store::Error::Aborted("the source failed".into()));
                }
            }
        }
        Ok((resources, problems))
    });
    let (resources, problems) = match (written, failed) {
        (Err(_), Some(e)) => return Err(e),
        (result, _) => result?,
    };
    Ok(Report {
        version,
        resources,
        problems,
        dry_run,
    })
}

/// The users and groups the database has already (its first superuser, say): an
/// imported one with the same id or name is left out, as it is.
struct Accounts {
    taken: Vec<(&'static str, i64, String)>,
}

impl Accounts {
    fn read(store: &Store) -> Result<Accounts, ImportError> {
        let mut taken = Vec::new();
        for (spec, name) in [(&USER, "username"), (&GROUP, "name")] {
            for record in store.everything(spec)? {
                taken.push((spec.table, record.id, record.text(spec, name).to_string()));
            }
        }
        Ok(Accounts { taken })
    }

    /// Why an object of `spec` cannot come in, if it is an account already here.
    fn clash(&self, spec: &ResourceSpec, object: &serde_json::Value) -> Option<String> {
        let name = object["username"].as_str().or(object["name"].as_str())?;
        let id = object["id"].as_i64()?;
        self.taken
            .iter()
            .any(|(table, i, n)| *table == spec.table && (*i == id || n == name))
            .then(|| {
                format!(
                    "{} #{id} ({name}): one with this id or name is here already, kept as it is",
                    spec.verbose_name
                )
            })
    }
}

/// What importing a resource reports to.
struct Context<'a> {
    problems: &'a mut Vec<String>,
    accounts: &'a Accounts,
    progress: &'a dyn Fn(Event),
    admit: Admit<'a>,
}

/// Reads one resource page by page, writing each.
fn import_resource(
    writer: &mut ImportWriter<'_, '_>,
    source: &Source,
    spec: &'static ResourceSpec,
    context: &mut Context<'_>,
) -> Result<Outcome, Stop<peering_store::Error>> {
    let (mut read, mut taken) = (0, 0);
    let problems = &mut *context.problems;
    let (accounts, progress, admit) = (context.accounts, context.progress, context.admit);
    let ended = source.each_page(spec, |objects| {
        read += objects.len();
        progress(Event::Writing(spec, read));
        if spec.table == OBJECT_CHANGE.table {
            let mut records = Vec::with_capacity(objects.len());
            for object in &objects {
                match changes::record(object) {
                    Ok(record) => records.push(record),
                    Err(why) => problems.push(why),
                }
            }
            taken += writer.records(spec, &records)?;
            return Ok(());
        }
        let mut converted = Vec::with_capacity(objects.len());
        for object in &objects {
            if let Some(clash) = accounts.clash(spec, object) {
                problems.push(clash);
                continue;
            }
            match convert::imported(spec, object, admit) {
                Ok(one) => converted.push(one),
                Err(why) => problems.push(format!("{} {why}", spec.verbose_name)),
            }
        }
        taken += write_leniently(writer, spec, converted, problems)?;
        Ok(())
    })?;
    Ok(match ended {
        Read::Done => Outcome::Taken { read, taken },
        Read::Absent => Outcome::Absent,
        Read::Refused(why) => Outcome::Refused(why),
    })
}

/// Writes objects; one the write refuses is left out (and reported) and the others are
/// written again.
fn write_leniently(
    writer: &mut ImportWriter<'_, '_>,
    spec: &'static ResourceSpec,
    objects: Vec<ImportedObject>,
    problems: &mut Vec<String>,
) -> Result<usize, peering_store::Error> {
    let (written, refused) =
        peering_store::leaving_out_refused(objects, |objects| writer.objects(spec, objects))?;
    for (object, errors) in refused {
        problems.push(format!(
            "{} #{}: {}",
            spec.verbose_name,
            object.id,
            errors.into_json()
        ));
    }
    Ok(written.unwrap_or(0))
}
