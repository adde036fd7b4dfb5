//! The generated objects of the larger types, field by field as PeeringDB sends them
//! with `depth=0` (without `id`, `status` and times, which `Dataset::generated` adds).

use serde_json::{json, Value as Json};

use crate::data::{stamp, Dataset, BASE_TIME};

pub fn org(id: i64) -> Json {
    json!({"name": format!("Organisation {id}"), "aka": "", "name_long": "",
        "website": format!("https://org{id}.example.com"), "notes": "",
        "address1": format!("{id} Example Street"), "address2": "", "city": "Springfield",
        "state": "", "zipcode": "12345", "country": "US", "suite": "", "floor": "",
        "latitude": 48.8566, "longitude": null, "social_media": []})
}

pub fn fac(id: i64, org: i64, campus: Option<i64>) -> Json {
    let campus = campus.map_or(Json::Null, Json::from);
    json!({"org_id": org, "campus_id": campus,
        "name": format!("Facility {id}"), "aka": "", "name_long": "", "website": "",
        "clli": "", "rencode": "", "npanxx": "", "tech_email": format!("tech@fac{id}.example.com"),
        "tech_phone": "", "sales_email": "", "sales_phone": "", "property": null,
        "diverse_serving_substations": null, "available_voltage_services": ["48 VDC"],
        "notes": "", "region_continent": "Europe", "status_dashboard": null,
        "address1": "", "address2": "", "city": "Amsterdam", "state": "", "zipcode": "",
        "country": "NL", "suite": "", "floor": "", "latitude": null, "longitude": null,
        "social_media": []})
}

/// Network `id`, the `i`th.
pub fn net(id: i64, i: usize, org: i64) -> Json {
    json!({"org_id": org, "asn": Dataset::asn(id),
        "name": format!("Network {id}"), "aka": "", "name_long": "",
        "irr_as_set": format!("AS-NET{id}"), "website": "", "looking_glass": "",
        "route_server": "", "notes": "", "notes_private": "", "info_traffic": "1-5Gbps",
        "info_ratio": "Balanced", "info_scope": "Regional", "info_type": "NSP",
        "info_types": ["NSP"], "info_prefixes4": 10 * (1 + i % 100),
        "info_prefixes6": 5 * (1 + i % 50), "info_unicast": true, "info_multicast": false,
        "info_ipv6": true, "info_never_via_route_servers": false, "policy_url": "",
        "policy_general": "Open", "policy_locations": "Not Required", "policy_ratio": false,
        "policy_contracts": "Not Required", "status_dashboard": null,
        "rir_status": "ok", "rir_status_updated": stamp(BASE_TIME), "social_media": [],
        "allow_ixp_update": false, "netixlan_updated": null})
}

pub fn ix(id: i64, org: i64) -> Json {
    json!({"org_id": org, "name": format!("Exchange {id}"), "aka": "",
        "name_long": "", "city": "Frankfurt", "country": "DE", "notes": "",
        "region_continent": "Europe", "media": "Ethernet", "proto_unicast": true,
        "proto_multicast": false, "proto_ipv6": true, "website": "", "url_stats": "",
        "tech_email": format!("noc@ix{id}.example.net"), "tech_phone": "",
        "policy_email": "", "policy_phone": "", "sales_email": "", "sales_phone": "",
        "ixf_net_count": 0, "ixf_last_import": null, "service_level": "Not Disclosed",
        "terms": "Not Disclosed", "status_dashboard": null, "social_media": []})
}

/// The `i`th prefix: the IPv4 and the IPv6 prefix of each LAN in turn.
pub fn ixpfx(i: usize) -> Json {
    let lan = (i / 2) as i64 + 1;
    let (v4, v6) = Dataset::lan_prefixes(lan);
    let (protocol, prefix) = if i.is_multiple_of(2) {
        ("IPv4", v4)
    } else {
        ("IPv6", v6)
    };
    json!({"ixlan_id": lan, "protocol": protocol, "prefix": prefix,
        "in_dfz": true, "notes": ""})
}

/// The `i`th connection: network `net` as host `host` of LAN `lan`.
pub fn netixlan(i: usize, lan: i64, host: usize, net: i64) -> Json {
    let (v4, v6) = Dataset::lan_addresses(lan, host);
    json!({"net_id": net, "ixlan_id": lan, "ix_id": lan, "asn": Dataset::asn(net),
        "ipaddr4": v4, "ipaddr6": if i % 5 == 4 { Json::Null } else { Json::from(v6) },
        "is_rs_peer": i.is_multiple_of(3), "notes": "", "speed": 10_000, "operational": true,
        "name": format!("Exchange {lan}")})
}
