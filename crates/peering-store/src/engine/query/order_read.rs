//! A list's whole order read in one statement (`ordered.rs` keeps it): its ids in order
//! and the versions of the tables it reads, one snapshot, handed over as they come so
//! that neither the database's client library nor we hold them as one long text.

use std::sync::Arc;

use peering_domain::ResourceSpec;
use peering_filter::Filter;

use super::filter::compile_filter;
use super::inline::versions_column;
use super::ordered::{order_reads, order_tables};
use super::page::{order_by, where_clause};
use crate::connection::{Backend, Db};
use crate::error::Error;
use crate::order_ids::OrderIdsBuilder;
use crate::orders::{KeptOrder, OrderIds, MOST_IDS_PER_ORDER};
use crate::schema::table;
use crate::sql::{Bind, Cell, Sql};
use crate::versions::TableVersions;

/// Every id of `spec`'s list of `filter` in its order (one more than are kept, at most),
/// with the versions of the tables the order reads, in one statement: one snapshot.
pub(super) fn read_order(
    db: &mut Db<'_>,
    (spec, filter): (&'static ResourceSpec, &Filter),
) -> Result<KeptOrder, Error> {
    let (tables, table) = (order_tables(spec), table(spec));
    let mut ordered = Sql::new(&format!("(SELECT o.id FROM {} o", spec.table));
    ordered
        .append(&where_clause(&compile_filter(db.backend(), table, filter)))
        .push(&order_by(table, filter))
        .push(" LIMIT ")
        .bind(Bind::Int(MOST_IDS_PER_ORDER as i64 + 1))
        .push(")");
    let (ids, versions) = match db.backend() {
        Backend::Sqlite => ids_as_rows(db, &ordered, tables)?,
        Backend::Postgres => ids_in_texts(db, &ordered, (tables, IDS_PER_TEXT))?,
    };
    Ok(KeptOrder {
        version: TableVersions::from_listed(&versions).of(tables),
        ids: Arc::new(ids),
        tables,
        reads: order_reads(table, filter).into(),
    })
}

/// The ids of the subquery `ordered` a row each, stepped as SQLite gives them, so that
/// neither SQLite nor we hold them as one long text (an order of no index of its own is
/// still sorted whole by SQLite first). The versions of `tables` come in a row of their
/// own, told by its NULL id: there for an empty list, and not repeated with every id. The
/// ids keep the subquery's order because SQLite runs it apart, as a co-routine, which the
/// kept orders' tests pin.
fn ids_as_rows(
    db: &mut Db<'_>,
    ordered: &Sql,
    tables: &[&str],
) -> Result<(OrderIds, String), Error> {
    let mut sql = Sql::new("SELECT NULL");
    sql.append(&versions_column(db.backend(), tables))
        .push(" UNION ALL SELECT s.id, NULL FROM ")
        .append(ordered)
        .push(" s");
    let mut versions = None;
    let mut ids = OrderIdsBuilder::default();
    db.for_each_row(&sql, |mut row| match (row.take(0), versions.is_none()) {
        (Cell::Int(id), _) => {
            ids.push(id);
            Ok(())
        }
        (Cell::Null, true) => {
            versions = Some(row.take(1).into_text().unwrap_or_default());
            Ok(())
        }
        (cell, _) => Err(Error::Backend(
            format!("a row of an order is neither an id nor its versions: {cell:?}").into(),
        )),
    })?;
    Ok((ids.finish(), versions.unwrap_or_default()))
}

/// How many ids a row of an order read on PostgreSQL carries (`ids_in_texts`): about 130
/// KB of text, which bounds libpq's input buffer.
const IDS_PER_TEXT: usize = 16_384;

/// The ids of the subquery `ordered` as texts of `per_text` ids each, in the order the
/// aggregate reads them, and the versions of `tables` (in every row, and alone in the one
/// row of a list of none). Not one text: libpq keeps its input buffer as large as the
/// longest message its connection ever read, 7 MiB for a million ids, for as long as the
/// connection lives. Not an id a row: libpq makes a result of each row read one by one,
/// six times the CPU (300 ms against 50 for a million ids), and other pages fall back to
/// their offsets while the order is read. Each row tells where its ids start and how many
/// there are in all, so that rows out of order or missing are an error, not a wrong order.
fn ids_in_texts(
    db: &mut Db<'_>,
    ordered: &Sql,
    (tables, per_text): (&[&str], usize),
) -> Result<(OrderIds, String), Error> {
    let mut sql = Sql::new(&format!(
        "SELECT i, array_to_string(x.a[i:i + {last}], ','), cardinality(x.a)",
        last = per_text - 1
    ));
    sql.append(&versions_column(db.backend(), tables))
        .push(" FROM (SELECT array_agg(s.id) AS a FROM ")
        .append(ordered)
        .push(&format!(
            " s) x LEFT JOIN LATERAL generate_series(1, cardinality(x.a), {per_text}) i ON true"
        ));
    let mut versions = None;
    let mut ids = OrderIdsBuilder::default();
    let (mut read, mut all) = (0_i64, 0_i64);
    db.for_each_row(&sql, |mut row| {
        all = row.int(2);
        versions.get_or_insert_with(|| row.take(3).into_text().unwrap_or_default());
        match (row.take(0), row.take(1)) {
            (Cell::Null, Cell::Null) if read == 0 => Ok(()),
            (Cell::Int(start), Cell::Text(text)) if start == read + 1 => {
                for id in text.split(',') {
                    ids.push(id.parse().map_err(|_| not_an_id(id))?);
                    read += 1;
                }
                Ok(())
            }
            (start, _) => Err(Error::Backend(
                format!("a row of an order starts at {start:?}, after {read} ids").into(),
            )),
        }
    })?;
    if read != all {
        return Err(Error::Backend(
            format!("an order of {all} ids gave {read}").into(),
        ));
    }
    Ok((ids.finish(), versions.unwrap_or_default()))
}

fn not_an_id(text: &str) -> Error {
    Error::Backend(format!("an order's id is not a number: {text:?}").into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every way of reading an order gives the ids in the subquery's order (here not the
    /// ids' own, and past a chunk of kept ids; on PostgreSQL, in texts of any length) and
    /// the versions, also for a list of none.
    #[test]
    fn an_order_read_any_way_keeps_the_subquerys_order() {
        let store = crate::testing::TestStore::new(1);
        let all = |ids: OrderIds| ids.slice(0, usize::MAX);
        let read = |db: &mut Db<'_>, filter: &str| {
            let ordered = Sql::new(&format!(
                "(SELECT o.id FROM tags o WHERE {filter} ORDER BY o.name_lc)"
            ));
            let expected = Sql::new(&format!(
                "SELECT o.id FROM tags o WHERE {filter} ORDER BY o.name_lc"
            ));
            let expected: Vec<i64> = db.load(&expected)?.iter().map(|r| r.int(0)).collect();
            let (rows, versions) = ids_as_rows(db, &ordered, &["tags"])?;
            assert_eq!(all(rows), expected, "ids of {filter}, a row each");
            assert_eq!(versions, "tags:42", "versions of {filter}");
            if db.backend() == Backend::Postgres {
                for per_text in [1, 500, 2100, IDS_PER_TEXT] {
                    let (texts, versions) = ids_in_texts(db, &ordered, (&["tags"], per_text))?;
                    assert_eq!(all(texts), expected, "ids of {filter}, {per_text} a text");
                    assert_eq!(versions, "tags:42", "versions of {filter}, {per_text}");
                }
            }
            Ok(expected)
        };
        let ids = store
            .read(|db| {
                db.execute(&Sql::new(
                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n \
                     WHERE i < 2100) INSERT INTO tags (name, name_lc, slug, slug_lc, \
                     created, updated) SELECT 't' || CAST(5000 - i AS TEXT), \
                     't' || CAST(5000 - i AS TEXT), 's' || CAST(i AS TEXT), \
                     's' || CAST(i AS TEXT), 0, 0 FROM n",
                ))?;
                db.execute(&Sql::new("DELETE FROM table_versions WHERE name = 'tags'"))?;
                db.execute(&Sql::new(
                    "INSERT INTO table_versions (name, version) VALUES ('tags', 42)",
                ))?;
                assert_eq!(read(db, "o.id < 0")?, Vec::<i64>::new());
                read(db, "o.id > 0")
            })
            .unwrap();
        assert_eq!(ids.len(), 2100);
        assert_ne!(ids.first(), Some(&1), "ordered by name, not by id");
    }
}
