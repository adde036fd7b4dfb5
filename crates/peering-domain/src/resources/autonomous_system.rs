//! Autonomous systems (spec 2.2, reference 3.1).

use super::common::{
    communities, policies, ASSIGNED_CONTEXTS, COMMENTS, CREATED, DESCRIPTION, LOCAL_CONTEXT_DATA,
    MERGED_CONTEXT, TAGS, UPDATED,
};
use crate::errors::FieldErrors;
use crate::record::Record;
use crate::spec::{kinds, Default, Field, Kind, RelatedLookup, ResourceSpec, Search};
use crate::value::Value;

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
        // Whether a PeeringDB synchronisation renames (shown from 1.10 on).
        Field::new("name_extdb_sync", "Name sync", Kind::Bool).default(Default::Bool(true)),
        DESCRIPTION,
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
        // 1.10's: the ASNs the system's AS-SETs expand to, which an IRR refresh fills (when
        // `retrieve_as_list` allows), and a write never gives.
        Field::new("as_list", "AS list", Kind::Json { object_only: false })
            .read_only()
            .default(Default::EmptyArray),
        Field::new("retrieve_as_list", "Retrieve AS list", Kind::Bool).default(Default::Bool(true)),
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
        ASSIGNED_CONTEXTS,
        MERGED_CONTEXT,
        TAGS,
        CREATED,
        UPDATED,
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
    validate: Some(validate),
    ..ResourceSpec::DEFAULTS
};

/// The AS list is a list of AS numbers (an import takes it from the source as it is).
fn validate(spec: &ResourceSpec, r: &Record, _: &dyn RelatedLookup) -> FieldErrors {
    let mut errors = FieldErrors::new();
    let is_asn =
        |v: &serde_json::Value| v.as_u64().is_some_and(|n| (1..=4_294_967_295).contains(&n));
    match r.get(spec, "as_list") {
        Value::Json(list) if list.as_array().is_some_and(|l| l.iter().all(is_asn)) => {}
        _ => errors.add("as_list", "Expected a list of AS numbers."),
    }
    errors
}

/// "AS{asn} - {name}", as the reference renders it.
fn display(spec: &ResourceSpec, r: &Record, _: &dyn RelatedLookup) -> String {
    format!("AS{} - {}", r.int(spec, "asn"), r.text(spec, "name"))
}
