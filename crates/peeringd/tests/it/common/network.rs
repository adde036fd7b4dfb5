//! A small network built through the API, for the tests of templates and routers.

use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};

use super::TestServer;

pub const ROUTERS: &str = "/api/peering/routers/";

/// Our AS 64500: router edge1 (Junos) at one exchange with three sessions and in a BGP
/// group with one direct session; edge2 (IOS-XR) with a direct session; two peers.
pub struct Network {
    pub junos: i64,
    pub iosxr: i64,
    pub peer: i64,
}

pub fn id(v: &Json) -> i64 {
    v["id"].as_i64().unwrap_or_else(|| panic!("no id in {v}"))
}

pub fn one(s: &TestServer, path: &str, body: Json) -> i64 {
    id(&s.create(path, body))
}

fn policies_and_communities(s: &TestServer) -> (Vec<i64>, Vec<i64>) {
    let policies = [
        ("accept-all", "import-policy", 0),
        ("reject-v6-bogons", "import-policy", 6),
        ("export-own", "export-policy", 0),
        ("export-v4-only", "export-policy", 4),
    ]
    .map(|(name, kind, family)| {
        one(s, "/api/peering/routing-policies/", json!({"name": name, "slug": name, "type": kind, "address_family": family, "weight": 0}))
    });
    let communities =
        [("Customer", "64500:1"), ("Peer learned", "64500:2")].map(|(name, value)| {
            let slug = name.to_lowercase().replace(' ', "-");
            one(
                s,
                "/api/peering/communities/",
                json!({"name": name, "slug": slug, "value": value, "type": "ingress"}),
            )
        });
    (policies.to_vec(), communities.to_vec())
}

pub fn network(s: &TestServer) -> Network {
    let (p, c) = policies_and_communities(s);
    let tag = one(
        s,
        "/api/extras/tags/",
        json!({"name": "Gold", "slug": "gold"}),
    );
    let us = one(
        s,
        "/api/peering/autonomous-systems/",
        json!({"asn": 64500, "name": "Us", "affiliated": true, "export_routing_policies": [p[2]]}),
    );
    let peer = one(
        s,
        "/api/peering/autonomous-systems/",
        json!({"asn": 65001, "name": "Peer One", "ipv4_max_prefixes": 100, "ipv6_max_prefixes": 20, "import_routing_policies": [p[0]], "communities": [c[1]], "tags": [tag]}),
    );
    let other = one(
        s,
        "/api/peering/autonomous-systems/",
        json!({"asn": 65002, "name": "Péer Twö", "ipv4_max_prefixes": 50, "ipv6_max_prefixes": 10}),
    );
    let junos_platform = one(
        s,
        "/api/devices/platforms/",
        json!({"name": "Junos", "slug": "junos"}),
    );
    let xr_platform = one(
        s,
        "/api/devices/platforms/",
        json!({"name": "IOS-XR", "slug": "iosxr"}),
    );
    let junos = one(
        s,
        ROUTERS,
        json!({"name": "edge1", "hostname": "edge1.example.net", "platform": junos_platform, "local_autonomous_system": us, "local_context_data": {"ntp": {"server": "192.0.2.123"}}}),
    );
    let iosxr = one(
        s,
        ROUTERS,
        json!({"name": "edge2", "hostname": "edge2.example.net", "platform": xr_platform, "local_autonomous_system": us}),
    );
    let group = one(
        s,
        "/api/peering/bgp-groups/",
        json!({"name": "Transit", "slug": "transit", "communities": [c[0]], "export_routing_policies": [p[2]]}),
    );
    let relationship = one(
        s,
        "/api/bgp/relationships/",
        json!({"name": "Transit provider", "slug": "transit-provider"}),
    );
    let ixp = one(
        s,
        "/api/peering/internet-exchanges/",
        json!({"name": "Example IX", "slug": "example-ix", "local_autonomous_system": us, "communities": [c[0]], "import_routing_policies": [p[1]], "export_routing_policies": [p[2], p[3]]}),
    );
    let connection = one(
        s,
        "/api/net/connections/",
        json!({"internet_exchange_point": ixp, "router": junos, "ipv4_address": "192.0.2.1/24", "ipv6_address": "2001:db8::1/64", "mac_address": "00:1b:77:49:54:fd", "vlan": 100}),
    );
    for (asn, address, rs, password) in [
        (peer, "192.0.2.10", false, json!("s3cret")),
        (peer, "2001:db8::10", false, Json::Null),
        (other, "192.0.2.20", true, Json::Null),
    ] {
        s.create("/api/peering/internet-exchange-peering-sessions/", json!({"autonomous_system": asn, "ixp_connection": connection, "ip_address": address, "is_route_server": rs, "password": password}));
    }
    for (router, asn, address, local, password) in [
        (
            junos,
            other,
            "198.51.100.1",
            "198.51.100.0/31",
            "7 0822455D0A16",
        ),
        (
            iosxr,
            peer,
            "203.0.113.1",
            "203.0.113.0/31",
            "7 0822455D0A16",
        ),
    ] {
        s.create("/api/peering/direct-peering-sessions/", json!({"local_autonomous_system": us, "autonomous_system": asn, "ip_address": address, "local_ip_address": local, "bgp_group": group, "relationship": relationship, "router": router, "password": password, "export_routing_policies": [p[3]]}));
    }
    Network { junos, iosxr, peer }
}

/// Waits for a job to end; its final representation.
pub fn finished(s: &TestServer, job: &Json) -> Json {
    let path = format!("/api/core/jobs/{}/", id(job));
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let current = s.get(&path).json();
        let status = current["status"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if status != "pending" && status != "running" {
            return current;
        }
        assert!(Instant::now() < deadline, "job still {status}: {current}");
        std::thread::sleep(Duration::from_millis(20));
    }
}
