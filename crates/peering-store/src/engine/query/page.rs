//! Lists: their order, their pages (a deep page walks ids first) and counts, every id of a
//! list, and a whole resource for templates.

use peering_domain::{Record, ResourceSpec};
use peering_filter::Filter;

use super::filter::compile_filter;
use super::inline::Inline;
use super::ordered;
use super::relations::{load_links, load_reads, load_related};
use super::{load_carrying, load_records, Page, Related, Window};
use crate::connection::{Backend, Db};
use crate::error::Error;
use crate::schema::{table, Table};
use crate::sql::{Bind, Sql};

/// `ORDER BY …`, always ending in `id` so that pages never overlap.
pub(crate) fn order_by(table: &Table, filter: &Filter) -> String {
    let mut terms: Vec<(String, bool)> = if filter.ordering.is_empty() {
        table
            .spec
            .ordering
            .iter()
            .map(|t| match t.strip_prefix('-') {
                Some(name) => (name.to_string(), true),
                None => (t.to_string(), false),
            })
            .collect()
    } else {
        filter
            .ordering
            .iter()
            .map(|t| (t.field.clone(), t.descending))
            .collect()
    };
    if !terms.iter().any(|(f, _)| f == "id") {
        terms.push(("id".into(), false));
    }
    let mut sql = String::from(" ORDER BY ");
    let mut first = true;
    for (name, desc) in terms {
        let (value, nullable) = match table.order_columns.get(name.as_str()) {
            Some((column, nullable)) => (format!("o.{column}"), *nullable),
            None => match table.related_order.get(name.as_str()) {
                Some(value) => (value.clone(), true),
                None => continue,
            },
        };
        if !first {
            sql.push_str(", ");
        }
        first = false;
        let dir = if desc { "DESC" } else { "ASC" };
        // NULLs sort last ascending and first descending on both databases.
        if nullable {
            sql.push_str(&format!("({value} IS NULL) {dir}, "));
        }
        sql.push_str(&format!("{value} {dir}"));
    }
    sql
}

pub(crate) fn where_clause(conditions: &Sql) -> Sql {
    let mut sql = Sql::default();
    if !conditions.is_empty() {
        sql.push(" WHERE ").append(conditions);
    }
    sql
}

/// From this offset on, a page's skipped rows are walked as ids only.
const DEFERRED_OFFSET: i64 = 1000;

/// `LIMIT … OFFSET …` of a window.
fn limit_offset(backend: Backend, window: Window) -> Sql {
    let mut sql = Sql::default();
    match (window.limit, backend) {
        (Some(limit), _) => {
            sql.push(" LIMIT ").bind(Bind::Int(limit));
        }
        (None, Backend::Sqlite) => {
            sql.push(" LIMIT -1");
        }
        (None, Backend::Postgres) => {}
    }
    sql.push(" OFFSET ").bind(Bind::Int(window.offset));
    sql
}

/// `SELECT COUNT(*)` of the rows `conditions` select.
fn count_of(table: &Table, conditions: &Sql) -> Sql {
    let mut sql = Sql::new(&format!("SELECT COUNT(*) FROM {} o", table.spec.table));
    sql.append(&where_clause(conditions));
    sql
}

/// The statements of a page: its total count, and its rows, with `extra` columns after
/// the objects' own (`inline.rs`).
pub(crate) fn page_sql(
    backend: Backend,
    table: &Table,
    (filter, window): (&Filter, Window),
    extra: &Sql,
) -> (Sql, Sql) {
    let conditions = compile_filter(backend, table, filter);
    let count_sql = count_of(table, &conditions);

    let order = order_by(table, filter);
    let slice = limit_offset(backend, window);
    let mut sql = table.select_with(extra);
    // Extra columns are subqueries: computed for every row a statement walks, the rows an
    // offset skips and, on SQLite, every row sorted, they are computed for the page's rows
    // alone when those are found first.
    let ids_first = window.offset >= DEFERRED_OFFSET || !extra.is_empty();
    if ids_first && window.limit.is_some() {
        // The rows skipped are walked as ids only (through an index in list order where
        // there is one), then the page's rows are read by id. On PostgreSQL the ids go
        // through an array, which the planner reads by primary key: as an `IN` it hashed
        // them against a scan of the whole table (2.5 of 9 ms for a deep page of 5,000
        // autonomous systems).
        let (ids_in, ids_end) = match backend {
            Backend::Sqlite => ("IN (", ")"),
            Backend::Postgres => ("= ANY(ARRAY(", "))"),
        };
        sql.push(&format!(
            " WHERE o.id {ids_in}SELECT o.id FROM {} o",
            table.spec.table
        ))
        .append(&where_clause(&conditions))
        .push(&order)
        .append(&slice)
        .push(ids_end)
        .push(&order);
    } else {
        sql.append(&where_clause(&conditions))
            .push(&order)
            .append(&slice);
    }
    (count_sql, sql)
}

