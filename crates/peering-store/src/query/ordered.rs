//! Pages of a list neither filtered nor searched, read through the list's order kept
//! between reads (`orders.rs`): the page's ids are a slice of it, read by id, instead of a
//! statement walking every row before the page's offset again. The order is keyed by the
//! versions of the tables it reads: the list's own and those whose values the migrations
//! copy into its order keys (`schema/order.rs`). A page uses it only when the statement
//! reading its rows reads those same versions, so it shows what an offset would have.

use std::sync::Arc;

use peering_domain::resources::PerResource;
use peering_domain::ResourceSpec;
use peering_filter::Filter;

use super::inline::versions_column;
use super::objects::in_order_checked;
use super::page::order_by;
use super::{Page, Window};
use crate::connection::{Backend, Db};
use crate::error::Error;
use crate::order_ids::OrderIdsBuilder;
use crate::orders::{Found, KeptOrder, KeptOrders, OrderIds, OrderKey, MOST_IDS_PER_ORDER};
use crate::schema::{table, Table, ORDER_KEYS};
use crate::sql::{Bind, Cell, Sql};
use crate::versions::TableVersions;

/// The tables whose versions key `spec`'s orders: its own, and those its order keys are
/// copied from.
pub(crate) fn order_tables(spec: &'static ResourceSpec) -> &'static [&'static str] {
    static TABLES: PerResource<Vec<&'static str>> = PerResource::new(|spec| {
        let mut tables = vec![spec.table];
        for key in ORDER_KEYS.iter().filter(|k| k.table == spec.table) {
            tables.extend(key.copied_from.iter().map(|source| source.table));
        }
        tables.sort_unstable();
        tables.dedup();
        tables
    });
    TABLES.get(spec).map_or(&[], Vec::as_slice)
}

/// A page of `spec` through its kept order, or `None` when it is read with its offset
/// instead: the list is filtered or searched, ordered by a related object's value, not
/// kept (being read by another reader, too long), changed since it was kept, or the page
/// is past its end.
pub(crate) fn page(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    (filter, window): (&Filter, Window),
    relations: bool,
) -> Result<Option<Page>, Error> {
    let Some((orders, key)) = list_order(db, spec, filter, window) else {
        return Ok(None);
    };
    let Some((order, _)) = kept_or_read(db, (spec, filter, window), orders, &key)? else {
        return Ok(None);
    };
    let ids = slice_of(&order.ids, window);
    if ids.is_empty() {
        return Ok(None);
    }
    let (records, related, version) = in_order_checked(db, spec, &ids, relations, order.tables)?;
    if version != Some(order.version) {
        orders.forget(&key, order.version);
        return Ok(None);
    }
    let count = order.ids.len() as i64;
    Ok(Some(Page {
        count,
        records,
        related,
    }))
}

/// The ids of a page of `spec` and the list's count, through its kept order, for a read
/// in one snapshot (`Store::read_snapshot`), whose versions are read apart; `None` as for
/// [`page`].
pub(crate) fn ids_in_snapshot(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    (filter, window): (&Filter, Window),
) -> Result<Option<(Vec<i64>, i64)>, Error> {
    let Some((orders, key)) = list_order(db, spec, filter, window) else {
        return Ok(None);
    };
    let Some((order, read_now)) = kept_or_read(db, (spec, filter, window), orders, &key)? else {
        return Ok(None);
    };
    // An order read in this snapshot is its order; one kept before, only if no table it
    // reads was written since.
    if !read_now && versions_now(db, order.tables)? != order.version {
        orders.forget(&key, order.version);
        return Ok(None);
    }
    let count = order.ids.len() as i64;
    Ok(Some((slice_of(&order.ids, window), count)))
}

/// Where `spec`'s orders are kept and the key of the one `filter` asks for, when a page
/// of `window` may be read through it.
fn list_order<'a>(
    db: &Db<'a>,
    spec: &'static ResourceSpec,
    filter: &Filter,
    window: Window,
) -> Option<(&'a KeptOrders, OrderKey)> {
    let orders = db.kept()?.orders();
    order_key(spec, filter, window).map(|key| (orders, key))
}

/// The key of the order a page of `window` may be read through.
fn order_key(spec: &'static ResourceSpec, filter: &Filter, window: Window) -> Option<OrderKey> {
    let table = table(spec);
    let keepable = window.limit.is_some() && filter.selects_all() && by_own_columns(table, filter);
    keepable.then(|| (spec.table, order_by(table, filter)))
}

/// Whether a page of `window` is read through one of the `orders` kept, which tells the
/// list's count with the page (unless a write moved it since).
pub(crate) fn counted_by_kept_order(
    orders: &KeptOrders,
    spec: &'static ResourceSpec,
    (filter, window): (&Filter, Window),
) -> bool {
    order_key(spec, filter, window).is_some_and(|key| orders.holds(&key))
}

