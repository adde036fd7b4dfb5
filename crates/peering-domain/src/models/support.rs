//! Value types the generated models share: a choice with its label, a timestamp written as
//! the server writes it, and the reading of an explicit null in partial updates.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::value::Iso8601;

/// A choice shown with its label, `{"value": "established", "label": "Established"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice<T> {
    pub value: T,
    pub label: String,
}

/// A point in time, written as the server writes times (UTC, microseconds, `Z`), so that an
/// answer read and written again is the same text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(pub DateTime<Utc>);

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&Iso8601::micros(self.0))
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        DateTime::parse_from_rfc3339(text.trim())
            .map(|t| Timestamp(t.with_timezone(&Utc)))
            .map_err(serde::de::Error::custom)
    }
}

impl From<DateTime<Utc>> for Timestamp {
    fn from(time: DateTime<Utc>) -> Self {
        Timestamp(time)
    }
}

/// Reads a field of a partial update that is present: `null` becomes `Some(None)`, a value
/// `Some(Some(value))` (an absent field stays `None` through `#[serde(default)]`).
pub fn nullable<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_keep_microseconds_and_zulu() {
        for text in [
            "\"2026-11-21T23:43:19.510000Z\"",
            "\"2026-01-01T00:00:00.000000Z\"",
        ] {
            let t: Timestamp = serde_json::from_str(text).unwrap();
            assert_eq!(serde_json::to_string(&t).unwrap(), text);
        }
        let offset: Timestamp = serde_json::from_str("\"2026-11-21T23:43:19+01:00\"").unwrap();
        assert_eq!(
            serde_json::to_string(&offset).unwrap(),
            "\"2026-11-21T22:43:19.000000Z\""
        );
        assert!(serde_json::from_str::<Timestamp>("\"yesterday\"").is_err());
    }

    #[derive(Debug, Default, Serialize, Deserialize, PartialEq)]
    struct Patch {
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "nullable"
        )]
        comment: Option<Option<String>>,
    }

    #[test]
    fn a_patch_tells_absent_from_null() {
        let absent: Patch = serde_json::from_str("{}").unwrap();
        let null: Patch = serde_json::from_str("{\"comment\":null}").unwrap();
        let set: Patch = serde_json::from_str("{\"comment\":\"x\"}").unwrap();
        assert_eq!(absent.comment, None);
        assert_eq!(null.comment, Some(None));
        assert_eq!(set.comment, Some(Some("x".into())));
        for (patch, text) in [
            (absent, "{}"),
            (null, "{\"comment\":null}"),
            (set, "{\"comment\":\"x\"}"),
        ] {
            assert_eq!(serde_json::to_string(&patch).unwrap(), text);
        }
    }
}
