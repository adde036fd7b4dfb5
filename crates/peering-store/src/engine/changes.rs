//! Change records: one per created, updated or deleted object, with its request id.

use std::collections::{BTreeSet, HashMap};
use std::io::Write;

use peering_domain::grants::Authority;
use peering_domain::resources::TAG;
use peering_domain::spec::Kind;
use peering_domain::value::{now, Iso8601};
use peering_domain::{Record, ResourceSpec, Value};

use crate::connection::Db;
use crate::error::Error;
use crate::follow::{follow, WrittenChange};
use crate::query::{shallow_by_ids, Related};
use crate::sql::Bind;

/// Who changes what, and in which request.
#[derive(Debug, Clone)]
pub struct ChangeContext {
    pub request_id: String,
    pub user_id: Option<i64>,
    pub user_name: String,
    /// Whose permissions bound what the write may grant (users and groups).
    pub authority: Authority,
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum Action {
    Create,
    Update,
    Delete,
}

impl Action {
    fn as_str(self) -> &'static str {
        match self {
            Action::Create => "create",
            Action::Update => "update",
            Action::Delete => "delete",
        }
    }
}

/// What a change record keeps of a secret that is set.
pub const SECRET_MARK: &str = "********";
/// What an update's record keeps of a secret it changed.
pub const CHANGED_SECRET_MARK: &str = "******** (changed)";

/// Whether a secret holds something (a text that is not empty, any document).
fn is_set(value: &Value) -> bool {
    !matches!(value, Value::Null) && !matches!(value, Value::Text(t) if t.is_empty())
}

/// The stored form of an object in a change record: relations as ids, tags as names,
/// times with millisecond precision, as the reference's serializer writes them. Written
/// straight to compact JSON text, fields in declaration order (what serializing a map of
/// them wrote, without building one per object). A secret is never written: a mark says
/// it is set, and whether it changed since `before` (the object before an update).
pub(crate) fn snapshot(
    tag_names: &HashMap<i64, String>,
    spec: &'static ResourceSpec,
    record: &Record,
    before: Option<&Record>,
) -> String {
    let mut out = Vec::with_capacity(64 * spec.fields.len());
    out.push(b'{');
    let mut first = true;
    for (field, value) in spec.fields.iter().zip(&record.values) {
        // Counts, computed and derived values are not the object's own: the reference's
        // snapshots hold stored fields only.
        if matches!(field.kind, Kind::ReverseCount { .. } | Kind::Derived { .. })
            || field.computed.is_some()
        {
            continue;
        }
        if !first {
            out.push(b',');
        }
        first = false;
        write_json(&mut out, field.name);
        out.push(b':');
        match (field.kind, value) {
            (_, Value::Text(_) | Value::Json(_)) if field.secret && is_set(value) => {
                let changed = before.is_some_and(|b| b.get(spec, field.name) != value);
                let mark = if changed {
                    CHANGED_SECRET_MARK
                } else {
                    SECRET_MARK
                };
                write_json(&mut out, mark);
            }
            (Kind::Tags, Value::Ids(ids)) => {
                let mut names: Vec<&str> = ids
                    .iter()
                    .filter_map(|i| tag_names.get(i))
                    .map(String::as_str)
                    .collect();
                names.sort_unstable();
                write_json(&mut out, &names);
            }
            (_, Value::Ids(ids)) => write_json(&mut out, ids),
            (_, Value::Null) => out.extend_from_slice(b"null"),
            (_, Value::Bool(b)) => write_json(&mut out, b),
            (_, Value::Int(i)) => write_json(&mut out, i),
            (_, Value::Text(t)) => write_json(&mut out, t),
            (_, Value::Json(j)) => write_json(&mut out, j),
            (_, Value::Time(t)) => {
                let _ = write!(out, "\"{}\"", Iso8601::millis(*t));
            }
        }
    }
    out.push(b'}');
    String::from_utf8(out).expect("JSON text is UTF-8")
}

