//! The available peers of an exchange with 1,000 members: on a database synchronised from
//! the fake PeeringDB, our presence at its largest LAN (LAN 1, `BIG_LAN`) is built through
//! the API as a user builds it (our autonomous system, a router, the exchange, a
//! connection on one member's addresses, linked to PeeringDB), with sessions already on
//! both addresses of 300 of the other members, so that the query must leave their
//! addresses out. Then `GET internet-exchanges/{id}/available-peers/` is timed, one request
//! at a time over loopback, on a server with its answer cache off (the query's real cost),
//! then on one with the cache at its default size.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::time::Instant;

use peeringdb_fake::{Dataset, Sizes};
use serde_json::{json, Value};

use crate::bench::database::Database;
use crate::bench::server::Server;
use crate::bench::target::{truncate, Target};
use crate::bench::writes::percentile;

/// The fake's LAN with 1,000 members.
pub const LAN: i64 = 1;
/// Other members with sessions at the exchange already, on each of their addresses.
pub const PEERED: usize = 300;
/// Untimed requests before the timed ones, on each server (the first one is checked whole).
pub const WARM_UPS: usize = 5;
/// Timed requests on each server.
pub const REQUESTS: usize = 200;
/// The answer cache's size when on: the server's default.
pub const CACHE_ON_MIB: &str = "32";
const CACHE: &str = "PEERING_RESPONSE_CACHE_MIB";

/// The timed requests on one server.
pub struct Latencies {
    pub p50_ms: f64,
    pub p99_ms: f64,
    /// Reads the server answered from its answer cache during the timed requests (its
    /// `/metrics`), when it says.
    pub cache_hits: Option<u64>,
}

/// One run of the scenario.
pub struct PeersRun {
    /// PeeringDB's records on the LAN.
    pub members: usize,
    pub sessions: usize,
    /// Records in each answer.
    pub available: usize,
    pub answer_bytes: usize,
    pub cache_off: Latencies,
    pub cache_on: Latencies,
}

/// A PeeringDB network-LAN record, as the copy serves it.
struct Member {
    id: i64,
    asn: i64,
    ipaddr4: Option<String>,
    ipaddr6: Option<String>,
}

impl Member {
    fn addresses(&self) -> impl Iterator<Item = &String> {
        self.ipaddr4.iter().chain(&self.ipaddr6)
    }
}

/// The exchange built for the measurement and the answer expected of it.
struct Exchange {
    available_peers: String,
    /// The records' ids, by AS number then id.
    expected: Vec<i64>,
    members: usize,
    sessions: usize,
}

/// Runs the scenario on `database`, migrated and synchronised from the fake at the real
/// size; `peeringdb_url` is the (local) PeeringDB the servers are given, though the
/// scenario never makes them synchronise.
pub fn measure(
    binary: &Path,
    database: &Database,
    peeringdb_url: &str,
) -> Result<PeersRun, String> {
    let env = |cache_mib| [(CACHE, cache_mib), ("PEERING_PEERINGDB_URL", peeringdb_url)];
    let server = Server::start_with(binary, database.url(), &env("0"))?;
    let token = server.token.clone();
    let exchange = set_up(&Target::local(server.addr, &token))?;
    // Statistics for PostgreSQL's planner, as autovacuum gathers them after a
    // synchronisation's bulk insert.
    database.settle()?;
    let (cache_off, body) = timed(&Target::local(server.addr, &token), &exchange)?;
    server.stop();

    let server = Server::resume(binary, database.url(), &token, &env(CACHE_ON_MIB))?;
    let (cache_on, _) = timed(&Target::local(server.addr, &token), &exchange)?;
    server.stop();
    Ok(PeersRun {
        members: exchange.members,
        sessions: exchange.sessions,
        available: exchange.expected.len(),
        answer_bytes: body,
        cache_off,
        cache_on,
    })
}

