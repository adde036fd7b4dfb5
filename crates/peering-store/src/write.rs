//! Writes: creates, updates and deletes, each with its change records, run by the caller
//! inside one transaction so that a list of objects is written all-or-none.

use std::collections::{BTreeSet, HashMap, HashSet};

use peering_domain::input::{apply, Draft, Input, Ref};
use peering_domain::resources::TAG;
use peering_domain::spec::Kind;
use peering_domain::value::now;
use peering_domain::{FieldErrors, Record, ResourceSpec, Value};
use serde_json::{Map, Value as Json};

use crate::changes::{record_changes, snapshot, tag_names, Action, Change, ChangeContext};
use crate::connection::Db;
use crate::error::Error;
use crate::query::Related;
use crate::schema::{lower_bind, stored_value, table, value_to_bind, Column};
use crate::sql::{Bind, Cell, Sql};

/// Python's repr of a dict of attributes, as the reference's messages show them.
fn python_repr(map: &Map<String, Json>) -> String {
    let items: Vec<String> = map
        .iter()
        .map(|(k, v)| {
            let v = match v {
                Json::String(s) => format!("'{s}'"),
                Json::Bool(true) => "True".into(),
                Json::Bool(false) => "False".into(),
                Json::Null => "None".into(),
                Json::Object(o) => python_repr(o),
                other => other.to_string(),
            };
            format!("'{k}': {v}")
        })
        .collect();
    format!("{{{}}}", items.join(", "))
}

/// What one write call has already looked up, so that a list of objects referring to the
/// same few policies, communities and tags costs one lookup per distinct reference.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    refs: HashMap<(&'static str, String), i64>,
}

impl Memo {
    /// Looks up every distinct id reference of `drafts` up front, one query per target,
    /// so that a list referring to a thousand peers costs one statement instead of a
    /// thousand (each a round trip on PostgreSQL: 1,000 sessions, 145 ms to ~85 ms). Ids
    /// not found stay unknown: resolving them later gives their usual error.
    fn prefetch_ids<'d>(
        &mut self,
        db: &mut Db<'_>,
        spec: &'static ResourceSpec,
        drafts: impl Iterator<Item = &'d Draft>,
    ) -> Result<(), Error> {
        let mut wanted: HashMap<&'static str, BTreeSet<i64>> = HashMap::new();
        for draft in drafts {
            for (field, input) in spec.fields.iter().zip(&draft.inputs) {
                let (target, refs) = match (input, field.kind) {
                    (Some(Input::Ref(Some(r))), Kind::ForeignKey { target, .. }) => {
                        (target(), std::slice::from_ref(r))
                    }
                    (Some(Input::Refs(refs)), Kind::ManyToMany { target, .. }) => {
                        (target(), refs.as_slice())
                    }
                    (Some(Input::Refs(refs)), _) => (&TAG, refs.as_slice()),
                    _ => continue,
                };
                for r in refs {
                    if let Ref::Id(id) = r {
                        if !self.refs.contains_key(&(target.table, format!("#{id}"))) {
                            wanted.entry(target.table).or_default().insert(*id);
                        }
                    }
                }
            }
        }
        for (table, ids) in wanted {
            // A single reference costs one query either way.
            if ids.len() < 2 {
                continue;
            }
            let ids: Vec<i64> = ids.into_iter().collect();
            let mut sql = Sql::new(&format!("SELECT id FROM {table} WHERE "));
            sql.in_primary_key(db.backend(), "id", &ids);
            for row in db.load(&sql)? {
                let id = row.int(0);
                self.refs.insert((table, format!("#{id}")), id);
            }
        }
        Ok(())
    }
}

/// Finds the one object a reference designates (remembered for the rest of the call): its
/// id, or the field message the reference gives. A database failure is an error of its
/// own, never a message a client would read.
fn resolve_ref(
    db: &mut Db<'_>,
    memo: &mut Memo,
    target: &'static ResourceSpec,
    r: &Ref,
) -> Result<Result<i64, String>, Error> {
    let key = match r {
        Ref::Id(id) => format!("#{id}"),
        Ref::Attrs(attrs) => Json::Object(attrs.clone()).to_string(),
    };
    if let Some(id) = memo.refs.get(&(target.table, key.clone())) {
        return Ok(Ok(*id));
    }
    let found = lookup_ref(db, target, r)?;
    if let Ok(id) = found {
        memo.refs.insert((target.table, key), id);
    }
    Ok(found)
}

