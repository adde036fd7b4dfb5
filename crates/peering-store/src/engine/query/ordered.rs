//! Pages of a list read through the list's order kept between reads (`orders.rs`): the
//! page's ids are a slice of it, read by id, instead of a statement walking every row before
//! the page's offset again. The list may be filtered on its own columns (a peer's sessions,
//! `?autonomous_system_id=…`), not searched. The order is keyed by the versions of the
//! tables it reads: the list's own and those whose values the migrations copy into its
//! order keys (`schema/order.rs`). A page uses it only when the statement reading its rows
//! reads those same versions, so it shows what an offset would have.

use std::sync::Arc;

use peering_domain::resources::PerResource;
use peering_domain::ResourceSpec;
use peering_filter::Filter;

use super::inline::versions_column;
use super::objects::in_order_checked;
use super::order_read::read_order;
use super::page::order_by;
use super::{Page, Window};
use crate::connection::Db;
use crate::error::Error;
use crate::orders::{Found, KeptOrder, KeptOrders, OrderIds, OrderKey};
use crate::schema::{table, Table, ORDER_KEYS};
use crate::sql::{Cell, Sql};
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
/// instead: the list is searched or filtered through other rows, ordered by a related
/// object's value, not kept (being read by another reader, too long, or filtered and not
/// yet paged deep), changed since it was kept, or the page is past its end.
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

/// The ids of a page of `spec` and the list's count through its kept order, when the order
/// is kept under `versions` (read after the request arrived): no statement at all, for a
/// page whose objects are kept rendered too.
pub(crate) fn ids_kept_at(
    orders: &KeptOrders,
    spec: &'static ResourceSpec,
    (filter, window): (&Filter, Window),
    versions: &TableVersions,
) -> Option<(Vec<i64>, i64)> {
    let order = orders.kept(&order_key(orders, spec, filter, window)?)?;
    let current = order.version == versions.of(order.tables);
    current.then(|| (slice_of(&order.ids, window), order.ids.len() as i64))
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
    order_key(orders, spec, filter, window).map(|key| (orders, key))
}

/// The key of the order a page of `window` may be read through: its `ORDER BY`, and for
/// a filtered list the filter's canonical query string. `None` too for a page of a
/// filtered list that would not read its order, while none of its table is kept: most
/// filtered pages, which then make no key.
fn order_key(
    orders: &KeptOrders,
    spec: &'static ResourceSpec,
    filter: &Filter,
    window: Window,
) -> Option<OrderKey> {
    let table = table(spec);
    let keepable = window.limit.is_some()
        && filtered_by_own_columns(table, filter)
        && by_own_columns(table, filter)
        && (filter.selects_all()
            || window.offset >= FILTERED_ORDER_FROM_OFFSET
            || orders.may_keep_filtered(spec.table));
    keepable.then(|| {
        let mut key = order_by(table, filter);
        if !filter.selects_all() {
            key.push_str(&format!("?{filter}"));
        }
        (spec.table, key)
    })
}

/// From this offset on, a page of a filtered list reads the list's order when none is
/// kept. Paging a list of n rows with offsets walks about n² / 2 / limit rows, against n
/// for its order once; but every filter value is a list of its own, and orders are kept
/// for at most `orders.rs::MOST_LISTS` lists: lists paged this deep are the few long ones.
const FILTERED_ORDER_FROM_OFFSET: i64 = 250;

/// Whether the list's filter is none, or predicates on the list's own columns alone (no
/// search, no related object's value): whether the rows it selects change is then told
/// by the columns `order_reads` names.
fn filtered_by_own_columns(table: &Table, filter: &Filter) -> bool {
    filter.search.is_none()
        && (filter.predicates.iter()).all(|p| own_filter_columns(table, p.field).is_some())
}

/// The list's own columns a filter parameter compares, if it compares only those
/// (`FilterTarget::own_columns`).
fn own_filter_columns(table: &Table, field: &str) -> Option<[Option<&'static str>; 2]> {
    table.targets.get(field)?.own_columns()
}

