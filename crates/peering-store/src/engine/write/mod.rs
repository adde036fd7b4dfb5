//! Writes: creates, updates and imports, each with its change records, run by the caller
//! inside one transaction so that a list of objects is written all-or-none; and the row
//! locks updates and deletes take first.

mod insert;
mod links;
mod resolve;
pub(crate) mod unique;
pub(crate) mod update;

use peering_domain::spec::Kind;
use peering_domain::value::now;
use peering_domain::{Record, ResourceSpec, Value};

use crate::connection::Db;
use crate::error::Error;
use crate::schema::{lower_bind, stored_value, table, value_to_bind};
use crate::sql::{Bind, Sql};

pub use insert::ImportedObject;
pub(crate) use insert::{create, import, insert_records, realign_sequence};
pub(crate) use update::update;

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

pub(super) fn set_times(spec: &ResourceSpec, values: &mut [Value], creating: bool) {
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

/// Written objects as a read shows them, without reading them back: each column's value
/// as the column keeps it and, for new objects, no dependents yet (ids are never reused).
/// Relation lists are already in id order, as resolved.
pub(super) fn as_read(spec: &'static ResourceSpec, records: &mut [Record], new: bool) {
    let columns = &table(spec).columns;
    for record in records {
        for col in columns {
            let value = &mut record.values[col.field];
            *value = stored_value(&spec.fields[col.field].kind, value);
        }
        for (field, value) in spec.fields.iter().zip(record.values.iter_mut()) {
            match field.kind {
                Kind::ReverseCount { .. } if new => *value = Value::Int(0),
                Kind::DisplayCopy | Kind::Derived { .. } | Kind::GenericObject { .. } => {
                    *value = Value::Null
                }
                _ => {}
            }
        }
    }
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
