//! Scalar value syntax: integers, booleans, UUIDs and date/times as the API accepts them.

use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, SecondsFormat, Utc};
use std::fmt;

/// One typed filter value. Values are data for bound parameters, never SQL text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Value {
    /// The literal `null`: matches a NULL column.
    Null,
    /// An integer (Number and ForeignKey kinds).
    Int(i64),
    /// Text (String and Tag kinds).
    Text(String),
    /// A boolean (Bool kind, and every `empty` lookup).
    Bool(bool),
    /// A UUID.
    Uuid(uuid::Uuid),
    /// A timestamp, normalised to UTC.
    DateTime(DateTime<Utc>),
}

impl fmt::Display for Value {
    /// Writes the canonical spelling, which the parser reads back to the same value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Int(n) => write!(f, "{n}"),
            Value::Text(text) => f.write_str(text),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Uuid(id) => write!(f, "{}", id.hyphenated()),
            Value::DateTime(at) => f.write_str(&at.to_rfc3339_opts(SecondsFormat::AutoSi, true)),
        }
    }
}

/// Parses `-?[0-9]+` into an `i64`; the caller trims whitespace first.
pub(crate) fn parse_int(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    // `i64::from_str` would also take a leading `+`, which Django's message does not promise.
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Parses the boolean spellings Django's boolean filters accept, ignoring case.
pub(crate) fn parse_bool(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Some(true),
        "false" | "0" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// Parses a UUID in any form the `uuid` crate reads (hyphenated, simple, braced, URN).
pub(crate) fn parse_uuid(text: &str) -> Option<uuid::Uuid> {
    uuid::Uuid::parse_str(text).ok()
}

/// Formats tried, in order, for timestamps without an offset (taken as UTC).
const NAIVE_FORMATS: [&str; 4] = [
    "%Y-%m-%d %H:%M:%S%.f",
    "%Y-%m-%dT%H:%M:%S%.f",
    "%Y-%m-%d %H:%M",
    "%Y-%m-%dT%H:%M",
];

/// Parses RFC 3339, offset-less ISO 8601 (UTC) or a bare date (midnight UTC).
pub(crate) fn parse_datetime(text: &str) -> Option<DateTime<Utc>> {
    // chrono's `%Y` would take 5+ digit or signed years, which RFC 3339 output cannot spell.
    let bytes = text.as_bytes();
    if bytes.len() < 10 || !bytes[..4].iter().all(u8::is_ascii_digit) || bytes[4] != b'-' {
        return None;
    }
    let parsed = DateTime::parse_from_rfc3339(text)
        .map(|at| at.with_timezone(&Utc))
        .ok()
        .or_else(|| {
            NAIVE_FORMATS
                .iter()
                .find_map(|format| NaiveDateTime::parse_from_str(text, format).ok())
                .map(|naive| naive.and_utc())
        })
        .or_else(|| {
            NaiveDate::parse_from_str(text, "%Y-%m-%d")
                .ok()
                .and_then(|date| date.and_hms_opt(0, 0, 0))
                .map(|naive| naive.and_utc())
        })?;
    // An offset can push the UTC instant out of four-digit years; refuse it so Display re-parses.
    (0..=9999).contains(&parsed.year()).then_some(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn integers_accept_only_an_optional_minus_and_digits() {
        assert_eq!(parse_int("64500"), Some(64500));
        assert_eq!(parse_int("-12"), Some(-12));
        assert_eq!(parse_int("-0"), Some(0));
        assert_eq!(parse_int("9223372036854775807"), Some(i64::MAX));
        assert_eq!(parse_int("-9223372036854775808"), Some(i64::MIN));
        for bad in [
            "",
            "-",
            "+5",
            "1.5",
            "1e3",
            "0x10",
            "9223372036854775808",
            "١٢",
            "--1",
            "1 2",
        ] {
            assert_eq!(parse_int(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn booleans_accept_django_spellings_in_any_case() {
        for yes in ["true", "TRUE", "1", "yes", "Yes", "on", "ON"] {
            assert_eq!(parse_bool(yes), Some(true), "{yes}");
        }
        for no in ["false", "False", "0", "no", "NO", "off", "Off"] {
            assert_eq!(parse_bool(no), Some(false), "{no}");
        }
        for bad in ["", "2", "t", "null", "truee"] {
            assert_eq!(parse_bool(bad), None, "{bad}");
        }
    }

    #[test]
    fn datetimes_accept_rfc3339_naive_and_bare_dates() {
        let at = |h, m, s| Utc.with_ymd_and_hms(2026, 11, 21, h, m, s).single();
        assert_eq!(parse_datetime("2026-11-21T10:00:00Z"), at(10, 0, 0));
        assert_eq!(parse_datetime("2026-11-21T12:00:00+02:00"), at(10, 0, 0));
        assert_eq!(parse_datetime("2026-11-21 10:30"), at(10, 30, 0));
        assert_eq!(parse_datetime("2026-11-21T10:30"), at(10, 30, 0));
        assert_eq!(parse_datetime("2026-11-21 10:30:05"), at(10, 30, 5));
        assert_eq!(parse_datetime("2026-11-21T10:30:05"), at(10, 30, 5));
        assert_eq!(parse_datetime("2026-11-21"), at(0, 0, 0));
        let fractional = parse_datetime("2026-11-21 10:30:05.123456").map(|t| t.timestamp_micros());
        assert_eq!(
            fractional,
            at(10, 30, 5).map(|t| t.timestamp_micros() + 123_456)
        );
        assert_eq!(
            parse_datetime("2026-11-21T10:00:00.5+00:00").map(|t| t.timestamp_millis()),
            at(10, 0, 0).map(|t| t.timestamp_millis() + 500)
        );
        for bad in [
            "",
            "2026-13-01",
            "2026-11-31",
            "21/11/2026",
            "2026-11-21T25:00",
            "+12026-11-21",
            "tomorrow",
            "0000-01-01T00:00:00+01:00",
        ] {
            assert_eq!(parse_datetime(bad), None, "{bad}");
        }
    }

    #[test]
    fn display_spellings_parse_back() {
        let id = uuid::Uuid::from_u128(0x0123_4567_89ab_cdef_0123_4567_89ab_cdef);
        assert_eq!(
            Value::Uuid(id).to_string(),
            "01234567-89ab-cdef-0123-456789abcdef"
        );
        assert_eq!(parse_uuid(&Value::Uuid(id).to_string()), Some(id));
        let at = parse_datetime("2026-11-21 10:30:05.25");
        let shown = at.map(|t| Value::DateTime(t).to_string());
        assert_eq!(shown.as_deref(), Some("2026-11-21T10:30:05.250Z"));
        assert_eq!(shown.as_deref().and_then(parse_datetime), at);
        assert_eq!(Value::Bool(false).to_string(), "false");
        assert_eq!(Value::Null.to_string(), "null");
        assert_eq!(Value::Int(-3).to_string(), "-3");
    }
}
