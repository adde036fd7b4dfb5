//! What the PeeringDB copy says about one of our exchanges: the networks on its LAN not
//! yet peered with, and the LAN's prefixes.

use peering_domain::resources::{AUTONOMOUS_SYSTEM, INTERNET_EXCHANGE};
use peering_domain::Record;
use peering_store::{Error, Related, Store};

/// The exchange's PeeringDB LAN (if linked) and its local AS number; `None` when there is
/// no such exchange.
fn exchange_and_lan(store: &Store, id: i64) -> Result<Option<(Option<i64>, i64)>, Error> {
    let Some((exchange, related)) = store.get(&INTERNET_EXCHANGE, id)? else {
        return Ok(None);
    };
    let lan = exchange.get(&INTERNET_EXCHANGE, "extdb_ixlan").as_int();
    let local_asn = exchange
        .follow(&INTERNET_EXCHANGE, "local_autonomous_system", &related)
        .map_or(0, |a| a.int(&AUTONOMOUS_SYSTEM, "asn"));
    Ok(Some((lan, local_asn)))
}

/// PeeringDB's records of networks on the exchange's LAN with an address no session uses
/// yet (none when the exchange is not linked); `None` when there is no such exchange.
pub fn available_peers(store: &Store, id: i64) -> Result<Option<(Vec<Record>, Related)>, Error> {
    let Some((lan, local_asn)) = exchange_and_lan(store, id)? else {
        return Ok(None);
    };
    Ok(Some(match lan {
        Some(lan) => store.peeringdb().available_peers(id, lan, local_asn)?,
        None => (Vec::new(), Related::default()),
    }))
}

/// The prefixes of the exchange's LAN (none when it is not linked); `None` when there is
/// no such exchange.
pub fn lan_prefixes(store: &Store, id: i64) -> Result<Option<Vec<String>>, Error> {
    let Some((lan, _)) = exchange_and_lan(store, id)? else {
        return Ok(None);
    };
    Ok(Some(match lan {
        Some(lan) => store.peeringdb().ixlan_prefixes(lan)?,
        None => Vec::new(),
    }))
}
