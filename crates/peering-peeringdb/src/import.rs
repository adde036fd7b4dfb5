//! Sessions imported at an exchange for the networks PeeringDB lists on its LAN and no
//! session uses yet (the available peers): one session per address, on each connection
//! whose network holds that address. An autonomous system the data lacks is created from
//! its PeeringDB network, as the reference does. Everything goes through the store's
//! ordinary writes: validated and change-logged; an object the write refuses is reported
//! and the rest imported.

use std::collections::{HashMap, HashSet};

use peering_domain::input::{Draft, Input, Ref};
use peering_domain::net::{in_network, parse_interface};
use peering_domain::peeringdb_rules::autonomous_system_from_network;
use peering_domain::resources::{
    AUTONOMOUS_SYSTEM, CONNECTION, INTERNET_EXCHANGE, INTERNET_EXCHANGE_PEERING_SESSION,
    PDB_NETWORK_IXLAN,
};
use peering_domain::{Record, ResourceSpec, Value};
use peering_store::{leaving_out_refused, ChangeContext, Error, Store};

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Imported {
    /// Sessions created.
    pub sessions: Vec<i64>,
    /// Autonomous systems created (from PeeringDB, or by number).
    pub autonomous_systems: Vec<i64>,
    /// Objects not created, and why.
    pub problems: Vec<String>,
}

/// Why an import did not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportRefused {
    #[error("no such internet exchange")]
    NoExchange,
    #[error("the exchange is not linked to PeeringDB")]
    NotLinked,
}

/// A session to import at an exchange: the peer's AS number and address, and, when it was
/// read from a router, that router: its sessions go on that router's connections alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub asn: i64,
    pub ip: String,
    pub router: Option<i64>,
}

/// Where the autonomous systems a candidate needs come from when the data lacks them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MissingSystems {
    /// From their PeeringDB network; a number PeeringDB lacks is reported, not imported.
    FromPeeringDb,
    /// From their PeeringDB network, or else by their number alone (named `AS<number>`).
    FromPeeringDbOrNumber,
}

/// Imports the sessions for the available peers of `exchange`.
pub fn import_sessions(
    store: &Store,
    exchange: i64,
    ctx: &ChangeContext,
) -> Result<Result<Imported, ImportRefused>, Error> {
    let Some((record, related)) = store.get(&INTERNET_EXCHANGE, exchange)? else {
        return Ok(Err(ImportRefused::NoExchange));
    };
    let Some(lan) = record.get(&INTERNET_EXCHANGE, "extdb_ixlan").as_int() else {
        return Ok(Err(ImportRefused::NotLinked));
    };
    let local_asn = record
        .follow(&INTERNET_EXCHANGE, "local_autonomous_system", &related)
        .map_or(0, |a| a.int(&AUTONOMOUS_SYSTEM, "asn"));
    let (peers, _) = store
        .peeringdb()
        .available_peers(exchange, lan, local_asn)?;
    let candidates: Vec<Candidate> = peers
        .iter()
        .flat_map(|peer| {
            let asn = peer.int(&PDB_NETWORK_IXLAN, "asn");
            ["ipaddr6", "ipaddr4"].into_iter().filter_map(move |field| {
                let ip = peer.get(&PDB_NETWORK_IXLAN, field).as_text()?;
                Some(Candidate {
                    asn,
                    ip: ip.to_string(),
                    router: None,
                })
            })
        })
        .collect();
    import_candidates(
        store,
        exchange,
        &candidates,
        MissingSystems::FromPeeringDb,
        ctx,
    )
    .map(Ok)
}

/// Imports sessions at `exchange` for `candidates`: one per candidate and connection whose
/// network holds its address (of its router, when it names one) and that has no session
/// with that address yet. Autonomous systems are created only for sessions to create.
pub fn import_candidates(
    store: &Store,
    exchange: i64,
    candidates: &[Candidate],
    missing: MissingSystems,
    ctx: &ChangeContext,
) -> Result<Imported, Error> {
    let connections: Vec<Record> = store
        .everything(&CONNECTION)?
        .into_iter()
        .filter(|c| c.get(&CONNECTION, "internet_exchange_point").as_int() == Some(exchange))
        .collect();
    let taken: HashSet<(i64, String)> = store
        .peeringdb()
        .session_addresses_at(exchange)?
        .into_iter()
        .collect();
    let mut wanted: Vec<(i64, i64, &str)> = Vec::new();
    for candidate in candidates {
        for connection in holding(&connections, candidate) {
            let key = (connection, candidate.ip.clone());
            let seen = wanted
                .iter()
                .any(|(_, c, ip)| *c == connection && *ip == candidate.ip);
            if !taken.contains(&key) && !seen {
                wanted.push((candidate.asn, connection, &candidate.ip));
            }
        }
    }
    let mut imported = Imported::default();
    let numbers: Vec<i64> = wanted.iter().map(|(asn, _, _)| *asn).collect();
    let systems = systems_for(store, &numbers, missing, ctx, &mut imported)?;
    let drafts = wanted
        .into_iter()
        .filter_map(|(asn, connection, ip)| {
            let system = systems.get(&asn)?;
            Some(session_draft(*system, connection, ip))
        })
        .collect();
    let (created, problems) =
        create_leniently(store, &INTERNET_EXCHANGE_PEERING_SESSION, drafts, ctx)?;
    imported.sessions = created.iter().map(|s| s.id).collect();
    imported.problems.extend(problems);
    Ok(imported)
}

