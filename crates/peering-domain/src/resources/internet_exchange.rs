//! Internet exchange points (spec 2.3, reference 3.6).

use super::autonomous_system::AUTONOMOUS_SYSTEM;
use super::common::{
    display_name, org_name, org_slug, CREATED, DESCRIPTION, LOCAL_CONTEXT_DATA, TAGS, UPDATED,
};
use super::routing::{COMMUNITY, ROUTING_POLICY};
use crate::choices::BGP_GROUP_STATUS;
use crate::spec::{kinds, Default, Field, Kind, OnDelete, ResourceSpec, Search};

fn routing_policy() -> &'static ResourceSpec {
    &ROUTING_POLICY
}

fn community() -> &'static ResourceSpec {
    &COMMUNITY
}

fn autonomous_system() -> &'static ResourceSpec {
    &AUTONOMOUS_SYSTEM
}

pub static INTERNET_EXCHANGE: ResourceSpec = ResourceSpec {
    app: "peering",
    model: "internetexchange",
    path: "internet-exchanges",
    name: "Internet Exchange",
    verbose_name: "internet exchange",
    table: "internet_exchanges",
    fields: &[
        org_name(100),
        org_slug(100),
        DESCRIPTION,
        Field::new("status", "Status", kinds::status(&BGP_GROUP_STATUS))
            .default(Default::Text("enabled"))
            .filter(),
        // The external peering database's IX LAN this exchange is linked to (by its id).
        Field::new(
            "extdb_ixlan",
            "External database IX LAN",
            kinds::int(1, i64::MAX),
        )
        .nullable()
        .default(Default::Null),
        // Prefixes from the external database's cache; empty until such a cache exists.
        Field::new("extdb_prefixes", "External database prefixes", kinds::JSON)
            .read_only()
            .default(Default::EmptyObject),
        Field::new(
            "local_autonomous_system",
            "Local autonomous system",
            kinds::fk(autonomous_system, OnDelete::Cascade),
        )
        .required()
        .filter(),
        Field::new(
            "import_routing_policies",
            "Import routing policies",
            Kind::ManyToMany {
                target: routing_policy,
                table: "internet_exchange_import_routing_policies",
                source: "internet_exchange_id",
                target_column: "routing_policy_id",
            },
        )
        .default(Default::EmptyList),
        Field::new(
            "export_routing_policies",
            "Export routing policies",
            Kind::ManyToMany {
                target: routing_policy,
                table: "internet_exchange_export_routing_policies",
                source: "internet_exchange_id",
                target_column: "routing_policy_id",
            },
        )
        .default(Default::EmptyList),
        Field::new(
            "communities",
            "Communities",
            Kind::ManyToMany {
                target: community,
                table: "internet_exchange_communities",
                source: "internet_exchange_id",
                target_column: "community_id",
            },
        )
        .default(Default::EmptyList),
        LOCAL_CONTEXT_DATA,
        TAGS,
        CREATED,
        UPDATED,
    ],
    ordering: &["local_autonomous_system", "name", "slug"],
    // The nested form shows the status as its plain value (spec 2.3), and so does the brief
    // one, which is the nested form in the reference.
    brief: &["id", "url", "display", "name", "slug", "status=value"],
    nested: &["id", "url", "display", "name", "slug", "status=value"],
    search: &[
        Search::Contains("name"),
        Search::Contains("slug"),
        Search::Contains("description"),
    ],
    display: display_name,
    reads: &[],
    unique_together: &[],
    validate: None,
    derive: None,
    change_logged: true,
    writable: true,
    extra_filters: &[],
    has_timestamps: true,
};
