//! Validation of the field kinds beyond plain scalars: choices, JSON documents, content
//! types, addresses and references to related objects.

use serde_json::Value as Json;

use super::{json_type_name, msg, Ref};
use crate::choices::ChoiceSet;
use crate::spec::{ChoiceRender, Default, Field};
use crate::value::Value;

pub(super) fn parse_choice(
    field: &Field,
    raw: &Json,
    set: &ChoiceSet,
    render: ChoiceRender,
) -> Result<Value, Json> {
    let text = match raw {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    };
    // A choice whose default is blank (e.g. a platform's password algorithm) may be set
    // back to blank.
    let blank_ok = text.is_empty() && field.default == Default::Text("");
    if set.contains(&text) || blank_ok {
        Ok(Value::Text(text))
    } else if render == ChoiceRender::Object {
        Err(msg(format!("{text} is not a valid choice.")))
    } else {
        Err(msg(format!("\"{text}\" is not a valid choice.")))
    }
}

pub(super) fn parse_json(field: &Field, raw: &Json, object_only: bool) -> Result<Value, Json> {
    if object_only && !raw.is_null() && !raw.is_object() {
        return Err(msg(
            "JSON data must be in object form. Example: {\"foo\": 123}",
        ));
    }
    if raw.is_null() && !field.nullable {
        return Err(msg("This field may not be null."));
    }
    Ok(if raw.is_null() {
        Value::Null
    } else {
        Value::json(raw.clone())
    })
}

fn expect_list(raw: &Json) -> Result<&Vec<Json>, Json> {
    match raw {
        Json::Array(items) => Ok(items),
        _ => Err(msg(format!(
            "Expected a list of items but got type \"{}\".",
            json_type_name(raw)
        ))),
    }
}

pub(super) fn parse_content_types(raw: &Json) -> Result<Value, Json> {
    let items = expect_list(raw)?;
    let types = items
        .iter()
        .map(|item| content_type(item).map(Json::String))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Value::json(Json::Array(types)))
}

pub(super) fn parse_content_type(raw: &Json) -> Result<Value, Json> {
    content_type(raw).map(Value::Text)
}

/// An `app.model` naming one of the resources.
fn content_type(raw: &Json) -> Result<String, Json> {
    let text = raw.as_str().map(str::trim).unwrap_or_default();
    match crate::resources::by_content_type(text) {
        Some(_) => Ok(text.to_string()),
        None => Err(msg(format!(
            "Invalid content type: {}",
            raw.as_str().unwrap_or(&raw.to_string())
        ))),
    }
}

pub(super) fn parse_ip(
    raw: &Json,
    family: Option<crate::net::Family>,
    host_only: bool,
) -> Result<Value, Json> {
    let Some(text) = raw.as_str() else {
        return Err(msg("Enter a valid IPv4 or IPv6 address."));
    };
    let canonical = if host_only {
        crate::net::parse_host(text, family).map(|a| a.to_string())
    } else {
        crate::net::parse_interface(text, family).map(|n| n.to_string())
    };
    canonical.map(Value::Text).map_err(msg)
}

pub(super) fn parse_mac(raw: &Json) -> Result<Value, Json> {
    match raw.as_str() {
        Some(text) => crate::net::parse_mac(text).map(Value::Text).map_err(msg),
        None => Err(msg(format!("failed to detect EUI version: '{raw}'"))),
    }
}

/// A list of related objects; an error lists one entry per item (empty for good ones), as
/// the reference reports the items of a `tags` list.
pub(super) fn parse_refs(raw: &Json) -> Result<Vec<Ref>, Json> {
    let items = expect_list(raw)?;
    let mut refs = Vec::with_capacity(items.len());
    let mut item_errors = Vec::new();
    for item in items {
        match parse_ref(item) {
            Ok(r) => {
                refs.push(r);
                item_errors.push(Json::Array(vec![]));
            }
            Err(e) => item_errors.push(e),
        }
    }
    if refs.len() == items.len() {
        Ok(refs)
    } else {
        Err(Json::Array(item_errors))
    }
}

/// A related object given as an id, a numeric string, or a dictionary of attributes.
pub(super) fn parse_ref(raw: &Json) -> Result<Ref, Json> {
    match raw {
        Json::Number(n) => n.as_i64().map(Ref::Id).ok_or_else(|| unrecognised(raw)),
        Json::String(s) => s
            .trim()
            .parse::<i64>()
            .map(Ref::Id)
            .map_err(|_| unrecognised(raw)),
        Json::Object(o) if !o.is_empty() => Ok(Ref::Attrs(o.clone())),
        _ => Err(unrecognised(raw)),
    }
}

fn unrecognised(raw: &Json) -> Json {
    let shown = match raw {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    };
    msg(format!(
        "Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: {shown}"
    ))
}
