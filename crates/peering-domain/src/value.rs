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
    /// A JSON document (local context data, prefixes). Boxed: an unboxed document (72
    /// bytes with ordered maps) would more than double the size of every value of every
    /// record, most of which are small.
    Json(Box<serde_json::Value>),
    /// Related object ids of a many-to-many relation or of tags, in id order.
    Ids(Vec<i64>),
}

// Every field of every record holds a `Value`: kept related objects and large pages are
// sized by it (`peering-store`'s kept objects fit a mid-sized network's in their bound).
const _: () = assert!(std::mem::size_of::<Value>() <= 32);

impl Value {
    /// A JSON document as a value (boxed, see [`Value::Json`]).
    pub fn json(document: serde_json::Value) -> Value {
        Value::Json(Box::new(document))
    }

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
        let micros = t.nanosecond() / 1000 % 1_000_000;
        // Written digit by digit into a fixed buffer (lists render thousands of times per
        // page); a year outside 0–9999 is written before it, as `chrono` gives it.
        let mut text = *b"0000-00-00T00:00:00.000000Z";
        let from = match u32::try_from(t.year()) {
            Ok(year @ 0..=9999) => {
                put_digits(&mut text[0..4], year);
                0
            }
            _ => {
                write!(f, "{:04}", t.year())?;
                4
            }
        };
        put_digits(&mut text[5..7], t.month());
        put_digits(&mut text[8..10], t.day());
        put_digits(&mut text[11..13], t.hour());
        put_digits(&mut text[14..16], t.minute());
        put_digits(&mut text[17..19], t.second());
        let end = if self.millis {
            put_digits(&mut text[20..23], micros / 1000);
            text[23] = b'Z';
            24
        } else {
            put_digits(&mut text[20..26], micros);
            text.len()
        };
        f.write_str(std::str::from_utf8(&text[from..end]).map_err(|_| fmt::Error)?)
    }
}

/// Writes `n` in decimal into `out`, zero-padded to its length (higher digits dropped).
fn put_digits(out: &mut [u8], mut n: u32) {
    for digit in out.iter_mut().rev() {
        *digit = b'0' + (n % 10) as u8;
        n /= 10;
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
        let early = micros_to_time(-62_135_596_800_000_000 + 1);
        assert_eq!(
            Iso8601::micros(early).to_string(),
            "0001-01-01T00:00:00.000001Z"
        );
        let whole = micros_to_time(1_700_000_000_000_000);
        assert_eq!(
            Iso8601::micros(whole).to_string(),
            "2023-11-14T22:13:20.000000Z"
        );
    }

    proptest::proptest! {
        // Any time from year 0 to 9999, in either form, as chrono's own formatting gives it.
        #[test]
        fn times_read_as_chrono_writes_them(
            micros in -62_167_219_200_000_000i64..=253_402_300_799_999_999i64,
        ) {
            let t = micros_to_time(micros);
            proptest::prop_assert_eq!(
                Iso8601::micros(t).to_string(),
                t.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
            );
            proptest::prop_assert_eq!(
                Iso8601::millis(t).to_string(),
                t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
            );
        }
    }
}
