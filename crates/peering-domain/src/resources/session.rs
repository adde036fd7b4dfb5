//! BGP peering sessions at internet exchanges (spec 2.5, reference 3.8 and 3.10).

use super::autonomous_system::AUTONOMOUS_SYSTEM;
use super::bfd::BFD;
use super::common::{communities, policies, COMMENTS, CREATED, LOCAL_CONTEXT_DATA, TAGS, UPDATED};
use super::connection::CONNECTION;
use super::devices::{PLATFORM, ROUTER};
use super::internet_exchange::INTERNET_EXCHANGE;
use crate::choices::{BGP_SESSION_STATUS, BGP_STATE};
use crate::errors::FieldErrors;
use crate::password::{self, Algorithm};
use crate::record::Record;
use crate::spec::{
    kinds, ChoiceRender, Computed, Default, ExtraFilter, Field, FilterSource, Kind, OnDelete,
    RelatedLookup, ResourceSpec, Search, Writes,
};
use crate::value::Value;

fn autonomous_system() -> &'static ResourceSpec {
    &AUTONOMOUS_SYSTEM
}

fn connection() -> &'static ResourceSpec {
    &CONNECTION
}

const PREFIX_COUNT: Kind = kinds::int(0, 4_294_967_295);

const SERVICE_REFERENCE: Field =
    Field::new("service_reference", "Service reference", kinds::text(255))
        .nullable()
        .unique()
        .default(Default::Null)
        .filter();
const STATUS: Field = Field::new("status", "Status", kinds::status(&BGP_SESSION_STATUS))
    .default(Default::Text("enabled"))
    .filter();
const PASSWORD: Field = Field::new("password", "Password", kinds::plain_text(255))
    .nullable()
    .secret()
    .default(Default::Null);
const ENCRYPTED_PASSWORD: Field = Field::new(
    "encrypted_password",
    "Encrypted password",
    kinds::plain_text(255),
)
.nullable()
.secret()
.default(Default::Null);
const MULTIHOP_TTL: Field = Field::new("multihop_ttl", "Multihop TTL", kinds::int(1, 255))
    .default(Default::Int(1))
    .filter();
const PASSIVE: Field = Field::new("passive", "Passive", Kind::Bool)
    .default(Default::Bool(false))
    .filter();
fn bfd() -> &'static ResourceSpec {
    &BFD
}

/// The session's BFD configuration (the reference's 1.9 field).
const BFD_FIELD: Field = Field::new("bfd", "BFD", kinds::fk(bfd, OnDelete::SetNull))
    .nullable()
    .default(Default::Null)
    .filter();

const BGP_STATE_FIELD: Field = Field::new(
    "bgp_state",
    "BGP state",
    Kind::Choice {
        set: &BGP_STATE,
        render: ChoiceRender::Raw,
    },
)
.nullable()
.default(Default::Null)
.filter();
const RECEIVED: Field =
    Field::new("received_prefix_count", "Received prefixes", PREFIX_COUNT).default(Default::Int(0));
const ACCEPTED: Field =
    Field::new("accepted_prefix_count", "Accepted prefixes", PREFIX_COUNT).default(Default::Int(0));
const ADVERTISED: Field = Field::new(
    "advertised_prefix_count",
    "Advertised prefixes",
    PREFIX_COUNT,
)
.default(Default::Int(0));
const LAST_ESTABLISHED: Field = Field::new(
    "last_established_state",
    "Last established state",
    Kind::Time,
)
.nullable()
.default(Default::Null);

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
        Field::new("status", "Status", kinds::status(&BGP_SESSION_STATUS))
            .default(Default::Text("enabled"))
            .filter(),
        Field::new("password", "Password", kinds::plain_text(255))
            .nullable()
            .secret()
            .default(Default::Null),
        Field::new(
            "encrypted_password",
            "Encrypted password",
            kinds::plain_text(255),
        )
        .nullable()
        .secret()
        .default(Default::Null),
        Field::new("multihop_ttl", "Multihop TTL", kinds::int(1, 255))
            .default(Default::Int(1))
            .filter(),
        Field::new("passive", "Passive", Kind::Bool)
            .default(Default::Bool(false))
            .filter(),
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
    brief: &[
        "id",
        "url",
        "display",
        "ip_address",
        "status=value",
        "is_route_server",
    ],
    nested: &[
        "id",
        "url",
        "display",
        "ip_address",
        "status=value",
        "is_route_server",
    ],
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
    change_logged: true,
    writes: Writes::All,
    owner: None,
    extra_filters: &[
        ExtraFilter::related("autonomous_system_asn", "autonomous_system.asn"),
        ExtraFilter::related("autonomous_system", "autonomous_system.name"),
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
    has_timestamps: true,
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

/// Encrypts the password, as the reference does, when the session's router encrypts
/// passwords and its platform has an algorithm; an unchanged password keeps its encoding.
fn encrypt_password(
    spec: &ResourceSpec,
    r: &mut Record,
    router: Option<&Record>,
    related: &dyn RelatedLookup,
) {
    let Some(router) = router else {
        return;
    };
    if router.get(&ROUTER, "encrypt_passwords").as_bool() != Some(true) {
        return;
    }
    let algorithm = router
        .follow(&ROUTER, "platform", related)
        .and_then(|p| Algorithm::from_choice(p.text(&PLATFORM, "password_algorithm")));
    let Some(algorithm) = algorithm else {
        return;
    };
    let Some(index) = spec.index_of("encrypted_password") else {
        return;
    };
    let plain = r.text(spec, "password").to_string();
    let current = r.text(spec, "encrypted_password");
    let encrypted = if plain.is_empty() {
        String::new()
    } else if password::decrypt(algorithm, current).as_deref() == Some(plain.as_str()) {
        current.to_string()
    } else {
        password::encrypt(algorithm, &plain)
    };
    r.values[index] = Value::Text(encrypted);
}

fn bgp_group() -> &'static ResourceSpec {
    &super::bgp::BGP_GROUP
}

fn relationship() -> &'static ResourceSpec {
    &super::bgp::RELATIONSHIP
}

fn router() -> &'static ResourceSpec {
    &ROUTER
}

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
        LOCAL_CONTEXT_DATA,
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
    brief: &["id", "url", "display", "ip_address", "status"],
    nested: &["id", "url", "display", "ip_address", "status"],
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
    unique_together: &[],
    validate: Some(direct_validate),
    derive: Some(direct_derive),
    change_logged: true,
    writes: Writes::All,
    owner: None,
    extra_filters: &[
        ExtraFilter::related("local_autonomous_system_asn", "local_autonomous_system.asn"),
        ExtraFilter::related("local_autonomous_system", "local_autonomous_system.name"),
        ExtraFilter::related("autonomous_system_asn", "autonomous_system.asn"),
        ExtraFilter::related("autonomous_system", "autonomous_system.name"),
        ExtraFilter::related("bgp_group", "bgp_group.name"),
        ExtraFilter::related("relationship", "relationship.name"),
        ExtraFilter::related("router_name", "router.name"),
        ExtraFilter::related("router", "router.hostname"),
        ExtraFilter {
            param: "address_family",
            source: FilterSource::AddressFamily("ip_address"),
        },
    ],
    has_timestamps: true,
};

/// "{relationship} - AS{remote asn} - IP {address/length}".
fn direct_display(spec: &ResourceSpec, r: &Record, related: &dyn RelatedLookup) -> String {
    let relationship = r
        .follow(spec, "relationship", related)
        .map(|x| x.text(&super::bgp::RELATIONSHIP, "name").to_string())
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
