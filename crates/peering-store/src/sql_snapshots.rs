//! Snapshots of the SQL the store compiles, on both backends, built without a database:
//! a change to any statement's text, parameters or caching shows up in review.

use peering_domain::resources::{
    AUTONOMOUS_SYSTEM, CONNECTION, DIRECT_PEERING_SESSION, INTERNET_EXCHANGE_PEERING_SESSION,
};
use peering_domain::ResourceSpec;
use peering_filter::{split_query, Filter};

use crate::connection::Backend;
use crate::query::filter::compile_filter;
use crate::query::inline::Inline;
use crate::query::objects::{by_ids_sql, shallow_by_ids_sql};
use crate::query::page::{order_by, page_sql};
use crate::query::relations::links_sql;
use crate::query::Window;
use crate::schema::table;
use crate::sql::Sql;
use crate::Store;

const BACKENDS: [Backend; 2] = [Backend::Sqlite, Backend::Postgres];

fn filter(spec: &ResourceSpec, query: &str) -> Filter {
    match peering_filter::parse(&split_query(query), &Store::catalog(spec)) {
        Ok(filter) => filter,
        Err(errors) => panic!("{query}: {errors:?}"),
    }
}

/// Pins one statement per backend, as `<name>@<backend>`.
fn pin(name: &str, sql: impl Fn(Backend) -> Sql) {
    for backend in BACKENDS {
        insta::assert_snapshot!(
            format!("{name}@{}", backend.name()),
            sql(backend).snapshot(backend)
        );
    }
}

/// Pins the WHERE conditions a query string compiles to.
fn pin_filter(name: &str, spec: &ResourceSpec, query: &str) {
    let filter = filter(spec, query);
    pin(name, |backend| {
        compile_filter(backend, table(spec), &filter)
    });
}

#[test]
fn filter_numbers_with_lookups() {
    pin_filter(
        "filter_numbers",
        &AUTONOMOUS_SYSTEM,
        "asn__gte=64500&asn__lt=65000&ipv4_max_prefixes=10&ipv4_max_prefixes=20\
         &ipv6_max_prefixes__n=5&ipv6_max_prefixes__n=null&id=7",
    );
}

#[test]
fn filter_empty_lookups() {
    pin_filter(
        "filter_empty",
        &AUTONOMOUS_SYSTEM,
        "irr_as_set__empty=true&ipv4_max_prefixes__empty=false",
    );
}

#[test]
fn filter_text_case_insensitive() {
    pin_filter(
        "filter_text",
        &AUTONOMOUS_SYSTEM,
        "name__ic=Foo_50%25&irr_as_set__isw=AS-&irr_as_set__niew=x&name__ie=Cloud&name=null",
    );
}

#[test]
fn filter_choices_and_booleans() {
    pin_filter(
        "filter_choices",
        &INTERNET_EXCHANGE_PEERING_SESSION,
        "status=enabled&status=disabled&passive=true&multihop_ttl__lte=2",
    );
}

#[test]
fn filter_foreign_key() {
    pin_filter(
        "filter_foreign_key",
        &INTERNET_EXCHANGE_PEERING_SESSION,
        "autonomous_system_id=1&autonomous_system_id=2&ixp_connection_id__n=null",
    );
}

#[test]
fn filter_related_dotted_paths() {
    pin_filter(
        "filter_related",
        &INTERNET_EXCHANGE_PEERING_SESSION,
        "autonomous_system_asn=64500&internet_exchange=Paris-IX&internet_exchange_id=3\
         &autonomous_system__n=null",
    );
}

#[test]
fn filter_tags_are_anded() {
    pin_filter(
        "filter_tags",
        &AUTONOMOUS_SYSTEM,
        "tag=gold&tag=silver&tag__n=bronze",
    );
}

#[test]
fn filter_ip_address_and_family() {
    pin_filter(
        "filter_ip",
        &INTERNET_EXCHANGE_PEERING_SESSION,
        "address_family=6&ip_address=2001:DB8::C8",
    );
}

#[test]
fn filter_computed_and_change_requests() {
    pin_filter(
        "filter_computed",
        &INTERNET_EXCHANGE_PEERING_SESSION,
        "is_abandoned=true&created_by_request=0b0e3c1a-6a64-4d5c-9a0a-3f3f6b1c2d4e",
    );
}

#[test]
fn search_text_with_a_trigram_index() {
    pin_filter("search_text", &AUTONOMOUS_SYSTEM, "q=Cloud \"x\"");
}

#[test]
fn search_short_text_and_number() {
    pin_filter("search_number", &AUTONOMOUS_SYSTEM, "q=65");
}

#[test]
fn search_address_through_relations() {
    pin_filter(
        "search_address",
        &INTERNET_EXCHANGE_PEERING_SESSION,
        "q=192.0.2.1",
    );
}