fn lookup_ref(
    db: &mut Db<'_>,
    target: &'static ResourceSpec,
    r: &Ref,
) -> Result<Result<i64, String>, Error> {
    match r {
        Ref::Id(id) => {
            let mut sql = Sql::new(&format!("SELECT id FROM {} WHERE id = ", target.table));
            sql.bind(Bind::Int(*id));
            Ok(db.scalar(&sql)?.ok_or_else(|| {
                format!("Related object not found using the provided numeric ID: {id}")
            }))
        }
        Ref::Attrs(attrs) => {
            let not_found = || {
                format!(
                    "Related object not found using the provided attributes: {}",
                    python_repr(attrs)
                )
            };
            let Some(mut sql) = select_by_attributes(db, target, attrs)? else {
                return Ok(Err(not_found()));
            };
            sql.push(" LIMIT 2");
            let rows = db.load(&sql)?;
            Ok(match rows.as_slice() {
                [one] => Ok(one.int(0)),
                [] => Err(not_found()),
                _ => Err(format!(
                    "Multiple objects match the provided attributes: {}",
                    python_repr(attrs)
                )),
            })
        }
    }
}

/// `SELECT id FROM <target> WHERE <each attribute>`, or `None` when an attribute can match
/// nothing (an unknown name, a value of the wrong type). An attribute naming a related
/// object by its own attributes (`{"local_autonomous_system": {"asn": 64500}}`) is
/// resolved first, as the reference's `dict_to_filter_params` follows it.
fn select_by_attributes(
    db: &mut Db<'_>,
    target: &'static ResourceSpec,
    attrs: &serde_json::Map<String, Json>,
) -> Result<Option<Sql>, Error> {
    let t = table(target);
    let mut sql = Sql::new(&format!("SELECT id FROM {} o WHERE 1 = 1", target.table));
    for (key, value) in attrs {
        let id_kind = Kind::Int {
            min: 0,
            max: i64::MAX,
        };
        let (column, kind) = if key == "id" {
            ("id", id_kind)
        } else {
            let Some(col) = t
                .columns
                .iter()
                .find(|c| target.fields[c.field].name == key.as_str())
            else {
                return Ok(None);
            };
            (col.name, target.fields[col.field].kind)
        };
        let bind = match (value, kind) {
            (
                Json::Object(inner),
                Kind::ForeignKey {
                    target: related, ..
                },
            ) => match lookup_ref(db, related(), &Ref::Attrs(inner.clone()))? {
                Ok(id) => Some(Bind::Int(id)),
                Err(_) => None,
            },
            _ => attribute_bind(value, kind),
        };
        // NUL cannot be stored, so no object can match it (and PostgreSQL refuses it).
        let Some(bind) = bind.filter(|b| !matches!(b, Bind::Text(t) if t.contains('\0'))) else {
            return Ok(None);
        };
        sql.push(&format!(" AND o.{column} = ")).bind(bind);
    }
    Ok(Some(sql))
}

/// An attribute's value as a parameter for its column, if it has the column's type.
fn attribute_bind(value: &Json, kind: Kind) -> Option<Bind> {
    match (value, kind) {
        (Json::Number(n), Kind::Int { .. } | Kind::ForeignKey { .. }) => n.as_i64().map(Bind::Int),
        (Json::String(s), Kind::Int { .. } | Kind::ForeignKey { .. }) => {
            s.trim().parse().ok().map(Bind::Int)
        }
        (Json::Bool(b), Kind::Bool) => Some(Bind::Bool(*b)),
        (Json::String(s), Kind::Text { .. } | Kind::Choice { .. } | Kind::Uuid) => {
            Some(Bind::Text(s.clone()))
        }
        (Json::Number(n), Kind::Text { .. } | Kind::Choice { .. }) => {
            Some(Bind::Text(n.to_string()))
        }
        _ => None,
    }
}