/// Whether every term of the list's order is a column of its own rows (a default ordering
/// that follows foreign keys reads other tables' rows, whose versions do not key it).
fn by_own_columns(table: &Table, filter: &Filter) -> bool {
    order_terms(table, filter).all(|t| table.order_columns.contains_key(t))
}

/// The fields the list's order names, in order.
fn order_terms<'a>(table: &'a Table, filter: &'a Filter) -> Box<dyn Iterator<Item = &'a str> + 'a> {
    if filter.ordering.is_empty() {
        Box::new(
            table
                .spec
                .ordering
                .iter()
                .map(|t| t.trim_start_matches('-')),
        )
    } else {
        Box::new(filter.ordering.iter().map(|t| t.field.as_str()))
    }
}

/// The columns (table, column) whose values decide a list's order of its own columns:
/// each term's column, the address its sortable key is kept from, and for the keys the
/// migrations keep, the row's columns that set them and what they are copied from.
fn order_reads(table: &Table, filter: &Filter) -> Vec<(&'static str, &'static str)> {
    let own = table.spec.table;
    // Every order ends with the id (`page.rs::order_by`): rows added or removed move it,
    // also where no term names a column (a resource ordered by nothing of its own).
    let mut reads = vec![(own, "id")];
    for term in order_terms(table, filter) {
        let Some(&(column, _)) = table.order_columns.get(term) else {
            continue;
        };
        reads.push((own, column));
        let keyed = table.columns.iter().filter(|c| c.key == Some(column));
        reads.extend(keyed.map(|c| (own, c.name)));
        for key in ORDER_KEYS
            .iter()
            .filter(|k| k.table == own && k.column == column)
        {
            reads.extend(key.set_by.iter().map(|c| (own, *c)));
            for source in key.copied_from {
                reads.extend(source.columns.iter().map(|c| (source.table, *c)));
            }
        }
    }
    reads
}

/// The kept order of `key`, or the one read now (then `true`), if this reader is to use
/// one. A page at the list's start walks no rows before it: it takes a kept order (which
/// tells the count), but reads none, which would read the whole list for one page (a
/// client asking for the first page alone, or the last by a reversed ordering, would
/// otherwise have the server keep the ids of every row in that order).
fn kept_or_read(
    db: &mut Db<'_>,
    (spec, filter, window): (&'static ResourceSpec, &Filter, Window),
    orders: &KeptOrders,
    key: &OrderKey,
) -> Result<Option<(Arc<KeptOrder>, bool)>, Error> {
    if window.offset == 0 {
        return Ok(orders.kept(key).map(|order| (order, false)));
    }
    match orders.find(key) {
        Found::Kept(order) => Ok(Some((order, false))),
        Found::Offset => Ok(None),
        Found::Read => {
            // However the reading ends (an error, a panic), another reader may try next;
            // once kept, the order is no longer being read and this does nothing.
            let _reading = Reading(orders, key);
            let order = read_order(db, (spec, filter), &key.1)?;
            Ok(orders.keep(key.clone(), order).map(|kept| (kept, true)))
        }
    }
}

/// An order being read by this reader, given up when dropped unless kept.
struct Reading<'a>(&'a KeptOrders, &'a OrderKey);

impl Drop for Reading<'_> {
    fn drop(&mut self) {
        self.0.give_up(self.1);
    }
}

/// Every id of `spec`'s list in the order `order_by` gives (one more than are kept, at
/// most), with the versions of the tables the order reads, in one statement: one snapshot.
fn read_order(
    db: &mut Db<'_>,
    (spec, filter): (&'static ResourceSpec, &Filter),
    order_by: &str,
) -> Result<KeptOrder, Error> {
    let tables = order_tables(spec);
    let mut ordered = Sql::new(&format!("(SELECT o.id FROM {} o", spec.table));
    ordered
        .push(order_by)
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
        reads: order_reads(table(spec), filter).into(),
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
        (cell, _) => Err(Error::Backend(format!(
            "a row of an order is neither an id nor its versions: {cell:?}"
        ))),
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
            (start, _) => Err(Error::Backend(format!(
                "a row of an order starts at {start:?}, after {read} ids"
            ))),
        }
    })?;
    if read != all {
        return Err(Error::Backend(format!("an order of {all} ids gave {read}")));
    }
    Ok((ids.finish(), versions.unwrap_or_default()))
}

fn not_an_id(text: &str) -> Error {
    Error::Backend(format!("an order's id is not a number: {text:?}"))
}

/// The versions of `tables` as one value, read now (the column pages carry, alone).
fn versions_now(db: &mut Db<'_>, tables: &[&str]) -> Result<i64, Error> {
    let mut sql = Sql::new("SELECT 0");
    sql.append(&versions_column(db.backend(), tables));
    let listed = db.load(&sql)?.pop().map(|mut row| row.take(1));
    let listed = listed.and_then(Cell::into_text).unwrap_or_default();
    Ok(TableVersions::from_listed(&listed).of(tables))
}

