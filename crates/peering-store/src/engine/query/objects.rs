//! Objects read by id (with their relations, or shallow), objects referring to others,
//! and the computed values of objects just written.

use std::collections::HashMap;

use rustc_hash::FxHashMap;

use peering_domain::{Record, ResourceSpec, Value};

use super::inline::{versions_column, Inline};
use super::relations::{attach_relations, load_links, load_reads, load_related};
use super::{load_carrying, load_checked, load_records, Related};
use crate::connection::{Backend, Db};
use crate::error::Error;
use crate::schema::{cell_to_value, table, Table};
use crate::sql::{Bind, Sql};
use crate::versions::TableVersions;

/// Up to this many objects read by id carry their relation lists in their rows; more take
/// them from one links statement. A list subquery runs once per row, and for a slice of a
/// large page the batched statement costs less (docs/performance.md, nineteenth round).
const LISTS_CARRIED_UP_TO: usize = 50;

/// Objects by id in the order given (ids of objects deleted since are skipped), with their
/// relations, or only what their labels read.
pub(crate) fn in_order(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    ids: &[i64],
    relations: bool,
) -> Result<(Vec<Record>, Related), Error> {
    let (records, related, _) = in_order_checked(db, spec, ids, relations, &[])?;
    Ok((records, related))
}

/// The same, with the versions of `checked` (as one value, `TableVersions::of`) read by
/// the statement that reads the objects, when there are any and an object was found.
pub(crate) fn in_order_checked(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    ids: &[i64],
    relations: bool,
    checked: &[&str],
) -> Result<(Vec<Record>, Related, Option<i64>), Error> {
    let mut related = Related::default();
    let mut version = None;
    let mut records = if ids.is_empty() {
        Vec::new()
    } else {
        let mut inline = Inline::of(db, spec, relations);
        if ids.len() > LISTS_CARRIED_UP_TO {
            inline = inline.without_lists();
        }
        let table = table(spec);
        let mut extra = inline.columns(db.backend());
        if !checked.is_empty() {
            extra.append(&versions_column(db.backend(), checked));
        }
        let sql = by_ids_sql(db.backend(), table, ids, &extra);
        let mut records = if checked.is_empty() {
            load_carrying(db, table, &sql, &inline, &mut related)?
        } else {
            let (records, listed) = load_checked(db, table, &sql, &inline, &mut related)?;
            version = listed.map(|listed| TableVersions::from_listed(&listed).of(checked));
            records
        };
        if relations && !inline.carries_lists() {
            load_links(db, spec, &mut records)?;
        }
        records
    };
    let position: FxHashMap<i64, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    records.sort_unstable_by_key(|r| position.get(&r.id).copied());
    if relations {
        load_related(db, spec, &mut records, &mut related)?;
    } else {
        load_reads(db, spec, &records, &mut related)?;
    }
    Ok((records, related, version))
}

/// Reads objects by id, with their relations, in id order.
pub(crate) fn by_ids(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    ids: &[i64],
) -> Result<(Vec<Record>, Related), Error> {
    let mut related = Related::default();
    if ids.is_empty() {
        return Ok((Vec::new(), related));
    }
    // One object is read in one statement with what it points to and its lists
    // (`joined.rs`). Several are read as a write's batch: the same statements whatever
    // its size.
    if let [_] = ids {
        if let Some(found) = joined(db, spec, ids)? {
            return Ok(found);
        }
    }
    let mut records = load_by_ids(db, spec, ids, true)?;
    attach_relations(db, spec, &mut records, &mut related)?;
    Ok((records, related))
}

/// The objects of details asked at the same time (`together.rs`, a few ids), read as one
/// detail is: in one statement where the resource has a joined plan.
pub(crate) fn details(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    ids: &[i64],
) -> Result<(Vec<Record>, Related), Error> {
    match joined(db, spec, ids)? {
        Some(found) => Ok(found),
        None => by_ids(db, spec, ids),
    }
}

