//! Networks of the PeeringDB copy: the networks, their contacts, and where they are
//! (facilities and exchange LANs).

use super::{
    asn, count, document, facility, flag, ixlan, network, notes, optional_text, organization,
    parent, text, time, COPY, NAME,
};
use crate::choices::PEERINGDB_VISIBILITY;
use crate::net::Family;
use crate::record::Record;
use crate::spec::{
    kinds, Default, ExtraFilter, Field, Kind, OnDelete, RelatedLookup, ResourceSpec, Search,
};

pub static PDB_NETWORK: ResourceSpec = ResourceSpec {
    model: "network",
    path: "networks",
    name: "Network",
    verbose_name: "network",
    table: "peeringdb_networks",
    fields: &[
        asn("asn", "ASN").required().filter(),
        NAME,
        text("name_long", "Long name"),
        text("aka", "Also known as"),
        text("irr_as_set", "IRR AS-SET/ROUTE-SET"),
        text("website", "Website"),
        text("looking_glass", "Looking glass"),
        text("route_server", "Route server"),
        notes("notes", "Notes"),
        notes("notes_private", "Private notes"),
        text("info_traffic", "Traffic"),
        text("info_ratio", "Ratio"),
        text("info_scope", "Scope"),
        text("info_type", "Type"),
        document("info_types", "Types"),
        count("info_prefixes4", "IPv4 prefixes"),
        count("info_prefixes6", "IPv6 prefixes"),
        flag("info_unicast", "Unicast"),
        flag("info_multicast", "Multicast"),
        flag("info_ipv6", "IPv6"),
        flag("info_never_via_route_servers", "Never via route servers"),
        text("policy_url", "Policy URL"),
        text("policy_general", "General policy"),
        text("policy_locations", "Locations policy"),
        flag("policy_ratio", "Ratio policy"),
        text("policy_contracts", "Contracts policy"),
        parent("org", "Organization", organization),
        document("social_media", "Social media").hidden(),
        optional_text("status_dashboard", "Status dashboard").hidden(),
        optional_text("rir_status", "RIR status").hidden(),
        time("rir_status_updated", "RIR status updated").hidden(),
    ],
    nested: &["id", "url", "display", "asn", "name", "irr_as_set"],
    search: &[
        Search::Contains("name"),
        Search::Contains("irr_as_set"),
        Search::IntEquals("asn"),
    ],
    display: network_display,
    ..COPY
};

/// "AS{asn} - {name}", as the reference.
fn network_display(spec: &ResourceSpec, r: &Record, _: &dyn RelatedLookup) -> String {
    format!("AS{} - {}", r.int(spec, "asn"), r.text(spec, "name"))
}

pub static PDB_NETWORK_CONTACT: ResourceSpec = ResourceSpec {
    model: "networkcontact",
    path: "network-contacts",
    name: "NetworkContact",
    verbose_name: "network contact",
    table: "peeringdb_network_contacts",
    fields: &[
        Field::new("role", "Role", kinds::plain_text(27))
            .default(Default::Text(""))
            .filter(),
        Field::new(
            "visible",
            "Visibility",
            kinds::status(&PEERINGDB_VISIBILITY),
        )
        .default(Default::Text("Public")),
        NAME,
        text("phone", "Phone"),
        Field::new("email", "E-mail", kinds::text(254))
            .default(Default::Text(""))
            .filter(),
        text("url", "URL"),
        parent("net", "Network", network),
    ],
    nested: &["id", "url", "display", "role", "name", "email"],
    display: contact_display,
    extra_filters: &[ExtraFilter::related("net_asn", "net.asn")],
    ..COPY
};

/// "{name} <{email}>", or the name alone when there is no address.
fn contact_display(spec: &ResourceSpec, r: &Record, _: &dyn RelatedLookup) -> String {
    match (r.text(spec, "name"), r.text(spec, "email")) {
        (name, "") => name.to_string(),
        (name, email) => format!("{name} <{email}>"),
    }
}

