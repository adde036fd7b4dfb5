//! Validation of a write body into a `Draft`: typed values and unresolved references.
//!
//! Everything that needs no database is checked here (types, ranges, lengths, choices,
//! required fields); references to related objects are resolved later by the store.

use serde_json::{Map, Value as Json};

use crate::errors::FieldErrors;
use crate::record::Record;
use crate::spec::{ChoiceRender, Default, Field, Kind, ResourceSpec, TextFormat};
use crate::value::Value;

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
        match given.get(field.name) {
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
        if field.nullable {
            return Ok(match field.kind {
                Kind::ForeignKey { .. } => Input::Ref(None),
                _ => Input::Value(Value::Null),
            });
        }
        return Err(msg("This field may not be null."));
    }
    match field.kind {
        Kind::Int { min, max } => parse_int(raw, min, max).map(|i| Input::Value(Value::Int(i))),
        Kind::Text {
            max_len, format, ..
        } => parse_text(field, raw, max_len, format).map(|s| Input::Value(Value::Text(s))),
        Kind::Bool => parse_bool(raw).map(|b| Input::Value(Value::Bool(b))),
        Kind::Choice { set, render } => {
            let text = match raw {
                Json::String(s) => s.clone(),
                Json::Number(n) => n.to_string(),
                Json::Bool(b) => b.to_string(),
                other => other.to_string(),
            };
            // A choice whose default is blank (e.g. a platform's password algorithm) may be
            // set back to blank.
            let blank_ok = text.is_empty() && field.default == Default::Text("");
            if set.contains(&text) || blank_ok {
                Ok(Input::Value(Value::Text(text)))
            } else if render == ChoiceRender::Object {
                Err(msg(format!("{text} is not a valid choice.")))
            } else {
                Err(msg(format!("\"{text}\" is not a valid choice.")))
            }
        }
        Kind::Json { object_only } => {
            let empty =
                raw.is_null() || raw.as_object().is_some_and(|o| o.is_empty()) && !object_only;
            if object_only && !raw.is_null() && !raw.is_object() {
                return Err(msg(
                    "JSON data must be in object form. Example: {\"foo\": 123}",
                ));
            }
            if raw.is_null() && !field.nullable {
                return Err(msg("This field may not be null."));
            }
            Ok(Input::Value(if empty && raw.is_null() {
                Value::Null
            } else {
                Value::Json(raw.clone())
            }))
        }
        Kind::Uuid => match raw.as_str().map(str::trim) {
            Some(s) if is_uuid(s) => Ok(Input::Value(Value::Text(s.to_ascii_lowercase()))),
            _ => Err(msg("Must be a valid UUID.")),
        },
        Kind::Time => raw
            .as_str()
            .and_then(|t| chrono::DateTime::parse_from_rfc3339(t.trim()).ok())
            .map(|t| {
                let micros = crate::value::time_to_micros(t.with_timezone(&chrono::Utc));
                Input::Value(Value::Time(crate::value::micros_to_time(micros)))
            })
            .ok_or_else(|| {
                msg("Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].")
            }),
        Kind::ReverseCount { .. } | Kind::DisplayCopy | Kind::GenericObject { .. } => {
            Err(msg("This field is read-only."))
        }
        Kind::ContentTypes => {
            let Json::Array(items) = raw else {
                return Err(msg(format!(
                    "Expected a list of items but got type \"{}\".",
                    json_type_name(raw)
                )));
            };
            let mut types = Vec::with_capacity(items.len());
            for item in items {
                let text = item.as_str().map(str::trim).unwrap_or_default();
                if crate::resources::by_content_type(text).is_none() {
                    return Err(msg(format!("Invalid content type: {}", item.as_str().unwrap_or(&item.to_string()))));
                }
                types.push(Json::String(text.to_string()));
            }
            Ok(Input::Value(Value::Json(Json::Array(types))))
        }
        Kind::ContentType => {
            let text = raw.as_str().map(str::trim).unwrap_or_default();
            match crate::resources::by_content_type(text) {
                Some(_) => Ok(Input::Value(Value::Text(text.to_string()))),
                None => Err(msg(format!("Invalid content type: {}", raw.as_str().unwrap_or(&raw.to_string())))),
            }
        }
        Kind::Ip { family, host_only } => {
            let Some(text) = raw.as_str() else {
                return Err(msg("Enter a valid IPv4 or IPv6 address."));
            };
            let canonical = if host_only {
                crate::net::parse_host(text, family).map(|a| a.to_string())
            } else {
                crate::net::parse_interface(text, family).map(|n| n.to_string())
            };
            canonical.map(|t| Input::Value(Value::Text(t))).map_err(msg)
        }
        Kind::Mac => match raw.as_str() {
            Some(text) => crate::net::parse_mac(text)
                .map(|t| Input::Value(Value::Text(t)))
                .map_err(msg),
            None => Err(msg(format!("failed to detect EUI version: '{raw}'"))),
        },
        Kind::ForeignKey { .. } => parse_ref(raw).map(|r| Input::Ref(Some(r))),
        Kind::ManyToMany { .. } | Kind::Tags => {
            let Json::Array(items) = raw else {
                return Err(msg(format!(
                    "Expected a list of items but got type \"{}\".",
                    json_type_name(raw)
                )));
            };
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
                Ok(Input::Refs(refs))
            } else {
                Err(Json::Array(item_errors))
            }
        }
    }
}