/// Objects by id through the resource's joined plan (`joined.rs`), then the related
/// objects not kept between reads; none without a plan.
fn joined(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    ids: &[i64],
) -> Result<Option<(Vec<Record>, Related)>, Error> {
    let Some(plan) = super::joined::plan(spec) else {
        return Ok(None);
    };
    let mut related = Related::default();
    let mut records = plan.read(db, spec, ids, &mut related)?;
    load_related(db, spec, &mut records, &mut related)?;
    Ok(Some((records, related)))
}

/// Reads objects by id without their relations nor computed counts.
pub(crate) fn shallow_by_ids(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    ids: &[i64],
) -> Result<Vec<Record>, Error> {
    load_by_ids(db, spec, ids, false)
}

/// Reads, without relations, the objects of `spec` whose `column` holds one of `ids` (for a
/// generic relation, `object_id`, with `content_type` naming the resource), in id order.
pub(crate) fn shallow_referring(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    column: &str,
    content_type: Option<(&str, String)>,
    ids: &[i64],
) -> Result<Vec<Record>, Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let table = table(spec);
    let mut sql = Sql::new(&table.select_columns);
    sql.push(" WHERE ");
    if let Some((type_column, content_type)) = content_type {
        sql.push(&format!("o.{type_column} = "))
            .bind(Bind::Text(content_type))
            .push(" AND ");
    }
    sql.in_ids(db.backend(), &format!("o.{column}"), ids)
        .push(" ORDER BY o.id");
    load_records(db, table, &sql)
}

fn load_by_ids(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    ids: &[i64],
    counts: bool,
) -> Result<Vec<Record>, Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let table = table(spec);
    let sql = if counts {
        by_ids_sql(db.backend(), table, ids, &Sql::default())
    } else {
        shallow_by_ids_sql(db.backend(), table, ids)
    };
    load_records(db, table, &sql)
}

/// Objects by id (not none), in id order, with their computed counts and values and the
/// `extra` columns (`inline.rs`).
pub(crate) fn by_ids_sql(backend: Backend, table: &Table, ids: &[i64], extra: &Sql) -> Sql {
    ids_sql(backend, table.select_with(extra), ids)
}

/// Objects by id (not none), in id order, without their computed counts and values.
pub(crate) fn shallow_by_ids_sql(backend: Backend, table: &Table, ids: &[i64]) -> Sql {
    ids_sql(backend, Sql::new(&table.select_columns), ids)
}

fn ids_sql(backend: Backend, mut sql: Sql, ids: &[i64]) -> Sql {
    if ids.len() == 1 {
        sql.push(" WHERE o.id = ").bind(Bind::Int(ids[0]));
    } else {
        sql.push(" WHERE ").in_primary_key(backend, "o.id", ids);
    }
    sql.push(" ORDER BY o.id");
    sql
}

/// Sets the computed values of objects just written, as a read would show them.
pub(crate) fn fill_computed(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    records: &mut [Record],
) -> Result<(), Error> {
    let table = table(spec);
    if table.computed.is_empty() || records.is_empty() {
        return Ok(());
    }
    let mut sql = Sql::new("SELECT o.id");
    for (_, expression) in &table.computed {
        sql.push(&format!(", {expression}"));
    }
    sql.push(&format!(" FROM {} o WHERE ", spec.table));
    let ids: Vec<i64> = records.iter().map(|r| r.id).collect();
    sql.in_primary_key(db.backend(), "o.id", &ids);
    let mut computed = HashMap::new();
    for mut row in db.load(&sql)? {
        let id = row.int(0);
        let values: Vec<Value> = (1..=table.computed.len())
            .zip(&table.computed)
            .map(|(at, &(i, _))| cell_to_value(&spec.fields[i].kind, row.take(at)))
            .collect();
        computed.insert(id, values);
    }
    for record in records {
        if let Some(values) = computed.remove(&record.id) {
            for (&(i, _), value) in table.computed.iter().zip(values) {
                record.values[i] = value;
            }
        }
    }
    Ok(())
}
