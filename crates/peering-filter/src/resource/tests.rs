//! Unit tests of resource catalogs: what a declared resource accepts, checked without a
//! database.

use peering_domain::resources::{ALL, AUTONOMOUS_SYSTEM, INTERNET_EXCHANGE_PEERING_SESSION};

use super::*;
use crate::{Lookup, Value};

#[test]
fn an_autonomous_system_query_is_checked_the_servers_way() {
    let filter = parse_for(
        &AUTONOMOUS_SYSTEM,
        "asn__gte=64500&name__ic=cloud&tag=gold&tag=silver&q=x&ordering=-asn&limit=5",
    )
    .expect("a valid query");
    let summary: Vec<(&str, Lookup, &[Value])> = filter
        .predicates
        .iter()
        .map(|p| (p.field, p.lookup, p.values.as_slice()))
        .collect();
    assert_eq!(
        summary,
        [
            ("asn", Lookup::Gte, &[Value::Int(64500)][..]),
            ("name", Lookup::Ic, &[Value::Text("cloud".into())][..]),
            ("tag", Lookup::Exact, &[Value::Text("gold".into())][..]),
            ("tag", Lookup::Exact, &[Value::Text("silver".into())][..]),
        ]
    );
    assert_eq!(filter.search.as_deref(), Some("x"));
    assert_eq!(filter.ordering[0].field, "asn");
}

#[test]
fn unknown_parameters_and_bad_values_are_refused_by_name() {
    let errors = parse_for(
        &AUTONOMOUS_SYSTEM,
        "asn=x&colour=red&name__gt=a&ordering=prefixes&description=hidden",
    )
    .expect_err("an invalid query");
    let params: Vec<&str> = errors.iter().map(|e| e.param.as_str()).collect();
    assert_eq!(
        params,
        ["asn", "colour", "name__gt", "ordering", "description"]
    );
}

#[test]
fn an_autonomous_systems_catalog() {
    let catalog = ResourceCatalog::of(&AUTONOMOUS_SYSTEM);
    let fields: Vec<(&str, FilterKind)> = catalog.fields.iter().map(|f| (f.name, f.kind)).collect();
    assert_eq!(
        fields,
        [
            ("id", FilterKind::Number),
            ("asn", FilterKind::Number),
            ("name", FilterKind::String),
            ("irr_as_set", FilterKind::String),
            ("ipv6_max_prefixes", FilterKind::Number),
            ("ipv4_max_prefixes", FilterKind::Number),
            ("affiliated", FilterKind::Bool),
            ("created", FilterKind::DateTime),
            ("updated", FilterKind::DateTime),
            ("created_by_request", FilterKind::Uuid),
            ("updated_by_request", FilterKind::Uuid),
            ("tag", FilterKind::Tag),
        ]
    );
    assert!(catalog.catalog().is_orderable("asn"));
    assert!(catalog.catalog().is_orderable("irr_as_set_extdb_sync"));
    // Hidden, computed and JSON fields are not orderable.
    assert!(!catalog.catalog().is_orderable("assigned_config_contexts"));
    assert!(!catalog.catalog().is_orderable("config_context"));
    assert!(!catalog.catalog().is_orderable("prefixes"));
}

#[test]
fn related_paths_and_foreign_keys_take_their_kinds() {
    let catalog = ResourceCatalog::of(&INTERNET_EXCHANGE_PEERING_SESSION).catalog();
    let kind = |name: &str| catalog.field(name).map(|f| f.kind);
    assert_eq!(kind("autonomous_system_id"), Some(FilterKind::ForeignKey));
    assert_eq!(kind("autonomous_system_asn"), Some(FilterKind::ForeignKey));
    assert_eq!(kind("autonomous_system"), Some(FilterKind::Reference));
    assert_eq!(kind("internet_exchange_id"), Some(FilterKind::ForeignKey));
    assert_eq!(kind("internet_exchange"), Some(FilterKind::Reference));
    assert_eq!(kind("address_family"), Some(FilterKind::ForeignKey));
    assert_eq!(kind("is_abandoned"), Some(FilterKind::Bool));
    assert_eq!(kind("password"), None);
}

#[test]
fn every_registered_resource_has_a_catalog() {
    for spec in ALL {
        let catalog = ResourceCatalog::of(spec);
        assert_eq!(catalog.fields.first().map(|f| f.name), Some("id"));
        assert_eq!(catalog.orderable.first(), Some(&"id"));
        assert!(std::ptr::eq(catalog, ResourceCatalog::of(spec)));
    }
}

#[test]
fn a_catalog_without_secrets_neither_filters_nor_orders_by_them() {
    use peering_domain::resources::ALL;
    use peering_domain::spec::Search;
    for spec in ALL {
        let public = ResourceCatalog::without_secrets(spec).catalog();
        let full = ResourceCatalog::of(spec).catalog();
        for field in spec.fields.iter().filter(|f| f.secret) {
            assert!(
                !public.is_orderable(field.name),
                "{}.{}",
                spec.table,
                field.name
            );
            assert!(
                public.fields.iter().all(|f| f.name != field.name),
                "{}.{}",
                spec.table,
                field.name
            );
        }
        // Everything else is kept.
        let kept = |name: &str| spec.field(name).is_none_or(|f| !f.secret);
        let expected: Vec<_> = full.orderable.iter().filter(|n| kept(n)).collect();
        assert_eq!(public.orderable.iter().collect::<Vec<_>>(), expected);
        // A free-text search never reads a secret, whoever searches.
        for term in spec.search {
            let (Search::Contains(name) | Search::IntEquals(name) | Search::IpHost(name)) = *term;
            assert!(kept(name), "{} searches {name}", spec.table);
        }
    }
    let sessions =
        ResourceCatalog::without_secrets(&peering_domain::resources::DIRECT_PEERING_SESSION);
    assert!(!sessions.catalog().is_orderable("password"));
    assert!(sessions.catalog().is_orderable("ip_address"));
}