/// Whether a page of `window` is read through one of the `orders` kept, which tells the
/// list's count with the page (unless a write moved it since).
pub(crate) fn counted_by_kept_order(
    orders: &KeptOrders,
    spec: &'static ResourceSpec,
    (filter, window): (&Filter, Window),
) -> bool {
    order_key(orders, spec, filter, window).is_some_and(|key| orders.holds(&key))
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
/// migrations keep, the row's columns that set them and what they are copied from; and
/// the columns its filter compares, which decide which rows are in it.
pub(super) fn order_reads(table: &Table, filter: &Filter) -> Vec<(&'static str, &'static str)> {
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
    for p in &filter.predicates {
        let columns = own_filter_columns(table, p.field).unwrap_or_default();
        reads.extend(columns.into_iter().flatten().map(|c| (own, c)));
    }
    reads
}

/// The kept order of `key`, or the one read now (then `true`), if this reader is to use
/// one. A page at the list's start walks no rows before it: it takes a kept order (which
/// tells the count), but reads none, which would read the whole list for one page (a
/// client asking for the first page alone, or the last by a reversed ordering, would
/// otherwise have the server keep the ids of every row in that order). A filtered list's
/// order is read by pages from `FILTERED_ORDER_FROM_OFFSET` on.
fn kept_or_read(
    db: &mut Db<'_>,
    (spec, filter, window): (&'static ResourceSpec, &Filter, Window),
    orders: &KeptOrders,
    key: &OrderKey,
) -> Result<Option<(Arc<KeptOrder>, bool)>, Error> {
    let reads_from = if filter.selects_all() {
        1
    } else {
        FILTERED_ORDER_FROM_OFFSET
    };
    if window.offset < reads_from {
        return Ok(orders.kept(key).map(|order| (order, false)));
    }
    match orders.find(key) {
        Found::Kept(order) => Ok(Some((order, false))),
        Found::Offset => Ok(None),
        Found::Read => {
            // However the reading ends (an error, a panic), another reader may try next;
            // once kept, the order is no longer being read and this does nothing.
            let _reading = Reading(orders, key);
            let order = read_order(db, (spec, filter))?;
            let kept = orders.keep(key.clone(), order);
            if kept.is_some() && !filter.selects_all() {
                orders.note_filtered(key);
            }
            Ok(kept.map(|kept| (kept, true)))
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
    fn a_list_filtered_on_its_own_columns_has_an_order_per_filter_read_from_those_columns() {
        let parse = |spec: &'static ResourceSpec, query: &str| {
            let catalog = crate::Store::catalog(spec);
            peering_filter::parse(&peering_filter::split_query(query), &catalog).unwrap()
        };
        let sessions = &INTERNET_EXCHANGE_PEERING_SESSION;
        let deep = Window {
            limit: Some(50),
            offset: 500,
        };
        let of_peer = |peer: i64| {
            parse(
                sessions,
                &format!("autonomous_system_id={peer}&status=enabled"),
            )
        };
        let orders = KeptOrders::default();
        let key = |filter: &Filter, window| order_key(&orders, sessions, filter, window);
        let peer_3 = key(&of_peer(3), deep).expect("filtered on its own columns");
        assert_ne!(Some(peer_3), key(&of_peer(4), deep), "another peer");
        let first = Window { offset: 0, ..deep };
        assert!(key(&of_peer(3), first).is_none(), "no filtered order kept");
        orders.note_filtered(&key(&of_peer(5), deep).expect("deep"));
        assert!(
            key(&of_peer(3), first).is_some(),
            "one is: it may be this one"
        );
        let reads = order_reads(table(sessions), &of_peer(3));
        for column in ["autonomous_system_id", "status"] {
            assert!(reads.contains(&(sessions.table, column)), "{reads:?}");
        }
        // Searched, or filtered through other rows: read with offsets.
        let systems = &AUTONOMOUS_SYSTEM;
        let key = |query| order_key(&orders, systems, &parse(systems, query), deep);
        assert!(key("q=cloud").is_none());
        assert!(key("tag=red").is_none());
        assert!(key("asn=64500").is_some());
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
