//! PeeringDB's API objects as records of the local copy (`resources::PEERINGDB_NAMESPACES`).
//!
//! PeeringDB names a foreign key `<field>_id` and marks a removed object with
//! `"status": "deleted"`. Its data is taken leniently where the reference is lenient (a
//! key the copy does not keep is ignored; a null where text is kept is blank text) and an
//! object is refused, with the reason, where the reference's validation would refuse it
//! (no id, a missing relation, a malformed address).

use serde_json::{Map, Value as Json};

use crate::record::Record;
use crate::spec::{Default, Field, Kind, ResourceSpec};
use crate::value::{micros_to_time, time_to_micros, Value};

/// What one object of PeeringDB's answer asks of the copy.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// Create or update the object.
    Keep(Record),
    /// Remove the object (PeeringDB deleted it).
    Delete(i64),
}

/// An object the copy cannot take, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub id: Option<i64>,
    pub reason: String,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.id {
            Some(id) => write!(f, "#{id}: {}", self.reason),
            None => write!(f, "{}", self.reason),
        }
    }
}

/// The key of a field in PeeringDB's objects: `org_id` for the foreign key `org`.
pub fn api_key(field: &Field) -> std::borrow::Cow<'static, str> {
    match field.kind {
        Kind::ForeignKey { .. } => format!("{}_id", field.name).into(),
        _ => field.name.into(),
    }
}

/// Reads one object of PeeringDB's answer for `spec`.
pub fn from_api(spec: &ResourceSpec, object: &Map<String, Json>) -> Result<Incoming, Refused> {
    let id = match object.get("id").and_then(Json::as_i64) {
        Some(id) if id > 0 => id,
        _ => {
            return Err(Refused {
                id: None,
                reason: "no valid \"id\"".into(),
            })
        }
    };
    if object.get("status").and_then(Json::as_str) == Some("deleted") {
        return Ok(Incoming::Delete(id));
    }
    let refuse = |reason: String| Refused {
        id: Some(id),
        reason,
    };
    let mut values = Vec::with_capacity(spec.fields.len());
    for field in spec.fields {
        let key = api_key(field);
        let value = match object.get(key.as_ref()) {
            Some(raw) => convert(field, raw),
            None => absent(field),
        };
        values.push(value.map_err(|e| refuse(format!("{key}: {e}")))?);
    }
    Ok(Incoming::Keep(Record { id, values }))
}

/// The value of a field PeeringDB did not send.
fn absent(field: &Field) -> Result<Value, String> {
    match field.default {
        Default::Bool(b) => Ok(Value::Bool(b)),
        Default::Int(i) => Ok(Value::Int(i)),
        Default::Text(t) => Ok(Value::Text(t.to_string())),
        Default::Null => Ok(Value::Null),
        _ if field.nullable && !field.required => Ok(Value::Null),
        _ => Err("missing".into()),
    }
}

fn convert(field: &Field, raw: &Json) -> Result<Value, String> {
    if raw.is_null() {
        return match field.kind {
            Kind::Json { .. } => Ok(Value::Null),
            Kind::Text { .. } if !field.nullable => Ok(Value::Text(String::new())),
            _ if field.nullable => Ok(Value::Null),
            _ => absent(field).map_err(|_| "may not be null".to_string()),
        };
    }
    match field.kind {
        Kind::Int { min, max } => integer(raw, min, max).map(Value::Int),
        Kind::ForeignKey { .. } => integer(raw, 1, i64::MAX).map(Value::Int),
        Kind::Bool => raw
            .as_bool()
            .or_else(|| raw.as_i64().map(|i| i != 0))
            .map(Value::Bool)
            .ok_or_else(|| format!("not a boolean: {raw}")),
        Kind::Text { .. } | Kind::Choice { .. } => Ok(Value::Text(text(raw))),
        Kind::Json { .. } => Ok(Value::json(raw.clone())),
        Kind::Time => time(raw).map(Value::Time),
        Kind::Ip { family, host_only } => address(raw, family, host_only),
        Kind::Mac => match raw.as_str().map(str::trim) {
            Some("") => Ok(Value::Null),
            Some(text) => crate::net::parse_mac(text).map(Value::Text),
            None => Err(format!("not a MAC address: {raw}")),
        },
        _ => Err("not kept by the copy".into()),
    }
}