fn is_uuid(s: &str) -> bool {
    let hex: String = s.chars().filter(|c| *c != '-').collect();
    hex.len() == 32 && hex.chars().all(|c| c.is_ascii_hexdigit())
}

fn parse_int(raw: &Json, min: i64, max: i64) -> Result<i64, Json> {
    let value = match raw {
        Json::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9e18)
                .map(|f| f as i64)
        }),
        Json::String(s) => s.trim().parse::<i64>().ok(),
        _ => None,
    };
    let Some(value) = value else {
        if raw.as_u64().is_some() {
            return Err(msg(format!(
                "Ensure this value is less than or equal to {max}."
            )));
        }
        return Err(msg("A valid integer is required."));
    };
    if value < min {
        return Err(msg(format!(
            "Ensure this value is greater than or equal to {min}."
        )));
    }
    if value > max {
        return Err(msg(format!(
            "Ensure this value is less than or equal to {max}."
        )));
    }
    Ok(value)
}

fn parse_text(
    field: &Field,
    raw: &Json,
    max_len: Option<usize>,
    format: TextFormat,
) -> Result<String, Json> {
    let text = match raw {
        Json::String(s) => s.trim().to_string(),
        Json::Number(n) => n.to_string(),
        _ => return Err(msg("Not a valid string.")),
    };
    if text.contains('\0') {
        return Err(msg("Null characters are not allowed."));
    }
    if text.is_empty() {
        if field.blank {
            return Ok(text);
        }
        return Err(msg("This field may not be blank."));
    }
    if let Some(max) = max_len {
        if text.chars().count() > max {
            return Err(msg(format!(
                "Ensure this field has no more than {max} characters."
            )));
        }
    }
    match format {
        TextFormat::Plain | TextFormat::Password => Ok(text),
        TextFormat::Slug => {
            if text
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
            {
                Ok(text)
            } else {
                Err(msg(
                    "Enter a valid \u{201c}slug\u{201d} consisting of letters, numbers, underscores or hyphens.",
                ))
            }
        }
        TextFormat::Email => {
            if is_email(&text) {
                Ok(text)
            } else {
                Err(msg("Enter a valid email address."))
            }
        }
        TextFormat::Color => {
            if text.len() == 6 && text.chars().all(|c| c.is_ascii_hexdigit()) {
                Ok(text.to_ascii_lowercase())
            } else {
                Err(msg("Enter a valid hexadecimal RGB color code."))
            }
        }
    }
}

/// A pragmatic e-mail check: one `@`, a local part, a dotted domain, no spaces.
fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.rsplit_once('@') else {
        return false;
    };
    !local.is_empty()
        && !local.contains('@')
        && !text.chars().any(char::is_whitespace)
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && domain.split('.').all(|label| !label.is_empty())
}

fn parse_bool(raw: &Json) -> Result<bool, Json> {
    match raw {
        Json::Bool(b) => Ok(*b),
        Json::Number(n) if n.as_i64() == Some(1) => Ok(true),
        Json::Number(n) if n.as_i64() == Some(0) => Ok(false),
        Json::String(s) => match s.to_ascii_lowercase().as_str() {
            "true" | "t" | "yes" | "y" | "on" | "1" => Ok(true),
            "false" | "f" | "no" | "n" | "off" | "0" => Ok(false),
            _ => Err(msg("Must be a valid boolean.")),
        },
        _ => Err(msg("Must be a valid boolean.")),
    }
}

