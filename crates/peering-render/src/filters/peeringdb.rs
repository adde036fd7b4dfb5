//! Filters over the local PeeringDB copy, read through the data source (a source without
//! a copy knows of nothing shared): exchanges and facilities two networks share, and the
//! sessions PeeringDB lists that are not configured.

use minijinja::value::{Value, ValueKind};
use minijinja::Error;
use peering_domain::peeringdb_rules::is_private_asn;
use peering_domain::resources::{
    AUTONOMOUS_SYSTEM, INTERNET_EXCHANGE, INTERNET_EXCHANGE_PEERING_SESSION, PDB_FACILITY,
    PDB_NETWORK_IXLAN,
};

use super::invalid;
use crate::model::{in_list_order, json_value, model_of, models, record_json, Model};

/// Both values as autonomous systems, or the error the reference gives.
fn two_systems(value: &Value, other: &Value) -> Result<(Model, Model), Error> {
    let system = |v: &Value| model_of(v).filter(|m| m.is(&AUTONOMOUS_SYSTEM)).cloned();
    match (system(value), system(other)) {
        (Some(a), Some(b)) => Ok((a, b)),
        _ => Err(invalid("both values must be autonomous systems")),
    }
}

/// The AS numbers of two systems, unless one is private or they are the same (PeeringDB
/// knows nothing shared then).
fn public_pair(a: &Model, b: &Model) -> Option<(i64, i64)> {
    public_asns(a.int("asn")?, b.int("asn")?)
}

/// Two AS numbers, unless one is private or they are the same.
fn public_asns(x: i64, y: i64) -> Option<(i64, i64)> {
    (x != y && !is_private_asn(x) && !is_private_asn(y)).then_some((x, y))
}

fn failed(e: String) -> Error {
    invalid(format!("cannot read the PeeringDB copy: {e}"))
}

/// The exchanges of `ours` (an autonomous system) on a LAN where PeeringDB lists both its
/// network and that of `asn`.
fn shared_exchanges(asn: i64, ours: &Model) -> Result<Vec<Model>, Error> {
    let Some((asn, our_asn)) = ours.int("asn").and_then(|own| public_asns(asn, own)) else {
        return Ok(Vec::new());
    };
    let lans = ours
        .data()
        .source()
        .shared_lans(asn, our_asn)
        .map_err(failed)?;
    Ok(ours
        .referring(&INTERNET_EXCHANGE, "local_autonomous_system")
        .into_iter()
        .filter(|x| x.int("extdb_ixlan").is_some_and(|lan| lans.contains(&lan)))
        .collect())
}

/// An autonomous system's model.
fn system(value: &Value) -> Option<Model> {
    model_of(value)
        .filter(|m| m.is(&AUTONOMOUS_SYSTEM))
        .cloned()
}

/// Exchanges where PeeringDB lists both networks, as the reference: those of `other` when
/// it is an autonomous system, else those of `value`; the one that is not may be a
/// PeeringDB network record (the e-mail to a PeeringDB network gives one).
pub fn shared_ixps(value: Value, other: Value) -> Result<Value, Error> {
    let (ours, theirs) = match (system(&value), system(&other)) {
        (_, Some(other)) => (other, &value),
        (Some(value), None) => (value, &other),
        (None, None) => return Err(invalid("one of the values must be an autonomous system")),
    };
    let asn = network_asn(theirs)?;
    Ok(models(in_list_order(shared_exchanges(asn, &ours)?)))
}

/// Facilities where PeeringDB lists both networks (as its records); either may be given
/// as an autonomous system or as a PeeringDB network record, as the reference takes them.
pub fn shared_facilities(value: Value, other: Value) -> Result<Value, Error> {
    let (asn, other_asn) = (network_asn(&value)?, network_asn(&other)?);
    let Some((asn, other_asn)) = public_asns(asn, other_asn) else {
        return Ok(Value::from(Vec::<Value>::new()));
    };
    let records = peering_data(&value, &other)?
        .source()
        .shared_facilities(asn, other_asn)
        .map_err(failed)?;
    let list: Vec<_> = records
        .iter()
        .map(|r| record_json(&PDB_FACILITY, r))
        .collect();
    Ok(json_value(list))
}

