//! Reads: filters compiled to SQL, pages, single objects, and the related objects a page
//! renders, loaded with a fixed number of queries whatever the page size.

mod column;
pub(crate) mod filter;
pub(crate) mod inline;
pub(crate) mod joined;
pub(crate) mod objects;
mod order_read;
mod ordered;
pub(crate) mod page;
pub(crate) mod relations;
mod search;

use rustc_hash::FxHashMap;
use std::sync::Arc;

use peering_domain::spec::Kind;
use peering_domain::{Record, ResourceSpec, Value};

use crate::connection::Db;
use crate::error::Error;
use crate::schema::{cell_to_value, Table};
use crate::sql::{DbRow, Sql};
use crate::versions::TableVersions;

pub(crate) use objects::{
    by_ids, details, fill_computed, in_order, shallow_by_ids, shallow_referring,
};
pub(crate) use ordered::counted_by_kept_order;
pub(crate) use ordered::ids_kept_at;
pub(crate) use page::{
    everything, list, list_ids, page_assembled, page_in_slices, picked_in_slices,
};
pub use page::{EachSlice, PageSlice, PickIds};
pub(crate) use relations::{load_reads, load_related};

/// Objects related to the ones being rendered, by `(table, id)`.
#[derive(Debug, Default, Clone)]
pub struct Related {
    /// Looked up for every relation of every object rendered: a fast hash, as the keys
    /// are our own tables and ids.
    map: FxHashMap<(&'static str, i64), Arc<Record>>,
    /// The versions under which this read takes and keeps related objects (`kept.rs`),
    /// once read.
    kept_at: Option<KeptAt>,
}

/// The versions of the tables a read may take kept objects of.
#[derive(Debug, Clone)]
struct KeptAt {
    tables: &'static [&'static str],
    versions: TableVersions,
}

impl peering_domain::spec::RelatedLookup for Related {
    fn related(&self, spec: &ResourceSpec, id: i64) -> Option<&Record> {
        self.get(spec, id)
    }
}

impl Related {
    pub fn get(&self, spec: &ResourceSpec, id: i64) -> Option<&Record> {
        self.map.get(&(spec.table, id)).map(Arc::as_ref)
    }

    fn insert(&mut self, spec: &'static ResourceSpec, record: Record) {
        self.insert_shared(spec, Arc::new(record));
    }

    fn insert_shared(&mut self, spec: &'static ResourceSpec, record: Arc<Record>) {
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

impl Window {
    /// The list's count, when the page read through this window tells it: a page shorter
    /// than the window ends the list, so the list holds its offset and its rows (most
    /// filtered lists and searches fit in one page, whose count then costs no statement).
    /// An empty page past the first tells nothing: the list may end anywhere before it.
    pub(crate) fn count_from(self, rows: usize) -> Option<i64> {
        let rows = i64::try_from(rows).ok()?;
        let short = self.limit.is_none_or(|limit| rows < limit);
        (short && (rows > 0 || self.offset == 0)).then_some(self.offset + rows)
    }
}

/// Builds a record from a row whose columns (id, then the stored columns) start at
/// `offset`, without computed counts and values.
pub(crate) fn shallow_record(table: &Table, row: &mut DbRow, offset: usize) -> Record {
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
    Record { id, values }
}

/// Builds a record from a row whose columns start at `offset` and end it, with its computed
/// counts and values when the row has them.
pub(crate) fn record_from_row(table: &Table, row: &mut DbRow, offset: usize) -> Record {
    let spec = table.spec;
    let Record { id, mut values } = shallow_record(table, row, offset);
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

/// Records from the rows of `sql`, which carry `inline`'s columns after the objects' own:
/// their lists filled, the versions kept objects are taken under noted in `related`.
pub(super) fn load_carrying(
    db: &mut Db<'_>,
    table: &Table,
    sql: &Sql,
    inline: &inline::Inline,
    related: &mut Related,
) -> Result<Vec<Record>, Error> {
    let rows = db.load(sql)?;
    Ok(records_carrying(table, rows, inline, related))
}

/// The same, for rows that end with one more column, the same in every row (versions
/// listed, `inline::versions_column`): the records, and that column's text (`None` for
/// no row).
pub(super) fn load_checked(
    db: &mut Db<'_>,
    table: &Table,
    sql: &Sql,
    inline: &inline::Inline,
    related: &mut Related,
) -> Result<(Vec<Record>, Option<String>), Error> {
    let mut rows = db.load(sql)?;
    let mut last = None;
    for row in &mut rows {
        last = row.0.pop();
    }
    let records = records_carrying(table, rows, inline, related);
    Ok((
        records,
        last.map(|cell| cell.into_text().unwrap_or_default()),
    ))
}

fn records_carrying(
    table: &Table,
    rows: Vec<DbRow>,
    inline: &inline::Inline,
    related: &mut Related,
) -> Vec<Record> {
    (rows.into_iter())
        .map(|mut row| {
            let carried = inline.take(&mut row);
            let mut record = record_from_row(table, &mut row, 0);
            inline.fill(&mut record, carried, related);
            record
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::Window;

    fn window(limit: Option<i64>, offset: i64) -> Window {
        Window { limit, offset }
    }

    #[test]
    fn a_short_page_tells_the_count_and_a_full_or_empty_later_one_does_not() {
        assert_eq!(window(Some(50), 0).count_from(3), Some(3));
        assert_eq!(window(Some(50), 0).count_from(0), Some(0));
        assert_eq!(window(Some(50), 100).count_from(7), Some(107));
        assert_eq!(window(None, 10).count_from(5), Some(15));
        // A full page: more may follow.
        assert_eq!(window(Some(50), 0).count_from(50), None);
        // Nothing at offset 100: the list may hold anywhere from 0 to 100.
        assert_eq!(window(Some(50), 100).count_from(0), None);
        assert_eq!(window(None, 100).count_from(0), None);
        // `limit=0` reads no row, so tells nothing.
        assert_eq!(window(Some(0), 0).count_from(0), None);
    }

    #[test]
    fn a_count_told_by_a_page_is_the_lists_length() {
        // Every list of up to 12 rows, read through every window over it.
        for length in 0..12i64 {
            for offset in 0..14 {
                for limit in [None, Some(0), Some(1), Some(3), Some(5), Some(20)] {
                    let end = limit.map_or(length, |l| (offset + l).min(length));
                    let rows = usize::try_from((end - offset).max(0)).unwrap_or(0);
                    if let Some(told) = window(limit, offset).count_from(rows) {
                        assert_eq!(told, length, "{limit:?} at {offset}: {rows} rows");
                    }
                }
            }
        }
    }
}