/// The names of the tags `records` carry, for their snapshots: those in `related` as they
/// are, the others read in one query for the whole batch.
pub(crate) fn tag_names<'r>(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    records: impl Iterator<Item = &'r Record>,
    related: &Related,
) -> Result<HashMap<i64, String>, Error> {
    let mut names = HashMap::new();
    let Some(field) = spec
        .fields
        .iter()
        .position(|f| matches!(f.kind, Kind::Tags))
    else {
        return Ok(names);
    };
    let mut missing = BTreeSet::new();
    for id in records.flat_map(|r| r.values[field].as_ids()) {
        match related.get(&TAG, *id) {
            Some(tag) => {
                names.insert(*id, tag.text(&TAG, "name").to_string());
            }
            None => {
                missing.insert(*id);
            }
        }
    }
    let missing: Vec<i64> = missing.into_iter().collect();
    for tag in shallow_by_ids(db, &TAG, &missing)? {
        names.insert(tag.id, tag.text(&TAG, "name").to_string());
    }
    Ok(names)
}

/// Appends a value's compact JSON text (writing to memory cannot fail).
fn write_json<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
    serde_json::to_writer(out, value).expect("values serialize to memory");
}

/// One change to record.
pub(crate) struct Change<'a> {
    pub record: &'a Record,
    pub action: Action,
    pub pre: Option<String>,
    pub post: Option<String>,
}

/// The values of a change record's columns, in `OBJECT_CHANGES_COLUMNS` order.
fn change_row(
    ctx: &ChangeContext,
    spec: &ResourceSpec,
    repr: &str,
    change: Change<'_>,
) -> Vec<Bind> {
    let content_type = spec.content_type();
    let json_bind = |j: Option<String>| j.map(Bind::Text).unwrap_or(Bind::NullText);
    let repr: String = repr.chars().take(200).collect();
    vec![
        Bind::Int(peering_domain::value::time_to_micros(now())),
        ctx.user_id.map(Bind::Int).unwrap_or(Bind::NullInt),
        Bind::Text(ctx.user_name.clone()),
        Bind::Text(ctx.user_name.to_lowercase()),
        Bind::Text(ctx.request_id.clone()),
        Bind::Text(change.action.as_str().to_string()),
        Bind::Text(content_type.clone()),
        Bind::Text(content_type.to_lowercase()),
        Bind::Int(change.record.id),
        Bind::Text(repr.clone()),
        Bind::Text(repr.to_lowercase()),
        json_bind(change.pre),
        json_bind(change.post),
    ]
}

/// Records the changes of a batch in a few multi-row statements; labels come from the
/// related objects already loaded for the batch.
pub(crate) fn record_changes(
    db: &mut Db<'_>,
    ctx: &ChangeContext,
    spec: &'static ResourceSpec,
    related: &Related,
    changes: Vec<Change<'_>>,
) -> Result<(), Error> {
    let labelled: Vec<_> = changes
        .into_iter()
        .map(|change| {
            let repr = change.record.display_with(spec, related);
            (spec, repr, change)
        })
        .collect();
    record_labelled_changes(db, ctx, related, labelled)
}

/// Records changes of objects of any resources, each with its label, in the order given,
/// and enqueues what follows them (`follow.rs`).
pub(crate) fn record_labelled_changes(
    db: &mut Db<'_>,
    ctx: &ChangeContext,
    related: &Related,
    changes: Vec<(&'static ResourceSpec, String, Change<'_>)>,
) -> Result<(), Error> {
    if db.follower().is_some() {
        let written: Vec<WrittenChange<'_>> = changes
            .iter()
            .map(|(spec, _, change)| WrittenChange {
                spec,
                action: change.action.into(),
                record: change.record,
                prechange: change.pre.as_deref(),
                postchange: change.post.as_deref(),
            })
            .collect();
        follow(db, ctx, related, &written)?;
    }
    let rows: Vec<Vec<Bind>> = changes
        .into_iter()
        .map(|(spec, repr, change)| change_row(ctx, spec, &repr, change))
        .collect();
    db.insert_object_changes(rows)
}
