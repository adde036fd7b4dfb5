//! Validation of a write body into a `Draft`: typed values and unresolved references.
//!
//! Everything that needs no database is checked here (types, ranges, lengths, choices,
//! required fields); references to related objects are resolved later by the store.

use serde_json::{Map, Value as Json};

use crate::errors::FieldErrors;
use crate::record::Record;
use crate::spec::{Default, Field, Kind, ResourceSpec};
use crate::value::Value;

mod kinds;
mod scalars;

use scalars::{is_uuid, parse_bool, parse_int, parse_text, parse_time};

/// A reference to a related object, as a client may give it.
#[derive(Debug, Clone, PartialEq)]
pub enum Ref {
    Id(i64),
    /// Attributes that must identify exactly one object, e.g. `{"asn": 65001}`.
    Attrs(Map<String, Json>),
}

/// The validated input of one field.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    Value(Value),
    /// A foreign key; `None` sets it to null.
    Ref(Option<Ref>),
    /// A many-to-many list or tags.
    Refs(Vec<Ref>),
}

/// What a write asks for: one optional input per field of the resource.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub inputs: Vec<Option<Input>>,
}

impl Draft {
    /// A write that asks for nothing (each field as it is, or its default).
    pub fn empty(spec: &ResourceSpec) -> Draft {
        Draft {
            inputs: vec![None; spec.fields.len()],
        }
    }

    /// Asks for `input` in the field `name` (an unknown name asks for nothing).
    pub fn set(&mut self, spec: &ResourceSpec, name: &str, input: Input) -> &mut Draft {
        if let Some(i) = spec.index_of(name) {
            self.inputs[i] = Some(input);
        }
        self
    }
}

/// How absent fields are treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// POST: required fields must be present; absent ones take their defaults.
    Create,
    /// PUT: required fields must be present; absent ones keep their values.
    Replace,
    /// PATCH: every field optional.
    Partial,
}

/// Describes a JSON value's type the way the reference's messages do.
pub fn json_type_name(v: &Json) -> &'static str {
    match v {
        Json::Null => "NoneType",
        Json::Bool(_) => "bool",
        Json::Number(n) if n.is_f64() => "float",
        Json::Number(_) => "int",
        Json::String(_) => "str",
        Json::Array(_) => "list",
        Json::Object(_) => "dict",
    }
}

/// Validates one object of a write body against the resource's declaration.
pub fn parse(spec: &ResourceSpec, body: &Json, mode: Mode) -> Result<Draft, FieldErrors> {
    let Json::Object(obj) = body else {
        return Err(FieldErrors::single(
            "non_field_errors",
            format!(
                "Invalid data. Expected a dictionary, but got {}.",
                json_type_name(body)
            ),
        ));
    };
    let mut given: Map<String, Json> = Map::new();
    for (k, v) in obj {
        given.insert(crate::names::from_reference(k).into_owned(), v.clone());
    }
    let mut errors = FieldErrors::new();
    let mut inputs = Vec::with_capacity(spec.fields.len());
    for field in spec.fields {
        if !field.writable() {
            inputs.push(None);
            continue;
        }
        let raw = given
            .get(field.name)
            .or_else(|| field.written_as.and_then(|name| given.get(name)));
        match raw {
            None => {
                if field.required && mode != Mode::Partial {
                    errors.add(field.name, "This field is required.");
                }
                inputs.push(None);
            }
            Some(raw) => match parse_field(field, raw) {
                Ok(input) => inputs.push(Some(input)),
                Err(e) => {
                    errors.set_raw(field.name, e);
                    inputs.push(None);
                }
            },
        }
    }
    if errors.is_empty() {
        Ok(Draft { inputs })
    } else {
        Err(errors)
    }
}

fn msg(m: impl Into<String>) -> Json {
    Json::Array(vec![Json::String(m.into())])
}

fn parse_field(field: &Field, raw: &Json) -> Result<Input, Json> {
    if raw.is_null() && !matches!(field.kind, Kind::Json { .. }) {
        return parse_null(field);
    }
    let value = |v: Result<Value, Json>| v.map(Input::Value);
    match field.kind {
        Kind::Int { min, max } => value(parse_int(raw, min, max).map(Value::Int)),
        Kind::Text {
            max_len, format, ..
        } => value(parse_text(field, raw, max_len, format).map(Value::Text)),
        Kind::Bool => value(parse_bool(raw).map(Value::Bool)),
        Kind::Choice { set, render } => value(kinds::parse_choice(field, raw, set, render)),
        Kind::Json { object_only } => value(kinds::parse_json(field, raw, object_only)),
        Kind::Uuid => match raw.as_str().map(str::trim) {
            Some(s) if is_uuid(s) => Ok(Input::Value(Value::Text(s.to_ascii_lowercase()))),
            _ => Err(msg("Must be a valid UUID.")),
        },
        Kind::Time => value(parse_time(raw)),
        Kind::ReverseCount { .. }
        | Kind::DisplayCopy
        | Kind::Derived { .. }
        | Kind::GenericObject { .. } => Err(msg("This field is read-only.")),
        Kind::ContentTypes => value(kinds::parse_content_types(raw)),
        Kind::ContentType => value(kinds::parse_content_type(raw)),
        Kind::Ip { family, host_only } => value(kinds::parse_ip(raw, family, host_only)),
        Kind::Mac => value(kinds::parse_mac(raw)),
        Kind::ForeignKey { .. } => kinds::parse_ref(raw).map(|r| Input::Ref(Some(r))),
        Kind::ManyToMany { .. } | Kind::Tags => kinds::parse_refs(raw).map(Input::Refs),
    }
}

/// A null: accepted by nullable fields (a foreign key set to none), refused by others.
fn parse_null(field: &Field) -> Result<Input, Json> {
    if !field.nullable {
        return Err(msg("This field may not be null."));
    }
    Ok(match field.kind {
        Kind::ForeignKey { .. } => Input::Ref(None),
        _ => Input::Value(Value::Null),
    })
}

/// Applies a draft (with references already resolved to ids) to produce the stored values:
/// on create absent fields take their defaults, on update they keep the existing values.
pub fn apply(
    spec: &ResourceSpec,
    resolved: Vec<Option<Value>>,
    existing: Option<&Record>,
) -> Vec<Value> {
    spec.fields
        .iter()
        .zip(resolved)
        .enumerate()
        .map(|(i, (field, given))| match (given, existing) {
            (Some(v), _) => v,
            (None, Some(old)) => old.values.get(i).cloned().unwrap_or(Value::Null),
            (None, None) => default_value(field),
        })
        .collect()
}

/// The value a field takes on create when absent.
pub fn default_value(field: &Field) -> Value {
    match field.default {
        Default::None | Default::Null | Default::CurrentUser => match field.kind {
            Kind::ManyToMany { .. } | Kind::Tags => Value::Ids(Vec::new()),
            Kind::Text { .. } if !field.nullable => Value::Text(String::new()),
            _ => Value::Null,
        },
        Default::Bool(b) => Value::Bool(b),
        Default::Int(i) => Value::Int(i),
        Default::Text(t) => Value::Text(t.to_string()),
        Default::EmptyList => Value::Ids(Vec::new()),
        Default::EmptyObject => Value::json(serde_json::Value::Object(Map::new())),
        Default::EmptyArray => Value::json(serde_json::Value::Array(Vec::new())),
        Default::Now => Value::Time(crate::value::now()),
    }
}

#[cfg(test)]
mod tests;
