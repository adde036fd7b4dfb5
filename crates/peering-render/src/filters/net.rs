//! Filters over addresses: IP addresses and versions, MAC formats, local addresses,
//! maximum prefixes and Cisco passwords.

use std::net::IpAddr;

use minijinja::value::Value;
use minijinja::Error;
use peering_domain::resources::{
    DIRECT_PEERING_SESSION, INTERNET_EXCHANGE, INTERNET_EXCHANGE_PEERING_SESSION,
};

use super::{invalid, is_session, items};
use crate::model::{model_of, Model};

/// The address of a text holding an address or an interface (`192.0.2.1/24`).
fn address_of(text: &str) -> Option<IpAddr> {
    let host = text.split_once('/').map_or(text, |(host, _)| host);
    host.trim().parse().ok()
}

/// 4 or 6 for a text holding an address or an interface.
pub fn family_of(text: &str) -> Option<u8> {
    address_of(text).map(|a| if a.is_ipv4() { 4 } else { 6 })
}

fn parses_as(value: &Value, family: u8) -> Value {
    let text = value.to_string();
    let ok = text
        .split_once('/')
        .is_none_or(|(_, len)| len.parse::<u8>().is_ok());
    match family_of(&text) {
        Some(f) if f == family && ok => Value::from(text),
        _ => Value::from(()),
    }
}

/// The value if it is an IPv4 address or interface, else none.
pub fn ipv4(value: Value) -> Value {
    parses_as(&value, 4)
}

/// The value if it is an IPv6 address or interface, else none.
pub fn ipv6(value: Value) -> Value {
    parses_as(&value, 6)
}

/// The address without its prefix length, of a session, a text or each of a list.
pub fn ip(value: Value) -> Result<Value, Error> {
    if let Some(session) = model_of(&value).filter(|m| is_session(m)) {
        return ip(Value::from(session.text("ip_address")));
    }
    if value.as_object().is_some() || matches!(value.kind(), minijinja::value::ValueKind::Seq) {
        let list = items(&value)?;
        return list
            .into_iter()
            .map(ip)
            .collect::<Result<Vec<_>, _>>()
            .map(Value::from);
    }
    let text = value.to_string();
    address_of(&text)
        .map(|a| Value::from(a.to_string()))
        .ok_or_else(|| {
            invalid(format!(
                "{text:?} does not appear to be an IPv4 or IPv6 address"
            ))
        })
}

fn session(value: &Value) -> Result<&Model, Error> {
    model_of(value)
        .filter(|m| is_session(m))
        .ok_or_else(|| invalid("value is not a bgp session"))
}

/// 4 or 6: the version of a session's address.
pub fn ip_version(value: Value) -> Result<u8, Error> {
    family_of(session(&value)?.text("ip_address"))
        .ok_or_else(|| invalid("ip address for session is invalid"))
}

/// The maximum prefixes of the session's peer for the session's address family.
pub fn max_prefix(value: Value) -> Result<Value, Error> {
    let session = session(&value)?;
    let field = match family_of(session.text("ip_address")) {
        Some(6) => "ipv6_max_prefixes",
        _ => "ipv4_max_prefixes",
    };
    Ok(session
        .follow("autonomous_system")
        .and_then(|asn| asn.attribute(field))
        .unwrap_or(Value::from(())))
}

/// A Cisco type 7 password without its `7 ` marker.
pub fn cisco_password(password: String) -> String {
    password
        .strip_prefix("7 ")
        .map_or(password.clone(), str::to_string)
}

/// A MAC address in lower case: `cisco` (`001b.7749.54fd`), `bare` (`001b774954fd`) or,
/// by default, colon-separated. A connection gives its own address.
pub fn mac(value: Value, format: Option<String>) -> Result<String, Error> {
    let text = match model_of(&value) {
        Some(m) if m.has_field("mac_address") => m.text("mac_address").to_string(),
        _ => value.to_string(),
    };
    let canonical = peering_domain::net::parse_mac(&text)
        .map_err(|_| invalid("value is not a valid mac address"))?;
    let hex: String = canonical.chars().filter(|c| *c != ':').collect();
    Ok(match format.as_deref() {
        Some("cisco") => format!("{}.{}.{}", &hex[0..4], &hex[4..8], &hex[8..12]),
        Some("bare") => hex,
        _ => canonical,
    })
}

/// Our addresses for a session (its local address, or the connection's address of the
/// session's family), or every address of our connections to an exchange.
pub fn local_ips(value: Value, family: Option<i64>) -> Value {
    let Some(model) = model_of(&value) else {
        return Value::from(());
    };
    if model.is(&DIRECT_PEERING_SESSION) {
        return model.attribute("local_ip_address").unwrap_or_default();
    }
    if model.is(&INTERNET_EXCHANGE_PEERING_SESSION) {
        let field = match family_of(model.text("ip_address")) {
            Some(6) => "ipv6_address",
            _ => "ipv4_address",
        };
        return model
            .follow("ixp_connection")
            .and_then(|c| c.attribute(field))
            .unwrap_or_default();
    }
    if model.is(&INTERNET_EXCHANGE) {
        let family = family.unwrap_or(0);
        let mut addresses = Vec::new();
        for connection in super::peering::ixp_connections(model) {
            for (field, other) in [("ipv4_address", 6), ("ipv6_address", 4)] {
                let address = connection.text(field);
                if !address.is_empty() && family != other {
                    addresses.push(Value::from(address));
                }
            }
        }
        return Value::from(addresses);
    }
    Value::from(())
}