/// PeeringDB's records of `value`'s network on the LAN of `ixp` (or of every exchange it
/// shares with `other`) with an address no session with it uses, as the reference's
/// `missing_sessions`.
pub fn missing_sessions(value: Value, other: Value, ixp: Option<Value>) -> Result<Value, Error> {
    let (value, other) = match two_systems(&value, &other) {
        Ok(both) => both,
        Err(_) => return possible_sessions(&value, &other, ixp.as_ref()),
    };
    let ixp = ixp.as_ref().and_then(model_of).cloned();
    let Some((asn, _)) = public_pair(&value, &other) else {
        return Ok(Value::from(Vec::<Value>::new()));
    };
    let exchanges = match &ixp {
        Some(x) => vec![x.clone()],
        None => shared_exchanges(asn, &other)?,
    };
    let lans: Vec<i64> = exchanges
        .iter()
        .filter_map(|x| x.int("extdb_ixlan"))
        .collect();
    let used: Vec<String> = value
        .referring(&INTERNET_EXCHANGE_PEERING_SESSION, "autonomous_system")
        .into_iter()
        .filter(|s| match &ixp {
            Some(x) => s
                .follow("ixp_connection")
                .and_then(|c| c.follow("internet_exchange_point"))
                .is_some_and(|e| e.id() == x.id()),
            None => true,
        })
        .map(|s| s.text("ip_address").to_string())
        .collect();
    let records = value
        .data()
        .source()
        .lan_records(asn, &lans)
        .map_err(failed)?;
    let unused = |r: &peering_domain::Record, field: &str| {
        r.get(&PDB_NETWORK_IXLAN, field)
            .as_text()
            .is_some_and(|ip| !used.iter().any(|u| u == ip))
    };
    let list: Vec<_> = records
        .iter()
        .filter(|r| unused(r, "ipaddr6") || unused(r, "ipaddr4"))
        .map(|r| record_json(&PDB_NETWORK_IXLAN, r))
        .collect();
    Ok(json_value(list))
}

/// The AS number of a PeeringDB network: an autonomous system's (its record in the copy
/// has it), or a network record's (as the e-mail to a PeeringDB network gives it).
fn network_asn(value: &Value) -> Result<i64, Error> {
    let asn = match model_of(value) {
        Some(m) if m.is(&AUTONOMOUS_SYSTEM) => m.int("asn"),
        Some(_) => None,
        None if value.kind() == ValueKind::Map => {
            value.get_attr("asn").ok().and_then(|a| a.as_i64())
        }
        None => None,
    };
    asn.ok_or_else(|| {
        invalid(format!(
            "{value} is not an autonomous system or a peeringdb network"
        ))
    })
}

/// `missing_sessions` when a PeeringDB network is given, as the reference's 1.10: the
/// records of `other`'s network on the LANs both networks are on (the one of `ixp` only,
/// when it has one), sessions already configured not left out.
fn possible_sessions(value: &Value, other: &Value, ixp: Option<&Value>) -> Result<Value, Error> {
    let (asn, other_asn) = (network_asn(value)?, network_asn(other)?);
    if asn == other_asn {
        return Ok(Value::from(Vec::<Value>::new()));
    }
    let source = peering_data(value, other)?;
    let mut lans = source
        .source()
        .shared_lans(asn, other_asn)
        .map_err(failed)?;
    if let Some(lan) = ixp.and_then(model_of).and_then(|x| x.int("extdb_ixlan")) {
        lans.retain(|l| *l == lan);
    }
    let records = source
        .source()
        .lan_records(other_asn, &lans)
        .map_err(failed)?;
    let list: Vec<_> = records
        .iter()
        .map(|r| record_json(&PDB_NETWORK_IXLAN, r))
        .collect();
    Ok(json_value(list))
}

/// The peering data one of two values (one of our objects) was read from: the PeeringDB
/// copy is read through it, so that two network records alone read nothing.
fn peering_data(
    value: &Value,
    other: &Value,
) -> Result<std::sync::Arc<crate::dataset::Dataset>, Error> {
    [value, other]
        .into_iter()
        .find_map(model_of)
        .map(|m| m.data().clone())
        .ok_or_else(|| invalid("no peering data to read the PeeringDB copy from"))
}
