//! The request bodies of the benchmark data, as pure functions of an index: the same scale
//! always gives the same data. Shaped like the demo data of `peeringd demo-data`: branded
//! peers, exchanges with a connection each, sessions skewed towards the biggest peers.

use std::net::IpAddr;

use serde_json::{json, Value};

use super::addressing::Lan;

pub const TAGS: usize = 5;
pub const COMMUNITIES: usize = 10;
pub const POLICIES: usize = 10;
/// Our own network, affiliated; outside the peers' range of ASNs.
pub const LOCAL_ASN: u64 = 64_500;

/// The peers with a large share of the sessions, as at a real exchange where a few content
/// and transit networks peer with everyone.
const BIG_PEERS: usize = 20;
const BIG_PEERS_SHARE_PERCENT: u64 = 35;

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

/// The names peers are given, before their number (`Example Networks 12`).
pub fn brand_names() -> Vec<&'static str> {
    BRANDS.iter().map(|(name, _)| *name).collect()
}

/// Session statuses with their weight in percent: mostly enabled, the rest spread over the
/// states an operator sees.
const STATUSES: &[(&str, u64)] = &[
    ("enabled", 80),
    ("disabled", 6),
    ("maintenance", 4),
    ("requested", 4),
    ("provisioning", 3),
    ("decommissioned", 2),
    ("pre-maintenance", 1),
];

/// Ids of what autonomous systems refer to.
pub struct Fixtures {
    pub policy_ids: Vec<i64>,
    pub community_ids: Vec<i64>,
}

pub fn tags() -> Vec<Value> {
    (1..=TAGS)
        .map(|i| json!({"name": format!("Tag {i}"), "slug": format!("tag-{i}")}))
        .collect()
}

pub fn communities() -> Vec<Value> {
    (1..=COMMUNITIES)
        .map(|i| json!({"name": format!("C{i}"), "slug": format!("c{i}"), "value": format!("65000:{i}")}))
        .collect()
}

pub fn routing_policies() -> Vec<Value> {
    (1..=POLICIES)
        .map(|i| json!({"name": format!("P{i}"), "slug": format!("p{i}")}))
        .collect()
}

/// Private 16-bit ASNs first, then private 32-bit ones.
pub fn peer_asn(i: usize) -> u64 {
    if i < 1000 {
        64_512 + i as u64
    } else {
        4_200_000_000 + i as u64
    }
}

/// The `i`-th peer: two or three tags, two import policies, one export policy, one
/// community.
pub fn autonomous_system(i: usize, fx: &Fixtures) -> Value {
    let (brand, word) = BRANDS[i % BRANDS.len()];
    let mut tags = vec![
        json!({"slug": format!("tag-{}", 1 + i % TAGS)}),
        json!({"slug": format!("tag-{}", 1 + (i + 1) % TAGS)}),
    ];
    if i.is_multiple_of(3) {
        tags.push(json!({"slug": format!("tag-{}", 1 + (i + 2) % TAGS)}));
    }
    let policy = |offset: usize| fx.policy_ids[(i + offset) % fx.policy_ids.len()];
    json!({
        "asn": peer_asn(i),
        "name": format!("{brand} {}", i + 1),
        "irr_as_set": format!("AS-{word}{}", i + 1),
        "ipv4_max_prefixes": 10 + (i * 37) % 5000,
        "ipv6_max_prefixes": 10 + (i * 11) % 1000,
        "tags": tags,
        "import_routing_policies": [policy(0), policy(1)],
        "export_routing_policies": [policy(2)],
        "communities": [fx.community_ids[i % fx.community_ids.len()]],
    })
}

pub fn local_autonomous_system() -> Value {
    json!({"asn": LOCAL_ASN, "name": "Bench Local Network", "affiliated": true})
}

pub fn exchange(x: u64, local_as_id: i64) -> Value {
    json!({
        "name": format!("Bench IX {}", x + 1),
        "slug": format!("bench-ix-{}", x + 1),
        "local_autonomous_system": local_as_id,
    })
}

