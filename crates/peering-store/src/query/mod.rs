//! Reads: filters compiled to SQL, pages, single objects, and the related objects a page
//! renders, loaded with a fixed number of queries whatever the page size.

mod column;
pub(crate) mod filter;
pub(crate) mod objects;
pub(crate) mod page;
pub(crate) mod relations;
mod search;

use std::collections::HashMap;

use peering_domain::spec::Kind;
use peering_domain::{Record, ResourceSpec, Value};

use crate::connection::Db;
use crate::error::Error;
use crate::schema::{cell_to_value, Table};
use crate::sql::{DbRow, Sql};

pub(crate) use objects::{by_ids, fill_computed, in_order, shallow_by_ids, shallow_referring};
pub(crate) use page::{everything, list, list_ids};
pub(crate) use relations::{load_reads, load_related};

/// Objects related to the ones being rendered, by `(table, id)`.
#[derive(Debug, Default, Clone)]
pub struct Related {
    map: HashMap<(&'static str, i64), Record>,
}

impl peering_domain::spec::RelatedLookup for Related {
    fn related(&self, spec: &ResourceSpec, id: i64) -> Option<&Record> {
        self.get(spec, id)
    }
}

impl Related {
    pub fn get(&self, spec: &ResourceSpec, id: i64) -> Option<&Record> {
        self.map.get(&(spec.table, id))
    }

    fn insert(&mut self, spec: &'static ResourceSpec, record: Record) {
        self.map.insert((spec.table, record.id), record);
    }
}

/// One page of a list.
#[derive(Debug)]
pub struct Page {
    pub count: i64,
    pub records: Vec<Record>,
    pub related: Related,
}

/// Which slice of a list to read; `limit: None` reads to the end.
#[derive(Debug, Clone, Copy)]
pub struct Window {
    pub limit: Option<i64>,
    pub offset: i64,
}

/// Builds a record from a row whose columns start at `offset`.
pub(crate) fn record_from_row(table: &Table, row: &mut DbRow, offset: usize) -> Record {
    let spec = table.spec;
    let id = row.int(offset);
    let mut values: Vec<Value> = spec
        .fields
        .iter()
        .map(|f| match f.kind {
            Kind::ManyToMany { .. } | Kind::Tags => Value::Ids(Vec::new()),
            _ => Value::Null,
        })
        .collect();
    for (i, col) in table.columns.iter().enumerate() {
        let cell = row.take(offset + 1 + i);
        values[col.field] = cell_to_value(&spec.fields[col.field].kind, cell);
    }
    let mut next = offset + 1 + table.columns.len();
    for (i, field) in spec.fields.iter().enumerate() {
        if next >= row.0.len() {
            // Loaded without its computed counts.
            break;
        }
        if let Kind::ReverseCount { .. } = field.kind {
            values[i] = cell_to_value(&field.kind, row.take(next));
            next += 1;
        }
    }
    for &(i, _) in &table.computed {
        if next >= row.0.len() {
            break;
        }
        values[i] = cell_to_value(&spec.fields[i].kind, row.take(next));
        next += 1;
    }
    Record { id, values }
}

pub(super) fn load_records(
    db: &mut Db<'_>,
    table: &Table,
    sql: &Sql,
) -> Result<Vec<Record>, Error> {
    Ok(db
        .load(sql)?
        .into_iter()
        .map(|mut row| record_from_row(table, &mut row, 0))
        .collect())
}
