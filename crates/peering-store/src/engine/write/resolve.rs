//! References in a write's drafts resolved to ids: by id or by attributes, remembered
//! within a call, with the reference's messages for those that name nothing.

use std::collections::{BTreeSet, HashMap};

use peering_domain::input::{Draft, Input, Ref};
use peering_domain::resources::TAG;
use peering_domain::spec::{Field, Kind};
use peering_domain::{FieldErrors, ResourceSpec, Value};
use serde_json::{Map, Value as Json};

use crate::connection::Db;
use crate::error::Error;
use crate::schema::table;
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
}

impl Memo {
    /// Looks up every distinct id reference of `drafts` up front, one query per target,
    /// so that a list referring to a thousand peers costs one statement instead of a
    /// thousand (each a round trip on PostgreSQL: 1,000 sessions, 145 ms to ~85 ms). Ids
    /// not found stay unknown: resolving them later gives their usual error.
    pub(super) fn prefetch_ids<'d>(
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
pub(super) fn resolve(
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
            Some(Input::Refs(refs)) => Some(resolve_list(db, memo, field, &refs, &mut errors)?),
        };
        out.push(value);
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(Error::invalid(errors))
    }
}

/// A relation list's references as ids (in id order). Those that name nothing are the
/// field's errors: one list per item for tags, a flat list of messages otherwise, as the
/// reference's serializers give them.
fn resolve_list(
    db: &mut Db<'_>,
    memo: &mut Memo,
    field: &Field,
    refs: &[Ref],
    errors: &mut FieldErrors,
) -> Result<Value, Error> {
    let target = match field.kind {
        Kind::ManyToMany { target, .. } => target(),
        _ => &TAG,
    };
    let mut ids = BTreeSet::new();
    let mut item_errors = Vec::new();
    let mut failed = false;
    for r in refs {
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
    Ok(Value::Ids(ids.into_iter().collect()))
}

#[cfg(test)]
mod tests;