pub static PDB_NETWORK_FACILITY: ResourceSpec = ResourceSpec {
    model: "networkfacility",
    path: "network-facilities",
    name: "NetworkFacility",
    verbose_name: "network facility",
    table: "peeringdb_network_facilities",
    fields: &[
        asn("local_asn", "Local ASN")
            .nullable()
            .default(Default::Null)
            .filter(),
        flag("avail_sonet", "SONET"),
        flag("avail_ethernet", "Ethernet"),
        flag("avail_atm", "ATM"),
        parent("net", "Network", network),
        parent("fac", "Facility", facility),
    ],
    nested: &["id", "url", "display", "local_asn", "net", "fac"],
    display: network_facility_display,
    reads: &["net", "fac"],
    ..COPY
};

/// "{network} @ {facility}".
fn network_facility_display(
    spec: &ResourceSpec,
    r: &Record,
    related: &dyn RelatedLookup,
) -> String {
    let name = |field: &str, target: &ResourceSpec| {
        r.follow(spec, field, related)
            .map(|o| o.text(target, "name").to_string())
            .unwrap_or_default()
    };
    format!(
        "{} @ {}",
        name("net", &PDB_NETWORK),
        name("fac", &super::PDB_FACILITY)
    )
}

const fn address(name: &'static str, label: &'static str, family: Family) -> Field {
    Field::new(
        name,
        label,
        Kind::Ip {
            family: Some(family),
            host_only: true,
        },
    )
    .nullable()
    .default(Default::Null)
    .filter()
}

/// The facility where one side of a connection to an exchange is, if PeeringDB says; the
/// link is cleared when the facility goes.
const fn side(name: &'static str, label: &'static str) -> Field {
    Field::new(name, label, kinds::fk(facility, OnDelete::SetNull))
        .nullable()
        .default(Default::Null)
}

pub static PDB_NETWORK_IXLAN: ResourceSpec = ResourceSpec {
    model: "networkixlan",
    path: "network-ixlans",
    name: "NetworkIXLan",
    verbose_name: "Public Peering Exchange Point",
    table: "peeringdb_network_ixlans",
    fields: &[
        asn("asn", "ASN").required().filter(),
        address("ipaddr4", "IPv4", Family::V4),
        address("ipaddr6", "IPv6", Family::V6),
        flag("is_rs_peer", "Route server peer").filter(),
        flag("bfd_support", "BFD support").filter(),
        text("notes", "Notes"),
        Field::new("speed", "Speed", kinds::int(0, i64::MAX)).default(Default::Int(0)),
        Field::new("operational", "Operational", Kind::Bool).default(Default::Bool(true)),
        parent("net", "Network", network),
        parent("ixlan", "Internet Exchange LAN", ixlan),
        side("net_side", "Network side"),
        side("ix_side", "IXP side"),
    ],
    nested: &[
        "id",
        "url",
        "display",
        "asn",
        "ipaddr4",
        "ipaddr6",
        "is_rs_peer",
    ],
    search: &[
        Search::Contains("net.name"),
        Search::IntEquals("asn"),
        Search::IpHost("ipaddr4"),
        Search::IpHost("ipaddr6"),
    ],
    display: network_ixlan_display,
    extra_filters: &[
        ExtraFilter::related("net_asn", "net.asn"),
        // The network's information and policies, as the reference's `net__…` fields.
        ExtraFilter::related_value("net__info_traffic", "net.info_traffic"),
        ExtraFilter::related_value("net__info_scope", "net.info_scope"),
        ExtraFilter::related_value("net__info_type", "net.info_type"),
        ExtraFilter::related_value("net__policy_general", "net.policy_general"),
        ExtraFilter::related_value("net__policy_locations", "net.policy_locations"),
        ExtraFilter::related_value("net__policy_ratio", "net.policy_ratio"),
        ExtraFilter::related_value("net__policy_contracts", "net.policy_contracts"),
    ],
    ..COPY
};

/// "AS{asn}" and the addresses it has on the LAN.
fn network_ixlan_display(spec: &ResourceSpec, r: &Record, _: &dyn RelatedLookup) -> String {
    let mut out = format!("AS{}", r.int(spec, "asn"));
    for field in ["ipaddr4", "ipaddr6"] {
        if let Some(address) = r.get(spec, field).as_text() {
            out.push(' ');
            out.push_str(address);
        }
    }
    out
}
