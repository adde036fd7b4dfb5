//! What an autonomous system shares with the caller's own: the caller's affiliated network
//! (a user preference), the exchanges and facilities PeeringDB lists both networks at, and
//! the IRR prefixes stored for a system.

use peering_domain::peeringdb_rules::is_private_asn;
use peering_domain::resources::{AUTONOMOUS_SYSTEM, INTERNET_EXCHANGE};
use peering_domain::Record;
use peering_store::{Error, Related, Store, Window};
use serde_json::{json, Value as Json};

/// The prefixes stored for a system, `{"ipv6": […], "ipv4": […]}`; `None` when there is
/// no such system.
pub fn stored_prefixes(store: &Store, id: i64) -> Result<Option<Json>, Error> {
    let Some((record, _)) = store.get(&AUTONOMOUS_SYSTEM, id)? else {
        return Ok(None);
    };
    let stored = match record.get(&AUTONOMOUS_SYSTEM, "prefixes") {
        peering_domain::Value::Json(j) if j.is_object() => (**j).clone(),
        _ => Json::Null,
    };
    let family = |key: &str| stored.get(key).cloned().unwrap_or_else(|| json!([]));
    Ok(Some(
        json!({"ipv6": family("ipv6"), "ipv4": family("ipv4")}),
    ))
}

/// The user's affiliated autonomous system (preference `context.as`), if they chose one
/// that exists.
pub fn affiliated(store: &Store, user: i64) -> Result<Option<Record>, Error> {
    let preferences = store.users().preferences(user)?;
    match preferences["context"]["as"].as_i64() {
        Some(id) => Ok(store.get(&AUTONOMOUS_SYSTEM, id)?.map(|(r, _)| r)),
        None => Ok(None),
    }
}

/// The AS number of system `id`, if it exists.
pub fn asn_of(store: &Store, id: i64) -> Result<Option<i64>, Error> {
    Ok(store
        .get(&AUTONOMOUS_SYSTEM, id)?
        .map(|(record, _)| record.int(&AUTONOMOUS_SYSTEM, "asn")))
}

/// Our exchanges (those of the affiliated system `ours`) on a LAN where PeeringDB lists
/// both networks; none when either number is private.
pub fn shared_exchanges(store: &Store, asn: i64, ours: &Record) -> Result<Vec<Record>, Error> {
    let our_asn = ours.int(&AUTONOMOUS_SYSTEM, "asn");
    if is_private_asn(asn) || is_private_asn(our_asn) {
        return Ok(Vec::new());
    }
    let lans = store.peeringdb().shared_ixlans(asn, our_asn)?;
    if lans.is_empty() {
        return Ok(Vec::new());
    }
    // Our exchanges, chosen by the database rather than by reading every exchange; then
    // those on a shared LAN.
    let pairs = [(
        "local_autonomous_system_id".to_string(),
        ours.id.to_string(),
    )];
    let filter = peering_filter::parse(&pairs, &Store::catalog(&INTERNET_EXCHANGE))
        .map_err(|e| Error::Backend(format!("shared exchanges: {e:?}").into()))?;
    let everything = Window {
        limit: None,
        offset: 0,
    };
    let on_shared_lan = |x: &Record| {
        x.get(&INTERNET_EXCHANGE, "extdb_ixlan")
            .as_int()
            .is_some_and(|lan| lans.contains(&lan))
    };
    let ours = store.list(&INTERNET_EXCHANGE, &filter, everything, false, None)?;
    Ok(ours.records.into_iter().filter(on_shared_lan).collect())
}

/// The PeeringDB facilities where both networks are; none when either number is private.
pub fn shared_facilities(
    store: &Store,
    asn: i64,
    our_asn: i64,
) -> Result<(Vec<Record>, Related), Error> {
    if is_private_asn(asn) || is_private_asn(our_asn) {
        return Ok((Vec::new(), Related::default()));
    }
    store.peeringdb().shared_facilities(asn, our_asn)
}
