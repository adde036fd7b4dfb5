//! Filters over any value: text, lists, tags, lookups, config contexts.

use std::collections::HashSet;

use minijinja::value::{Kwargs, Value};
use minijinja::{Error, State};
use unicode_normalization::UnicodeNormalization;

use super::{invalid, items};
use crate::model::{model_of, models, Model};

/// Only the ASCII part of the text once decomposed (`é` → `e`).
pub fn safe_string(value: String) -> String {
    value.nfkd().filter(char::is_ascii).collect()
}

/// The value between quotes (`"` by default, any text given); nothing for a false value.
pub fn quote(value: Value, quote: Option<String>) -> String {
    if !value.is_true() {
        return String::new();
    }
    let quote = quote.as_deref().unwrap_or("\"");
    format!("{quote}{value}{quote}")
}

fn tagged(value: &Value) -> Result<&Model, Error> {
    model_of(value)
        .filter(|m| m.has_field("tags"))
        .ok_or_else(|| invalid("object has no tags"))
}

pub fn tags(value: Value) -> Result<Value, Error> {
    Ok(models(tagged(&value)?.list("tags")))
}

pub fn has_tag(value: Value, tag: String) -> Result<bool, Error> {
    Ok(tagged(&value)?
        .list("tags")
        .iter()
        .any(|t| t.text("name") == tag || t.text("slug") == tag))
}

pub fn has_not_tag(value: Value, tag: String) -> Result<bool, Error> {
    has_tag(value, tag).map(|has| !has)
}

/// The number of items of a list or map, or of characters of a text.
pub fn length(value: Value) -> Result<usize, Error> {
    value
        .len()
        .ok_or_else(|| invalid(format!("object of type {} has no length", value.kind())))
}

/// The items whose attributes equal the given ones. A name may follow relations and end
/// with a lookup, as in the reference's query filters: `autonomous_system__asn=65000`,
/// `ip_address__family=6`, `status__in=["enabled"]`.
pub fn filter(state: &State, value: Value, criteria: Kwargs) -> Result<Value, Error> {
    let criteria = criteria_of(&criteria)?;
    let all = items(&value).map_err(|_| invalid("value cannot be filtered (not iterable)"))?;
    state.consume_fuel(all.len() as u64)?;
    let kept: Vec<Value> = all
        .into_iter()
        .filter(|item| {
            criteria
                .iter()
                .all(|(key, expected)| matches(item, key, expected))
        })
        .collect();
    Ok(Value::from(kept))
}

fn criteria_of(kwargs: &Kwargs) -> Result<Vec<(String, Value)>, Error> {
    kwargs
        .args()
        .map(|key| Ok((key.to_string(), kwargs.get::<Value>(key)?)))
        .collect()
}

/// The only item matching, or the list of matches when there is not exactly one.
pub fn get(state: &State, value: Value, criteria: Kwargs) -> Result<Value, Error> {
    let matched = filter(state, value, criteria)?;
    if matched.len() == Some(1) {
        return matched.get_item_by_index(0);
    }
    Ok(matched)
}

const LOOKUPS: &[&str] = &[
    "exact",
    "iexact",
    "contains",
    "icontains",
    "startswith",
    "endswith",
    "in",
    "gt",
    "gte",
    "lt",
    "lte",
    "isnull",
    "family",
];

fn matches(item: &Value, key: &str, expected: &Value) -> bool {
    let mut path: Vec<&str> = key.split("__").collect();
    let lookup = match path.last() {
        Some(last) if path.len() > 1 && LOOKUPS.contains(last) => path.pop().unwrap_or("exact"),
        _ => "exact",
    };
    let mut actual = item.clone();
    for name in path {
        actual = attribute(&actual, name);
    }
    compare(&actual, lookup, expected)
}

/// An attribute of an object or a key of a map; undefined when missing.
pub fn attribute(value: &Value, name: &str) -> Value {
    match model_of(value) {
        Some(model) => model.attribute(name).unwrap_or(Value::UNDEFINED),
        None => value.get_attr(name).unwrap_or(Value::UNDEFINED),
    }
}

