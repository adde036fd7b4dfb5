//! Conversions between field values, stored cells and bound parameters.

use peering_domain::spec::Kind;
use peering_domain::value::{micros_to_time, time_to_micros};
use peering_domain::Value;

use crate::sql::{Bind, Cell};

/// Converts a stored cell into a field value.
pub(crate) fn cell_to_value(kind: &Kind, cell: Cell) -> Value {
    if cell == Cell::Null {
        return Value::Null;
    }
    match kind {
        Kind::Int { .. } | Kind::ForeignKey { .. } | Kind::ReverseCount { .. } => {
            cell.int().map(Value::Int).unwrap_or(Value::Null)
        }
        Kind::Bool => cell.bool().map(Value::Bool).unwrap_or(Value::Null),
        Kind::Time => cell
            .int()
            .map(|us| Value::Time(micros_to_time(us)))
            .unwrap_or(Value::Null),
        Kind::Json { .. } | Kind::ContentTypes => cell
            .into_text()
            .and_then(|t| serde_json::from_str(&t).ok())
            .map(Value::json)
            .unwrap_or(Value::Null),
        Kind::Text { .. }
        | Kind::Choice { .. }
        | Kind::Uuid
        | Kind::Ip { .. }
        | Kind::Mac
        | Kind::ContentType => cell.into_text().map(Value::Text).unwrap_or(Value::Null),
        Kind::DisplayCopy | Kind::Derived { .. } | Kind::GenericObject { .. } => Value::Null,
        Kind::ManyToMany { .. } | Kind::Tags => Value::Ids(Vec::new()),
    }
}

/// What a column keeps of a value: the value that reading the column back gives.
pub(crate) fn stored_value(kind: &Kind, value: &Value) -> Value {
    let cell = match value_to_bind(kind, value) {
        Bind::Int(i) => Cell::Int(i),
        Bind::Text(t) => Cell::Text(t),
        Bind::Bool(b) => Cell::Bool(b),
        Bind::NullInt | Bind::NullText | Bind::NullBool => Cell::Null,
    };
    cell_to_value(kind, cell)
}

/// Converts a field value into a parameter for its column.
pub(crate) fn value_to_bind(kind: &Kind, value: &Value) -> Bind {
    match (kind, value) {
        (Kind::Bool, Value::Bool(b)) => Bind::Bool(*b),
        (Kind::Bool, _) => Bind::NullBool,
        (Kind::Time, Value::Time(t)) => Bind::Int(time_to_micros(*t)),
        (Kind::Int { .. } | Kind::ForeignKey { .. } | Kind::Time, Value::Int(i)) => Bind::Int(*i),
        (
            Kind::Int { .. } | Kind::ForeignKey { .. } | Kind::Time | Kind::ReverseCount { .. },
            _,
        ) => Bind::NullInt,
        (Kind::Json { .. } | Kind::ContentTypes, Value::Json(j)) => Bind::Text(j.to_string()),
        (_, Value::Text(t)) => Bind::Text(t.clone()),
        (_, Value::Int(i)) => Bind::Text(i.to_string()),
        _ => Bind::NullText,
    }
}

/// The lower-cased copy of a text value.
pub(crate) fn lower_bind(value: &Value) -> Bind {
    match value {
        Value::Text(t) => Bind::Text(t.to_lowercase()),
        _ => Bind::NullText,
    }
}
