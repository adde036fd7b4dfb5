//! A field value as held in a record, independent of storage and wire format.

use chrono::{DateTime, Utc};

/// One field's value. Relations hold ids: a foreign key an `Int`, a many-to-many list `Ids`.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Text(String),
    Time(DateTime<Utc>),
    /// A JSON document (local context data, prefixes).
    Json(serde_json::Value),
    /// Related object ids of a many-to-many relation or of tags, in id order.
    Ids(Vec<i64>),
}

impl Value {
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    pub fn as_text(&self) -> Option<&str> {
        match self {
            Value::Text(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_ids(&self) -> &[i64] {
        match self {
            Value::Ids(ids) => ids,
            _ => &[],
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }
}

/// Current time truncated to microseconds, the precision both databases keep.
pub fn now() -> DateTime<Utc> {
    micros_to_time(time_to_micros(Utc::now()))
}

pub fn time_to_micros(t: DateTime<Utc>) -> i64 {
    t.timestamp_micros()
}

pub fn micros_to_time(us: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_micros(us).unwrap_or_default()
}