/// Our presence at the LAN and the sessions of `PEERED` other members, through the API.
fn set_up(target: &Target) -> Result<Exchange, String> {
    let records = target.get_json(&format!(
        "/api/peeringdb/network-ixlans/?ixlan_id={LAN}&limit=0"
    ))?;
    let mut members = parse_members(&records["results"])?;
    members.sort_by_key(|m| m.id);
    let generated = Dataset::new(Sizes::REAL).lan_size(LAN);
    if members.len() != generated {
        return Err(format!(
            "the copy has {} records on LAN {LAN}, the fake {generated}",
            members.len()
        ));
    }
    let ours = members
        .iter()
        .find(|m| m.ipaddr4.is_some() && m.ipaddr6.is_some())
        .ok_or(format!("no dual-stack member on LAN {LAN}"))?;

    let us = create(
        target,
        "/api/peering/autonomous-systems/",
        json!({"asn": ours.asn, "name": "Us", "affiliated": true}),
    )?;
    let platform = create(
        target,
        "/api/devices/platforms/",
        json!({"name": "Junos", "slug": "junos"}),
    )?;
    let router = create(
        target,
        "/api/peering/routers/",
        json!({"name": "edge1", "hostname": "edge1.example.net", "platform": platform,
               "local_autonomous_system": us}),
    )?;
    let exchange = create(
        target,
        "/api/peering/internet-exchanges/",
        json!({"name": "Big exchange", "slug": "big", "local_autonomous_system": us}),
    )?;
    let (v4, v6) = Dataset::lan_prefixes(LAN);
    let length = |prefix: &str| prefix.rsplit('/').next().unwrap_or_default().to_string();
    let address =
        |a: &Option<String>, prefix: &str| a.as_ref().map(|a| format!("{a}/{}", length(prefix)));
    let connection = create(
        target,
        "/api/net/connections/",
        json!({"internet_exchange_point": exchange, "router": router,
               "ipv4_address": address(&ours.ipaddr4, &v4),
               "ipv6_address": address(&ours.ipaddr6, &v6)}),
    )?;
    let path = format!("/api/peering/internet-exchanges/{exchange}/");
    let linked = target.send("POST", &format!("{path}link-to-peeringdb/"), Some("{}"))?;
    let linked_to = serde_json::from_str::<Value>(&linked.body).ok();
    let linked_to = linked_to.as_ref().map(|x| &x["extdb_ixlan"]);
    if linked.status != 200 || linked_to != Some(&json!(LAN)) {
        return Err(format!(
            "POST {path}link-to-peeringdb/ answered {}: {}",
            linked.status,
            truncate(&linked.body, 500)
        ));
    }

    // Sessions on every address of members spread over the LAN, with their networks.
    let others: Vec<&Member> = members.iter().filter(|m| m.asn != ours.asn).collect();
    let peered: Vec<&Member> = spread(others.len(), PEERED)
        .into_iter()
        .map(|i| others[i])
        .collect();
    let asns: Vec<i64> = peered
        .iter()
        .map(|m| m.asn)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let systems: Vec<Value> = asns
        .iter()
        .map(|asn| json!({"asn": asn, "name": format!("Peer AS{asn}")}))
        .collect();
    let ids = target.create_many("/api/peering/autonomous-systems/", &systems)?;
    let system_of: BTreeMap<i64, i64> = asns.into_iter().zip(ids).collect();
    let sessions: Vec<Value> = peered
        .iter()
        .flat_map(|m| {
            m.addresses().map(|a| {
                json!({"autonomous_system": system_of[&m.asn], "ixp_connection": connection,
                       "ip_address": a})
            })
        })
        .collect();
    target.create_many(
        "/api/peering/internet-exchange-peering-sessions/",
        &sessions,
    )?;

    let used: HashSet<&String> = peered.iter().flat_map(|m| m.addresses()).collect();
    Ok(Exchange {
        available_peers: format!("{path}available-peers/"),
        expected: expected(&members, ours.asn, &used),
        members: members.len(),
        sessions: sessions.len(),
    })
}

/// POSTs one object and returns its id.
fn create(target: &Target, path: &str, object: Value) -> Result<i64, String> {
    let response = target.send("POST", path, Some(&object.to_string()))?;
    let id = serde_json::from_str::<Value>(&response.body)
        .ok()
        .and_then(|o| o["id"].as_i64());
    match id {
        Some(id) if response.status == 201 => Ok(id),
        _ => Err(format!(
            "POST {path} answered {}: {}",
            response.status,
            truncate(&response.body, 500)
        )),
    }
}

fn parse_members(records: &Value) -> Result<Vec<Member>, String> {
    let address = |o: &Value, field: &str| o[field].as_str().map(str::to_string);
    records
        .as_array()
        .ok_or("the network-LAN records are not a list")?
        .iter()
        .map(|o| {
            Some(Member {
                id: o["id"].as_i64()?,
                asn: o["asn"].as_i64()?,
                ipaddr4: address(o, "ipaddr4"),
                ipaddr6: address(o, "ipaddr6"),
            })
        })
        .collect::<Option<_>>()
        .ok_or_else(|| "a network-LAN record without id or asn".into())
}

/// `count` of the indexes below `size`, evenly spaced (all of them if fewer).
fn spread(size: usize, count: usize) -> Vec<usize> {
    let count = count.min(size);
    (0..count).map(|k| k * size / count).collect()
}

/// The available peers' ids: the records of other networks with an address no session
/// uses, by AS number then id.
fn expected(members: &[Member], local_asn: i64, used: &HashSet<&String>) -> Vec<i64> {
    let mut available: Vec<&Member> = members
        .iter()
        .filter(|m| m.asn != local_asn && m.addresses().any(|a| !used.contains(a)))
        .collect();
    available.sort_by_key(|m| (m.asn, m.id));
    available.iter().map(|m| m.id).collect()
}

