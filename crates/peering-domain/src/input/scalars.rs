//! Validation of scalar values: integers, text with its formats, booleans, UUIDs, times.

use serde_json::Value as Json;

use super::msg;
use crate::spec::{Field, TextFormat};
use crate::value::Value;

pub(super) fn parse_time(raw: &Json) -> Result<Value, Json> {
    raw.as_str()
        .and_then(|t| chrono::DateTime::parse_from_rfc3339(t.trim()).ok())
        .map(|t| {
            let micros = crate::value::time_to_micros(t.with_timezone(&chrono::Utc));
            Value::Time(crate::value::micros_to_time(micros))
        })
        .ok_or_else(|| {
            msg("Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].")
        })
}

pub(super) fn is_uuid(s: &str) -> bool {
    let hex: String = s.chars().filter(|c| *c != '-').collect();
    hex.len() == 32 && hex.chars().all(|c| c.is_ascii_hexdigit())
}

pub(super) fn parse_int(raw: &Json, min: i64, max: i64) -> Result<i64, Json> {
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

pub(super) fn parse_text(
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
pub(super) fn is_email(text: &str) -> bool {
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

pub(super) fn parse_bool(raw: &Json) -> Result<bool, Json> {
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
