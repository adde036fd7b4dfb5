//! Connections of routers to internet exchanges (spec 2.4, reference 3.7).

use super::common::{
    ASSIGNED_CONTEXTS, COMMENTS, CREATED, DESCRIPTION, LOCAL_CONTEXT_DATA, MERGED_CONTEXT, TAGS,
    UPDATED,
};
use super::devices::ROUTER;
use super::internet_exchange::INTERNET_EXCHANGE;
use crate::choices::CONNECTION_STATUS;
use crate::net::Family;
use crate::record::Record;
use crate::spec::{
    kinds, Default, ExtraFilter, Field, Kind, OnDelete, RelatedLookup, ResourceSpec, Search,
};

fn internet_exchange() -> &'static ResourceSpec {
    &INTERNET_EXCHANGE
}

fn router() -> &'static ResourceSpec {
    &ROUTER
}

const BRIEF: &[&str] = &[
    "id",
    "url",
    "display",
    "name",
    "mac_address",
    "ipv6_address",
    "ipv4_address",
];

pub static CONNECTION: ResourceSpec = ResourceSpec {
    app: "net",
    model: "connection",
    path: "connections",
    name: "Connection",
    verbose_name: "connection",
    table: "connections",
    fields: &[
        Field::new("name", "Name", Kind::DisplayCopy).read_only(),
        // The external peering database's record of this connection (by its id).
        Field::new(
            "extdb_netixlan",
            "External database record",
            kinds::int(1, i64::MAX),
        )
        .nullable()
        .default(Default::Null),
        Field::new("status", "Status", kinds::status(&CONNECTION_STATUS))
            .default(Default::Text("enabled"))
            .filter(),
        Field::new("vlan", "VLAN", kinds::int(1, 4094))
            .nullable()
            .default(Default::Null)
            .filter(),
        Field::new("mac_address", "MAC address", Kind::Mac)
            .nullable()
            .default(Default::Null)
            .filter(),
        Field::new(
            "ipv6_address",
            "IPv6 address",
            Kind::Ip {
                family: Some(Family::V6),
                host_only: false,
            },
        )
        .nullable()
        .default(Default::Null)
        .filter(),
        Field::new(
            "ipv4_address",
            "IPv4 address",
            Kind::Ip {
                family: Some(Family::V4),
                host_only: false,
            },
        )
        .nullable()
        .default(Default::Null)
        .filter(),
        // Both relations must be given (the reference requires the keys) but may be null.
        Field::new(
            "internet_exchange_point",
            "Internet exchange point",
            kinds::fk(internet_exchange, OnDelete::Cascade),
        )
        .required()
        .nullable()
        .filter(),
        Field::new("router", "Router", kinds::fk(router, OnDelete::SetNull))
            .required()
            .nullable()
            .filter(),
        Field::new("interface", "Interface", kinds::text(200))
            .default(Default::Text(""))
            .filter(),
        DESCRIPTION,
        LOCAL_CONTEXT_DATA,
        ASSIGNED_CONTEXTS,
        MERGED_CONTEXT,
        COMMENTS,
        TAGS,
        CREATED,
        UPDATED,
    ],
    // As Django orders by a related model: the exchange's own ordering (its local
    // autonomous system's, its name, its slug), then the router's.
    ordering: &[
        "internet_exchange_point.local_autonomous_system.asn",
        "internet_exchange_point.local_autonomous_system.affiliated",
        "internet_exchange_point.name",
        "internet_exchange_point.slug",
        "router.local_autonomous_system.asn",
        "router.local_autonomous_system.affiliated",
        "router.name",
    ],
    brief: BRIEF,
    nested: BRIEF,
    search: &[
        Search::Contains("interface"),
        Search::Contains("description"),
        Search::Contains("router.name"),
        Search::Contains("router.hostname"),
        Search::IpHost("ipv6_address"),
        Search::IpHost("ipv4_address"),
    ],
    display,
    reads: &["internet_exchange_point", "router"],
    extra_filters: &[
        ExtraFilter::related("internet_exchange_point", "internet_exchange_point.name"),
        ExtraFilter::related("router_name", "router.name"),
        ExtraFilter::related("router", "router.hostname"),
    ],
    ..ResourceSpec::DEFAULTS
};

/// "{IXP} on {router} {interface}", dropping what is missing; "Connection #{id}" when
/// neither the exchange nor the router is known.
fn display(spec: &ResourceSpec, r: &Record, related: &dyn RelatedLookup) -> String {
    let ixp = r
        .follow(spec, "internet_exchange_point", related)
        .map(|x| x.text(&INTERNET_EXCHANGE, "name").to_string());
    let router = r
        .follow(spec, "router", related)
        .map(|x| x.text(&ROUTER, "name").to_string());
    let interface = r.text(spec, "interface");
    let on_router = router.map(|name| {
        if interface.is_empty() {
            name
        } else {
            format!("{name} {interface}")
        }
    });
    match (ixp, on_router) {
        (Some(ixp), Some(router)) => format!("{ixp} on {router}"),
        (Some(ixp), None) => ixp,
        (None, Some(router)) => router,
        (None, None) => format!("Connection #{}", r.id),
    }
}
