//! What the local copy changes in the peering data, through the store's ordinary writes
//! (validated, change-logged in the name of whoever asked): connections and exchanges
//! linked to their PeeringDB records, exchanges' prefixes, autonomous systems updated from
//! their networks, and sessions imported for the networks at an exchange. After every
//! synchronisation, links and autonomous systems are brought up to date, as the
//! reference's synchronisation job does.

use peering_domain::input::{Draft, Input};
use peering_domain::net::{parse_interface, sort_key};
use peering_domain::peeringdb_rules::{
    autonomous_system_update, is_private_asn, optional_id, prefixes_by_family,
    record_for_addresses, Listed,
};
use peering_domain::resources::{
    AUTONOMOUS_SYSTEM, CONNECTION, INTERNET_EXCHANGE, PDB_IXLAN, PDB_NETWORK,
};
use peering_domain::{Record, ResourceSpec, Value};
use peering_store::{leaving_out_refused, ChangeContext, Error, LanPresence, Store};

/// What bringing the peering data up to date with the copy changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Followed {
    pub connections_linked: usize,
    pub exchanges_updated: usize,
    pub autonomous_systems_updated: usize,
    /// Objects left as they were, and why (a value the peering data refuses).
    pub problems: Vec<String>,
}

/// How an autonomous system's synchronisation with PeeringDB ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SystemSync {
    /// A private number: PeeringDB is not asked (nothing changes).
    Private,
    /// PeeringDB has no network with this number.
    NotInPeeringDb,
    /// Done; whether anything changed.
    Done { changed: bool },
}

/// After a synchronisation: every connection and exchange linked anew, then every
/// autonomous system synchronised.
pub fn after_synchronisation(store: &Store, ctx: &ChangeContext) -> Result<Followed, Error> {
    let links = link_connections(store, None, ctx)?;
    let mut followed = Followed {
        connections_linked: links.changed,
        ..Followed::default()
    };
    for exchange in store.everything(&INTERNET_EXCHANGE)? {
        if link_exchange_record(store, &exchange, &links, ctx)?.1 {
            followed.exchanges_updated += 1;
        }
    }
    let systems = store.everything(&AUTONOMOUS_SYSTEM)?;
    let public: Vec<i64> = systems
        .iter()
        .map(|s| s.int(&AUTONOMOUS_SYSTEM, "asn"))
        .filter(|asn| !is_private_asn(*asn))
        .collect();
    // The first network of each number, as `peeringdb_network` finds it.
    let mut networks = std::collections::HashMap::new();
    for network in store.peeringdb().networks(&public)? {
        networks
            .entry(network.int(&PDB_NETWORK, "asn"))
            .or_insert(network);
    }
    let mut changes = Vec::new();
    for system in &systems {
        let asn = system.int(&AUTONOMOUS_SYSTEM, "asn");
        if let Some(network) = networks.get(&asn).filter(|_| !is_private_asn(asn)) {
            changes.extend(autonomous_system_update(system, network).map(|d| (system.id, d)));
        }
    }
    let (updated, refused) = update_leniently(store, &AUTONOMOUS_SYSTEM, changes, ctx)?;
    followed.autonomous_systems_updated = updated;
    followed.problems = refused.into_iter().map(|(_, problem)| problem).collect();
    Ok(followed)
}

/// Updates objects in one write; an object the write refuses is left out (and reported)
/// and the others are written again, so one bad value does not hold back the rest.
fn update_leniently(
    store: &Store,
    spec: &'static ResourceSpec,
    items: Vec<(i64, Draft)>,
    ctx: &ChangeContext,
) -> Result<(usize, Vec<(i64, String)>), Error> {
    let count = items.len();
    let (_, refused) = leaving_out_refused(items, |items| store.update(spec, items, ctx))?;
    let refused = refused
        .into_iter()
        .map(|((id, _), errors)| {
            let problem = format!("{} #{id}: {}", spec.verbose_name, errors.into_json());
            (id, problem)
        })
        .collect::<Vec<_>>();
    Ok((count - refused.len(), refused))
}

/// Connections as linking left them: how many changed, and the PeeringDB record each
/// connection of each exchange is now linked to.
pub struct Links {
    pub changed: usize,
    by_exchange: std::collections::HashMap<i64, Vec<i64>>,
}

/// The sort key of a connection's host address, if it has one.
fn host_key(connection: &Record, field: &str) -> Option<String> {
    let text = connection.get(&CONNECTION, field).as_text()?;
    let interface = parse_interface(text, None).ok()?;
    Some(sort_key(&interface.addr(), None))
}

