//! Data sources' synchronisations, reached through [`Store::data_sources`]: what one found
//! (the files of a directory or a Git repository) replaces the source's data files, the
//! templates that follow a file of the source take its new text, and the source is marked
//! synchronised, all in one transaction, so that a synchronisation that fails leaves the
//! files and templates as they were.

use peering_domain::input::{Draft, Input, Ref};
use peering_domain::resources::{DATA_FILE, DATA_SOURCE};
use peering_domain::value::now;
use peering_domain::{ResourceSpec, Value};

use crate::connection::Db;
use crate::{delete, query, write};
use crate::{ChangeContext, Error, Store, Window};

/// The data sources of a store: `store.data_sources().synchronised(…)`.
#[derive(Debug, Clone, Copy)]
pub struct DataSources<'s> {
    store: &'s Store,
}

impl Store {
    /// Data sources' synchronisations.
    pub fn data_sources(&self) -> DataSources<'_> {
        DataSources { store: self }
    }
}

/// One file a synchronisation found, relative to the source's root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundFile {
    pub path: String,
    pub size: i64,
    /// SHA-256 of the content, in lower-case hexadecimal.
    pub hash: String,
    /// The content when it is UTF-8 text.
    pub text: Option<String>,
}

/// What a synchronisation changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Synchronised {
    pub created: usize,
    pub updated: usize,
    pub deleted: usize,
    /// Templates that took a file's new text.
    pub templates: usize,
}

/// The templates that follow one of a source's files: `(resource, ids)`.
pub type Followers = Vec<(&'static ResourceSpec, Vec<i64>)>;

impl DataSources<'_> {
    /// Sets a source's `status` (one of the reference's), with `last_synchronised` now when
    /// the status is `completed`.
    pub fn set_status(&self, source: i64, status: &str, ctx: &ChangeContext) -> Result<(), Error> {
        self.store.write(|db| mark(db, source, status, ctx))
    }

    /// Replaces the data files of `source` by `found` (a file whose hash is unchanged is
    /// left alone), rewrites `followers` from their files, and marks the source completed.
    pub fn synchronised(
        &self,
        source: i64,
        found: &[FoundFile],
        followers: &Followers,
        ctx: &ChangeContext,
    ) -> Result<Synchronised, Error> {
        self.store.write(|db| {
            let mut done = replace_files(db, source, found, ctx)?;
            for (spec, ids) in followers {
                let touch = ids.iter().map(|id| (*id, Draft::empty(spec))).collect();
                done.templates += write::update(db, spec, touch, ctx)?.0.len();
            }
            mark(db, source, "completed", ctx)?;
            Ok(done)
        })
    }
}

fn mark(db: &mut Db<'_>, source: i64, status: &str, ctx: &ChangeContext) -> Result<(), Error> {
    let mut draft = Draft::empty(&DATA_SOURCE);
    draft.set(
        &DATA_SOURCE,
        "status",
        Input::Value(Value::Text(status.into())),
    );
    if status == "completed" {
        draft.set(
            &DATA_SOURCE,
            "last_synchronised",
            Input::Value(Value::Time(now())),
        );
    }
    write::update(db, &DATA_SOURCE, vec![(source, draft)], ctx)?;
    Ok(())
}

/// The files of `source` made to match `found`.
fn replace_files(
    db: &mut Db<'_>,
    source: i64,
    found: &[FoundFile],
    ctx: &ChangeContext,
) -> Result<Synchronised, Error> {
    let pairs = [("source_id".to_string(), source.to_string())];
    let filter = peering_filter::parse(&pairs, &Store::catalog(&DATA_FILE))
        .map_err(|e| Error::Backend(format!("data files of a source: {e:?}").into()))?;
    let everything = Window {
        limit: None,
        offset: 0,
    };
    let known = query::list(db, &DATA_FILE, &filter, everything, false, None)?.records;
    let mut done = Synchronised::default();
    let gone: Vec<i64> = known
        .iter()
        .filter(|r| !found.iter().any(|f| f.path == r.text(&DATA_FILE, "path")))
        .map(|r| r.id)
        .collect();
    done.deleted = gone.len();
    delete::delete(db, &DATA_FILE, &gone, ctx)?;
    let mut changed = Vec::new();
    let mut new = Vec::new();
    for file in found {
        match known
            .iter()
            .find(|r| r.text(&DATA_FILE, "path") == file.path)
        {
            Some(r) if r.text(&DATA_FILE, "hash") == file.hash => {}
            Some(r) => changed.push((r.id, draft(source, file))),
            None => new.push(draft(source, file)),
        }
    }
    done.updated = changed.len();
    done.created = new.len();
    write::update(db, &DATA_FILE, changed, ctx)?;
    write::create(db, &DATA_FILE, new, ctx)?;
    Ok(done)
}

fn draft(source: i64, file: &FoundFile) -> Draft {
    let mut draft = Draft::empty(&DATA_FILE);
    let text = |t: &str| Input::Value(Value::Text(t.into()));
    draft
        .set(&DATA_FILE, "source", Input::Ref(Some(Ref::Id(source))))
        .set(&DATA_FILE, "path", text(&file.path))
        .set(&DATA_FILE, "size", Input::Value(Value::Int(file.size)))
        .set(&DATA_FILE, "hash", text(&file.hash))
        .set(
            &DATA_FILE,
            "data",
            Input::Value(file.text.clone().map_or(Value::Null, Value::Text)),
        );
    draft
}
