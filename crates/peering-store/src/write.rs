//! Writes: creates, updates and deletes, each with its change records, run by the caller
//! inside one transaction so that a list of objects is written all-or-none.

use std::collections::{BTreeSet, HashMap};

use peering_domain::input::{apply, Draft, Input, Ref};
use peering_domain::resources::{ALL, TAG};
use peering_domain::spec::{Kind, OnDelete};
use peering_domain::value::now;
use peering_domain::{FieldErrors, Record, ResourceSpec, Value};
use serde_json::{Map, Value as Json};

use crate::changes::{record_change, snapshot, Action, ChangeContext};
use crate::connection::Db;
use crate::error::Error;
use crate::query::shallow_by_ids;
use crate::schema::{lower_bind, table, value_to_bind};
use crate::sql::{Bind, Sql};

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
    pub tag_names: HashMap<i64, String>,
}

/// Finds the one object a reference designates (remembered for the rest of the call).
fn resolve_ref(
    db: &mut Db<'_>,
    memo: &mut Memo,
    target: &'static ResourceSpec,
    r: &Ref,
) -> Result<i64, String> {
    let key = match r {
        Ref::Id(id) => format!("#{id}"),
        Ref::Attrs(attrs) => Json::Object(attrs.clone()).to_string(),
    };
    if let Some(id) = memo.refs.get(&(target.table, key.clone())) {
        return Ok(*id);
    }
    let id = lookup_ref(db, target, r)?;
    memo.refs.insert((target.table, key), id);
    Ok(id)
}