/// The ids of the connections (of the candidate's router, when it names one) whose network
/// holds the candidate's address.
fn holding(connections: &[Record], candidate: &Candidate) -> Vec<i64> {
    let Ok(host) = candidate.ip.parse::<std::net::IpAddr>() else {
        return Vec::new();
    };
    let field = if host.is_ipv6() {
        "ipv6_address"
    } else {
        "ipv4_address"
    };
    connections
        .iter()
        .filter(|c| {
            candidate
                .router
                .is_none_or(|r| c.get(&CONNECTION, "router").as_int() == Some(r))
        })
        .filter(|c| {
            c.get(&CONNECTION, field)
                .as_text()
                .and_then(|t| parse_interface(t, None).ok())
                .is_some_and(|net| in_network(&host, &net))
        })
        .map(|c| c.id)
        .collect()
}

/// The autonomous system of each number: existing ones, and those created for the rest
/// (`missing` says from what).
fn systems_for(
    store: &Store,
    numbers: &[i64],
    missing: MissingSystems,
    ctx: &ChangeContext,
    imported: &mut Imported,
) -> Result<HashMap<i64, i64>, Error> {
    let mut systems: HashMap<i64, i64> = store
        .everything(&AUTONOMOUS_SYSTEM)?
        .iter()
        .map(|a| (a.int(&AUTONOMOUS_SYSTEM, "asn"), a.id))
        .collect();
    let mut absent: Vec<i64> = numbers
        .iter()
        .copied()
        .filter(|asn| !systems.contains_key(asn))
        .collect();
    absent.sort_unstable();
    absent.dedup();
    let mut drafts = Vec::new();
    for asn in absent {
        match (store.peeringdb().network(asn)?, missing) {
            (Some(network), _) => drafts.push(autonomous_system_from_network(&network)),
            (None, MissingSystems::FromPeeringDbOrNumber) => drafts.push(by_number(asn)),
            (None, MissingSystems::FromPeeringDb) => imported
                .problems
                .push(format!("AS{asn}: no PeeringDB network")),
        }
    }
    let (created, problems) = create_leniently(store, &AUTONOMOUS_SYSTEM, drafts, ctx)?;
    imported.problems.extend(problems);
    for system in &created {
        systems.insert(system.int(&AUTONOMOUS_SYSTEM, "asn"), system.id);
    }
    imported.autonomous_systems = created.iter().map(|a| a.id).collect();
    Ok(systems)
}

/// An autonomous system known by its number alone.
fn by_number(asn: i64) -> Draft {
    let spec = &AUTONOMOUS_SYSTEM;
    let mut draft = Draft::empty(spec);
    draft.set(spec, "asn", Input::Value(Value::Int(asn))).set(
        spec,
        "name",
        Input::Value(Value::Text(format!("AS{asn}"))),
    );
    draft
}

fn session_draft(system: i64, connection: i64, ip: &str) -> Draft {
    let spec = &INTERNET_EXCHANGE_PEERING_SESSION;
    let mut draft = Draft::empty(spec);
    draft
        .set(spec, "autonomous_system", Input::Ref(Some(Ref::Id(system))))
        .set(
            spec,
            "ixp_connection",
            Input::Ref(Some(Ref::Id(connection))),
        )
        .set(
            spec,
            "ip_address",
            Input::Value(Value::Text(ip.to_string())),
        );
    draft
}

/// Creates objects in one write; an object the write refuses is left out (and reported)
/// and the others are written again. The objects created, in order.
fn create_leniently(
    store: &Store,
    spec: &'static ResourceSpec,
    drafts: Vec<Draft>,
    ctx: &ChangeContext,
) -> Result<(Vec<Record>, Vec<String>), Error> {
    let (created, refused) = leaving_out_refused(drafts, |drafts| store.create(spec, drafts, ctx))?;
    let problems = refused
        .into_iter()
        .map(|(_, errors)| format!("{}: {}", spec.verbose_name, errors.into_json()))
        .collect();
    Ok((
        created.map(|(records, _)| records).unwrap_or_default(),
        problems,
    ))
}