/// Turns a draft's references into ids, with the reference's error shapes.
fn resolve(
    db: &mut Db<'_>,
    memo: &mut Memo,
    spec: &'static ResourceSpec,
    draft: Draft,
) -> Result<Vec<Option<Value>>, Error> {
    let mut errors = FieldErrors::new();
    let mut out = Vec::with_capacity(draft.inputs.len());
    for (field, input) in spec.fields.iter().zip(draft.inputs) {
        let value = match input {
            None => None,
            Some(Input::Value(v)) => Some(v),
            Some(Input::Ref(None)) => Some(Value::Null),
            Some(Input::Ref(Some(r))) => {
                let Kind::ForeignKey { target, .. } = field.kind else {
                    continue;
                };
                match resolve_ref(db, memo, target(), &r)? {
                    Ok(id) => Some(Value::Int(id)),
                    Err(m) => {
                        errors.add(field.name, m);
                        None
                    }
                }
            }
            Some(Input::Refs(refs)) => {
                let target = match field.kind {
                    Kind::ManyToMany { target, .. } => target(),
                    _ => &TAG,
                };
                let mut ids = BTreeSet::new();
                let mut item_errors = Vec::new();
                let mut failed = false;
                for r in &refs {
                    match resolve_ref(db, memo, target, r)? {
                        Ok(id) => {
                            ids.insert(id);
                            item_errors.push(Json::Array(vec![]));
                        }
                        Err(m) => {
                            failed = true;
                            let m = match (r, field.kind) {
                                (Ref::Id(id), Kind::ManyToMany { .. }) => {
                                    format!("Invalid pk \"{id}\" - object does not exist.")
                                }
                                _ => m,
                            };
                            item_errors.push(Json::Array(vec![Json::String(m)]));
                        }
                    }
                }
                if failed {
                    if matches!(field.kind, Kind::Tags) {
                        errors.set_raw(field.name, Json::Array(item_errors));
                    } else {
                        let flat: Vec<Json> = item_errors
                            .into_iter()
                            .filter_map(|e| e.as_array().and_then(|a| a.first().cloned()))
                            .collect();
                        errors.set_raw(field.name, Json::Array(flat));
                    }
                }
                Some(Value::Ids(ids.into_iter().collect()))
            }
        };
        out.push(value);
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(Error::invalid(errors))
    }
}

/// How a value compares in uniqueness checks, alike for stored cells and new values.
fn value_key(value: &Value) -> Option<String> {
    match value {
        Value::Text(t) => Some(t.clone()),
        Value::Int(i) => Some(i.to_string()),
        Value::Bool(b) => Some(if *b { "1" } else { "0" }.to_string()),
        _ => None,
    }
}

fn cell_key(cell: Cell) -> Option<String> {
    match cell {
        Cell::Bool(b) => Some(if b { "1" } else { "0" }.to_string()),
        other => other.into_text(),
    }
}

/// A stored row as uniqueness checks compare it: its id and the keys of some columns.
type KeyedRow = (i64, Vec<Option<String>>);

