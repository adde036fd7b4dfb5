//! Direct sessions: private interconnections, with a local and a remote address.

use super::*;

fn bgp_group() -> &'static ResourceSpec {
    &super::super::bgp::BGP_GROUP
}

fn relationship() -> &'static ResourceSpec {
    &super::super::bgp::RELATIONSHIP
}

fn router() -> &'static ResourceSpec {
    &ROUTER
}

fn connection() -> &'static ResourceSpec {
    &CONNECTION
}

/// The members of both the brief and the nested form.
const DIRECT_PEERING_SESSION_MEMBERS: &[&str] = &["id", "url", "display", "ip_address", "status"];

pub static DIRECT_PEERING_SESSION: ResourceSpec = ResourceSpec {
    app: "peering",
    model: "directpeeringsession",
    path: "direct-peering-sessions",
    name: "Direct Peering Session",
    verbose_name: "direct peering session",
    table: "direct_peering_sessions",
    fields: &[
        SERVICE_REFERENCE,
        Field::new(
            "local_autonomous_system",
            "Local autonomous system",
            kinds::fk(autonomous_system, OnDelete::Cascade),
        )
        .required()
        .filter(),
        Field::new(
            "local_ip_address",
            "Local IP address",
            Kind::Ip {
                family: None,
                host_only: false,
            },
        )
        .nullable()
        .default(Default::Null)
        .filter(),
        Field::new(
            "autonomous_system",
            "Autonomous system",
            kinds::fk(autonomous_system, OnDelete::Cascade),
        )
        .required()
        .filter(),
        Field::new(
            "bgp_group",
            "BGP group",
            kinds::fk(bgp_group, OnDelete::SetNull),
        )
        .nullable()
        .default(Default::Null)
        .filter(),
        Field::new(
            "ip_address",
            "IP address",
            Kind::Ip {
                family: None,
                host_only: false,
            },
        )
        .required()
        .filter(),
        STATUS,
        Field::new(
            "relationship",
            "Relationship",
            kinds::fk(relationship, OnDelete::Protect),
        )
        .required()
        .filter(),
        PASSWORD,
        ENCRYPTED_PASSWORD,
        MULTIHOP_TTL,
        PASSIVE,
        BFD_FIELD,
        policies(
            "import_routing_policies",
            "Import routing policies",
            "direct_session_import_routing_policies",
            "session_id",
        ),
        policies(
            "export_routing_policies",
            "Export routing policies",
            "direct_session_export_routing_policies",
            "session_id",
        ),
        communities("direct_session_communities", "session_id"),
        Field::new("router", "Router", kinds::fk(router, OnDelete::SetNull))
            .nullable()
            .default(Default::Null)
            .filter(),
        // 1.10's: the network connection the session lives on.
        Field::new(
            "connection",
            "Network connection on which this session lives",
            kinds::fk(connection, OnDelete::SetNull),
        )
        .nullable()
        .default(Default::Null)
        .filter(),
        LOCAL_CONTEXT_DATA,
        ASSIGNED_CONTEXTS,
        MERGED_CONTEXT,
        BGP_STATE_FIELD,
        RECEIVED,
        ACCEPTED,
        ADVERTISED,
        LAST_ESTABLISHED,
        COMMENTS,
        TAGS,
        CREATED,
        UPDATED,
    ],
    ordering: &[
        "service_reference",
        "local_autonomous_system",
        "autonomous_system",
        "ip_address",
    ],
    brief: DIRECT_PEERING_SESSION_MEMBERS,
    nested: DIRECT_PEERING_SESSION_MEMBERS,
    search: &[
        Search::Contains("service_reference"),
        Search::Contains("autonomous_system.name"),
        Search::Contains("bgp_group.name"),
        Search::Contains("bgp_group.slug"),
        Search::Contains("router.name"),
        Search::Contains("router.hostname"),
        Search::IpHost("ip_address"),
        Search::IpHost("local_ip_address"),
    ],
    display: direct_display,
    reads: &["relationship", "autonomous_system", "router"],
    validate: Some(direct_validate),
    derive: Some(direct_derive),
    extra_filters: &[
        ExtraFilter::related("local_autonomous_system_asn", "local_autonomous_system.asn"),
        ExtraFilter::related("local_autonomous_system", "local_autonomous_system.name"),
        ExtraFilter::related("autonomous_system_asn", "autonomous_system.asn"),
        ExtraFilter::related("autonomous_system", "autonomous_system.name"),
        ExtraFilter::related("bgp_group", "bgp_group.name"),
        ExtraFilter::related("relationship", "relationship.name"),
        ExtraFilter::related("router_name", "router.name"),
        ExtraFilter::related("router", "router.hostname"),
        ExtraFilter::related("bfd", "bfd.name"),
        ExtraFilter {
            param: "address_family",
            source: FilterSource::AddressFamily("ip_address"),
        },
    ],
    ..ResourceSpec::DEFAULTS
};

/// "{relationship} - AS{remote asn} - IP {address/length}".
fn direct_display(spec: &ResourceSpec, r: &Record, related: &dyn RelatedLookup) -> String {
    let relationship = r
        .follow(spec, "relationship", related)
        .map(|x| x.text(&super::super::bgp::RELATIONSHIP, "name").to_string())
        .unwrap_or_default();
    let asn = r
        .follow(spec, "autonomous_system", related)
        .map(|a| a.int(&AUTONOMOUS_SYSTEM, "asn"))
        .unwrap_or_default();
    format!(
        "{relationship} - AS{asn} - IP {}",
        r.text(spec, "ip_address")
    )
}

/// A single-hop session's remote address must be in the local address's network.
fn direct_validate(spec: &ResourceSpec, r: &Record, _: &dyn RelatedLookup) -> FieldErrors {
    let mut errors = FieldErrors::new();
    let local = r.text(spec, "local_ip_address").parse::<ipnet::IpNet>();
    let remote = r.text(spec, "ip_address").parse::<ipnet::IpNet>();
    if let (Ok(local), Ok(remote), Some(1)) = (local, remote, r.get(spec, "multihop_ttl").as_int())
    {
        if !crate::net::in_network(&remote.addr(), &local) {
            errors.add(
                "non_field_errors",
                format!("{local} and {remote} don't belong to the same subnet."),
            );
        }
    }
    errors
}

/// Encrypts the password of a direct session with its router.
fn direct_derive(spec: &ResourceSpec, r: &mut Record, related: &dyn RelatedLookup) {
    let router = r.follow(spec, "router", related).cloned();
    encrypt_password(spec, r, router.as_ref(), related);
}
