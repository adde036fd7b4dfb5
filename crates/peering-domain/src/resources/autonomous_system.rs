//! Autonomous systems (spec 2.2, reference 3.1).

use super::common::{communities, policies, COMMENTS, CREATED, LOCAL_CONTEXT_DATA, TAGS, UPDATED};
use crate::record::Record;
use crate::spec::{kinds, Default, Field, Kind, RelatedLookup, ResourceSpec, Search};

const MAX_PREFIXES: Kind = kinds::int(0, 2_147_483_647);

/// The members of both the brief and the nested form.
const AUTONOMOUS_SYSTEM_MEMBERS: &[&str] = &[
    "id",
    "url",
    "display",
    "asn",
    "name",
    "ipv6_max_prefixes",
    "ipv4_max_prefixes",
];

pub static AUTONOMOUS_SYSTEM: ResourceSpec = ResourceSpec {
    app: "peering",
    model: "autonomoussystem",
    path: "autonomous-systems",
    name: "Autonomous System",
    verbose_name: "autonomous system",
    table: "autonomous_systems",
    fields: &[
        Field::new("asn", "ASN", kinds::int(1, 4_294_967_295))
            .required()
            .unique()
            .filter(),
        Field::new("name", "Name", kinds::text(200))
            .required()
            .filter(),
        // Kept, not shown, as the reference: whether a PeeringDB synchronisation renames.
        Field::new("name_extdb_sync", "Name sync", Kind::Bool)
            .default(Default::Bool(true))
            .hidden(),
        COMMENTS,
        Field::new("irr_as_set", "IRR AS-SET", kinds::text(255))
            .nullable()
            .default(Default::Null)
            .filter(),
        Field::new("irr_as_set_extdb_sync", "IRR AS-SET sync", Kind::Bool)
            .default(Default::Bool(true)),
        Field::new("ipv6_max_prefixes", "IPv6 max prefix", MAX_PREFIXES)
            .nullable()
            .default(Default::Int(0))
            .filter(),
        Field::new(
            "ipv6_max_prefixes_extdb_sync",
            "IPv6 max prefix sync",
            Kind::Bool,
        )
        .default(Default::Bool(true)),
        Field::new("ipv4_max_prefixes", "IPv4 max prefix", MAX_PREFIXES)
            .nullable()
            .default(Default::Int(0))
            .filter(),
        Field::new(
            "ipv4_max_prefixes_extdb_sync",
            "IPv4 max prefix sync",
            Kind::Bool,
        )
        .default(Default::Bool(true)),
        policies(
            "import_routing_policies",
            "Import routing policies",
            "autonomous_system_import_routing_policies",
            "autonomous_system_id",
        ),
        policies(
            "export_routing_policies",
            "Export routing policies",
            "autonomous_system_export_routing_policies",
            "autonomous_system_id",
        ),
        communities("autonomous_system_communities", "autonomous_system_id"),
        Field::new("prefixes", "Prefixes", Kind::Json { object_only: false })
            .nullable()
            .read_only()
            .default(Default::Null),
        // The reference's 1.10 fields (migration 0107): whether a refresh asks the IRR for
        // this system's prefixes, and what it asks with instead of the settings'.
        Field::new("retrieve_prefixes", "Retrieve prefixes", Kind::Bool)
            .default(Default::Bool(true)),
        Field::new(
            "irr_sources_override",
            "IRR sources override",
            kinds::plain_text(255),
        )
        .default(Default::Text(""))
        .help(
            "Override for PEERING_IRR_SOURCES, a comma separated list of sources, e.g. RIPE,RADB",
        ),
        Field::new(
            "irr_ipv6_prefixes_args_override",
            "IRR IPv6 prefix arguments override",
            kinds::plain_text(255),
        )
        .default(Default::Text(""))
        .help("Override for PEERING_BGPQ_IPV6_ARGS"),
        Field::new(
            "irr_ipv4_prefixes_args_override",
            "IRR IPv4 prefix arguments override",
            kinds::plain_text(255),
        )
        .default(Default::Text(""))
        .help("Override for PEERING_BGPQ_IPV4_ARGS"),
        Field::new("affiliated", "Affiliated", Kind::Bool)
            .default(Default::Bool(false))
            .filter(),
        LOCAL_CONTEXT_DATA,
        TAGS,
        CREATED,
        UPDATED,
        Field::new("description", "Description", kinds::text(200))
            .default(Default::Text(""))
            .hidden(),
    ],
    ordering: &["asn", "affiliated"],
    brief: AUTONOMOUS_SYSTEM_MEMBERS,
    nested: AUTONOMOUS_SYSTEM_MEMBERS,
    search: &[
        Search::Contains("name"),
        Search::Contains("irr_as_set"),
        Search::IntEquals("asn"),
    ],
    display,
    ..ResourceSpec::DEFAULTS
};

/// "AS{asn} - {name}", as the reference renders it.
fn display(spec: &ResourceSpec, r: &Record, _: &dyn RelatedLookup) -> String {
    format!("AS{} - {}", r.int(spec, "asn"), r.text(spec, "name"))
}