/// Rows (id and the given columns) of stored objects equal to one of the given tuples
/// (distinct, no nulls), each found through the index the columns share: one probe per
/// tuple, in chunks that keep statements under the backends' limits.
fn rows_matching(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    columns: &[&'static str],
    tuples: &[Vec<Bind>],
) -> Result<Vec<KeyedRow>, Error> {
    let mut out = Vec::new();
    let backend = db.backend();
    for part in tuples.chunks(Sql::rows_per_statement(backend, columns.len())) {
        let sql = probe_sql(backend, spec.table, columns, part);
        for mut row in db.load(&sql)? {
            let id = row.int(0);
            let keys = (1..=columns.len()).map(|i| cell_key(row.take(i))).collect();
            out.push((id, keys));
        }
    }
    Ok(out)
}

/// The stored rows equal to some of the tuples `part`: one index probe per tuple, as a
/// subquery (joined instead, PostgreSQL would rather scan and hash the whole table: 47 ms
/// against 4 ms for 1,000 sessions' addresses among 100,000). The tuple's values are the
/// matching row's.
pub(crate) fn probe_sql(
    backend: crate::Backend,
    table: &str,
    columns: &[&'static str],
    part: &[Vec<Bind>],
) -> Sql {
    let keys: Vec<String> = (1..=columns.len()).map(|k| format!("column{k}")).collect();
    let equal: Vec<String> = columns
        .iter()
        .zip(&keys)
        .map(|(c, k)| format!("t.{c} = v.{k}"))
        .collect();
    let mut sql = Sql::new(&format!(
        "SELECT m.id, m.{} FROM (SELECT (SELECT t.id FROM {} t WHERE {} LIMIT 1) AS id, v.{} FROM ",
        keys.join(", m."),
        table,
        equal.join(" AND "),
        keys.join(", v."),
    ));
    sql.push_rows(backend, part.to_vec())
        .push(") AS m WHERE m.id IS NOT NULL");
    sql
}

/// Checks candidate objects before they are written, the whole batch at once: derived
/// values and rules across fields (with the related objects they read, loaded once), then
/// uniqueness against stored objects and within the batch. A record's `id` is its own on
/// update, 0 on create; `before` holds the updated objects as they were, so that unique
/// columns left alone are not checked again. The error is the first failing object's, at
/// its index. `related` holds objects already read (an update's stored objects' related
/// ones); returns it with those the checks loaded, which the change records' labels need.
fn check_batch(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    records: &mut [Record],
    before: Option<&[Record]>,
    mut related: Related,
) -> Result<Related, Error> {
    let labels_read = spec.change_logged && !spec.reads.is_empty();
    if spec.derive.is_some() || spec.validate.is_some() || labels_read {
        crate::query::load_reads(db, spec, records, &mut related)?;
    }
    let mut errors: Vec<FieldErrors> = vec![FieldErrors::new(); records.len()];
    for (record, errs) in records.iter_mut().zip(errors.iter_mut()) {
        if let Some(derive) = spec.derive {
            derive(spec, record, &related);
        }
        if let Some(validate) = spec.validate {
            errs.merge(validate(spec, record, &related));
        }
    }
    let table = table(spec);
    // Each unique field is a set of one column, its error under its own name.
    let mut sets: Vec<(Vec<&Column>, &str, String)> = table
        .columns
        .iter()
        .filter(|c| spec.fields[c.field].unique)
        .map(|c| {
            let field = &spec.fields[c.field];
            let message = format!(
                "{} with this {} already exists.",
                spec.verbose_name, field.label
            );
            (vec![c], field.name, message)
        })
        .collect();
    for (fields, message) in spec.unique_together {
        let cols: Vec<_> = fields
            .iter()
            .filter_map(|name| {
                table
                    .columns
                    .iter()
                    .find(|c| spec.fields[c.field].name == *name)
            })
            .collect();
        if cols.len() == fields.len() {
            sets.push((cols, "__all__", (*message).to_string()));
        }
    }
    for (cols, key, message) in sets {
        // An update that leaves the columns as they were cannot take another's values:
        // the database already holds them for this object.
        let tuples: Vec<Option<Vec<String>>> = records
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let unchanged = before.is_some_and(|b| {
                    cols.iter()
                        .all(|c| r.values[c.field] == b[i].values[c.field])
                });
                if unchanged {
                    return None;
                }
                cols.iter().map(|c| value_key(&r.values[c.field])).collect()
            })
            .collect();
        let mut distinct = HashSet::new();
        let probes: Vec<Vec<Bind>> = records
            .iter()
            .zip(&tuples)
            .filter(|(_, t)| t.as_ref().is_some_and(|t| distinct.insert(t.clone())))
            .map(|(r, _)| {
                cols.iter()
                    .map(|c| value_to_bind(&spec.fields[c.field].kind, &r.values[c.field]))
                    .collect()
            })
            .collect();
        if probes.is_empty() {
            continue;
        }
        let names: Vec<&'static str> = cols.iter().map(|c| c.name).collect();
        let stored = rows_matching(db, spec, &names, &probes)?;
        let mut seen: HashMap<Vec<String>, i64> = HashMap::new();
        for (i, tuple) in tuples.into_iter().enumerate() {
            let Some(tuple) = tuple else { continue };
            let own = records[i].id;
            let taken = stored.iter().any(|(id, keys)| {
                *id != own
                    && keys
                        .iter()
                        .zip(&tuple)
                        .all(|(k, t)| k.as_deref() == Some(t.as_str()))
            }) || seen
                .get(&tuple)
                .is_some_and(|other| *other != own || own == 0);
            if taken && !errors[i].has(key) {
                errors[i].add(key, message.clone());
            }
            seen.insert(tuple, own);
        }
    }
    match errors.into_iter().enumerate().find(|(_, e)| !e.is_empty()) {
        Some((i, e)) => Err(Error::invalid(e).at(i)),
        None => Ok(related),
    }
}

