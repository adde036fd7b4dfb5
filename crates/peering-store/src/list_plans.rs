//! The lists that have an index for their order are read in that order, on both backends:
//! a page of them stops at its limit instead of sorting every row the filter finds. The
//! statement's ORDER BY is the store's own (`order_by`), so an index that stops matching
//! it (a changed default order, a renamed key) fails here instead of only in a benchmark.

use peering_domain::resources::{
    AUTONOMOUS_SYSTEM, DIRECT_PEERING_SESSION, INTERNET_EXCHANGE_PEERING_SESSION,
};
use peering_domain::ResourceSpec;
use peering_filter::Filter;

use crate::connection::{Backend, Db};
use crate::error::Error;
use crate::query::page::order_by;
use crate::schema::table;
use crate::sql::Sql;
use crate::testing::TestStore;

/// Lists read in their default order: (what they are, resource, WHERE).
const ORDERED_LISTS: [(&str, &ResourceSpec, &str); 6] = [
    ("autonomous systems", &AUTONOMOUS_SYSTEM, "TRUE"),
    ("sessions", &INTERNET_EXCHANGE_PEERING_SESSION, "TRUE"),
    (
        "one peer's sessions",
        &INTERNET_EXCHANGE_PEERING_SESSION,
        "o.autonomous_system_id = 1",
    ),
    (
        "one peer's direct sessions",
        &DIRECT_PEERING_SESSION,
        "o.autonomous_system_id = 1",
    ),
    (
        "one peer's sessions of one status",
        &INTERNET_EXCHANGE_PEERING_SESSION,
        "o.autonomous_system_id = 1 AND o.status = 'enabled'",
    ),
    (
        "one peer's direct sessions of one status",
        &DIRECT_PEERING_SESSION,
        "o.autonomous_system_id = 1 AND o.status = 'enabled'",
    ),
];

/// The plan of a page of `spec` filtered by `condition`, one line per step.
fn page_plan(db: &mut Db<'_>, spec: &'static ResourceSpec, condition: &str) -> Vec<String> {
    let table = table(spec);
    let order = order_by(table, &Filter::default());
    let page = format!(
        "SELECT o.id FROM {} o WHERE {condition}{order} LIMIT 50",
        table.spec.table
    );
    let (explain, detail_column) = match db.backend() {
        Backend::Sqlite => ("EXPLAIN QUERY PLAN ", 3),
        Backend::Postgres => ("EXPLAIN ", 0),
    };
    let rows = db
        .load(&Sql::new(&format!("{explain}{page}")))
        .unwrap_or_else(|e| panic!("{page}: {e}"));
    rows.into_iter()
        .filter_map(|mut row| row.take(detail_column).into_text())
        .collect()
}

/// Sessions of four peers, three in five enabled, and the statistics PostgreSQL keeps of
/// them. It picks among indexes by those: on empty tables, the (peer) and (peer, status)
/// indexes cost the same for one peer's sessions of one status, and either may be taken.
/// SQLite, without statistics, prefers the index that matches more of the condition.
/// Written past the foreign keys and triggers (replica role), which would ask for parents.
fn give_postgres_statistics(db: &mut Db<'_>) -> Result<(), Error> {
    const STATUS: &str = "CASE WHEN i % 5 < 3 THEN 'enabled' ELSE 'disabled' END";
    let statements = [
        "SET session_replication_role = replica".to_owned(),
        format!(
            "INSERT INTO internet_exchange_peering_sessions (autonomous_system_id, \
             ixp_connection_id, ip_address, ip_address_key, status, created, updated) \
             SELECT i % 4 + 1, 1, 'a' || i, 'k' || i, {STATUS}, 0, 0 \
             FROM generate_series(1, 4000) AS i"
        ),
        format!(
            "INSERT INTO direct_peering_sessions (local_autonomous_system_id, \
             autonomous_system_id, ip_address, ip_address_key, status, relationship_id, \
             created, updated) \
             SELECT 9, i % 4 + 1, 'a' || i, 'k' || i, {STATUS}, 1, 0, 0 \
             FROM generate_series(1, 4000) AS i"
        ),
        "SET session_replication_role = DEFAULT".to_owned(),
        "ANALYZE internet_exchange_peering_sessions".to_owned(),
        "ANALYZE direct_peering_sessions".to_owned(),
    ];
    for statement in statements {
        db.execute(&Sql::new(&statement))?;
    }
    Ok(())
}

#[test]
fn pages_of_lists_with_an_order_index_are_read_in_order_not_sorted() {
    let store = TestStore::new(1);
    store
        .read(|db| {
            if db.backend() == Backend::Postgres {
                // An empty table is cheaper to sort than to walk through an index: the
                // planner is told to avoid sorts, which it still makes when no index
                // gives the order.
                db.execute(&Sql::new("SET enable_sort = off"))?;
                give_postgres_statistics(db)?;
            }
            for (list, spec, condition) in ORDERED_LISTS {
                let plan = page_plan(db, spec, condition).join("\n");
                let sorted = match db.backend() {
                    Backend::Sqlite => plan.contains("TEMP B-TREE"),
                    Backend::Postgres => plan.contains("Sort"),
                };
                assert!(!sorted, "a page of {list} is sorted:\n{plan}");
                // Walking the whole order to filter as it goes is not sorting either: a
                // filtered list's index must also find its rows.
                let sought = match db.backend() {
                    Backend::Sqlite => plan.contains("SEARCH"),
                    Backend::Postgres => plan.contains("Index Cond") && !plan.contains("Filter"),
                };
                assert!(
                    condition == "TRUE" || sought,
                    "{list} is not sought:\n{plan}"
                );
                assert!(
                    plan.contains("INDEX") || plan.contains("Index"),
                    "{list}:\n{plan}"
                );
            }
            Ok::<_, Error>(())
        })
        .expect("a fresh test database answers EXPLAIN");
}
