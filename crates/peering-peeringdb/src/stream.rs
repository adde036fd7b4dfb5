//! PeeringDB's answers read one object at a time: an answer is `{"data": [ … ], …}`, tens
//! of megabytes for networks, and is never held whole.

use std::fmt;
use std::io::Read;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value as Json};

/// Why reading an answer stopped.
#[derive(Debug)]
pub enum StreamError<E> {
    /// The answer is not PeeringDB's format (malformed JSON, no `data` list).
    Malformed(String),
    /// The callback failed.
    Stopped(E),
}

/// Calls `each` with every object of the answer's `data` list, in order.
pub fn for_each_object<R: Read, E>(
    reader: R,
    mut each: impl FnMut(Map<String, Json>) -> Result<(), E>,
) -> Result<usize, StreamError<E>> {
    let mut failure = None;
    let mut seen = 0;
    let mut de =
        serde_json::Deserializer::from_reader(std::io::BufReader::with_capacity(1 << 16, reader));
    let document = Document {
        each: &mut each,
        failure: &mut failure,
        seen: &mut seen,
    };
    let read = document.deserialize(&mut de).and_then(|found| {
        de.end()?;
        Ok(found)
    });
    match (read, failure) {
        (_, Some(e)) => Err(StreamError::Stopped(e)),
        (Ok(true), None) => Ok(seen),
        (Ok(false), None) => Err(StreamError::Malformed("no \"data\" list".into())),
        (Err(e), None) => Err(StreamError::Malformed(e.to_string())),
    }
}

struct Document<'a, F, E> {
    each: &'a mut F,
    failure: &'a mut Option<E>,
    seen: &'a mut usize,
}

impl<'de, F, E> DeserializeSeed<'de> for Document<'_, F, E>
where
    F: FnMut(Map<String, Json>) -> Result<(), E>,
{
    /// Whether the document had a `data` list.
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, F, E> Visitor<'de> for Document<'_, F, E>
where
    F: FnMut(Map<String, Json>) -> Result<(), E>,
{
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object with a \"data\" list")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let mut found = false;
        while let Some(key) = map.next_key::<String>()? {
            if key == "data" && !found {
                map.next_value_seed(Objects {
                    each: &mut *self.each,
                    failure: &mut *self.failure,
                    seen: &mut *self.seen,
                })?;
                found = true;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

struct Objects<'a, F, E> {
    each: &'a mut F,
    failure: &'a mut Option<E>,
    seen: &'a mut usize,
}

impl<'de, F, E> DeserializeSeed<'de> for Objects<'_, F, E>
where
    F: FnMut(Map<String, Json>) -> Result<(), E>,
{
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, F, E> Visitor<'de> for Objects<'_, F, E>
where
    F: FnMut(Map<String, Json>) -> Result<(), E>,
{
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of objects")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(object) = seq.next_element::<Map<String, Json>>()? {
            *self.seen += 1;
            if let Err(e) = (self.each)(object) {
                *self.failure = Some(e);
                return Err(de::Error::custom("stopped"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(text: &str) -> Result<Vec<i64>, String> {
        let mut out = Vec::new();
        for_each_object(text.as_bytes(), |o| {
            out.push(o["id"].as_i64().unwrap());
            Ok::<(), ()>(())
        })
        .map_err(|e| match e {
            StreamError::Malformed(m) => m,
            StreamError::Stopped(()) => "stopped".into(),
        })?;
        Ok(out)
    }

    #[test]
    fn objects_come_in_order_whatever_surrounds_them() {
        let text = r#"{"meta": {"x": [1, {"y": 2}]}, "data": [{"id": 1}, {"id": 5, "n": [1]}]}"#;
        assert_eq!(ids(text), Ok(vec![1, 5]));
    }

    #[test]
    fn malformed_answers_are_refused() {
        assert!(ids(r#"{"data": [{"id": 1}, "#).unwrap_err().contains("EOF"));
        assert_eq!(ids(r#"{"meta": {}}"#).unwrap_err(), "no \"data\" list");
        assert!(ids(r#"{"data": [1]}"#).is_err());
        assert!(ids(r#"{"data": []} trailing"#).is_err());
    }

    #[test]
    fn a_failing_callback_stops_the_reading() {
        let mut seen = 0;
        let r = for_each_object(r#"{"data": [{"id": 1}, {"id": 2}]}"#.as_bytes(), |_| {
            seen += 1;
            Err("no")
        });
        assert!(matches!(r, Err(StreamError::Stopped("no"))));
        assert_eq!(seen, 1);
    }
}
