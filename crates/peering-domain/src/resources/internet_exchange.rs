//! Internet exchange points (spec 2.3, reference 3.6).

use super::autonomous_system::AUTONOMOUS_SYSTEM;
use super::common::{
    communities, display_name, org_name, org_slug, policies, ASSIGNED_CONTEXTS, CREATED,
    DESCRIPTION, LOCAL_CONTEXT_DATA, MERGED_CONTEXT, TAGS, UPDATED,
};
use super::extras::IXAPI;
use crate::choices::BGP_GROUP_STATUS;
use crate::spec::{kinds, Default, ExtraFilter, Field, OnDelete, ResourceSpec, Search};

fn autonomous_system() -> &'static ResourceSpec {
    &AUTONOMOUS_SYSTEM
}

fn ixapi() -> &'static ResourceSpec {
    &IXAPI
}

/// The members of both the brief and the nested form.
const INTERNET_EXCHANGE_MEMBERS: &[&str] =
    &["id", "url", "display", "name", "slug", "status=value"];

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
        // The IX-API endpoint that manages this exchange (nested, as the reference).
        Field::new(
            "ixapi_endpoint",
            "IX-API endpoint",
            kinds::fk(ixapi, OnDelete::SetNull),
        )
        .nullable()
        .default(Default::Null)
        .filter(),
        Field::new(
            "local_autonomous_system",
            "Local autonomous system",
            kinds::fk(autonomous_system, OnDelete::Cascade),
        )
        .required()
        .filter(),
        policies(
            "import_routing_policies",
            "Import routing policies",
            "internet_exchange_import_routing_policies",
            "internet_exchange_id",
        ),
        policies(
            "export_routing_policies",
            "Export routing policies",
            "internet_exchange_export_routing_policies",
            "internet_exchange_id",
        ),
        communities("internet_exchange_communities", "internet_exchange_id"),
        LOCAL_CONTEXT_DATA,
        ASSIGNED_CONTEXTS,
        MERGED_CONTEXT,
        TAGS,
        CREATED,
        UPDATED,
    ],
    // The local autonomous system by its own ordering (number, affiliation), as Django does.
    ordering: &[
        "local_autonomous_system.asn",
        "local_autonomous_system.affiliated",
        "name",
        "slug",
    ],
    // The nested form shows the status as its plain value (spec 2.3), and so does the brief
    // one, which is the nested form in the reference.
    brief: INTERNET_EXCHANGE_MEMBERS,
    nested: INTERNET_EXCHANGE_MEMBERS,
    search: &[
        Search::Contains("name"),
        Search::Contains("slug"),
        Search::Contains("local_autonomous_system.name"),
        Search::IntEquals("local_autonomous_system.asn"),
    ],
    display: display_name,
    extra_filters: &[
        ExtraFilter::related("local_autonomous_system_asn", "local_autonomous_system.asn"),
        ExtraFilter::related("local_autonomous_system", "local_autonomous_system.name"),
    ],
    ..ResourceSpec::DEFAULTS
};
