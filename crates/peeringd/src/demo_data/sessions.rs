//! Sessions of a region: at its exchanges, skewed towards its biggest peers, and direct
//! ones (transit, private interconnects, customers).

use std::net::{Ipv4Addr, Ipv6Addr};

use serde_json::{json, Map, Value as Json};

use super::fixtures::{tags, Fixtures};
use super::network::{lan, Peer, ENCRYPTING_ROUTER, EXCHANGES_PER_REGION, ROUTERS_PER_REGION};
use super::rng::Rng;

/// Streams of the seed for this part of a region (see `network`).
const MEMBERS: u64 = 2;
const DIRECT: u64 = 3;

/// How many exchanges (of 12) a peer of rank `j` joins: about `22 / sqrt(j + 1)`, ±20 %.
const PRESENCE: f64 = 22.0;

/// Picks `m` distinct exchanges, bigger ones (lower index) more likely.
fn pick_exchanges(rng: &mut Rng, m: usize) -> Vec<usize> {
    let mut left: Vec<usize> = (0..EXCHANGES_PER_REGION).collect();
    let weight = |e: usize| (EXCHANGES_PER_REGION - e) as u64;
    let mut chosen = Vec::with_capacity(m);
    while chosen.len() < m {
        let mut x = rng.below(left.iter().map(|&e| weight(e)).sum());
        let i = left
            .iter()
            .position(|&e| {
                let hit = x < weight(e);
                x = x.saturating_sub(weight(e));
                hit
            })
            .unwrap_or(0);
        chosen.push(left.remove(i));
    }
    chosen.sort_unstable();
    chosen
}

/// State, prefix counts and last-established time of a session, as a poller would set them.
fn bgp_state(rng: &mut Rng, body: &mut Map<String, Json>, status: &str, max: u64, v6: bool) {
    let state = match status {
        "enabled" if rng.chance(95) => "established",
        "enabled" => *rng.pick(&["active", "idle", "connect"]),
        "disabled" | "maintenance" => "idle",
        _ => return,
    };
    body.insert("bgp_state".into(), json!(state));
    if state == "established" {
        let received = rng.below(max + 1);
        body.insert("received_prefix_count".into(), json!(received));
        body.insert(
            "accepted_prefix_count".into(),
            json!(received - rng.below(received / 20 + 1)),
        );
        body.insert(
            "advertised_prefix_count".into(),
            json!(if v6 { 8 } else { 24 }),
        );
        // Within 200 days from 2025-01-01: fixed by the seed, not by the clock.
        let seconds = 1_735_689_600 + rng.below(200 * 86_400) as i64;
        let t = chrono::DateTime::from_timestamp(seconds, 0).unwrap_or_default();
        body.insert(
            "last_established_state".into(),
            json!(t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
        );
    }
}

fn password(rng: &mut Rng) -> String {
    format!("demo-{:012x}", rng.next() >> 16)
}

/// A peer's presence at one of the region's exchanges, which its sessions there share.
pub struct Membership {
    /// The peer's rank in its region.
    pub peer: usize,
    /// The exchange's index in its region.
    pub exchange: usize,
    /// Its host number on the exchange's LAN (IPv4 and IPv6).
    pub host: u32,
    pub v6: bool,
    pub status: &'static str,
}

/// Sessions at the region's exchanges: each peer joins about `22 / sqrt(rank)` of the 12
/// exchanges (the biggest all of them), gets the next free host number on each LAN, and has
/// a session with each router over IPv4 and, for most peers, IPv6. With the memberships
/// they come from.
pub fn exchange_sessions(
    seed: u64,
    region: usize,
    peers: &[Peer],
    peer_ids: &[i64],
    connections: &[i64],
    fx: &Fixtures,
) -> (Vec<Json>, Vec<Membership>) {
    let mut rng = Rng::stream(seed, MEMBERS, region as u64);
    let mut next_host = [10u32; EXCHANGES_PER_REGION];
    let mut out = Vec::new();
    let mut members = Vec::new();
    for (j, (peer, peer_id)) in peers.iter().zip(peer_ids).enumerate() {
        let spread = 0.8 + 0.4 * rng.unit();
        let m = (PRESENCE * spread / ((j + 1) as f64).sqrt()).round() as usize;
        let has_v6 = j < 30 || rng.chance(70);
        for e in pick_exchanges(&mut rng, m.clamp(1, EXCHANGES_PER_REGION)) {
            let host = next_host[e];
            next_host[e] += 1;
            let status = match rng.below(100) {
                0..88 => "enabled",
                88..92 => "requested",
                92..95 => "provisioning",
                95..98 => "disabled",
                _ => "maintenance",
            };
            let member = Membership {
                peer: j,
                exchange: e,
                host,
                v6: has_v6,
                status,
            };
            let at = Presence {
                region,
                peer,
                peer_id: *peer_id,
                connections: &connections[e * ROUTERS_PER_REGION..(e + 1) * ROUTERS_PER_REGION],
            };
            out.extend(member_sessions(&mut rng, &member, &at, fx));
            members.push(member);
        }
    }
    (out, members)
}

/// What a membership's sessions need besides the membership.
struct Presence<'a> {
    region: usize,
    peer: &'a Peer,
    peer_id: i64,
    /// The connections to the exchange, router after router.
    connections: &'a [i64],
}

