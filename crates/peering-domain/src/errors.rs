//! Validation errors keyed by field, in the reference system's shape.

use serde_json::{Map, Value as Json};

/// Errors of one object: field name (or `__all__` / `non_field_errors`) to messages.
/// A message is usually a string; for list fields it may be a nested list, as the
/// reference renders errors of items in a `tags` list.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FieldErrors(pub Map<String, Json>);

impl FieldErrors {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn single(field: &str, message: impl Into<String>) -> Self {
        let mut e = Self::new();
        e.add(field, message);
        e
    }

    /// Adds a message to a field, keeping earlier ones.
    pub fn add(&mut self, field: &str, message: impl Into<String>) {
        let entry = self
            .0
            .entry(field.to_string())
            .or_insert_with(|| Json::Array(Vec::new()));
        if let Json::Array(list) = entry {
            list.push(Json::String(message.into()));
        }
    }

    /// Sets a field's errors to an arbitrary JSON shape (nested lists for list items).
    pub fn set_raw(&mut self, field: &str, value: Json) {
        self.0.insert(field.to_string(), value);
    }

    pub fn has(&self, field: &str) -> bool {
        self.0.contains_key(field)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn merge(&mut self, other: FieldErrors) {
        for (k, v) in other.0 {
            self.0.entry(k).or_insert(v);
        }
    }

    pub fn into_json(self) -> Json {
        Json::Object(self.0)
    }
}