/// Our connection to exchange `x`, with host 1 of both of its LANs.
pub fn connection(x: u64, exchange_id: i64) -> Value {
    let (v4, v6) = Lan::of_exchange(x).connection_addresses();
    json!({
        "internet_exchange_point": exchange_id,
        "router": null,
        "interface": format!("et-0/0/{x}"),
        "vlan": 100 + x % 3_900,
        "ipv4_address": v4,
        "ipv6_address": v6,
    })
}

/// How many sessions each peer has, biggest first: the first 20 share 35 % of the
/// sessions in proportion to 1/rank, the others split the rest evenly.
pub fn sessions_per_peer(peers: usize, sessions: u64) -> Vec<u64> {
    let big = BIG_PEERS.min(peers);
    let harmonic: f64 = (1..=big).map(|rank| 1.0 / rank as f64).sum();
    let big_total = (sessions * BIG_PEERS_SHARE_PERCENT / 100) as f64;
    let mut counts: Vec<u64> = (1..=big)
        .map(|rank| (big_total / rank as f64 / harmonic) as u64)
        .collect();
    let rest = sessions - counts.iter().sum::<u64>();
    let (small_peers, first_small) = if peers > big {
        (peers - big, big)
    } else {
        (peers, 0)
    };
    counts.resize(peers, 0);
    let (each, extra) = (rest / small_peers as u64, rest % small_peers as u64);
    for (j, count) in counts[first_small..].iter_mut().enumerate() {
        *count += each + u64::from((j as u64) < extra);
    }
    counts
}

/// The status of the `k`-th session: fixed by `k`, spread by a hash so that statuses do
/// not line up with peers or exchanges.
pub fn session_status(k: u64) -> &'static str {
    let mut roll = splitmix64(k) % 100;
    for &(status, weight) in STATUSES {
        if roll < weight {
            return status;
        }
        roll -= weight;
    }
    unreachable!("the weights sum to 100")
}

/// A session as the loader writes it, with the BGP state a poller would have set.
pub fn session(k: u64, peer_id: i64, connection_id: i64, address: IpAddr) -> Value {
    let status = session_status(k);
    let established = status == "enabled" && !splitmix64(k ^ 0x5eed).is_multiple_of(20);
    json!({
        "autonomous_system": peer_id,
        "ixp_connection": connection_id,
        "ip_address": address.to_string(),
        "status": status,
        "bgp_state": if established { "established" } else { "idle" },
        "received_prefix_count": if established { splitmix64(k) % 1000 } else { 0 },
    })
}

/// A well-mixing 64-bit hash (the SplitMix64 finaliser), so no `rand` dependency.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::scale::Scale;

    #[test]
    fn session_counts_add_up_and_favour_the_first_peers() {
        for scale in [Scale::Small, Scale::Medium, Scale::Large, Scale::OneMillion] {
            let peers = scale.autonomous_systems() as usize;
            let counts = sessions_per_peer(peers, scale.sessions());
            assert_eq!(counts.len(), peers);
            assert_eq!(counts.iter().sum::<u64>(), scale.sessions());
            assert!(counts[..BIG_PEERS].windows(2).all(|w| w[0] >= w[1]));
            // The biggest peer holds about a tenth of all sessions, far above the rest.
            assert!(
                counts[0] * 12 > scale.sessions(),
                "{scale:?}: {}",
                counts[0]
            );
            assert!(counts[BIG_PEERS..]
                .iter()
                .all(|&c| c >= 1 && c * 20 < counts[0]));
        }
    }

    #[test]
    fn few_peers_still_add_up() {
        assert_eq!(sessions_per_peer(3, 100).iter().sum::<u64>(), 100);
        assert_eq!(sessions_per_peer(25, 7).iter().sum::<u64>(), 7);
    }

    #[test]
    fn statuses_follow_their_weights() {
        let enabled = (0..10_000)
            .filter(|&k| session_status(k) == "enabled")
            .count();
        assert!((7_700..8_300).contains(&enabled), "{enabled}");
        for (status, _) in STATUSES {
            assert!(
                (0..10_000).any(|k| session_status(k) == *status),
                "{status}"
            );
        }
    }

    #[test]
    fn asns_do_not_collide() {
        assert_eq!(peer_asn(999), 65_511);
        assert_eq!(peer_asn(1000), 4_200_001_000);
        assert!(LOCAL_ASN < peer_asn(0));
    }
}
