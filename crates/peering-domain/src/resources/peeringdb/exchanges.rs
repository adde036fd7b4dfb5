//! Exchanges of the PeeringDB copy: the exchanges, the facilities they are in, their LANs
//! and the LANs' prefixes.

use super::{
    asn, count, document, facility, flag, internet_exchange, ixlan, notes, optional_text,
    organization, parent, text, time, COPY, NAME,
};
use crate::record::Record;
use crate::spec::{kinds, Default, Field, Kind, RelatedLookup, ResourceSpec, Search};

pub static PDB_INTERNET_EXCHANGE: ResourceSpec = ResourceSpec {
    model: "internetexchange",
    path: "internet-exchanges",
    // Named apart from the exchanges of peering data, as the reference's schema does.
    name: "PDBInternetExchange",
    verbose_name: "Internet Exchange",
    table: "peeringdb_internet_exchanges",
    fields: &[
        NAME,
        text("name_long", "Long name"),
        text("aka", "Also known as"),
        text("city", "City"),
        text("country", "Country"),
        notes("notes", "Notes"),
        text("region_continent", "Continental region"),
        text("media", "Media"),
        flag("proto_unicast", "Unicast"),
        flag("proto_multicast", "Multicast"),
        flag("proto_ipv6", "IPv6"),
        text("website", "Website"),
        text("url_stats", "Statistics URL"),
        text("tech_email", "Technical e-mail"),
        text("tech_phone", "Technical phone"),
        text("policy_email", "Policy e-mail"),
        text("policy_phone", "Policy phone"),
        text("sales_email", "Sales e-mail"),
        text("sales_phone", "Sales phone"),
        Field::new(
            "ixf_net_count",
            "IX-F network count",
            kinds::int(0, i64::MAX),
        )
        .default(Default::Int(0)),
        time("ixf_last_import", "IX-F last import"),
        text("service_level", "Service level"),
        text("terms", "Terms"),
        parent("org", "Organization", organization),
        document("social_media", "Social media").hidden(),
        optional_text("status_dashboard", "Status dashboard").hidden(),
    ],
    nested: &[
        "id",
        "url",
        "display",
        "name",
        "name_long",
        "aka",
        "city",
        "country",
    ],
    search: &[Search::Contains("name")],
    ..COPY
};

pub static PDB_IX_FACILITY: ResourceSpec = ResourceSpec {
    model: "internetexchangefacility",
    path: "internet-exchange-facilities",
    name: "InternetExchangeFacility",
    verbose_name: "Internet Exchange facility",
    table: "peeringdb_internet_exchange_facilities",
    fields: &[
        parent("ix", "Internet Exchange", internet_exchange),
        parent("fac", "Facility", facility),
    ],
    nested: &["id", "url", "display", "ix", "fac"],
    display: ix_facility_display,
    reads: &["ix", "fac"],
    ..COPY
};

/// "{exchange} @ {facility}".
fn ix_facility_display(spec: &ResourceSpec, r: &Record, related: &dyn RelatedLookup) -> String {
    let name = |field: &str, target: &ResourceSpec| {
        r.follow(spec, field, related)
            .map(|o| o.text(target, "name").to_string())
            .unwrap_or_default()
    };
    format!(
        "{} @ {}",
        name("ix", &PDB_INTERNET_EXCHANGE),
        name("fac", &super::PDB_FACILITY)
    )
}

pub static PDB_IXLAN: ResourceSpec = ResourceSpec {
    model: "ixlan",
    path: "ixlans",
    name: "IXLan",
    verbose_name: "Internet Exchange LAN",
    table: "peeringdb_ixlans",
    fields: &[
        text("name", "Name"),
        notes("descr", "Description"),
        count("mtu", "MTU"),
        count("vlan", "VLAN").filter(),
        flag("dot1q_support", "802.1Q support"),
        asn("rs_asn", "Route server ASN")
            .nullable()
            .default(Default::Int(0))
            .filter(),
        Field::new("arp_sponge", "ARP sponging MAC", Kind::Mac)
            .nullable()
            .default(Default::Null),
        optional_text("ixf_ixp_member_list_url", "IX-F member export URL"),
        Field::new(
            "ixf_ixp_member_list_url_visible",
            "IX-F member export URL visibility",
            kinds::plain_text(64),
        )
        .default(Default::Text("Private")),
        parent("ix", "Internet Exchange", internet_exchange),
    ],
    nested: &["id", "url", "display", "name", "ix"],
    display: ixlan_display,
    reads: &["ix"],
    ..COPY
};

/// The exchange's name, then the LAN's when it has one.
fn ixlan_display(spec: &ResourceSpec, r: &Record, related: &dyn RelatedLookup) -> String {
    let exchange = r
        .follow(spec, "ix", related)
        .map(|ix| ix.text(&PDB_INTERNET_EXCHANGE, "name").to_string())
        .unwrap_or_else(|| format!("IX LAN #{}", r.id));
    match r.text(spec, "name") {
        "" => exchange,
        name => format!("{exchange} {name}"),
    }
}

pub static PDB_IXLAN_PREFIX: ResourceSpec = ResourceSpec {
    model: "ixlanprefix",
    path: "ixlan-prefixes",
    name: "IXLanPrefix",
    verbose_name: "Internet Exchange LAN prefix",
    table: "peeringdb_ixlan_prefixes",
    fields: &[
        text("notes", "Notes"),
        text("protocol", "Protocol"),
        Field::new(
            "prefix",
            "Prefix",
            Kind::Ip {
                family: None,
                host_only: false,
            },
        )
        .required(),
        flag("in_dfz", "In DFZ").filter(),
        parent("ixlan", "Internet Exchange LAN", ixlan),
    ],
    nested: &["id", "url", "display", "protocol", "prefix"],
    search: &[Search::IpHost("prefix")],
    display: prefix_display,
    ..COPY
};

fn prefix_display(spec: &ResourceSpec, r: &Record, _: &dyn RelatedLookup) -> String {
    r.text(spec, "prefix").to_string()
}