/// Warms up (checking the first answer whole), then times `REQUESTS` requests one at a
/// time, each of which must answer the same number of bytes. Also gives that number.
fn timed(target: &Target, exchange: &Exchange) -> Result<(Latencies, usize), String> {
    let path = &exchange.available_peers;
    let answer = target.get_json(path)?;
    let ids: Option<Vec<i64>> = answer
        .as_array()
        .map(|list| list.iter().filter_map(|o| o["id"].as_i64()).collect());
    if ids.as_ref() != Some(&exchange.expected) {
        return Err(format!(
            "GET {path} answered {} records, not the {} expected (by AS number, then id)",
            ids.map_or(0, |ids| ids.len()),
            exchange.expected.len()
        ));
    }
    let bytes = target.send("GET", path, None)?.body.len();
    let answered = |status: u16, length: usize| {
        if status == 200 && length == bytes {
            Ok(())
        } else {
            Err(format!(
                "GET {path} answered {status} with {length} bytes, not 200 with {bytes}"
            ))
        }
    };
    for _ in 2..WARM_UPS {
        let r = target.send("GET", path, None)?;
        answered(r.status, r.body.len())?;
    }
    let hits_before = cache_hits(target);
    let mut ms = Vec::with_capacity(REQUESTS);
    for _ in 0..REQUESTS {
        let started = Instant::now();
        let r = target.send("GET", path, None)?;
        ms.push(started.elapsed().as_secs_f64() * 1000.0);
        answered(r.status, r.body.len())?;
    }
    let cache_hits = match (hits_before, cache_hits(target)) {
        (Some(before), Some(after)) => Some(after.saturating_sub(before)),
        _ => None,
    };
    ms.sort_by(f64::total_cmp);
    let latencies = Latencies {
        p50_ms: percentile(&ms, 50.0),
        p99_ms: percentile(&ms, 99.0),
        cache_hits,
    };
    eprintln!(
        "   available peers ({} of {} records): p50 {:.2} ms, p99 {:.2} ms, {} answered from the cache",
        exchange.expected.len(),
        exchange.members,
        latencies.p50_ms,
        latencies.p99_ms,
        cache_hits.map_or("?".into(), |n| n.to_string())
    );
    Ok((latencies, bytes))
}

/// The server's count of answers from its answer cache, from `/metrics`.
fn cache_hits(target: &Target) -> Option<u64> {
    let response = target.send("GET", "/metrics", None).ok()?;
    (response.status == 200).then_some(())?;
    parse_counter(&response.body, "peeringd_answer_cache_hits_total")
}

fn parse_counter(exposition: &str, name: &str) -> Option<u64> {
    exposition.lines().find_map(|line| {
        let value = line.strip_prefix(name)?.strip_prefix(' ')?;
        value.trim().parse::<f64>().ok().map(|v| v as u64)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(id: i64, asn: i64, v4: &str, v6: Option<&str>) -> Member {
        Member {
            id,
            asn,
            ipaddr4: Some(v4.into()),
            ipaddr6: v6.map(str::to_string),
        }
    }

    #[test]
    fn available_are_other_networks_with_an_unused_address() {
        let members = [
            member(1, 65003, "10.0.0.1", Some("2001:db8::1")),
            member(2, 65001, "10.0.0.2", Some("2001:db8::2")),
            member(3, 65002, "10.0.0.3", None),
            member(4, 65002, "10.0.0.4", Some("2001:db8::4")),
            member(5, 65009, "10.0.0.5", Some("2001:db8::5")),
            member(6, 65001, "10.0.0.6", None),
        ];
        let (v4, v6) = ("10.0.0.4".to_string(), "2001:db8::2".to_string());
        let (three, five) = ("10.0.0.3".to_string(), "2001:db8::5".to_string());
        let used: HashSet<&String> = [&v4, &v6, &three, &five].into_iter().collect();
        // 1 is ours; 2 keeps its IPv4, 4 its IPv6, 5 its IPv4; 3 has nothing left.
        assert_eq!(expected(&members, 65003, &used), vec![2, 6, 4, 5]);
    }

    #[test]
    fn spread_indexes() {
        assert_eq!(spread(10, 3), vec![0, 3, 6]);
        assert_eq!(spread(2, 5), vec![0, 1]);
        let picked = spread(999, PEERED);
        assert_eq!((picked.len(), picked[299]), (300, 995));
    }

    #[test]
    fn cache_hits_from_the_exposition() {
        let text = "# TYPE peeringd_answer_cache_hits counter\npeeringd_answer_cache_hits_total 42\npeeringd_answer_cache_misses_total 7\n";
        assert_eq!(
            parse_counter(text, "peeringd_answer_cache_hits_total"),
            Some(42)
        );
        assert_eq!(parse_counter(text, "peeringd_answer_cache"), None);
    }
}