/// The ids of `window`'s page of `ids`.
fn slice_of(ids: &OrderIds, window: Window) -> Vec<i64> {
    let start = usize::try_from(window.offset).unwrap_or(usize::MAX);
    let limit = window.limit.unwrap_or(i64::MAX);
    ids.slice(
        start,
        start.saturating_add(usize::try_from(limit).unwrap_or(usize::MAX)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use peering_domain::resources::{
        AUTONOMOUS_SYSTEM, BFD, CONNECTION, INTERNET_EXCHANGE_PEERING_SESSION,
    };

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

    /// A page read through a kept order tells the list's count; other pages do not.
    #[test]
    fn only_pages_read_through_a_kept_order_tell_the_count() {
        use peering_domain::resources::TAG;
        let store = crate::testing::TestStore::new(1);
        store
            .read(|db| {
                db.execute(&Sql::new(
                    "INSERT INTO tags (name, name_lc, slug, slug_lc, created, updated) \
                     VALUES ('b', 'b', 'b', 'b', 0, 0), ('a', 'a', 'a', 'a', 0, 0)",
                ))
            })
            .unwrap();
        let all = Filter::default();
        let slug = peering_filter::parse(
            &peering_filter::split_query("slug=a"),
            &crate::Store::catalog(&TAG),
        )
        .unwrap();
        let window = |limit, offset| Window { limit, offset };
        let (page, second, whole) = (window(Some(1), 0), window(Some(1), 1), window(None, 0));
        let kept = |store: &crate::testing::TestStore| store.counts_with_page(&TAG, (&all, page));
        assert!(!kept(&store), "no order kept yet");
        let read = store.list(&TAG, &all, page, false, None).unwrap();
        assert_eq!((read.count, read.records[0].id), (2, 2));
        assert!(!kept(&store), "a first page reads no order");
        let read = store.list(&TAG, &all, second, false, None).unwrap();
        assert_eq!((read.count, read.records[0].id), (2, 1));
        assert!(kept(&store), "read for a page past the start");
        let read = store.list(&TAG, &all, page, false, None).unwrap();
        assert_eq!((read.count, read.records[0].id), (2, 2), "through it");
        assert!(!store.counts_with_page(&TAG, (&slug, page)), "filtered");
        assert!(!store.counts_with_page(&TAG, (&all, whole)), "no window");
    }

    #[test]
    fn a_window_slices_the_ids_it_covers() {
        let ids: OrderIds = (10..20).collect();
        let window = |limit, offset| Window { limit, offset };
        assert_eq!(slice_of(&ids, window(Some(3), 0)), [10, 11, 12]);
        assert_eq!(slice_of(&ids, window(Some(5), 8)), [18, 19]);
        assert!(slice_of(&ids, window(Some(5), 10)).is_empty());
        assert!(slice_of(&ids, window(Some(5), i64::MAX)).is_empty());
        assert_eq!(slice_of(&ids, window(Some(i64::MAX), 9)), [19]);
        assert_eq!(slice_of(&ids, window(None, 7)), [17, 18, 19]);
    }

    #[test]
    fn sessions_orders_are_keyed_by_the_tables_their_keys_are_copied_from() {
        assert_eq!(order_tables(&AUTONOMOUS_SYSTEM), ["autonomous_systems"]);
        let sessions = order_tables(&INTERNET_EXCHANGE_PEERING_SESSION);
        for table in [
            "internet_exchange_peering_sessions",
            "autonomous_systems",
            "connections",
            "internet_exchanges",
            "routers",
        ] {
            assert!(sessions.contains(&table), "{sessions:?}");
        }
    }

    #[test]
    fn only_orders_by_a_lists_own_columns_are_kept() {
        let none = Filter::default();
        assert!(by_own_columns(table(&AUTONOMOUS_SYSTEM), &none));
        assert!(by_own_columns(
            table(&INTERNET_EXCHANGE_PEERING_SESSION),
            &none
        ));
        // Connections order by their exchange's values, read from other rows.
        assert!(!by_own_columns(table(&CONNECTION), &none));
    }

    #[test]
    fn every_order_reads_its_rows_ids() {
        // A resource ordered by nothing of its own is ordered by its ids: rows added or
        // removed move it.
        assert!(BFD.ordering.is_empty());
        let none = Filter::default();
        for spec in [&BFD, &AUTONOMOUS_SYSTEM, &INTERNET_EXCHANGE_PEERING_SESSION] {
            let reads = order_reads(table(spec), &none);
            assert!(reads.contains(&(spec.table, "id")), "{reads:?}");
        }
        let reads = order_reads(table(&AUTONOMOUS_SYSTEM), &none);
        assert!(reads.contains(&("autonomous_systems", "asn")), "{reads:?}");
    }
}