/// Writes the relation lists (many-to-many and tags) of written objects (each once): all
/// of them for new objects (`named: None`), else those each update names (by field
/// index), replacing the old links. A few statements per relation, whatever the number of
/// objects.
fn write_links(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    records: &[&Record],
    named: Option<&[Vec<bool>]>,
) -> Result<(), Error> {
    for (i, field) in spec.fields.iter().enumerate() {
        let (through, source, target_column) = match field.kind {
            Kind::ManyToMany {
                table,
                source,
                target_column,
                ..
            } => (table, source, target_column),
            Kind::Tags => ("tagged_items", "object_id", "tag_id"),
            _ => continue,
        };
        let tags = matches!(field.kind, Kind::Tags);
        let written: Vec<&Record> = records
            .iter()
            .enumerate()
            .filter(|(n, _)| named.is_none_or(|named| named[*n][i]))
            .map(|(_, r)| *r)
            .collect();
        if written.is_empty() {
            continue;
        }
        // New objects have no links to clear.
        if named.is_some() {
            let ids: Vec<i64> = written.iter().map(|r| r.id).collect();
            let mut clear = Sql::new(&format!("DELETE FROM {through} WHERE "));
            if tags {
                clear
                    .push("object_type = ")
                    .bind(Bind::Text(spec.content_type()))
                    .push(" AND ");
            }
            clear.in_ids(db.backend(), source, &ids);
            db.execute(&clear)?;
        }
        let pairs: Vec<(i64, i64)> = written
            .iter()
            .flat_map(|r| r.values[i].as_ids().iter().map(move |t| (r.id, *t)))
            .collect();
        let rows = pairs
            .into_iter()
            .map(|(id, target)| {
                let mut row = Vec::with_capacity(3);
                if tags {
                    row.push(Bind::Text(spec.content_type()));
                }
                row.extend([Bind::Int(id), Bind::Int(target)]);
                row
            })
            .collect();
        let columns: &[&str] = if tags {
            &["object_type", source, target_column]
        } else {
            &[source, target_column]
        };
        db.insert(through, columns, rows)?;
    }
    Ok(())
}

/// Appends `col = ?` pairs (or column lists) for every stored column of a record.
pub(crate) fn column_binds(
    spec: &'static ResourceSpec,
    values: &[Value],
) -> Vec<(&'static str, Bind)> {
    let mut out = Vec::new();
    for col in &table(spec).columns {
        let field = &spec.fields[col.field];
        let value = &values[col.field];
        out.push((col.name, value_to_bind(&field.kind, value)));
        if let Some(lc) = col.lc {
            out.push((lc, lower_bind(value)));
        }
        if let Some(key) = col.key {
            let sort_key = value
                .as_text()
                .and_then(peering_domain::net::sort_key_of)
                .map(Bind::Text)
                .unwrap_or(Bind::NullText);
            out.push((key, sort_key));
        }
    }
    out
}

fn set_times(spec: &ResourceSpec, values: &mut [Value], creating: bool) {
    let t = now();
    for (i, field) in spec.fields.iter().enumerate() {
        let stamp = match field.name {
            "created" => creating,
            "updated" => true,
            _ => false,
        };
        if matches!(field.kind, Kind::Time) && stamp {
            values[i] = Value::Time(t);
        }
    }
}

