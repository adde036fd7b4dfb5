//! The demo's PeeringDB copy, as PeeringDB would describe the first region: its exchanges
//! (LANs with the demo's own prefixes, each at a facility), our network on every LAN at
//! its connections' addresses, and the peers where their sessions are, so that every use
//! of the copy shows something:
//! - a peer without an IRR AS-SET has no PeeringDB network: its sessions are not found
//!   there (`exists_in_extdb=false`), and never abandoned;
//! - a peer whose sessions at an exchange are disabled has left it: PeeringDB no longer
//!   lists it there, and those idle sessions are abandoned (`is_abandoned=true`);
//! - newcomers (networks we have no autonomous system for) at every exchange, and some peers
//!   at one exchange more than we peer with them at: each exchange's available peers;
//! - our network and the fifty biggest peers at the facilities of their exchanges.
//!
//! Ids follow the order objects are added, so the peering data can name ours (the LANs,
//! our network's records) before the copy is written. Other regions are not in the copy.

use std::collections::BTreeMap;
use std::net::{Ipv4Addr, Ipv6Addr};

use serde_json::{json, Value as Json};

use super::fixtures::LOCAL_ASN;
use super::network::{lan, Peer, CITIES, EXCHANGES_PER_REGION, ROUTERS_PER_REGION};
use super::sessions::Membership;

/// The countries of `network::CITIES`.
const COUNTRIES: [&str; EXCHANGES_PER_REGION] = [
    "NL", "DE", "GB", "FR", "SE", "ES", "IT", "AT", "CZ", "PL", "CH", "IE",
];

/// Networks PeeringDB lists at the demo's exchanges that it has no autonomous system for.
pub const NEWCOMERS: usize = 24;

/// The AS number of newcomer `k`, after the peers' block (`network::peer_asn`).
pub fn newcomer_asn(k: usize) -> u64 {
    4_100_900_000 + k as u64
}

/// The peers with a facility record, biggest first.
const AT_FACILITIES: usize = 50;

/// The id of the first region's exchange `e`'s LAN (and of its exchange and facility).
pub fn ixlan_id(e: usize) -> i64 {
    e as i64 + 1
}

/// The id of our record on exchange `e`'s LAN for router `k`'s connection: ours come first.
pub fn our_netixlan_id(e: usize, k: usize) -> i64 {
    (e * ROUTERS_PER_REGION + k) as i64 + 1
}

/// The IPv4 and IPv6 prefixes of the first region's exchange `e`.
pub fn lan_prefixes(e: usize) -> (String, String) {
    let (v4, len, v6) = lan(e);
    (
        format!("{}/{len}", Ipv4Addr::from(v4)),
        format!("{}/64", Ipv6Addr::from(v6)),
    )
}

/// Host `host`'s addresses on exchange `e`'s LAN; IPv6 when `v6`.
fn addresses(e: usize, host: u32, v6: bool) -> (Json, Json) {
    let (v4, _, v6net) = lan(e);
    let ipv6 = v6.then(|| Ipv6Addr::from(v6net + u128::from(host)).to_string());
    (json!(Ipv4Addr::from(v4 + host).to_string()), json!(ipv6))
}

/// The copy's objects by namespace, each namespace's ids from 1 in the order added.
pub struct LocalCopy {
    objects: BTreeMap<&'static str, Vec<Json>>,
    /// A generated object of each namespace, whose fields each added object starts from.
    shapes: peeringdb_fake::Dataset,
}

impl LocalCopy {
    fn add(&mut self, namespace: &'static str, fields: Json) -> i64 {
        let list = self.objects.entry(namespace).or_default();
        let id = list.len() as i64 + 1;
        let mut object = self.shapes.generated(namespace, 1).unwrap_or_default();
        if let (Some(object), Some(fields)) = (object.as_object_mut(), fields.as_object()) {
            object.extend(fields.clone());
            object.insert("id".into(), json!(id));
        }
        list.push(object);
        id
    }

