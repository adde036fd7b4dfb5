//! A small network kept in memory, rendered over in tests: our AS 64500 with one router at
//! one exchange and in one BGP group, and two peers.
#![allow(dead_code)]

use std::sync::Arc;

use peering_domain::resources::*;
use peering_domain::Value;
use peering_render::{
    context, render, Bounds, Dataset, MemorySource, Secrets, StoredKind, StoredTemplate, Template,
};

pub fn text(s: &str) -> Value {
    Value::Text(s.to_string())
}

pub fn ids(list: &[i64]) -> Value {
    Value::Ids(list.to_vec())
}

pub fn json(v: serde_json::Value) -> Value {
    Value::json(v)
}

/// Our AS 64500 with one router at one exchange and in one BGP group; two peers.
pub fn network() -> MemorySource {
    let mut m = MemorySource::new();
    m.insert(&TAG, 1, &[("name", text("Gold")), ("slug", text("gold"))]);
    m.insert(
        &COMMUNITY,
        1,
        &[
            ("name", text("Customer")),
            ("value", text("64500:1")),
            ("type", text("ingress")),
        ],
    );
    m.insert(
        &COMMUNITY,
        2,
        &[("name", text("Peer learned")), ("value", text("64500:2"))],
    );
    for (id, name, kind, family) in [
        (1, "accept-all", "import-policy", 0),
        (2, "reject-v6-bogons", "import-policy", 6),
        (3, "export-own", "export-policy", 0),
        (4, "export-v4-only", "export-policy", 4),
    ] {
        m.insert(
            &ROUTING_POLICY,
            id,
            &[
                ("name", text(name)),
                ("slug", text(name)),
                ("type", text(kind)),
                ("address_family", Value::Int(family)),
            ],
        );
    }
    m.insert(
        &AUTONOMOUS_SYSTEM,
        1,
        &[
            ("asn", Value::Int(64500)),
            ("name", text("Us")),
            ("affiliated", Value::Bool(true)),
            ("tags", ids(&[])),
            ("communities", ids(&[])),
            ("import_routing_policies", ids(&[])),
            ("export_routing_policies", ids(&[3])),
        ],
    );
    m.insert(
        &AUTONOMOUS_SYSTEM,
        2,
        &[
            ("asn", Value::Int(65001)),
            ("name", text("Peer One")),
            (
                "irr_as_set",
                text("RIPE::AS-PEERONE RADB:AS-PEERONE,AS-OTHER"),
            ),
            ("irr_as_set_extdb_sync", Value::Bool(true)),
            ("affiliated", Value::Bool(false)),
            ("ipv4_max_prefixes", Value::Int(100)),
            ("ipv6_max_prefixes", Value::Int(20)),
            (
                "prefixes",
                json(serde_json::json!({"ipv6": ["2001:db8:1::/48"], "ipv4": ["198.51.100.0/24"]})),
            ),
            ("tags", ids(&[1])),
            ("communities", ids(&[2])),
            ("import_routing_policies", ids(&[1])),
            ("export_routing_policies", ids(&[])),
        ],
    );
    m.insert(
        &AUTONOMOUS_SYSTEM,
        3,
        &[
            ("asn", Value::Int(65002)),
            ("name", text("Péer Twö")),
            ("irr_as_set_extdb_sync", Value::Bool(false)),
            ("affiliated", Value::Bool(false)),
            ("ipv4_max_prefixes", Value::Int(50)),
            ("ipv6_max_prefixes", Value::Int(10)),
            ("tags", ids(&[])),
            ("communities", ids(&[])),
            ("import_routing_policies", ids(&[])),
            ("export_routing_policies", ids(&[])),
        ],
    );
    m.insert(
        &PLATFORM,
        1,
        &[
            ("name", text("Junos")),
            ("slug", text("junos")),
            ("password_algorithm", text("juniper-type9")),
        ],
    );
    m.insert(
        &ROUTER,
        1,
        &[
            ("name", text("edge1")),
            ("hostname", text("edge1.example.net")),
            ("platform", Value::Int(1)),
            ("status", text("enabled")),
            ("local_autonomous_system", Value::Int(1)),
            ("tags", ids(&[1])),
            (
                "local_context_data",
                json(serde_json::json!({"ntp": {"server": "192.0.2.123"}, "site": "par1"})),
            ),
        ],
    );
    m.insert(
        &ROUTER,
        2,
        &[
            ("name", text("edge2")),
            ("hostname", text("edge2.example.net")),
            ("platform", Value::Int(1)),
            ("status", text("maintenance")),
            ("local_autonomous_system", Value::Int(1)),
            ("tags", ids(&[])),
        ],
    );
    m.insert(
        &BGP_GROUP,
        1,
        &[
            ("name", text("Transit")),
            ("slug", text("transit")),
            ("status", text("enabled")),
            ("communities", ids(&[1])),
            ("import_routing_policies", ids(&[])),
            ("export_routing_policies", ids(&[3])),
            ("tags", ids(&[])),
        ],
    );
    m.insert(
        &BGP_GROUP,
        2,
        &[
            ("name", text("Private")),
            ("slug", text("private")),
            ("status", text("maintenance")),
            ("communities", ids(&[])),
            ("import_routing_policies", ids(&[])),
            ("export_routing_policies", ids(&[])),
            ("tags", ids(&[])),
        ],
    );
    m.insert(
        &RELATIONSHIP,
        1,
        &[
            ("name", text("Transit provider")),
            ("slug", text("transit-provider")),
        ],
    );
    for (id, name, multiplier) in [(1, "fast", 3), (2, "slow", 5), (3, "unused", 3)] {
        m.insert(
            &BFD,
            id,
            &[
                ("name", text(name)),
                ("slug", text(name)),
                ("detection_multiplier", Value::Int(multiplier)),
            ],
        );
    }
    m.insert(
        &INTERNET_EXCHANGE,
        1,
        &[
            ("name", text("Example IX")),
            ("slug", text("example-ix")),
            ("extdb_ixlan", Value::Int(42)),
            ("status", text("enabled")),
            ("local_autonomous_system", Value::Int(1)),
            ("communities", ids(&[1])),
            ("import_routing_policies", ids(&[2])),
            ("export_routing_policies", ids(&[3, 4])),
            ("tags", ids(&[])),
            (
                "extdb_prefixes",
                json(serde_json::json!({"ipv4": ["192.0.2.0/24"], "ipv6": ["2001:db8::/64"]})),
            ),
        ],
    );
    m.insert(
        &CONNECTION,
        1,
        &[
            ("internet_exchange_point", Value::Int(1)),
            ("router", Value::Int(1)),
            ("status", text("enabled")),
            ("ipv4_address", text("192.0.2.1/24")),
            ("ipv6_address", text("2001:db8::1/64")),
            ("mac_address", text("00:1b:77:49:54:fd")),
            ("vlan", Value::Int(100)),
            ("tags", ids(&[])),
        ],
    );
    let ixp_session =
        |m: &mut MemorySource, id, asn, ip: &str, rs, status: &str, password: Option<&str>| {
            m.insert(
                &INTERNET_EXCHANGE_PEERING_SESSION,
                id,
                &[
                    ("autonomous_system", Value::Int(asn)),
                    ("ixp_connection", Value::Int(1)),
                    ("ip_address", text(ip)),
                    ("is_route_server", Value::Bool(rs)),
                    ("status", text(status)),
                    ("bfd", if id == 1 { Value::Int(2) } else { Value::Null }),
                    ("exists_in_extdb", Value::Bool(id != 3)),
                    ("multihop_ttl", Value::Int(1)),
                    ("password", password.map_or(Value::Null, text)),
                    ("communities", ids(&[])),
                    ("import_routing_policies", ids(&[])),
                    ("export_routing_policies", ids(&[])),
                    ("tags", ids(&[])),
                ],
            );
        };
    ixp_session(&mut m, 1, 2, "192.0.2.10", false, "enabled", Some("s3cret"));
    ixp_session(&mut m, 2, 2, "2001:db8::10", false, "enabled", None);
    ixp_session(&mut m, 3, 3, "192.0.2.20", true, "enabled", None);
    m.insert(
        &DIRECT_PEERING_SESSION,
        1,
        &[
            ("local_autonomous_system", Value::Int(1)),
            ("autonomous_system", Value::Int(3)),
            ("ip_address", text("198.51.100.1")),
            ("local_ip_address", text("198.51.100.0/31")),
            ("bgp_group", Value::Int(1)),
            ("relationship", Value::Int(1)),
            ("bfd", Value::Int(1)),
            ("router", Value::Int(1)),
            ("status", text("enabled")),
            ("password", text("7 0822455D0A16")),
            ("communities", ids(&[2])),
            ("import_routing_policies", ids(&[1])),
            ("export_routing_policies", ids(&[4])),
            ("tags", ids(&[1])),
        ],
    );
    m.insert(
        &DIRECT_PEERING_SESSION,
        2,
        &[
            ("local_autonomous_system", Value::Int(1)),
            ("autonomous_system", Value::Int(2)),
            ("ip_address", text("2001:db8:ffff::1")),
            ("bgp_group", Value::Int(2)),
            ("relationship", Value::Int(1)),
            ("router", Value::Int(2)),
            ("status", text("enabled")),
            ("communities", ids(&[])),
            ("import_routing_policies", ids(&[])),
            ("export_routing_policies", ids(&[])),
            ("tags", ids(&[])),
        ],
    );
    m.insert(
        &CONTACT_ROLE,
        1,
        &[("name", text("NOC")), ("slug", text("noc"))],
    );
    m.insert(
        &CONTACT,
        1,
        &[
            ("name", text("Peer One NOC")),
            ("email", text("noc@peer-one.example")),
        ],
    );
    m.insert(
        &CONTACT_ASSIGNMENT,
        1,
        &[
            ("content_type", text("peering.autonomoussystem")),
            ("object_id", Value::Int(2)),
            ("role", Value::Int(1)),
            ("contact", Value::Int(1)),
        ],
    );
    m.insert(&CONFIG_CONTEXT, 1, &[("name", text("defaults")), ("is_active", Value::Bool(true)), ("data", json(serde_json::json!({"ntp": {"server": "192.0.2.1", "pool": true}, "syslog": "192.0.2.2"})))]);
    m.insert(
        &CONFIG_CONTEXT_ASSIGNMENT,
        1,
        &[
            ("content_type", text("peering.router")),
            ("object_id", Value::Int(1)),
            ("config_context", Value::Int(1)),
            ("weight", Value::Int(1000)),
        ],
    );
    m.insert_template(
        StoredKind::Configuration,
        7,
        "header",
        StoredTemplate {
            source: "# {{ router.hostname }}".into(),
            trim: false,
            lstrip: false,
            content_type: None,
        },
    );
    m.insert_template(
        StoredKind::Configuration,
        8,
        "loop",
        StoredTemplate {
            source: "{% include_configuration \"loop\" %}".into(),
            trim: false,
            lstrip: false,
            content_type: None,
        },
    );
    m.insert_template(
        StoredKind::ExportTemplate,
        9,
        "peers",
        StoredTemplate {
            source: "{% for a in dataset %}{{ a.asn }};{% endfor %}".into(),
            trim: false,
            lstrip: false,
            content_type: Some("peering.autonomoussystem".into()),
        },
    );
    m
}

pub fn data() -> Arc<Dataset> {
    Dataset::new(Box::new(network()), Secrets::all())
}

/// Renders `source` in router 1's configuration context.
pub fn on_router(source: &str) -> String {
    let data = data();
    let ctx = context::router_configuration(&data, 1).unwrap();
    let template = Template {
        source,
        trim: false,
        lstrip: false,
    };
    render(&template, ctx, &data, &Bounds::default()).unwrap_or_else(|e| panic!("{source}: {e:?}"))
}

pub fn on_router_err(source: &str) -> peering_render::RenderError {
    let data = data();
    let ctx = context::router_configuration(&data, 1).unwrap();
    let template = Template {
        source,
        trim: false,
        lstrip: false,
    };
    render(&template, ctx, &data, &Bounds::default()).expect_err(source)
}