fn integer(raw: &Json, min: i64, max: i64) -> Result<i64, String> {
    let value = raw
        .as_i64()
        .or_else(|| raw.as_str().and_then(|s| s.trim().parse().ok()))
        .ok_or_else(|| format!("not an integer: {raw}"))?;
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{value} is out of range"))
    }
}

/// Text as the reference keeps it; a decimal number (a coordinate) with six decimals, as
/// its decimal fields show them.
fn text(raw: &Json) -> String {
    match raw {
        Json::String(s) => s.clone(),
        Json::Number(n) if n.is_f64() => format!("{:.6}", n.as_f64().unwrap_or_default()),
        other => other.to_string(),
    }
}

fn time(raw: &Json) -> Result<chrono::DateTime<chrono::Utc>, String> {
    raw.as_str()
        .and_then(|t| chrono::DateTime::parse_from_rfc3339(t.trim()).ok())
        .map(|t| micros_to_time(time_to_micros(t.with_timezone(&chrono::Utc))))
        .ok_or_else(|| format!("not a time: {raw}"))
}

fn address(
    raw: &Json,
    family: Option<crate::net::Family>,
    host_only: bool,
) -> Result<Value, String> {
    let text = raw
        .as_str()
        .map(str::trim)
        .ok_or_else(|| format!("not an address: {raw}"))?;
    if text.is_empty() {
        return Ok(Value::Null);
    }
    let canonical = if host_only {
        crate::net::parse_host(text, family).map(|a| a.to_string())
    } else {
        crate::net::parse_interface(text, family).map(|n| n.to_string())
    };
    canonical.map(Value::Text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::{PDB_NETWORK, PDB_NETWORK_IXLAN, PDB_ORGANIZATION};
    use serde_json::json;

    fn read(spec: &ResourceSpec, object: Json) -> Result<Incoming, Refused> {
        from_api(spec, object.as_object().unwrap())
    }

    fn kept(spec: &ResourceSpec, object: Json) -> Record {
        match read(spec, object) {
            Ok(Incoming::Keep(r)) => r,
            other => panic!("not kept: {other:?}"),
        }
    }

    #[test]
    fn a_network_keeps_its_fields_and_its_organisation() {
        let r = kept(
            &PDB_NETWORK,
            json!({"id": 7, "org_id": 3, "asn": 64500, "name": "Example", "aka": null,
                   "info_prefixes4": 100, "info_types": ["NSP"], "unknown": 1,
                   "status": "ok", "created": "2020-01-01T00:00:00Z"}),
        );
        assert_eq!(r.id, 7);
        assert_eq!(r.get(&PDB_NETWORK, "org"), &Value::Int(3));
        assert_eq!(r.get(&PDB_NETWORK, "asn"), &Value::Int(64500));
        assert_eq!(r.get(&PDB_NETWORK, "aka"), &Value::Text(String::new()));
        assert_eq!(r.get(&PDB_NETWORK, "info_prefixes6"), &Value::Null);
        assert_eq!(
            r.get(&PDB_NETWORK, "info_types"),
            &Value::json(json!(["NSP"]))
        );
        assert_eq!(r.get(&PDB_NETWORK, "policy_ratio"), &Value::Bool(false));
    }

    #[test]
    fn deleted_objects_are_removed() {
        let incoming = read(&PDB_NETWORK, json!({"id": 9, "status": "deleted"}));
        assert_eq!(incoming, Ok(Incoming::Delete(9)));
    }

    #[test]
    fn objects_the_reference_would_refuse_are_refused_with_a_reason() {
        let no_org = read(&PDB_NETWORK, json!({"id": 1, "asn": 1, "name": "x"}));
        assert_eq!(no_org.unwrap_err().reason, "org_id: missing");
        let bad_address = read(
            &PDB_NETWORK_IXLAN,
            json!({"id": 2, "asn": 1, "net_id": 1, "ixlan_id": 1, "ipaddr4": "2001:db8::1"}),
        );
        assert!(bad_address.unwrap_err().reason.starts_with("ipaddr4: "));
        let no_id = read(&PDB_ORGANIZATION, json!({"name": "x"}));
        assert_eq!(no_id.unwrap_err().id, None);
    }

    #[test]
    fn coordinates_keep_six_decimals() {
        let r = kept(&PDB_ORGANIZATION, json!({"id": 1, "latitude": 48.8566}));
        assert_eq!(r.text(&PDB_ORGANIZATION, "latitude"), "48.856600");
    }
}