    /// A network with its own organisation; the network's id.
    fn network(&mut self, asn: u64, name: &str, irr_as_set: &str, maxima: (u64, u64)) -> i64 {
        let org = self.add("org", json!({"name": name}));
        self.add(
            "net",
            json!({"org_id": org, "asn": asn, "name": name, "irr_as_set": irr_as_set,
                   "info_prefixes4": maxima.0, "info_prefixes6": maxima.1,
                   "policy_general": "Open"}),
        )
    }

    /// Network `net` (AS `asn`) as host `host` of exchange `e`'s LAN.
    fn member(&mut self, net: i64, asn: u64, e: usize, host: u32, v6: bool) -> i64 {
        let (ipaddr4, ipaddr6) = addresses(e, host, v6);
        self.add(
            "netixlan",
            json!({"net_id": net, "ixlan_id": ixlan_id(e), "ix_id": ixlan_id(e), "asn": asn,
                   "ipaddr4": ipaddr4, "ipaddr6": ipaddr6, "is_rs_peer": false,
                   "speed": 100_000, "name": format!("Example IX {}", CITIES[e])}),
        )
    }

    /// The objects of `namespace`, in id order.
    pub fn objects(&self, namespace: &str) -> &[Json] {
        self.objects.get(namespace).map_or(&[], Vec::as_slice)
    }
}

/// The copy for the first region: its peers (by rank) and their memberships.
pub fn build(peers: &[Peer], members: &[Membership]) -> LocalCopy {
    let mut copy = LocalCopy {
        objects: BTreeMap::new(),
        shapes: peeringdb_fake::Dataset::new(peeringdb_fake::Sizes::scaled(0.001)),
    };
    exchanges(&mut copy);
    let ours = copy.network(LOCAL_ASN, "Demo Network", "AS-DEMO", (50, 20));
    for e in 0..EXCHANGES_PER_REGION {
        for k in 0..ROUTERS_PER_REGION {
            copy.member(ours, LOCAL_ASN, e, k as u32 + 1, true);
        }
        copy.add("netfac", json!({"net_id": ours, "fac_id": ixlan_id(e)}));
    }
    let networks: Vec<Option<i64>> = peers
        .iter()
        .map(|p| {
            let irr = p.irr_as_set.as_deref()?;
            Some(copy.network(p.asn, &p.name, irr, (p.v4_max, p.v6_max)))
        })
        .collect();
    peers_where_they_are(&mut copy, peers, &networks, members);
    let mut next_host = [0u32; EXCHANGES_PER_REGION];
    for m in members {
        next_host[m.exchange] = next_host[m.exchange].max(m.host + 1);
    }
    peers_one_exchange_more(&mut copy, peers, &networks, members, &mut next_host);
    newcomers(&mut copy, &mut next_host);
    copy
}

/// The exchanges' organisation, facilities (the first on a campus), exchanges, LANs and
/// prefixes.
fn exchanges(copy: &mut LocalCopy) {
    let org = copy.add("org", json!({"name": "Example IX Association"}));
    let campus = copy.add(
        "campus",
        json!({"org_id": org, "name": format!("Example Campus {}", CITIES[0])}),
    );
    for (e, city) in CITIES.iter().enumerate() {
        let country = COUNTRIES[e];
        copy.add(
            "fac",
            json!({"org_id": org, "name": format!("Example DC {city}"), "city": city,
                   "country": country, "campus_id": (e == 0).then_some(campus)}),
        );
        copy.add(
            "ix",
            json!({"org_id": org, "name": format!("Example IX {city}"), "city": city,
                   "country": country, "tech_email": "noc@ix.example.net"}),
        );
        copy.add(
            "ixfac",
            json!({"ix_id": ixlan_id(e), "fac_id": ixlan_id(e)}),
        );
        copy.add("ixlan", json!({"ix_id": ixlan_id(e), "mtu": 1500}));
        let (v4, v6) = lan_prefixes(e);
        for (protocol, prefix) in [("IPv4", v4), ("IPv6", v6)] {
            copy.add(
                "ixpfx",
                json!({"ixlan_id": ixlan_id(e), "protocol": protocol, "prefix": prefix}),
            );
        }
    }
}

