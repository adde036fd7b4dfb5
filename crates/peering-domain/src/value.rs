//! A field value as held in a record, independent of storage and wire format.

use std::fmt;

use chrono::{DateTime, Datelike, Timelike, Utc};

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

/// A time in ISO 8601, UTC, with a fixed number of fractional digits: the reference renders
/// times with microseconds and keeps them in change records with milliseconds. Written
/// field by field, without a format string to parse on every call.
pub struct Iso8601 {
    time: DateTime<Utc>,
    millis: bool,
}

impl Iso8601 {
    pub fn micros(time: DateTime<Utc>) -> Self {
        Iso8601 {
            time,
            millis: false,
        }
    }

    pub fn millis(time: DateTime<Utc>) -> Self {
        Iso8601 { time, millis: true }
    }
}

impl fmt::Display for Iso8601 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.time;
        write!(
            f,
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.",
            t.year(),
            t.month(),
            t.day(),
            t.hour(),
            t.minute(),
            t.second()
        )?;
        let micros = t.nanosecond() / 1000 % 1_000_000;
        if self.millis {
            write!(f, "{:03}Z", micros / 1000)
        } else {
            write!(f, "{micros:06}Z")
        }
    }
}

#[cfg(test)]
mod iso_tests {
    use super::*;

    #[test]
    fn times_have_a_fixed_number_of_fractional_digits() {
        let t = micros_to_time(1_700_000_000_012_345);
        assert_eq!(
            Iso8601::micros(t).to_string(),
            "2023-11-14T22:13:20.012345Z"
        );
        assert_eq!(Iso8601::millis(t).to_string(), "2023-11-14T22:13:20.012Z");
        let whole = micros_to_time(1_700_000_000_000_000);
        assert_eq!(
            Iso8601::micros(whole).to_string(),
            "2023-11-14T22:13:20.000000Z"
        );
    }
}