/// An object brought over from another system with its id and times.
#[derive(Debug, Clone)]
pub struct ImportedObject {
    pub id: i64,
    pub draft: Draft,
    /// The times it had (`created`, `updated`, a user's `date_joined`), by field name.
    pub times: Vec<(&'static str, chrono::DateTime<chrono::Utc>)>,
}

/// Creates objects as another system had them: their ids and times kept, validated as any
/// creation, without change records (the other system's are brought over on their own).
pub(crate) fn import(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    objects: Vec<ImportedObject>,
) -> Result<usize, Error> {
    let mut memo = Memo::default();
    memo.prefetch_ids(db, spec, objects.iter().map(|o| &o.draft))?;
    let mut records = Vec::with_capacity(objects.len());
    for (index, object) in objects.into_iter().enumerate() {
        let resolved = resolve(db, &mut memo, spec, object.draft).map_err(|e| e.at(index))?;
        let mut values = apply(spec, resolved, None);
        set_times(spec, &mut values, true);
        for (name, time) in object.times {
            if let Some(i) = spec.index_of(name) {
                values[i] = Value::Time(time);
            }
        }
        records.push(Record {
            id: object.id,
            values,
        });
    }
    check_batch(db, spec, &mut records, None, Related::default())?;
    insert_rows(db, spec, &records)?;
    write_links(db, spec, &records.iter().collect::<Vec<_>>(), None)?;
    Ok(records.len())
}

/// After objects came in with their own ids: each table's sequence continues above the
/// largest (PostgreSQL; SQLite's ids follow the largest by themselves).
pub(crate) fn realign_sequence(db: &mut Db<'_>, spec: &'static ResourceSpec) -> Result<(), Error> {
    if db.backend() == crate::Backend::Postgres {
        let mut sql = Sql::new(&format!(
            "SELECT setval(CAST((SELECT pg_get_serial_sequence('{t}', 'id')) AS regclass), \
             GREATEST((SELECT MAX(id) FROM {t}), 1))",
            t = spec.table
        ));
        sql.uncacheable();
        db.load(&sql)?;
    }
    Ok(())
}

/// Inserts records with their ids, as they are.
pub(crate) fn insert_records(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    records: &[Record],
) -> Result<(), Error> {
    insert_rows(db, spec, records)
}

/// Ids for `n` new objects of `spec`, taken before inserting them so that rows go in with
/// a few multi-row statements and each object keeps its place. Never reuses a deleted
/// object's id.
fn reserve_ids(db: &mut Db<'_>, spec: &'static ResourceSpec, n: usize) -> Result<Vec<i64>, Error> {
    match db.backend() {
        // Writes are serialised (BEGIN IMMEDIATE): nobody takes ids meanwhile.
        crate::Backend::Sqlite => {
            let mut sql = Sql::new(&format!(
                "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = '{t}'), 0), \
                 COALESCE((SELECT MAX(id) FROM {t}), 0))",
                t = spec.table
            ));
            sql.uncacheable();
            let base = db.scalar(&sql)?.unwrap_or(0);
            Ok((1..=n as i64).map(|i| base + i).collect())
        }
        crate::Backend::Postgres => {
            // The sequence is looked up once (an init plan), not once per id: 1,000 ids
            // took 9 ms with the lookup per row, 2 ms with it hoisted.
            let mut sql = Sql::new(&format!(
                "SELECT nextval(CAST((SELECT pg_get_serial_sequence('{}', 'id')) AS regclass)) \
                 FROM generate_series(1, ",
                spec.table
            ));
            sql.bind(Bind::Int(n as i64)).push(")");
            let mut ids: Vec<i64> = db.load(&sql)?.iter().map(|r| r.int(0)).collect();
            ids.sort_unstable();
            Ok(ids)
        }
    }
}

/// Inserts rows (with their ids) in a few multi-row statements.
fn insert_rows(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    records: &[Record],
) -> Result<(), Error> {
    let Some(first) = records.first() else {
        return Ok(());
    };
    let mut names = vec!["id"];
    names.extend(column_binds(spec, &first.values).iter().map(|(n, _)| *n));
    let rows = records
        .iter()
        .map(|record| {
            std::iter::once(Bind::Int(record.id))
                .chain(
                    column_binds(spec, &record.values)
                        .into_iter()
                        .map(|(_, b)| b),
                )
                .collect()
        })
        .collect();
    db.insert(spec.table, &names, rows)
}

/// An object's id and the new values of the columns it changes.
type ChangedRow = (i64, Vec<Bind>);

/// Writes the columns that changed, in multi-row statements: rows changing the same columns
/// are updated together from a table of rows (`Sql::push_rows`, whose `column1` is the
/// id). Columns left as they were are not written, so the indexes over them are not
/// rewritten.
fn update_rows(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    changes: &[(&Record, &Record)],
) -> Result<(), Error> {
    // Rows by the set of columns they change (each object once: stored, then final state).
    let mut groups: Vec<(Vec<&'static str>, Vec<ChangedRow>)> = Vec::new();
    for (old, new) in changes {
        let (names, binds): (Vec<&'static str>, Vec<Bind>) = column_binds(spec, &new.values)
            .into_iter()
            .zip(column_binds(spec, &old.values))
            .filter(|((_, now), (_, was))| now != was)
            .map(|(now, _)| now)
            .unzip();
        if names.is_empty() {
            continue;
        }
        match groups.iter_mut().find(|(n, _)| *n == names) {
            Some((_, rows)) => rows.push((new.id, binds)),
            None => groups.push((names, vec![(new.id, binds)])),
        }
    }
    // PostgreSQL, costing random reads at four sequential ones, would rather scan and hash
    // the whole table than probe its primary key once per row: told to join by nested loops
    // for these statements alone, a 1,000-session update on 100,000 takes 47 ms, not 86.
    let postgres = db.backend() == crate::Backend::Postgres;
    if postgres {
        db.execute(&Sql::new(
            "SELECT set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)",
        ))?;
    }
    for (names, rows) in groups {
        let set: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, name)| format!("{name} = v.column{}", i + 2))
            .collect();
        // One statement per group on PostgreSQL (a column per array parameter), chunks
        // under SQLite's parameter limit there.
        let per_statement = Sql::rows_per_statement(db.backend(), names.len() + 1);
        let mut rows = rows.into_iter().peekable();
        while rows.peek().is_some() {
            let chunk: Vec<Vec<Bind>> = rows
                .by_ref()
                .take(per_statement)
                .map(|(id, binds)| std::iter::once(Bind::Int(id)).chain(binds).collect())
                .collect();
            db.execute(&update_sql(db.backend(), spec.table, &set, chunk))?;
        }
    }
    if postgres {
        db.execute(&Sql::new(
            "SELECT set_config('enable_hashjoin', 'on', true), set_config('enable_mergejoin', 'on', true)",
        ))?;
    }
    Ok(())
}

/// `UPDATE` of rows (each its id, then the values of `set`'s columns) from a table of rows.
pub(crate) fn update_sql(
    backend: crate::Backend,
    table: &str,
    set: &[String],
    chunk: Vec<Vec<Bind>>,
) -> Sql {
    let mut sql = Sql::new(&format!(
        "UPDATE {table} SET {set} FROM ",
        set = set.join(", ")
    ));
    sql.push_rows(backend, chunk);
    sql.push(&format!(" WHERE {table}.id = v.column1"));
    sql
}

/// Written objects as a read shows them, without reading them back: each column's value
/// as the column keeps it and, for new objects, no dependents yet (ids are never reused).
/// Relation lists are already in id order, as resolved.
fn as_read(spec: &'static ResourceSpec, records: &mut [Record], new: bool) {
    let columns = &table(spec).columns;
    for record in records {
        for col in columns {
            let value = &mut record.values[col.field];
            *value = stored_value(&spec.fields[col.field].kind, value);
        }
        for (field, value) in spec.fields.iter().zip(record.values.iter_mut()) {
            match field.kind {
                Kind::ReverseCount { .. } if new => *value = Value::Int(0),
                Kind::DisplayCopy | Kind::GenericObject { .. } => *value = Value::Null,
                _ => {}
            }
        }
    }
}

/// Creates objects from validated drafts; returns them in input order, as a read shows
/// them (without their related objects), and the related objects the checks loaded.
pub(crate) fn create(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    drafts: Vec<Draft>,
    ctx: &ChangeContext,
) -> Result<(Vec<Record>, Related), Error> {
    let mut memo = Memo::default();
    memo.prefetch_ids(db, spec, drafts.iter())?;
    let mut records = Vec::with_capacity(drafts.len());
    for (index, draft) in drafts.into_iter().enumerate() {
        let resolved = resolve(db, &mut memo, spec, draft).map_err(|e| e.at(index))?;
        let mut values = apply(spec, resolved, None);
        set_times(spec, &mut values, true);
        records.push(Record { id: 0, values });
    }
    let related = check_batch(db, spec, &mut records, None, Related::default())?;
    let ids = reserve_ids(db, spec, records.len())?;
    for (record, id) in records.iter_mut().zip(&ids) {
        record.id = *id;
    }
    insert_rows(db, spec, &records)?;
    write_links(db, spec, &records.iter().collect::<Vec<_>>(), None)?;
    if spec.change_logged {
        let names = tag_names(db, spec, records.iter(), &related)?;
        let mut changes = Vec::with_capacity(records.len());
        for record in &records {
            let post = snapshot(&names, spec, record, None);
            changes.push(Change {
                record,
                action: Action::Create,
                pre: None,
                post: Some(post),
            });
        }
        record_changes(db, ctx, spec, &related, changes)?;
    }
    as_read(spec, &mut records, true);
    crate::query::fill_computed(db, spec, &mut records)?;
    Ok((records, related))
}

/// Updates existing objects; ids that do not exist are skipped. Returns the updated
/// objects in input order, as a read shows them (without their related objects), and the
/// related objects the checks loaded; an object given twice shows its final state both
/// times.
pub(crate) fn update(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    items: Vec<(i64, Draft)>,
    ctx: &ChangeContext,
) -> Result<(Vec<Record>, Related), Error> {
    let mut memo = Memo::default();
    memo.prefetch_ids(db, spec, items.iter().map(|(_, draft)| draft))?;
    let wanted: Vec<i64> = items.iter().map(|(id, _)| *id).collect();
    let (existing, related) = crate::query::by_ids(db, spec, &wanted)?;
    let existing: HashMap<i64, Record> = existing.into_iter().map(|r| (r.id, r)).collect();
    let mut before = Vec::with_capacity(items.len());
    let mut records: Vec<Record> = Vec::with_capacity(items.len());
    let mut named_all = Vec::with_capacity(items.len());
    // An object given again is changed from where its previous item left it, as the
    // reference saves the items one after the other.
    let mut latest: HashMap<i64, usize> = HashMap::new();
    for (index, (id, draft)) in items.into_iter().enumerate() {
        let old = match (latest.get(&id), existing.get(&id)) {
            (Some(&i), _) => records[i].clone(),
            (None, Some(stored)) => stored.clone(),
            (None, None) => continue,
        };
        let resolved = resolve(db, &mut memo, spec, draft).map_err(|e| e.at(index))?;
        let named: Vec<bool> = resolved.iter().map(Option::is_some).collect();
        let mut values = apply(spec, resolved, Some(&old));
        set_times(spec, &mut values, false);
        latest.insert(id, records.len());
        before.push(old);
        records.push(Record { id, values });
        named_all.push(named);
    }
    let related = check_batch(db, spec, &mut records, Some(&before), related)?;
    // Rows and links are written once per object, from its stored state to where its last
    // item left it, with every field any of its items named.
    let mut named_once: HashMap<i64, Vec<bool>> = HashMap::new();
    for (record, named) in records.iter().zip(&named_all) {
        let flags = named_once
            .entry(record.id)
            .or_insert_with(|| vec![false; named.len()]);
        for (flag, given) in flags.iter_mut().zip(named) {
            *flag |= *given;
        }
    }
    let finals: Vec<&Record> = records
        .iter()
        .enumerate()
        .filter(|(i, r)| latest[&r.id] == *i)
        .map(|(_, r)| r)
        .collect();
    let pairs: Vec<(&Record, &Record)> = finals.iter().map(|r| (&existing[&r.id], *r)).collect();
    update_rows(db, spec, &pairs)?;
    let named: Vec<Vec<bool>> = finals
        .iter()
        .map(|r| named_once.remove(&r.id).unwrap_or_default())
        .collect();
    write_links(db, spec, &finals, Some(&named))?;
    if spec.change_logged {
        let names = tag_names(db, spec, before.iter().chain(&records), &related)?;
        let mut changes = Vec::with_capacity(records.len());
        for (old, record) in before.iter().zip(&records) {
            let pre = snapshot(&names, spec, old, None);
            let post = snapshot(&names, spec, record, Some(old));
            changes.push(Change {
                record,
                action: Action::Update,
                pre: Some(pre),
                post: Some(post),
            });
        }
        record_changes(db, ctx, spec, &related, changes)?;
    }
    as_read(spec, &mut records, false);
    crate::query::fill_computed(db, spec, &mut records)?;
    if latest.len() < records.len() {
        records = (0..records.len())
            .map(|i| records[latest[&records[i].id]].clone())
            .collect();
    }
    Ok((records, related))
}

/// How `lock_rows` locks.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Lock {
    /// For an update, which changes no key: inserts that refer to the rows still go on.
    NoKeyUpdate,
    /// For a delete.
    Update,
}

/// On PostgreSQL, locks the rows `ids` of `spec`, in the order of their ids, before a
/// write reads them. Two writes of the same rows then wait for each other instead of each
/// reading the state the other is about to change (their change records would not match
/// the object), and never take their locks in opposite orders (a deadlock). SQLite's
/// writers run one at a time: nothing to do there.
pub(crate) fn lock_rows(
    db: &mut Db<'_>,
    spec: &ResourceSpec,
    ids: &[i64],
    lock: Lock,
) -> Result<(), Error> {
    if db.backend() != crate::Backend::Postgres || ids.is_empty() {
        return Ok(());
    }
    let mut sorted = ids.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut sql = Sql::new(&format!("SELECT id FROM {} WHERE ", spec.table));
    sql.in_primary_key(db.backend(), "id", &sorted);
    sql.push(match lock {
        Lock::NoKeyUpdate => " ORDER BY id FOR NO KEY UPDATE",
        Lock::Update => " ORDER BY id FOR UPDATE",
    });
    db.load(&sql)?;
    Ok(())
}