/// The sessions of one membership: with each router, over each of the peer's families.
fn member_sessions(rng: &mut Rng, m: &Membership, at: &Presence, fx: &Fixtures) -> Vec<Json> {
    let (v4, _, v6) = lan(at.region * EXCHANGES_PER_REGION + m.exchange);
    let secret = rng.chance(15).then(|| password(rng));
    let mut families = vec![(Ipv4Addr::from(v4 + m.host).to_string(), false)];
    if m.v6 {
        families.push((Ipv6Addr::from(v6 + u128::from(m.host)).to_string(), true));
    }
    let mut out = Vec::new();
    for (k, connection) in at.connections.iter().enumerate() {
        for (address, is_v6) in &families {
            let mut body = Map::new();
            body.insert("autonomous_system".into(), json!(at.peer_id));
            body.insert("ixp_connection".into(), json!(connection));
            body.insert("ip_address".into(), json!(address));
            body.insert("status".into(), json!(m.status));
            let max = if *is_v6 {
                at.peer.v6_max
            } else {
                at.peer.v4_max
            };
            bgp_state(rng, &mut body, m.status, max, *is_v6);
            if let Some(secret) = &secret {
                insert_password(rng, &mut body, secret, k == ENCRYPTING_ROUTER);
            }
            if m.peer < 10 {
                body.insert(
                    "import_routing_policies".into(),
                    fx.policies(&["irr-filter"]),
                );
            }
            if m.status != "enabled" {
                body.insert("tags".into(), tags(&["review"]));
            }
            out.push(Json::Object(body));
        }
    }
    out
}

/// The password, and for the router that encrypts (Junos) its `$9$` form computed here from
/// the seed: the store keeps an encoding that decodes to the password, so the stored data
/// stay repeatable (it would draw a random salt otherwise).
fn insert_password(rng: &mut Rng, body: &mut Map<String, Json>, secret: &str, encrypt: bool) {
    body.insert("password".into(), json!(secret));
    if encrypt {
        let algorithm = peering_domain::password::Algorithm::JuniperType9;
        let encrypted = peering_domain::password::encrypt_with_rng(algorithm, secret, rng);
        body.insert("encrypted_password".into(), json!(encrypted));
    }
}

/// Direct sessions of a region: transit from its two biggest peers and private
/// interconnects with the next six, on the edge routers, and twenty customers among the
/// smallest, on the customer router (`core`), on point-to-point /31s in 172.16.0.0/12 and
/// /64s in 2001:db8:ffff::/48 (`link` numbers them across regions).
pub fn direct_sessions(
    seed: u64,
    region: usize,
    peer_ids: &[i64],
    (routers, core): (&[i64], i64),
    fx: &Fixtures,
    link: &mut u32,
) -> Vec<Json> {
    let mut rng = Rng::stream(seed, DIRECT, region as u64);
    let kinds = (0..2)
        .map(|j| (j, "transit", "transit", "TRANSIT", true))
        .chain((2..8).map(|j| (j, "peering", "private-peering", "PNI", true)))
        .chain((280..300).map(|j| (j, "customer", "customers", "CUST", false)));
    let mut out = Vec::new();
    for (j, relationship, group, reference, dual) in kinds {
        let k = j % ROUTERS_PER_REGION;
        let (router, encrypt) = match group {
            "customers" => (core, false),
            _ => (routers[k], k == ENCRYPTING_ROUTER),
        };
        let secret = rng.chance(30).then(|| password(&mut rng));
        let v6 = dual || rng.chance(50);
        let n = *link;
        *link += 1;
        for (local, remote, tail, is_v6) in link_addresses(n, v6) {
            let mut body = Map::new();
            body.insert(
                "service_reference".into(),
                json!(format!("{reference}-{n:05}{tail}")),
            );
            body.insert("local_autonomous_system".into(), json!(fx.local_as));
            body.insert("autonomous_system".into(), json!(peer_ids[j]));
            body.insert("relationship".into(), json!(fx.relationships[relationship]));
            body.insert("bgp_group".into(), json!(fx.groups[group]));
            body.insert("router".into(), json!(router));
            body.insert("local_ip_address".into(), json!(local));
            body.insert("ip_address".into(), json!(remote));
            body.insert("status".into(), json!("enabled"));
            bgp_state(
                &mut rng,
                &mut body,
                "enabled",
                if is_v6 { 200 } else { 1000 },
                is_v6,
            );
            if let Some(secret) = &secret {
                insert_password(&mut rng, &mut body, secret, encrypt);
            }
            out.push(Json::Object(body));
        }
    }
    out
}

/// The addresses of point-to-point link `n`: ours and the peer's, the suffix of the
/// service reference, and whether they are IPv6; IPv4 always, IPv6 when `v6`.
fn link_addresses(n: u32, v6: bool) -> Vec<(String, String, &'static str, bool)> {
    let v4 = u32::from(Ipv4Addr::new(172, 16, 0, 0)) + 2 * n;
    let mut families = vec![(
        format!("{}/31", Ipv4Addr::from(v4)),
        format!("{}/31", Ipv4Addr::from(v4 + 1)),
        "",
        false,
    )];
    if v6 {
        let net = Ipv6Addr::new(0x2001, 0xdb8, 0xffff, n as u16, 0, 0, 0, 0);
        let host = |h: u128| format!("{}/64", Ipv6Addr::from(u128::from(net) + h));
        families.push((host(1), host(2), "-6", true));
    }
    families
}
