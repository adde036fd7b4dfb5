//! The source's change records, brought over as they were: ids, times, request ids, the
//! user's name (the user itself is not imported), the action and both snapshots.

use peering_domain::resources::OBJECT_CHANGE;
use peering_domain::{Kind, Record, Value};
use serde_json::Value as Json;

/// A change record as the source shows it, as a record of the copy; or why not.
pub fn record(object: &Json) -> Result<Record, String> {
    let spec = &OBJECT_CHANGE;
    let id = object["id"]
        .as_i64()
        .ok_or_else(|| format!("a change record without an id: {object}"))?;
    let mut values = vec![Value::Null; spec.fields.len()];
    for (i, field) in spec.fields.iter().enumerate() {
        let shown = &object[field.name];
        values[i] = match (field.name, field.kind) {
            // The users are not imported: the record keeps the name.
            ("user", _) => Value::Null,
            ("object_repr", _) => Value::Text(
                object["changed_object"]["display"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            ),
            (_, Kind::Time) => time(shown).ok_or_else(|| format!("#{id}: no time"))?,
            (_, Kind::Choice { .. }) => text(&shown["value"])
                .or_else(|| text(shown))
                .unwrap_or(Value::Null),
            (_, Kind::Int { .. }) => shown.as_i64().map_or(Value::Null, Value::Int),
            (_, Kind::Json { .. }) => match shown {
                Json::Null => Value::Null,
                other => Value::json(other.clone()),
            },
            (_, Kind::Text { .. } | Kind::Uuid) => {
                text(shown).unwrap_or(Value::Text(String::new()))
            }
            _ => Value::Null,
        };
    }
    Ok(Record { id, values })
}

fn text(value: &Json) -> Option<Value> {
    value.as_str().map(|s| Value::Text(s.to_string()))
}

fn time(value: &Json) -> Option<Value> {
    let parsed = chrono::DateTime::parse_from_rfc3339(value.as_str()?).ok()?;
    Some(Value::Time(parsed.with_timezone(&chrono::Utc)))
}
