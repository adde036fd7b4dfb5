//! An object's config context as 1.10's API shows it (`config_context`): the data of the
//! config contexts assigned to it, by weight then name, merged key by key (nested objects
//! merged, other values replaced, lists included), then its own local context data over
//! them; null when there is neither.

use super::common::ASSIGNED_CONTEXTS;
use crate::record::Record;
use crate::spec::ResourceSpec;
use crate::value::Value;

/// The `config_context` of a record whose `assigned_config_contexts` holds the assigned contexts'
/// data in order (a JSON array, or null for none).
pub fn derive(spec: &ResourceSpec, record: &Record) -> Value {
    let mut merged = serde_json::Value::Null;
    if let Value::Json(assigned) = record.get(spec, ASSIGNED_CONTEXTS.name) {
        for data in assigned.as_array().into_iter().flatten() {
            merge_into(&mut merged, data);
        }
    }
    if let Value::Json(local) = record.get(spec, "local_context_data") {
        merge_into(&mut merged, local);
    }
    match merged {
        serde_json::Value::Null => Value::Null,
        merged => Value::json(merged),
    }
}

/// `data` merged into `merged` when it is an object (other documents are skipped).
fn merge_into(merged: &mut serde_json::Value, data: &serde_json::Value) {
    if !data.is_object() {
        return;
    }
    if merged.is_null() {
        *merged = data.clone();
    } else {
        merge(merged, data);
    }
}

/// `b` merged into `a`: `b`'s keys win, nested objects are merged recursively.
fn merge(a: &mut serde_json::Value, b: &serde_json::Value) {
    match (a, b) {
        (serde_json::Value::Object(a), serde_json::Value::Object(b)) => {
            for (key, value) in b {
                match a.get_mut(key) {
                    Some(existing) if existing.is_object() && value.is_object() => {
                        merge(existing, value)
                    }
                    _ => {
                        a.insert(key.clone(), value.clone());
                    }
                }
            }
        }
        (a, b) => *a = b.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::AUTONOMOUS_SYSTEM;
    use serde_json::json;

    fn record(assigned: serde_json::Value, local: serde_json::Value) -> Record {
        let spec = &AUTONOMOUS_SYSTEM;
        let mut record = Record {
            id: 1,
            values: vec![Value::Null; spec.fields.len()],
        };
        let at = |name| spec.index_of(name).unwrap();
        for (name, value) in [
            (ASSIGNED_CONTEXTS.name, assigned),
            ("local_context_data", local),
        ] {
            if !value.is_null() {
                record.values[at(name)] = Value::json(value);
            }
        }
        record
    }

    #[test]
    fn contexts_merge_in_order_then_the_local_data_over_them() {
        let r = record(
            json!([{"a": 1, "n": {"x": 1, "y": 1}, "l": [1]}, {"a": 2, "n": {"y": 2}, "l": [2]}]),
            json!({"b": 3, "n": {"z": 3}}),
        );
        assert_eq!(
            derive(&AUTONOMOUS_SYSTEM, &r),
            Value::json(json!({"a": 2, "b": 3, "n": {"x": 1, "y": 2, "z": 3}, "l": [2]}))
        );
        assert_eq!(
            derive(&AUTONOMOUS_SYSTEM, &record(json!(null), json!(null))),
            Value::Null
        );
        assert_eq!(
            derive(&AUTONOMOUS_SYSTEM, &record(json!(null), json!({"k": 1}))),
            Value::json(json!({"k": 1}))
        );
    }
}