fn compare(actual: &Value, lookup: &str, expected: &Value) -> bool {
    let text = |v: &Value| v.to_string();
    match lookup {
        "iexact" => text(actual).to_lowercase() == text(expected).to_lowercase(),
        "contains" => text(actual).contains(&text(expected)),
        "icontains" => text(actual)
            .to_lowercase()
            .contains(&text(expected).to_lowercase()),
        "startswith" => text(actual).starts_with(&text(expected)),
        "endswith" => text(actual).ends_with(&text(expected)),
        "in" => items(expected).is_ok_and(|list| list.contains(actual)),
        "gt" => actual > expected,
        "gte" => actual >= expected,
        "lt" => actual < expected,
        "lte" => actual <= expected,
        "isnull" => (actual.is_none() || actual.is_undefined()) == expected.is_true(),
        "family" => super::net::family_of(&text(actual)).map(i64::from) == expected.as_i64(),
        _ => !actual.is_undefined() && actual == expected,
    }
}

/// The first item for each value of `field`.
pub fn unique_items(value: Value, field: String) -> Result<Value, Error> {
    let all = items(&value).map_err(|_| invalid("value cannot be filtered (not iterable)"))?;
    let mut seen = HashSet::new();
    let kept: Vec<Value> = all
        .into_iter()
        .filter(|item| {
            let attr = attribute(item, &field);
            !attr.is_undefined() && seen.insert(identity(&attr))
        })
        .collect();
    Ok(Value::from(kept))
}

/// A key telling values apart: objects by resource and id, others by kind and text.
fn identity(value: &Value) -> String {
    match model_of(value) {
        Some(m) => format!("{}#{}", m.spec().table, m.id()),
        None => format!("{:?}:{value}", value.kind()),
    }
}

/// The value of `field` of each item (none where an item has no such field).
pub fn iterate(value: Value, field: String) -> Result<Value, Error> {
    let all = items(&value)?;
    Ok(Value::from(
        all.iter()
            .map(|item| match attribute(item, &field) {
                v if v.is_undefined() => Value::from(()),
                v => v,
            })
            .collect::<Vec<_>>(),
    ))
}

/// Each line of the text preceded by `n` times `chars`; `reset` first strips those
/// characters from the start of the line.
pub fn indent(value: Value, n: usize, chars: Option<String>, reset: Option<bool>) -> String {
    let chars = chars.unwrap_or_else(|| " ".to_string());
    let prefix = chars.repeat(n);
    let text = value.to_string();
    let mut out = String::with_capacity(text.len() + prefix.len() * 8);
    for line in text.split_inclusive('\n') {
        out.push_str(&prefix);
        if reset.unwrap_or(false) {
            out.push_str(line.trim_start_matches(|c| chars.contains(c)));
        } else {
            out.push_str(line);
        }
    }
    out
}

/// The merged config context of an object that has one.
fn context_of(value: &Value) -> Result<serde_json::Value, Error> {
    model_of(value)
        .filter(|m| m.has_field("local_context_data"))
        .map(super::config_context)
        .ok_or_else(|| invalid("object has no config context"))
}

pub fn context_has_key(value: Value, key: String, recursive: Option<bool>) -> Result<bool, Error> {
    let context = context_of(&value)?;
    Ok(find_key(&context, &key, recursive.unwrap_or(true)).is_some())
}

pub fn context_has_not_key(
    value: Value,
    key: String,
    recursive: Option<bool>,
) -> Result<bool, Error> {
    context_has_key(value, key, recursive).map(|has| !has)
}

pub fn context_get_key(
    value: Value,
    key: String,
    default: Option<Value>,
    recursive: Option<bool>,
) -> Result<Value, Error> {
    let context = context_of(&value)?;
    Ok(match find_key(&context, &key, recursive.unwrap_or(true)) {
        Some(found) => crate::model::json_value(found),
        None => default.unwrap_or(Value::from(())),
    })
}

/// The value of `key` in a JSON object, looked for in nested objects too when
/// `recursive` (depth first, in key order).
fn find_key<'a>(
    hash: &'a serde_json::Value,
    key: &str,
    recursive: bool,
) -> Option<&'a serde_json::Value> {
    let map = hash.as_object()?;
    for (k, v) in map {
        if k == key {
            return Some(v);
        }
        if recursive && v.is_object() {
            if let Some(found) = find_key(v, key, recursive) {
                return Some(found);
            }
        }
    }
    None
}
