//! Every column the resources' declarations read or write exists in the migrated database
//! of the backend under test, so declarations and migrations cannot drift apart.

use peering_domain::resources::ALL;
use peering_filter::Filter;
use peering_store::testing::TestDatabase;
use peering_store::{Store, Window};

#[test]
fn every_declared_resource_can_be_listed_filtered_and_ordered() {
    let db = TestDatabase::new();
    let store = Store::open(&db.url, 1).expect("open");
    for spec in ALL.iter().copied() {
        let catalog = Store::catalog(spec);
        // Ordering by every orderable field and filtering on every filter touches every
        // column the store derives from the declaration.
        let mut pairs = Vec::new();
        for f in catalog.fields {
            let value = match f.kind {
                peering_filter::FilterKind::Number | peering_filter::FilterKind::ForeignKey => "1",
                peering_filter::FilterKind::Bool => "true",
                peering_filter::FilterKind::Choice(values) => values[0],
                peering_filter::FilterKind::Uuid => "6f1c2a39-2c44-4d52-9d1e-1c1e7d5e8b11",
                peering_filter::FilterKind::DateTime => "2026-01-01T00:00:00Z",
                peering_filter::FilterKind::String
                | peering_filter::FilterKind::Reference
                | peering_filter::FilterKind::Tag => "x",
            };
            pairs.push((f.name.to_string(), value.to_string()));
        }
        let mut searches = Vec::new();
        // `q` as text, as a number and as an address reaches every kind of search term.
        for q in ["x", "1", "192.0.2.1", "2001:db8::1"] {
            let pairs = [("q".to_string(), q.to_string())];
            searches.push(
                peering_filter::parse(&pairs, &catalog)
                    .unwrap_or_else(|e| panic!("{}: {e}", spec.table)),
            );
        }
        let filter: Filter = peering_filter::parse(&pairs, &catalog)
            .unwrap_or_else(|e| panic!("{}: {e}", spec.table));
        // Ordering by every orderable field, in chunks under the parser's limit.
        for chunk in catalog.orderable.chunks(16) {
            let ordering = [("ordering".to_string(), chunk.join(","))];
            let ordered = peering_filter::parse(&ordering, &catalog)
                .unwrap_or_else(|e| panic!("{}: {e}", spec.table));
            store
                .list(
                    spec,
                    &ordered,
                    Window {
                        limit: Some(5),
                        offset: 0,
                    },
                    true,
                    None,
                )
                .unwrap_or_else(|e| panic!("{}: {e}", spec.table));
        }
        for search in &searches {
            let found = store
                .list(
                    spec,
                    search,
                    Window {
                        limit: Some(5),
                        offset: 0,
                    },
                    true,
                    None,
                )
                .unwrap_or_else(|e| panic!("{}: {e}", spec.table));
            assert_eq!(found.count, 0, "{}", spec.table);
        }
        let page = store
            .list(
                spec,
                &filter,
                Window {
                    limit: Some(5),
                    offset: 0,
                },
                true,
                None,
            )
            .unwrap_or_else(|e| panic!("{}: {e}", spec.table));
        assert_eq!(page.count, 0, "{}", spec.table);
        let all = store
            .list(
                spec,
                &Filter::default(),
                Window {
                    limit: None,
                    offset: 0,
                },
                true,
                None,
            )
            .unwrap_or_else(|e| panic!("{}: {e}", spec.table));
        assert_eq!(all.count, 0, "{}", spec.table);
    }
}

#[test]
fn migrations_of_both_backends_have_the_same_names() {
    let (sqlite, postgres) = peering_store::migration_names();
    assert!(!sqlite.is_empty());
    assert_eq!(sqlite, postgres);
}