/// Whether a page is known to hold no rows (an empty window, or past the list's known end).
fn holds_no_rows(window: Window, known_count: Option<i64>) -> bool {
    window.limit == Some(0) || known_count.is_some_and(|count| count <= window.offset)
}

/// A list's count: the one known, the one a page of `rows` rows tells, or counted.
fn page_count(
    db: &mut Db<'_>,
    (window, known_count): (Window, Option<i64>),
    rows: usize,
    count_sql: &Sql,
) -> Result<i64, Error> {
    match known_count.or_else(|| window.count_from(rows)) {
        Some(count) => Ok(count),
        None => Ok(db.scalar(count_sql)?.unwrap_or(0)),
    }
}

/// Reads one page of a resource's list and its total count (unless `known_count` gives it).
pub(crate) fn list(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    filter: &Filter,
    window: Window,
    relations: bool,
    known_count: Option<i64>,
) -> Result<Page, Error> {
    if let Some(page) = ordered::page(db, spec, (filter, window), relations)? {
        return Ok(page);
    }
    let table = table(spec);
    let inline = Inline::of(db, spec, relations);
    let extra = inline.columns(db.backend());
    let (count_sql, sql) = page_sql(db.backend(), table, (filter, window), &extra);
    let mut related = Related::default();
    let records = if holds_no_rows(window, known_count) {
        Vec::new()
    } else {
        load_carrying(db, table, &sql, &inline, &mut related)?
    };
    let count = page_count(db, (window, known_count), records.len(), &count_sql)?;
    let mut page = Page {
        count,
        records,
        related,
    };
    if relations {
        load_related(db, spec, &mut page.records, &mut page.related)?;
    } else {
        load_reads(db, spec, &page.records, &mut page.related)?;
    }
    Ok(page)
}

/// Reads one page in slices of `slice` objects: the page's ids first, then each slice's
/// objects by id, handed to `each` with the list's count before the next slice is read. A
/// large page then holds one slice's objects at a time instead of all of them. `each` runs
/// at least once, with no objects when the page is empty. Run in one read transaction
/// (`Store::read_snapshot`), the page is the one a single statement would have read.
pub(crate) fn page_in_slices(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    (filter, window): (&Filter, Window),
    (relations, known_count): (bool, Option<i64>),
    slice: usize,
    each: &mut dyn FnMut(i64, &[Record], &Related),
) -> Result<i64, Error> {
    let (ids, count) = match ordered::ids_in_snapshot(db, spec, (filter, window))? {
        Some(through_kept_order) => through_kept_order,
        None => page_ids(db, spec, (filter, window), known_count)?,
    };
    if ids.is_empty() {
        each(count, &[], &Related::default());
    }
    for slice_ids in ids.chunks(slice.max(1)) {
        let (records, related) = super::in_order(db, spec, slice_ids, relations)?;
        each(count, &records, &related);
    }
    Ok(count)
}

/// Reads one page for objects kept rendered: its ids and the list's count, then the page
/// slice by slice (`picked_in_slices`). Returns the count.
pub(crate) fn page_assembled(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    (filter, window): (&Filter, Window),
    (relations, known_count): (bool, Option<i64>),
    slice: usize,
    (pick, each): (PickIds<'_>, EachSlice<'_>),
) -> Result<i64, Error> {
    let (ids, count) = match ordered::ids_in_snapshot(db, spec, (filter, window))? {
        Some(through_kept_order) => through_kept_order,
        None if window.limit.is_some_and(|limit| limit <= slice as i64) => {
            // A page of one slice, through no kept order: read whole, objects and their
            // related ones inline, as without texts (its ids first, then the objects not
            // kept, would take a statement and, on PostgreSQL, a round trip more).
            let page = list(db, spec, filter, window, relations, known_count)?;
            let ids: Vec<i64> = page.records.iter().map(|r| r.id).collect();
            let missing = pick(PageSlice {
                count: page.count,
                ids: &ids,
            });
            let to_render: Vec<Record> = (page.records.into_iter())
                .filter(|r| missing.contains(&r.id))
                .collect();
            each(&to_render, &page.related);
            return Ok(page.count);
        }
        None => page_ids(db, spec, (filter, window), known_count)?,
    };
    let mut read = |ids: &[i64]| super::in_order(db, spec, ids, relations);
    picked_in_slices((&ids, count), slice, &mut read, (pick, each))?;
    Ok(count)
}