/// Each peer with a network on the LANs where it has sessions, but where they are disabled
/// (it left); the biggest at those exchanges' facilities, and the ten biggest with a
/// contact.
fn peers_where_they_are(
    copy: &mut LocalCopy,
    peers: &[Peer],
    networks: &[Option<i64>],
    members: &[Membership],
) {
    for m in members.iter().filter(|m| m.status != "disabled") {
        if let Some(net) = networks[m.peer] {
            copy.member(net, peers[m.peer].asn, m.exchange, m.host, m.v6);
            if m.peer < AT_FACILITIES {
                copy.add(
                    "netfac",
                    json!({"net_id": net, "fac_id": ixlan_id(m.exchange)}),
                );
            }
        }
    }
    for (peer, net) in peers.iter().zip(networks).take(10) {
        if let Some(net) = net {
            copy.add(
                "poc",
                json!({"net_id": net, "role": "Policy", "visible": "Public",
                       "name": format!("{} peering", peer.name),
                       "email": format!("peering@as{}.example.net", peer.asn)}),
            );
        }
    }
}

/// Peers ranked 10 to 39 also on the first exchange where they have no session: available
/// peers we already have an autonomous system for.
fn peers_one_exchange_more(
    copy: &mut LocalCopy,
    peers: &[Peer],
    networks: &[Option<i64>],
    members: &[Membership],
    next_host: &mut [u32; EXCHANGES_PER_REGION],
) {
    for j in 10..40.min(peers.len()) {
        let Some(net) = networks[j] else { continue };
        let at = |e: usize| members.iter().any(|m| m.peer == j && m.exchange == e);
        if let Some(e) = (0..EXCHANGES_PER_REGION).find(|&e| !at(e)) {
            copy.member(net, peers[j].asn, e, next_host[e], true);
            next_host[e] += 1;
        }
    }
}

/// Networks we have no autonomous system for, each on two or three exchanges' LANs.
fn newcomers(copy: &mut LocalCopy, next_host: &mut [u32; EXCHANGES_PER_REGION]) {
    for k in 0..NEWCOMERS {
        let asn = newcomer_asn(k);
        let name = format!("Newcomer Networks {}", k + 1);
        let net = copy.network(asn, &name, &format!("AS-NEWCOMER{}", k + 1), (100, 20));
        let mut at = vec![k % EXCHANGES_PER_REGION, (k + 5) % EXCHANGES_PER_REGION];
        if k % 3 == 0 {
            at.push((k + 9) % EXCHANGES_PER_REGION);
        }
        for e in at {
            copy.member(net, asn, e, next_host[e], k % 2 == 0);
            next_host[e] += 1;
        }
    }
}

/// Writes the copy to a folder and applies it, as `peeringd peeringdb sync --from-dir`
/// does; how many records it holds, and how long that took.
pub fn apply(
    store: &peering_store::Store,
    copy: &LocalCopy,
) -> Result<(usize, std::time::Duration), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    for namespace in peeringdb_fake::NAMESPACES {
        let body = json!({ "data": copy.objects(namespace) });
        std::fs::write(
            dir.path().join(format!("{namespace}.json")),
            body.to_string(),
        )
        .map_err(|e| e.to_string())?;
    }
    let source = peering_peeringdb::Source::Directory(dir.path().to_path_buf());
    let report =
        peering_peeringdb::synchronise(store, &source, &|_| {}).map_err(|e| e.to_string())?;
    match report.refused.first() {
        None => Ok((copy.objects.values().map(Vec::len).sum(), report.elapsed)),
        Some((namespace, refused)) => Err(format!(
            "the PeeringDB copy refused a {namespace} object: {refused}"
        )),
    }
}