/// Links connections (all, or those of one exchange) to the PeeringDB record listing their
/// addresses, or unlinks them when none does.
pub fn link_connections(
    store: &Store,
    exchange: Option<i64>,
    ctx: &ChangeContext,
) -> Result<Links, Error> {
    let connections: Vec<Record> = store
        .everything(&CONNECTION)?
        .into_iter()
        .filter(|c| {
            exchange
                .is_none_or(|x| c.get(&CONNECTION, "internet_exchange_point").as_int() == Some(x))
        })
        .collect();
    let keys: Vec<(Option<String>, Option<String>)> = connections
        .iter()
        .map(|c| (host_key(c, "ipv4_address"), host_key(c, "ipv6_address")))
        .collect();
    let all_keys: Vec<String> = keys
        .iter()
        .flat_map(|(a, b)| a.iter().chain(b.iter()).cloned())
        .collect();
    let presences: Vec<LanPresence> = store.peeringdb().lan_presences(&all_keys)?;
    let listed: Vec<Listed<'_>> = presences
        .iter()
        .map(|p| Listed {
            id: p.id,
            ipv4_key: p.ipv4_key.as_deref(),
            ipv6_key: p.ipv6_key.as_deref(),
        })
        .collect();
    let mut changes = Vec::new();
    let mut linked = Vec::new();
    for (connection, (v4, v6)) in connections.iter().zip(&keys) {
        let current = connection.get(&CONNECTION, "extdb_netixlan").as_int();
        let wanted = record_for_addresses(v4.as_deref(), v6.as_deref(), &listed);
        if current != wanted {
            let mut draft = Draft::empty(&CONNECTION);
            draft.set(&CONNECTION, "extdb_netixlan", optional_id(wanted));
            changes.push((connection.id, draft));
        }
        let exchange = connection
            .get(&CONNECTION, "internet_exchange_point")
            .as_int();
        linked.push((connection.id, exchange, current, wanted));
    }
    let (changed, refused) = update_leniently(store, &CONNECTION, changes, ctx)?;
    let mut by_exchange: std::collections::HashMap<i64, Vec<i64>> = Default::default();
    for (id, exchange, current, wanted) in linked {
        // A connection whose update was refused keeps its link.
        let kept = refused.iter().any(|(r, _)| *r == id);
        if let (Some(exchange), Some(record)) = (exchange, if kept { current } else { wanted }) {
            by_exchange.entry(exchange).or_default().push(record);
        }
    }
    Ok(Links {
        changed,
        by_exchange,
    })
}

/// Links an exchange to the PeeringDB LAN its connections are linked to (after linking
/// them), and shows that LAN's prefixes; the LAN, if one was found.
pub fn link_exchange(
    store: &Store,
    exchange: i64,
    ctx: &ChangeContext,
) -> Result<Option<i64>, Error> {
    let links = link_connections(store, Some(exchange), ctx)?;
    match store.get(&INTERNET_EXCHANGE, exchange)? {
        Some((record, _)) => Ok(link_exchange_record(store, &record, &links, ctx)?.0),
        None => Ok(None),
    }
}

/// The LAN the exchange's linked connections agree on (none when they disagree, as the
/// reference), else the one it has if the copy still holds it; and whether it changed.
fn link_exchange_record(
    store: &Store,
    exchange: &Record,
    links: &Links,
    ctx: &ChangeContext,
) -> Result<(Option<i64>, bool), Error> {
    let spec = &INTERNET_EXCHANGE;
    let current = exchange.get(spec, "extdb_ixlan").as_int();
    let records = links
        .by_exchange
        .get(&exchange.id)
        .map_or(&[][..], Vec::as_slice);
    let lans = store.peeringdb().ixlans_of_records(records)?;
    let agreed = match lans.as_slice() {
        [one] => Some(*one),
        _ => None,
    };
    let still_there = match current {
        Some(lan) => store.get(&PDB_IXLAN, lan)?.map(|_| lan),
        None => None,
    };
    let lan = agreed.or(still_there);
    let prefixes = match lan {
        Some(lan) => prefixes_by_family(&store.peeringdb().ixlan_prefixes(lan)?),
        None => serde_json::json!({}),
    };
    let shown = exchange.get(spec, "extdb_prefixes");
    if lan == current && matches!(shown, Value::Json(json) if **json == prefixes) {
        return Ok((lan, false));
    }
    let mut draft = Draft::empty(spec);
    draft.set(spec, "extdb_ixlan", optional_id(lan)).set(
        spec,
        "extdb_prefixes",
        Input::Value(Value::json(prefixes)),
    );
    store.update(spec, vec![(exchange.id, draft)], ctx)?;
    Ok((lan, true))
}

/// Synchronises one autonomous system with its PeeringDB network, as the reference's
/// `sync-with-peeringdb`: each field whose flag is set.
pub fn synchronise_autonomous_system(
    store: &Store,
    system: &Record,
    ctx: &ChangeContext,
) -> Result<SystemSync, Error> {
    let asn = system.int(&AUTONOMOUS_SYSTEM, "asn");
    if is_private_asn(asn) {
        return Ok(SystemSync::Private);
    }
    let Some(network) = store.peeringdb().network(asn)? else {
        return Ok(SystemSync::NotInPeeringDb);
    };
    match autonomous_system_update(system, &network) {
        Some(draft) => {
            store.update(&AUTONOMOUS_SYSTEM, vec![(system.id, draft)], ctx)?;
            Ok(SystemSync::Done { changed: true })
        }
        None => Ok(SystemSync::Done { changed: false }),
    }
}