/// A related object given as an id, a numeric string, or a dictionary of attributes.
fn parse_ref(raw: &Json) -> Result<Ref, Json> {
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
        Default::EmptyObject => Value::Json(serde_json::Value::Object(Map::new())),
        Default::EmptyArray => Value::Json(serde_json::Value::Array(Vec::new())),
        Default::Now => Value::Time(crate::value::now()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::AUTONOMOUS_SYSTEM as AS;
    use serde_json::json;

    fn errors(body: Json, mode: Mode) -> Json {
        parse(&AS, &body, mode).unwrap_err().into_json()
    }

    #[test]
    fn create_requires_asn_and_name() {
        assert_eq!(
            errors(json!({}), Mode::Create),
            json!({"asn": ["This field is required."], "name": ["This field is required."]})
        );
        assert!(parse(&AS, &json!({}), Mode::Partial).is_ok());
    }

    #[test]
    fn asn_range_is_checked() {
        assert_eq!(
            errors(json!({"asn": 0, "name": "x"}), Mode::Create),
            json!({"asn": ["Ensure this value is greater than or equal to 1."]})
        );
        assert_eq!(
            errors(json!({"asn": 4_294_967_296_i64, "name": "x"}), Mode::Create),
            json!({"asn": ["Ensure this value is less than or equal to 4294967295."]})
        );
        assert!(parse(
            &AS,
            &json!({"asn": 4_294_967_295_i64, "name": "x"}),
            Mode::Create
        )
        .is_ok());
        assert_eq!(
            errors(json!({"asn": "abc", "name": "x"}), Mode::Create),
            json!({"asn": ["A valid integer is required."]})
        );
    }

    #[test]
    fn null_characters_are_refused() {
        assert_eq!(
            errors(json!({"name": "a\u{0}b"}), Mode::Partial),
            json!({"name": ["Null characters are not allowed."]})
        );
    }

    #[test]
    fn types_and_nulls() {
        assert_eq!(
            errors(json!({"name": null}), Mode::Partial),
            json!({"name": ["This field may not be null."]})
        );
        assert_eq!(
            errors(json!({"affiliated": "maybe"}), Mode::Partial),
            json!({"affiliated": ["Must be a valid boolean."]})
        );
        assert_eq!(
            errors(json!({"local_context_data": [1]}), Mode::Partial),
            json!({"local_context_data": ["JSON data must be in object form. Example: {\"foo\": 123}"]})
        );
        assert_eq!(
            errors(json!({"name": ""}), Mode::Partial),
            json!({"name": ["This field may not be blank."]})
        );
        assert_eq!(
            errors(json!([]), Mode::Partial),
            json!({"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]})
        );
    }

    #[test]
    fn references_by_id_or_attributes() {
        let d = parse(
            &AS,
            &json!({"communities": [1, "2", {"slug": "x"}], "tags": [{"name": "a"}]}),
            Mode::Partial,
        )
        .unwrap();
        let i = AS.index_of("communities").unwrap();
        assert_eq!(
            d.inputs[i],
            Some(Input::Refs(vec![
                Ref::Id(1),
                Ref::Id(2),
                Ref::Attrs(json!({"slug": "x"}).as_object().unwrap().clone())
            ]))
        );
        assert_eq!(
            errors(json!({"communities": "x"}), Mode::Partial),
            json!({"communities": ["Expected a list of items but got type \"str\"."]})
        );
    }

    #[test]
    fn reference_names_are_aliases() {
        let d = parse(
            &AS,
            &json!({"irr_as_set_peeringdb_sync": false}),
            Mode::Partial,
        )
        .unwrap();
        let i = AS.index_of("irr_as_set_extdb_sync").unwrap();
        assert_eq!(d.inputs[i], Some(Input::Value(Value::Bool(false))));
    }

    #[test]
    fn read_only_fields_are_ignored() {
        let d = parse(
            &AS,
            &json!({"prefixes": {"a": 1}, "id": 5, "created": "x"}),
            Mode::Partial,
        )
        .unwrap();
        assert!(d.inputs.iter().all(Option::is_none));
    }

    #[test]
    fn email_addresses() {
        for ok in ["noc@example.net", "a.b+c@sub.example.org"] {
            assert!(is_email(ok), "{ok}");
        }
        for bad in [
            "",
            "noc",
            "noc@",
            "@example.net",
            "noc@example",
            "a b@example.net",
            "a@b@c.net",
            "a@.net",
        ] {
            assert!(!is_email(bad), "{bad}");
        }
    }

    #[test]
    fn display_of_as() {
        let values = apply(&AS, vec![None; AS.fields.len()], None);
        let mut r = Record { id: 1, values };
        r.values[AS.index_of("asn").unwrap()] = Value::Int(65001);
        r.values[AS.index_of("name").unwrap()] = Value::Text("Example".into());
        assert_eq!(r.display(&AS), "AS65001 - Example");
        assert_eq!(r.get(&AS, "irr_as_set_extdb_sync"), &Value::Bool(true));
        assert_eq!(r.get(&AS, "ipv6_max_prefixes"), &Value::Int(0));
    }
}
