//! `as_json` and `as_yaml`: a value, an object or a list of objects written out as the
//! reference writes them (objects as their fields, keys sorted unless told otherwise);
//! Jinja2's `tojson` as Jinja2 writes it.

use minijinja::value::{Value, ValueKind};
use minijinja::Error;
use serde::Serialize;

use super::invalid;
use crate::model::model_of;

/// The value as JSON data: objects by their fields, containers walked.
fn to_json(value: &Value) -> Result<serde_json::Value, Error> {
    if let Some(model) = model_of(value) {
        return Ok(model.to_json());
    }
    match value.kind() {
        ValueKind::Seq | ValueKind::Iterable => value
            .try_iter()?
            .map(|item| to_json(&item))
            .collect::<Result<Vec<_>, _>>()
            .map(serde_json::Value::Array),
        ValueKind::Map => {
            let mut map = serde_json::Map::new();
            for key in value.try_iter()? {
                map.insert(key.to_string(), to_json(&value.get_item(&key)?)?);
            }
            Ok(serde_json::Value::Object(map))
        }
        ValueKind::Undefined => Ok(serde_json::Value::Null),
        _ => serde_json::to_value(value).map_err(|e| invalid(e.to_string())),
    }
}

fn sorted(value: serde_json::Value) -> serde_json::Value {
    match value {
        serde_json::Value::Object(map) => {
            let mut entries: Vec<_> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            serde_json::Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        serde_json::Value::Array(items) => {
            serde_json::Value::Array(items.into_iter().map(sorted).collect())
        }
        other => other,
    }
}

fn prepared(value: &Value, sort_keys: Option<bool>) -> Result<serde_json::Value, Error> {
    // Writing out walks the value recursively: refuse what would exhaust the stack.
    if crate::limits::nested_deeper_than(value, crate::limits::MAX_VALUE_DEPTH) {
        return Err(invalid(format!(
            "recursion limit exceeded: the value nests lists or maps more than {} levels deep",
            crate::limits::MAX_VALUE_DEPTH
        )));
    }
    let json = to_json(value)?;
    Ok(if sort_keys.unwrap_or(true) {
        sorted(json)
    } else {
        json
    })
}

/// JSON indented by `indent` spaces (4 by default), non-ASCII characters escaped.
pub fn as_json(
    value: Value,
    indent: Option<usize>,
    sort_keys: Option<bool>,
) -> Result<String, Error> {
    let json = prepared(&value, sort_keys)?;
    let spaces = " ".repeat(indent.unwrap_or(4));
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(spaces.as_bytes());
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    json.serialize(&mut serializer)
        .map_err(|e| invalid(e.to_string()))?;
    let text = String::from_utf8(out).map_err(|e| invalid(e.to_string()))?;
    Ok(ascii_only(&text))
}

/// Non-ASCII characters as `\uXXXX` escapes (UTF-16, surrogate pairs beyond the BMP):
/// in JSON they can only occur inside strings.
fn ascii_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

/// YAML in block style.
pub fn as_yaml(
    value: Value,
    _indent: Option<usize>,
    sort_keys: Option<bool>,
) -> Result<String, Error> {
    let json = prepared(&value, sort_keys)?;
    serde_yaml::to_string(&json).map_err(|e| invalid(e.to_string()))
}

/// Python's `json.dumps` on one line: `, ` between items, `: ` after keys.
struct PythonCompact;

impl serde_json::ser::Formatter for PythonCompact {
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.begin_array_value(writer, first)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
    ) -> std::io::Result<()> {
        writer.write_all(b": ")
    }
}

/// Jinja2's `tojson(indent=none)`: JSON with sorted keys as Python writes it (on one line,
/// or indented), non-ASCII characters and `<`, `>`, `&`, `'` escaped so that it is safe
/// in HTML.
pub fn tojson(value: Value, indent: Option<usize>) -> Result<Value, Error> {
    let json = prepared(&value, Some(true))?;
    let mut out = Vec::new();
    let written = match indent {
        Some(n) => {
            let spaces = " ".repeat(n);
            let formatter = serde_json::ser::PrettyFormatter::with_indent(spaces.as_bytes());
            json.serialize(&mut serde_json::Serializer::with_formatter(
                &mut out, formatter,
            ))
        }
        None => json.serialize(&mut serde_json::Serializer::with_formatter(
            &mut out,
            PythonCompact,
        )),
    };
    written.map_err(|e| invalid(e.to_string()))?;
    let text = String::from_utf8(out).map_err(|e| invalid(e.to_string()))?;
    let safe = ascii_only(&text)
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\'', "\\u0027");
    Ok(Value::from_safe_string(safe))
}