/// The page of `ids` (of a list of `count`), `slice` ids at a time: `pick` says which of a
/// slice's objects to read, `read` reads them, and `each` takes them, before the next
/// slice. At least one slice, with no ids for an empty page.
pub(crate) fn picked_in_slices(
    (ids, count): (&[i64], i64),
    slice: usize,
    read: ReadIds<'_>,
    (pick, each): (PickIds<'_>, EachSlice<'_>),
) -> Result<(), Error> {
    let empty: &[i64] = &[];
    let slices: Vec<&[i64]> = if ids.is_empty() {
        vec![empty]
    } else {
        ids.chunks(slice.max(1)).collect()
    };
    for slice_ids in slices {
        let page = PageSlice {
            count,
            ids: slice_ids,
        };
        let missing = pick(page);
        if missing.is_empty() {
            each(&[], &Related::default());
        } else {
            let (records, related) = read(&missing)?;
            each(&records, &related);
        }
    }
    Ok(())
}

/// Reads the objects of some ids, in their order.
pub(crate) type ReadIds<'a> = &'a mut dyn FnMut(&[i64]) -> Result<(Vec<Record>, Related), Error>;

/// A slice of a page: the list's count and the slice's ids.
#[derive(Debug, Clone, Copy)]
pub struct PageSlice<'a> {
    pub count: i64,
    pub ids: &'a [i64],
}

/// Of a slice of a page's ids, those whose objects must be read.
pub type PickIds<'a> = &'a mut dyn FnMut(PageSlice<'_>) -> Vec<i64>;
/// What is done with each slice's objects read (after its `PickIds`).
pub type EachSlice<'a> = &'a mut dyn FnMut(&[Record], &Related);

/// The ids of a page, walking the rows before its offset, and the list's count.
fn page_ids(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    (filter, window): (&Filter, Window),
    known_count: Option<i64>,
) -> Result<(Vec<i64>, i64), Error> {
    let table = table(spec);
    let conditions = compile_filter(db.backend(), table, filter);
    let ids: Vec<i64> = if holds_no_rows(window, known_count) {
        Vec::new()
    } else {
        let mut sql = Sql::new(&format!("SELECT o.id FROM {} o", spec.table));
        sql.append(&where_clause(&conditions))
            .push(&order_by(table, filter))
            .append(&limit_offset(db.backend(), window));
        db.load(&sql)?.iter().map(|row| row.int(0)).collect()
    };
    let count = page_count(
        db,
        (window, known_count),
        ids.len(),
        &count_of(table, &conditions),
    )?;
    Ok((ids, count))
}

/// Every id of a list, in list order: an answer too large to read at once is then read in
/// slices of ids.
pub(crate) fn list_ids(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    filter: &Filter,
) -> Result<Vec<i64>, Error> {
    let table = table(spec);
    let mut sql = Sql::new(&format!("SELECT o.id FROM {} o", spec.table));
    sql.append(&where_clause(&compile_filter(db.backend(), table, filter)))
        .push(&order_by(table, filter));
    Ok(db.load(&sql)?.iter().map(|row| row.int(0)).collect())
}

/// Every object of a resource in list order, relation lists filled, related objects not
/// loaded (templates follow relations through their own copy of each resource).
pub(crate) fn everything(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
) -> Result<Vec<Record>, Error> {
    let table = table(spec);
    let mut sql = Sql::new(&table.select);
    sql.push(&order_by(table, &Filter::default()));
    let mut records = load_records(db, table, &sql)?;
    load_links(db, spec, &mut records)?;
    Ok(records)
}
