//! What a delivery sends, from the job's parameters: the reference's template context
//! (`event`, `timestamp`, `model`, `username`, `request_id`, `data`, `snapshots`), the
//! default body (that context as Python's `json.dumps` writes it), and the additional
//! headers (one `Name: value` per line) read from their rendered text.

use std::io;

use serde_json::{Map, Value as Json};

/// The context of a webhook's templates, in the reference's order; `snapshots` only when
/// the job has some, as the reference adds them only then.
pub fn context(params: &Json) -> Json {
    let mut context = Map::new();
    let text = |key: &str| params[key].as_str().unwrap_or_default().to_string();
    context.insert("event".into(), Json::String(text("event").to_lowercase()));
    for key in ["timestamp", "model", "username", "request_id"] {
        context.insert(key.into(), Json::String(text(key)));
    }
    context.insert("data".into(), params["data"].clone());
    let snapshots = &params["snapshots"];
    if snapshots.as_object().is_some_and(|s| !s.is_empty()) {
        context.insert("snapshots".into(), snapshots.clone());
    }
    Json::Object(context)
}

/// `value` as Python's `json.dumps` writes it by default: `", "` and `": "` between items,
/// and every character past ASCII escaped (`\u00e9`, surrogate pairs beyond the BMP).
pub fn python_json(value: &Json) -> Vec<u8> {
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, PythonFormatter);
    // Writing a JSON value into memory cannot fail.
    let _ = serde::Serialize::serialize(value, &mut serializer);
    out
}

struct PythonFormatter;

impl serde_json::ser::Formatter for PythonFormatter {
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        for c in fragment.chars() {
            if c.is_ascii() {
                w.write_all(&[c as u8])?;
            } else {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(w, "\\u{unit:04x}")?;
                }
            }
        }
        Ok(())
    }
}

/// The rendered additional headers as (name, value) pairs: each line split at its first
/// colon, both sides trimmed; blank lines are skipped. A line without a colon is an error,
/// as in the reference.
pub fn headers(rendered: &str) -> Result<Vec<(String, String)>, String> {
    rendered
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| match line.split_once(':') {
            Some((name, value)) => Ok((name.trim().to_string(), value.trim().to_string())),
            None => Err(format!(
                "additional headers: {line:?} is not \"Name: value\""
            )),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_default_body_is_python_json_of_the_context_in_order() {
        let params = json!({
            "webhook": 7, "event": "create", "model": "autonomoussystem",
            "timestamp": "2026-12-06T21:30:00.123456+00:00", "username": "alice",
            "request_id": "r", "data": {"id": 1, "name": "Caf\u{e9} \u{1f600}", "tags": [1, 2]},
            "snapshots": {"prechange": null, "postchange": {"name": "x"}}
        });
        let body = String::from_utf8(python_json(&context(&params))).unwrap();
        assert_eq!(
            body,
            r#"{"event": "create", "timestamp": "2026-12-06T21:30:00.123456+00:00", "model": "autonomoussystem", "username": "alice", "request_id": "r", "data": {"id": 1, "name": "Caf\u00e9 \ud83d\ude00", "tags": [1, 2]}, "snapshots": {"prechange": null, "postchange": {"name": "x"}}}"#
        );
        let parsed: Json = serde_json::from_str(&body).unwrap();
        assert_eq!(parsed["data"]["name"], "Caf\u{e9} \u{1f600}");
    }

    #[test]
    fn no_snapshots_leaves_them_out() {
        let context = context(&json!({"event": "DELETE", "data": {}}));
        assert_eq!(context["event"], "delete");
        assert!(context.get("snapshots").is_none());
    }

    #[test]
    fn headers_are_split_at_the_first_colon() {
        assert_eq!(
            headers("X-Foo: Bar\n\nAuthorization: Token a:b \n").unwrap(),
            vec![
                ("X-Foo".to_string(), "Bar".to_string()),
                ("Authorization".to_string(), "Token a:b".to_string())
            ]
        );
        assert!(headers("X-Foo Bar").is_err());
    }
}
