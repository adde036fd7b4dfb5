//! The network of one region: peer autonomous systems, routers (two edge routers with a
//! connection to each exchange, a customer router), exchanges and contacts (its sessions
//! are in `sessions`). `--scale N` makes N regions, each generated from its own streams of
//! the seed, so region 1 is the same at every scale.

use std::net::{Ipv4Addr, Ipv6Addr};

use serde_json::{json, Value as Json};

use super::fixtures::{tags, Fixtures};
use super::peeringdb::{ixlan_id, lan_prefixes, our_netixlan_id};
use super::rng::Rng;

pub const PEERS_PER_REGION: usize = 300;
pub const EXCHANGES_PER_REGION: usize = 12;
pub const ROUTERS_PER_REGION: usize = 2;

pub const CITIES: [&str; EXCHANGES_PER_REGION] = [
    "Amsterdam",
    "Frankfurt",
    "London",
    "Paris",
    "Stockholm",
    "Madrid",
    "Milan",
    "Vienna",
    "Prague",
    "Warsaw",
    "Zurich",
    "Dublin",
];

/// (name, IRR AS-SET word)
const BRANDS: &[(&str, &str)] = &[
    ("Example Networks", "EXAMPLE"),
    ("Sample Telecom", "SAMPLE"),
    ("Demo Cloud", "DEMOCLOUD"),
    ("Test Hosting", "TESTHOST"),
    ("Acme Broadband", "ACME"),
    ("Placeholder Transit", "PLACEHOLDER"),
    ("Foo Fiber", "FOO"),
    ("Bar Internet", "BAR"),
];

/// Streams of the seed, one per part of a region (2 and 3 are the sessions').
const PEERS: u64 = 1;
const CONTACTS: u64 = 4;

/// A peer autonomous system, as the sessions and the PeeringDB copy need it.
pub struct Peer {
    pub asn: u64,
    pub name: String,
    pub v4_max: u64,
    pub v6_max: u64,
    pub irr_as_set: Option<String>,
}

/// The ASN of the `g`-th peer overall, after ours (`fixtures::LOCAL_ASN`) in a block of the
/// 32-bit numbers IANA has not allocated: public, as PeeringDB's networks are (the copy is
/// not consulted for private numbers), yet no real network's.
pub fn peer_asn(g: usize) -> u64 {
    4_100_100_000 + g as u64
}

/// Rounds up to a number a person would configure (two significant digits, at least tens).
fn nice(x: u64) -> u64 {
    let mut step = 10;
    while x / step >= 100 {
        step *= 10;
    }
    x.div_ceil(step).max(1) * step
}

fn suffix(region: usize, sep: &str) -> String {
    if region == 0 {
        String::new()
    } else {
        format!("{sep}{}", region + 1)
    }
}

/// The peers of a region, biggest first, with their bodies.
pub fn peers(seed: u64, region: usize, fx: &Fixtures) -> Vec<(Peer, Json)> {
    let mut rng = Rng::stream(seed, PEERS, region as u64);
    (0..PEERS_PER_REGION)
        .map(|j| {
            let g = region * PEERS_PER_REGION + j;
            let (brand, word) = *rng.pick(BRANDS);
            let rank = (j + 1) as f64;
            let size = 150_000.0 / (rank * rank) * (0.8 + 0.4 * rng.unit());
            let v4_max = nice(size as u64).max(10);
            let v6_max = nice(v4_max / (3 + rng.below(4))).max(10);
            let mut peer = Peer {
                asn: peer_asn(g),
                name: format!("{brand} {}", g + 1),
                v4_max,
                v6_max,
                irr_as_set: None,
            };
            let mut labels: Vec<&str> = match j {
                0..10 => vec!["gold"],
                10..20 => vec!["silver", "pni-candidate"],
                20..50 => vec!["silver"],
                50..150 => vec!["bronze"],
                _ => vec![],
            };
            if rng.chance(3) {
                labels.push("review");
            }
            let mut body = json!({
                "asn": peer.asn, "name": peer.name,
                "ipv4_max_prefixes": v4_max, "ipv6_max_prefixes": v6_max,
                "tags": tags(&labels),
            });
            if rng.chance(90) {
                let as_set = format!("AS-{word}{}", g + 1);
                body["irr_as_set"] = json!(as_set);
                peer.irr_as_set = Some(as_set);
            }
            if j < 50 {
                body["import_routing_policies"] = fx.policies(&["irr-filter"]);
            }
            if j == 0 {
                body["comments"] = json!("Present at every exchange of its region.");
            }
            (peer, body)
        })
        .collect()
}

/// Which of a region's routers encrypts session passwords (Junos, `$9$`).
pub const ENCRYPTING_ROUTER: usize = 0;

