//! Sessions at internet exchanges, through a connection.

use super::*;

/// The members of both the brief and the nested form.
const INTERNET_EXCHANGE_PEERING_SESSION_MEMBERS: &[&str] = &[
    "id",
    "url",
    "display",
    "ip_address",
    "status=value",
    "is_route_server",
];

pub static INTERNET_EXCHANGE_PEERING_SESSION: ResourceSpec = ResourceSpec {
    app: "peering",
    model: "internetexchangepeeringsession",
    path: "internet-exchange-peering-sessions",
    name: "Internet Exchange Peering Session",
    verbose_name: "internet exchange peering session",
    table: "internet_exchange_peering_sessions",
    fields: &[
        SERVICE_REFERENCE,
        Field::new(
            "autonomous_system",
            "Autonomous system",
            kinds::fk(autonomous_system, OnDelete::Cascade),
        )
        .required()
        .filter(),
        Field::new(
            "ixp_connection",
            "IXP connection",
            kinds::fk(connection, OnDelete::Cascade),
        )
        .required()
        .filter(),
        Field::new(
            "ip_address",
            "IP address",
            Kind::Ip {
                family: None,
                host_only: true,
            },
        )
        .required()
        .filter(),
        STATUS,
        PASSWORD,
        ENCRYPTED_PASSWORD,
        MULTIHOP_TTL,
        PASSIVE,
        Field::new("is_route_server", "Route server", Kind::Bool)
            .default(Default::Bool(false))
            .filter(),
        BFD_FIELD,
        policies(
            "import_routing_policies",
            "Import routing policies",
            "ixp_session_import_routing_policies",
            "session_id",
        ),
        policies(
            "export_routing_policies",
            "Export routing policies",
            "ixp_session_export_routing_policies",
            "session_id",
        ),
        communities("ixp_session_communities", "session_id"),
        LOCAL_CONTEXT_DATA,
        ASSIGNED_CONTEXTS,
        MERGED_CONTEXT,
        // Computed from the local PeeringDB copy whenever the session is read.
        Field::new("exists_in_extdb", "Exists in external database", Kind::Bool)
            .computed(Computed::SessionInPeeringDb)
            .filter(),
        Field::new("is_abandoned", "Abandoned", Kind::Bool)
            .computed(Computed::SessionAbandoned)
            .filter(),
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
        "autonomous_system",
        "ixp_connection",
        "ip_address",
    ],
    // As the reference's nested serializer: the status as its plain value.
    brief: INTERNET_EXCHANGE_PEERING_SESSION_MEMBERS,
    nested: INTERNET_EXCHANGE_PEERING_SESSION_MEMBERS,
    search: &[
        Search::Contains("service_reference"),
        Search::Contains("autonomous_system.name"),
        Search::Contains("ixp_connection.router.name"),
        Search::Contains("ixp_connection.router.hostname"),
        Search::Contains("ixp_connection.internet_exchange_point.name"),
        Search::Contains("ixp_connection.internet_exchange_point.slug"),
        Search::IpHost("ip_address"),
    ],
    display,
    reads: &["autonomous_system", "ixp_connection"],
    unique_together: &[(
        &["ixp_connection", "ip_address"],
        "Internet exchange peering session with this IXP connection and IP address already exists.",
    )],
    validate: Some(validate),
    derive: Some(derive),
    extra_filters: &[
        ExtraFilter::related("autonomous_system_asn", "autonomous_system.asn"),
        ExtraFilter::related("autonomous_system", "autonomous_system.name"),
        ExtraFilter::related("bfd", "bfd.name"),
        ExtraFilter::related(
            "internet_exchange_id",
            "ixp_connection.internet_exchange_point.id",
        ),
        ExtraFilter::related(
            "internet_exchange",
            "ixp_connection.internet_exchange_point.name",
        ),
        ExtraFilter {
            param: "address_family",
            source: FilterSource::AddressFamily("ip_address"),
        },
    ],
    ..ResourceSpec::DEFAULTS
};

/// "{IXP} - AS{asn} - IP {address}", without the exchange when it is unknown.
fn display(spec: &ResourceSpec, r: &Record, related: &dyn RelatedLookup) -> String {
    let asn = r
        .follow(spec, "autonomous_system", related)
        .map(|a| a.int(&AUTONOMOUS_SYSTEM, "asn"))
        .unwrap_or_default();
    let ip = r.text(spec, "ip_address");
    let ixp = r
        .follow(spec, "ixp_connection", related)
        .and_then(|c| c.follow(&CONNECTION, "internet_exchange_point", related))
        .map(|x| x.text(&INTERNET_EXCHANGE, "name").to_string());
    match ixp {
        Some(ixp) => format!("{ixp} - AS{asn} - IP {ip}"),
        None => format!("AS{asn} - IP {ip}"),
    }
}

/// The session's address must be of a family the connection has an address of, and inside
/// that address's network (a connection without addresses accepts any).
fn validate(spec: &ResourceSpec, r: &Record, related: &dyn RelatedLookup) -> FieldErrors {
    let mut errors = FieldErrors::new();
    let Some(conn) = r.follow(spec, "ixp_connection", related) else {
        return errors;
    };
    let Ok(host) = r.text(spec, "ip_address").parse::<std::net::IpAddr>() else {
        return errors;
    };
    let v6 = conn.text(&CONNECTION, "ipv6_address");
    let v4 = conn.text(&CONNECTION, "ipv4_address");
    if v6.is_empty() && v4.is_empty() {
        return errors;
    }
    let (own, family) = if host.is_ipv6() {
        (v6, "IPv6")
    } else {
        (v4, "IPv4")
    };
    match own.parse::<ipnet::IpNet>() {
        Err(_) => errors.add(
            "ip_address",
            format!("The connection has no {family} address for this session's address."),
        ),
        Ok(net) if !crate::net::in_network(&host, &net) => errors.add(
            "ip_address",
            format!(
                "{host} is not in {}, the network of the connection.",
                net.trunc()
            ),
        ),
        Ok(_) => {}
    }
    errors
}

/// Encrypts the password of a session at an exchange with its connection's router.
fn derive(spec: &ResourceSpec, r: &mut Record, related: &dyn RelatedLookup) {
    let router = r
        .follow(spec, "ixp_connection", related)
        .and_then(|c| c.follow(&CONNECTION, "router", related))
        .cloned();
    encrypt_password(spec, r, router.as_ref(), related);
}