fn lookup_ref(db: &mut Db<'_>, target: &'static ResourceSpec, r: &Ref) -> Result<i64, String> {
    match r {
        Ref::Id(id) => {
            let mut sql = Sql::new(&format!("SELECT id FROM {} WHERE id = ", target.table));
            sql.bind(Bind::Int(*id));
            match db.scalar(&sql) {
                Ok(Some(found)) => Ok(found),
                Ok(None) => Err(format!(
                    "Related object not found using the provided numeric ID: {id}"
                )),
                Err(e) => Err(e.to_string()),
            }
        }
        Ref::Attrs(attrs) => {
            let not_found = || {
                format!(
                    "Related object not found using the provided attributes: {}",
                    python_repr(attrs)
                )
            };
            let t = table(target);
            let mut sql = Sql::new(&format!("SELECT id FROM {} o WHERE 1 = 1", target.table));
            for (key, value) in attrs {
                let (column, kind) = if key == "id" {
                    (
                        "id",
                        Kind::Int {
                            min: 0,
                            max: i64::MAX,
                        },
                    )
                } else {
                    let Some(col) = t
                        .columns
                        .iter()
                        .find(|c| target.fields[c.field].name == key.as_str())
                    else {
                        return Err(not_found());
                    };
                    (col.name, target.fields[col.field].kind)
                };
                let bind = match (value, kind) {
                    (Json::Number(n), Kind::Int { .. } | Kind::ForeignKey { .. }) => {
                        n.as_i64().map(Bind::Int)
                    }
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
                };
                // NUL cannot be stored, so no object can match it (and PostgreSQL refuses it).
                let Some(bind) = bind.filter(|b| !matches!(b, Bind::Text(t) if t.contains('\0')))
                else {
                    return Err(not_found());
                };
                sql.push(&format!(" AND o.{column} = ")).bind(bind);
            }
            sql.push(" LIMIT 2");
            let rows = db.load(&sql).map_err(|e| e.to_string())?;
            match rows.as_slice() {
                [one] => Ok(one.int(0)),
                [] => Err(not_found()),
                _ => Err(format!(
                    "Multiple objects match the provided attributes: {}",
                    python_repr(attrs)
                )),
            }
        }
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
                match resolve_ref(db, memo, target(), &r) {
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
                    match resolve_ref(db, memo, target, r) {
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

/// Refuses values that a unique field already holds in another object.
fn check_unique(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    values: &[Value],
    own_id: Option<i64>,
) -> Result<(), Error> {
    let mut errors = FieldErrors::new();
    for col in &table(spec).columns {
        let field = &spec.fields[col.field];
        let value = &values[col.field];
        if !field.unique || value.is_null() {
            continue;
        }
        let mut sql = Sql::new(&format!(
            "SELECT id FROM {} WHERE {} = ",
            spec.table, col.name
        ));
        sql.bind(value_to_bind(&field.kind, value));
        if let Some(id) = own_id {
            sql.push(" AND id <> ").bind(Bind::Int(id));
        }
        sql.push(" LIMIT 1");
        if db.scalar(&sql)?.is_some() {
            errors.add(
                field.name,
                format!(
                    "{} with this {} already exists.",
                    spec.verbose_name, field.label
                ),
            );
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Error::invalid(errors))
    }
}

/// Computes derived values and checks the rules across fields and related objects, then
/// the fields that must be unique together.
fn check_record(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    record: &mut Record,
    own_id: Option<i64>,
) -> Result<(), Error> {
    if spec.derive.is_some() || spec.validate.is_some() {
        let mut related = crate::query::Related::default();
        let mut one = [record.clone()];
        crate::query::load_reads(db, spec, &mut one, &mut related)?;
        if let Some(derive) = spec.derive {
            derive(spec, record, &related);
        }
        if let Some(validate) = spec.validate {
            let errors = validate(spec, record, &related);
            if !errors.is_empty() {
                return Err(Error::invalid(errors));
            }
        }
    }
    for (fields, message) in spec.unique_together {
        let table = table(spec);
        let mut sql = Sql::new(&format!("SELECT id FROM {} WHERE 1 = 1", spec.table));
        let mut complete = true;
        for name in *fields {
            let Some(col) = table
                .columns
                .iter()
                .find(|c| spec.fields[c.field].name == *name)
            else {
                complete = false;
                break;
            };
            let value = &record.values[col.field];
            if value.is_null() {
                complete = false;
                break;
            }
            sql.push(&format!(" AND {} = ", col.name))
                .bind(value_to_bind(&spec.fields[col.field].kind, value));
        }
        if !complete {
            continue;
        }
        if let Some(id) = own_id {
            sql.push(" AND id <> ").bind(Bind::Int(id));
        }
        sql.push(" LIMIT 1");
        if db.scalar(&sql)?.is_some() {
            return Err(Error::invalid(FieldErrors::single("__all__", *message)));
        }
    }
    Ok(())
}

/// Writes the relation lists (many-to-many and tags) given in `values`: all of them for a
/// new object (`only: None`), else those the update names, replacing the old links.
fn write_links(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    id: i64,
    values: &[Value],
    only: Option<&[Option<Value>]>,
) -> Result<(), Error> {
    for (i, field) in spec.fields.iter().enumerate() {
        if only.is_some_and(|given| given[i].is_none()) {
            continue;
        }
        let ids = values[i].as_ids();
        let (clear, mut insert) = match field.kind {
            Kind::ManyToMany {
                table: through,
                source,
                target_column,
                ..
            } => {
                let mut clear = Sql::new(&format!("DELETE FROM {through} WHERE {source} = "));
                clear.bind(Bind::Int(id));
                let insert = Sql::new(&format!(
                    "INSERT INTO {through} ({source}, {target_column}) VALUES "
                ));
                (clear, insert)
            }
            Kind::Tags => {
                let mut clear = Sql::new("DELETE FROM tagged_items WHERE object_type = ");
                clear
                    .bind(Bind::Text(spec.content_type()))
                    .push(" AND object_id = ")
                    .bind(Bind::Int(id));
                let insert =
                    Sql::new("INSERT INTO tagged_items (object_type, object_id, tag_id) VALUES ");
                (clear, insert)
            }
            _ => continue,
        };
        // A new object has no links to clear.
        if only.is_some() {
            db.execute(&clear)?;
        }
        if ids.is_empty() {
            continue;
        }
        // One statement for all the links of this relation.
        for (n, target) in ids.iter().enumerate() {
            if n > 0 {
                insert.push(", ");
            }
            insert.push("(");
            if matches!(field.kind, Kind::Tags) {
                insert.bind(Bind::Text(spec.content_type())).push(", ");
            }
            insert
                .bind(Bind::Int(id))
                .push(", ")
                .bind(Bind::Int(*target))
                .push(")");
        }
        insert.uncacheable();
        db.execute(&insert)?;
    }
    Ok(())
}

/// Appends `col = ?` pairs (or column lists) for every stored column of a record.
fn column_binds(spec: &'static ResourceSpec, values: &[Value]) -> Vec<(&'static str, Bind)> {
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

/// Creates objects from validated drafts; returns their ids in input order.
pub(crate) fn create(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    drafts: Vec<Draft>,
    ctx: &ChangeContext,
) -> Result<Vec<i64>, Error> {
    let mut ids = Vec::with_capacity(drafts.len());
    let mut memo = Memo::default();
    for (index, draft) in drafts.into_iter().enumerate() {
        let resolved = resolve(db, &mut memo, spec, draft).map_err(|e| e.at(index))?;
        let mut values = apply(spec, resolved, None);
        set_times(spec, &mut values, true);
        check_unique(db, spec, &values, None).map_err(|e| e.at(index))?;
        let mut candidate = Record { id: 0, values };
        check_record(db, spec, &mut candidate, None).map_err(|e| e.at(index))?;
        let values = candidate.values;
        let binds = column_binds(spec, &values);
        let mut sql = Sql::new(&format!("INSERT INTO {} (", spec.table));
        let names: Vec<&str> = binds.iter().map(|(n, _)| *n).collect();
        sql.push(&names.join(", ")).push(") VALUES (");
        for (i, (_, b)) in binds.into_iter().enumerate() {
            if i > 0 {
                sql.push(", ");
            }
            sql.bind(b);
        }
        sql.push(") RETURNING id");
        let id = db.scalar(&sql)?.ok_or(Error::NotFound)?;
        write_links(db, spec, id, &values, None)?;
        if spec.change_logged {
            let record = Record { id, values };
            let post = snapshot(db, &mut memo.tag_names, spec, &record)?;
            record_change(db, ctx, spec, &record, Action::Create, None, Some(post))?;
        }
        ids.push(id);
    }
    Ok(ids)
}

/// Updates existing objects; ids that do not exist are skipped. Returns the updated ids.
pub(crate) fn update(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    items: Vec<(i64, Draft)>,
    ctx: &ChangeContext,
) -> Result<Vec<i64>, Error> {
    let mut ids = Vec::with_capacity(items.len());
    let mut memo = Memo::default();
    for (index, (id, draft)) in items.into_iter().enumerate() {
        let Some(existing) = crate::query::by_ids(db, spec, &[id])?.0.pop() else {
            continue;
        };
        let resolved = resolve(db, &mut memo, spec, draft).map_err(|e| e.at(index))?;
        let given = resolved.clone();
        let mut values = apply(spec, resolved, Some(&existing));
        set_times(spec, &mut values, false);
        check_unique(db, spec, &values, Some(id)).map_err(|e| e.at(index))?;
        let mut candidate = Record { id, values };
        check_record(db, spec, &mut candidate, Some(id)).map_err(|e| e.at(index))?;
        let values = candidate.values;
        let mut sql = Sql::new(&format!("UPDATE {} SET ", spec.table));
        for (i, (name, b)) in column_binds(spec, &values).into_iter().enumerate() {
            if i > 0 {
                sql.push(", ");
            }
            sql.push(name).push(" = ").bind(b);
        }
        sql.push(" WHERE id = ").bind(Bind::Int(id));
        db.execute(&sql)?;
        write_links(db, spec, id, &values, Some(&given))?;
        if spec.change_logged {
            let pre = snapshot(db, &mut memo.tag_names, spec, &existing)?;
            let record = Record { id, values };
            let post = snapshot(db, &mut memo.tag_names, spec, &record)?;
            record_change(
                db,
                ctx,
                spec,
                &record,
                Action::Update,
                Some(pre),
                Some(post),
            )?;
        }
        ids.push(id);
    }
    Ok(ids)
}

/// Deletes objects and, by the on-delete rules, what depends on them. Refuses the whole
/// operation when any object is protected by a dependent.
pub(crate) fn delete(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    ids: &[i64],
    ctx: &ChangeContext,
) -> Result<(), Error> {
    let records = crate::query::by_ids(db, spec, ids)?.0;
    let mut blockers = Vec::new();
    for record in &records {
        blockers.extend(dependents(db, spec, record.id, OnDelete::Protect)?);
    }
    if !blockers.is_empty() {
        let mut listed = Vec::with_capacity(blockers.len());
        for (s, r) in &blockers {
            listed.push(format!(
                "{} ({})",
                crate::query::display_of(db, s, r)?,
                r.id
            ));
        }
        return Err(Error::Protected(format!(
            "unable to delete object. {} dependent objects were found: {}",
            blockers.len(),
            listed.join(", ")
        )));
    }
    for record in &records {
        delete_one(db, spec, record, ctx, true)?;
    }
    Ok(())
}

fn delete_one(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    record: &Record,
    ctx: &ChangeContext,
    top_level: bool,
) -> Result<(), Error> {
    for (dep_spec, dep) in dependents(db, spec, record.id, OnDelete::Cascade)? {
        delete_one(db, dep_spec, &dep, ctx, false)?;
    }
    if spec.change_logged {
        // The reference keeps a snapshot only for the object the request named.
        let pre = if top_level {
            Some(snapshot(db, &mut HashMap::new(), spec, record)?)
        } else {
            None
        };
        record_change(db, ctx, spec, record, Action::Delete, pre, None)?;
    }
    let mut tags = Sql::new("DELETE FROM tagged_items WHERE object_type = ");
    tags.bind(Bind::Text(spec.content_type()))
        .push(" AND object_id = ")
        .bind(Bind::Int(record.id));
    db.execute(&tags)?;
    let mut sql = Sql::new(&format!("DELETE FROM {} WHERE id = ", spec.table));
    sql.bind(Bind::Int(record.id));
    db.execute(&sql)?;
    Ok(())
}

/// Objects of any resource whose foreign key with the given rule points at `id`.
fn dependents(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    id: i64,
    rule: OnDelete,
) -> Result<Vec<(&'static ResourceSpec, Record)>, Error> {
    let mut out = Vec::new();
    // Generic relations (assignments of contacts and config contexts) go with their object.
    if rule == OnDelete::Cascade {
        for other in ALL.iter().copied() {
            if !other
                .fields
                .iter()
                .any(|f| matches!(f.kind, Kind::GenericObject))
            {
                continue;
            }
            let mut sql = Sql::new(&format!(
                "SELECT id FROM {} WHERE content_type = ",
                other.table
            ));
            sql.bind(Bind::Text(spec.content_type()))
                .push(" AND object_id = ")
                .bind(Bind::Int(id))
                .push(" ORDER BY id");
            let ids: Vec<i64> = db.load(&sql)?.iter().map(|r| r.int(0)).collect();
            for r in shallow_by_ids(db, other, &ids)? {
                out.push((other, r));
            }
        }
    }
    for other in ALL.iter().copied() {
        for field in other.fields {
            let Kind::ForeignKey { target, on_delete } = field.kind else {
                continue;
            };
            if on_delete != rule || !std::ptr::eq(target(), spec) {
                continue;
            }
            let mut sql = Sql::new(&format!(
                "SELECT id FROM {} WHERE {}_id = ",
                other.table, field.name
            ));
            sql.bind(Bind::Int(id)).push(" ORDER BY id");
            let ids: Vec<i64> = db.load(&sql)?.iter().map(|r| r.int(0)).collect();
            for r in shallow_by_ids(db, other, &ids)? {
                out.push((other, r));
            }
        }
    }
    Ok(out)
}