/// The region's edge routers, at its exchanges: the first on Junos, encrypting passwords,
/// the second on FRR; each renders the starting template of its platform, and polls its
/// sessions' states (which lets an idle session PeeringDB no longer lists be abandoned).
pub fn routers(region: usize, fx: &Fixtures) -> [Json; ROUTERS_PER_REGION] {
    let s = suffix(region, "-");
    [
        json!({"name": format!("edge1{s}"), "hostname": format!("edge1{s}.demo.example.net"),
               "platform": fx.platforms["junos"], "encrypt_passwords": true,
               "configuration_template": fx.configurations["junos"],
               "local_autonomous_system": fx.local_as, "poll_bgp_sessions_state": true,
               "napalm_username": "demo", "napalm_timeout": 30}),
        json!({"name": format!("edge2{s}"), "hostname": format!("edge2{s}.demo.example.net"),
               "platform": fx.platforms["frr"],
               "configuration_template": fx.configurations["frr"],
               "local_autonomous_system": fx.local_as, "poll_bgp_sessions_state": true}),
    ]
}

/// The region's customer router, on BIRD, holding the sessions with its customers (at no
/// exchange); it renders BIRD's starting template.
pub fn core_router(region: usize, fx: &Fixtures) -> Json {
    let s = suffix(region, "-");
    json!({"name": format!("core1{s}"), "hostname": format!("core1{s}.demo.example.net"),
           "platform": fx.platforms["bird"], "configuration_template": fx.configurations["bird"],
           "local_autonomous_system": fx.local_as})
}

/// The region's exchanges; the first region's are linked to their LANs in the PeeringDB
/// copy (`peeringdb`), with its prefixes.
pub fn exchanges(region: usize, fx: &Fixtures) -> Vec<Json> {
    CITIES
        .iter()
        .enumerate()
        .map(|(e, city)| {
            let mut body = json!({"name": format!("Example IX {city}{}", suffix(region, " ")),
                   "slug": format!("example-ix-{}{}", city.to_lowercase(), suffix(region, "-")),
                   "description": format!("Public peering in {city}"),
                   "local_autonomous_system": fx.local_as,
                   "import_routing_policies": fx.policies(&["reject-bogons", "irr-filter"]),
                   "export_routing_policies":
                       fx.policies(&["announce-own-v4", "announce-own-v6", "announce-customers"]),
                   "communities": fx.communities(&["from-ix"])});
            if region == 0 {
                let (v4, v6) = lan_prefixes(e);
                body["extdb_ixlan"] = json!(ixlan_id(e));
                body["extdb_prefixes"] = json!({"ipv6": [v6], "ipv4": [v4]});
            }
            body
        })
        .collect()
}

/// The peering LAN of the `x`-th exchange overall: a /22 (the four biggest of a region) or
/// /23 at the start of the `x`-th /22 of 10.0.0.0/8, and 2001:db8:x::/64.
pub fn lan(x: usize) -> (u32, u8, u128) {
    let v4 = u32::from(Ipv4Addr::new(10, 0, 0, 0)) + (x as u32) * 1024;
    let len = if x % EXCHANGES_PER_REGION < 4 { 22 } else { 23 };
    let v6 = u128::from(Ipv6Addr::new(0x2001, 0xdb8, x as u16, 0, 0, 0, 0, 0));
    (v4, len, v6)
}

/// Connections of a region: one per exchange and router, with host `k + 1` on the LAN; the
/// first region's linked to our records in the PeeringDB copy.
pub fn connections(region: usize, exchanges: &[i64], routers: &[i64]) -> Vec<Json> {
    let mut out = Vec::new();
    for (e, ix) in exchanges.iter().enumerate() {
        let x = region * EXCHANGES_PER_REGION + e;
        let (v4, len, v6) = lan(x);
        for (k, router) in routers.iter().enumerate() {
            let host = k as u32 + 1;
            let interface = match k {
                0 => format!("et-0/0/{e}"),
                _ => format!("HundredGigE0/0/{e}"),
            };
            let [_, a, b, c] = (x as u32).to_be_bytes();
            let mut body = json!({
                "internet_exchange_point": ix, "router": router, "interface": interface,
                "vlan": 100 + e,
                "mac_address": format!("02:de:{a:02x}:{b:02x}:{c:02x}:{host:02x}"),
                "ipv4_address": format!("{}/{len}", Ipv4Addr::from(v4 + host)),
                "ipv6_address": format!("{}/64", Ipv6Addr::from(v6 + u128::from(host))),
            });
            if region == 0 {
                body["extdb_netixlan"] = json!(our_netixlan_id(e, k));
            }
            out.push(body);
        }
    }
    out
}

/// Contacts: the peering team at each of the region's ten biggest peers, and (once) ours.
pub fn contacts(seed: u64, region: usize, peers: &[Peer]) -> Vec<Json> {
    let mut rng = Rng::stream(seed, CONTACTS, region as u64);
    let mut out = Vec::new();
    if region == 0 {
        out.push(json!({
            "name": "Demo NOC", "title": "Network operations", "phone": "+1 555 0100",
            "email": "noc@demo.example.net", "address": "1 Example Street, Springfield",
        }));
        out.push(json!({
            "name": "Demo Peering Team", "title": "Peering coordinators",
            "email": "peering@demo.example.net",
        }));
    }
    for peer in peers.iter().take(10) {
        let title = *rng.pick(&["Peering coordinator", "Network engineer", "NOC"]);
        out.push(json!({
            "name": format!("Peering, {}", peer.name), "title": title,
            "phone": format!("+1 555 01{:02}", rng.below(100)),
            "email": format!("peering@as{}.example.net", peer.asn),
            "description": format!("AS{}", peer.asn),
        }));
    }
    out
}