#[test]
fn orders() {
    let cases: [(&str, &ResourceSpec, &str); 5] = [
        ("order_default", &AUTONOMOUS_SYSTEM, ""),
        (
            "order_by_relation_keys",
            &INTERNET_EXCHANGE_PEERING_SESSION,
            "",
        ),
        ("order_by_related_value", &CONNECTION, ""),
        ("order_descending", &AUTONOMOUS_SYSTEM, "ordering=-asn,name"),
        (
            "order_descending_relation_key",
            &DIRECT_PEERING_SESSION,
            "ordering=-autonomous_system,local_autonomous_system",
        ),
    ];
    let mut shown = String::new();
    for (name, spec, query) in cases {
        let order = order_by(table(spec), &filter(spec, query));
        shown.push_str(&format!("{name}:{order}\n"));
    }
    insta::assert_snapshot!("orders", shown);
}

fn pin_page(name: &str, spec: &'static ResourceSpec, query: &str, window: Window) {
    let filter = filter(spec, query);
    for backend in BACKENDS {
        let extra = Inline::of_read_with_relations(spec).columns(backend);
        let (count, rows) = page_sql(backend, table(spec), (&filter, window), &extra);
        insta::assert_snapshot!(
            format!("{name}@{}", backend.name()),
            format!("{}\n\n{}", count.snapshot(backend), rows.snapshot(backend))
        );
    }
}

#[test]
fn page_first() {
    pin_page(
        "page_first",
        &AUTONOMOUS_SYSTEM,
        "asn__gte=64500",
        Window {
            limit: Some(50),
            offset: 0,
        },
    );
}

#[test]
fn page_deep() {
    pin_page(
        "page_deep",
        &INTERNET_EXCHANGE_PEERING_SESSION,
        "status=enabled",
        Window {
            limit: Some(50),
            offset: 1000,
        },
    );
}

#[test]
fn page_to_the_end() {
    pin_page(
        "page_to_the_end",
        &AUTONOMOUS_SYSTEM,
        "",
        Window {
            limit: None,
            offset: 20,
        },
    );
}

#[test]
fn relation_links() {
    pin("links", |backend| {
        links_sql(backend, &INTERNET_EXCHANGE_PEERING_SESSION, &[3, 1, 2])
    });
}

#[test]
fn objects_by_ids() {
    let session = table(&INTERNET_EXCHANGE_PEERING_SESSION);
    let carried = |backend| {
        Inline::of_read_with_relations(&INTERNET_EXCHANGE_PEERING_SESSION).columns(backend)
    };
    pin("objects_one", |backend| {
        by_ids_sql(backend, session, &[5], &carried(backend))
    });
    pin("objects_many", |backend| {
        by_ids_sql(backend, session, &[1, 2, 3], &carried(backend))
    });
    // A detail, and details asked together (`together.rs`): joined to what they point to.
    let plan = crate::query::joined::plan(&INTERNET_EXCHANGE_PEERING_SESSION)
        .expect("a session points to its AS and connection");
    pin("objects_joined_one", |backend| {
        plan.sql(backend, &carried(backend), &[5])
    });
    pin("objects_joined_many", |backend| {
        plan.sql(backend, &carried(backend), &[1, 2, 3])
    });
    let many: Vec<i64> = (1..=150).collect();
    pin("objects_shallow", |backend| {
        shallow_by_ids_sql(backend, table(&AUTONOMOUS_SYSTEM), &many[..3])
    });
    pin("links_many", |backend| {
        links_sql(backend, &AUTONOMOUS_SYSTEM, &many)
    });
}

#[test]
fn writes() {
    use crate::sql::Bind;
    use crate::write::unique::probe_sql;
    use crate::write::update::update_sql;
    let tuples = vec![
        vec![Bind::Int(4), Bind::Text("192.0.2.1".into())],
        vec![Bind::Int(5), Bind::Text("2001:db8::1".into())],
    ];
    pin("unique_probe", |backend| {
        probe_sql(
            backend,
            "internet_exchange_peering_sessions",
            &["ixp_connection_id", "ip_address"],
            &tuples,
        )
    });
    let rows = vec![
        vec![Bind::Int(1), Bind::Text("A".into()), Bind::Text("a".into())],
        vec![Bind::Int(2), Bind::NullText, Bind::NullText],
    ];
    let set = [
        "name = v.column2".to_string(),
        "name_lc = v.column3".to_string(),
    ];
    pin("update_rows", |backend| {
        let writes = crate::written::Writes::updates("autonomous_systems");
        update_sql(backend, writes, &set, rows.clone())
    });
    pin("insert_rows", |backend| {
        let mut statements = Sql::inserts(
            backend,
            "autonomous_systems",
            &["id", "name", "name_lc"],
            rows.clone(),
        );
        assert_eq!(statements.len(), 1);
        statements.remove(0)
    });
}

#[test]
fn filter_extra_sources() {
    use peering_domain::resources::{JOB, OBJECT_CHANGE, ROUTING_POLICY, TAG};
    pin_filter(
        "filter_since_until",
        &JOB,
        "created__after=2024-01-01&completed__before=2024-02-01T10:00:00Z&started__after__n=null",
    );
    pin_filter(
        "filter_column_source",
        &OBJECT_CHANGE,
        "user=admin&time_after=2024-01-01",
    );
    pin_filter(
        "filter_referred_by",
        &TAG,
        "content_type=peering.autonomoussystem&content_type=null",
    );
    pin_filter(
        "filter_choice_or_also",
        &ROUTING_POLICY,
        "type=import-policy&type__n=export-policy",
    );
}
