//! The network the starting templates are rendered over: our AS 64500 and router edge1 at
//! an exchange and in a BGP group, with peers, policies and communities that exercise every
//! part of the templates.

use crate::common::network::{one, ROUTERS};
use crate::common::TestServer;
use serde_json::{json, Value as Json};

pub(crate) const SESSIONS: &str = "/api/peering/internet-exchange-peering-sessions/";
const DIRECT: &str = "/api/peering/direct-peering-sessions/";

/// Our AS 64500 and router edge1: three peers at Example IX (one a route server, one
/// disabled, one 32-bit and passive), a transit session in a BGP group (multihop), a direct
/// session outside groups, and policies and communities on all of them.
pub(crate) struct Network {
    pub(crate) us: i64,
    pub(crate) router: i64,
    pub(crate) connection: i64,
}

fn policies(s: &TestServer) -> Vec<i64> {
    let from_peer = one(
        s,
        "/api/peering/communities/",
        json!({"name": "From peer", "slug": "from-peer", "value": "64500:200", "type": "ingress"}),
    );
    let policies = [
        ("reject-bogons", "import-policy", 0, json!([])),
        ("irr-filter", "import-policy", 0, json!([from_peer])),
        ("announce-own", "export-policy", 4, json!([])),
        ("announce-own-v6", "export-policy", 6, json!([])),
    ];
    policies
        .into_iter()
        .map(|(slug, kind, family, communities)| {
            one(
                s,
                "/api/peering/routing-policies/",
                json!({"name": slug, "slug": slug, "type": kind, "address_family": family,
                       "communities": communities}),
            )
        })
        .collect()
}

fn communities(s: &TestServer) -> Vec<i64> {
    [
        ("from-ix", "64500:100", "ingress"),
        ("ix-large", "64500:1:2", "ingress"),
        ("prepend", "64500:9001", "egress"),
    ]
    .into_iter()
    .map(|(slug, value, kind)| {
        one(
            s,
            "/api/peering/communities/",
            json!({"name": slug, "slug": slug, "value": value, "type": kind}),
        )
    })
    .collect()
}

pub(crate) fn network(s: &TestServer) -> Network {
    let p = policies(s);
    let c = communities(s);
    let asn = |asn: i64, name: &str, v4: i64, v6: i64, extra: Json| {
        let mut body = json!({"asn": asn, "name": name, "ipv4_max_prefixes": v4,
                              "ipv6_max_prefixes": v6});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        one(s, "/api/peering/autonomous-systems/", body)
    };
    let us = asn(64500, "Us", 0, 0, json!({"affiliated": true}));
    let peer = asn(
        65001,
        "Peer One",
        100,
        20,
        json!({"import_routing_policies": [p[1]]}),
    );
    let rs = asn(65002, "Route \"Server\"", 5000, 800, json!({}));
    let big = asn(4_200_000_001, "Big Peer", 300, 70, json!({}));
    let platform = one(
        s,
        "/api/devices/platforms/",
        json!({"name": "Any", "slug": "any"}),
    );
    let router = one(
        s,
        ROUTERS,
        json!({"name": "edge1", "hostname": "edge1.example.net", "platform": platform,
               "local_autonomous_system": us}),
    );
    let ixp = one(
        s,
        "/api/peering/internet-exchanges/",
        json!({"name": "Example IX", "slug": "example-ix", "local_autonomous_system": us,
               "communities": [c[0], c[1], c[2]], "import_routing_policies": [p[0]],
               "export_routing_policies": [p[2], p[3]]}),
    );
    let connection = one(
        s,
        "/api/net/connections/",
        json!({"internet_exchange_point": ixp, "router": router, "vlan": 100,
               "ipv4_address": "192.0.2.1/24", "ipv6_address": "2001:db8::1/64"}),
    );
    for body in [
        json!({"autonomous_system": peer, "ip_address": "192.0.2.10", "password": "s3cret-ix"}),
        json!({"autonomous_system": peer, "ip_address": "2001:db8::10"}),
        json!({"autonomous_system": rs, "ip_address": "192.0.2.20", "is_route_server": true,
               "status": "disabled"}),
        json!({"autonomous_system": big, "ip_address": "2001:db8::30", "passive": true}),
    ] {
        let mut body = body;
        body["ixp_connection"] = json!(connection);
        s.create(SESSIONS, body);
    }
    direct_sessions(s, us, router, (rs, big), &p);
    Network {
        us,
        router,
        connection,
    }
}

fn direct_sessions(s: &TestServer, us: i64, router: i64, (rs, big): (i64, i64), p: &[i64]) {
    let relationship = one(
        s,
        "/api/bgp/relationships/",
        json!({"name": "Transit provider", "slug": "transit-provider"}),
    );
    let group = one(
        s,
        "/api/peering/bgp-groups/",
        json!({"name": "Transit", "slug": "transit", "import_routing_policies": [p[1]],
               "export_routing_policies": [p[2]]}),
    );
    s.create(
        DIRECT,
        json!({"local_autonomous_system": us, "autonomous_system": rs, "router": router,
               "bgp_group": group, "ip_address": "198.51.100.1",
               "local_ip_address": "198.51.100.0/31", "password": "s3cret-direct",
               "multihop_ttl": 2, "relationship": relationship}),
    );
    s.create(
        DIRECT,
        json!({"local_autonomous_system": us, "autonomous_system": big, "router": router,
               "ip_address": "203.0.113.1/31", "local_ip_address": "203.0.113.0/31",
               "relationship": relationship}),
    );
}

/// Each neighbour, its limits and both passwords, for the admin.
pub(crate) const EVERY_PLATFORM: &[&str] = &[
    "192.0.2.10",
    "2001:db8::10",
    "192.0.2.20",
    "2001:db8::30",
    "198.51.100.1",
    "203.0.113.1",
    "s3cret-ix",
    "s3cret-direct",
];
