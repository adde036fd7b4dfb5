//! A stored object: its id and one value per declared field.

use crate::spec::ResourceSpec;
use crate::value::Value;

/// An object of some resource; `values[i]` belongs to `spec.fields[i]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub id: i64,
    pub values: Vec<Value>,
}

impl Record {
    pub fn get<'a>(&'a self, spec: &ResourceSpec, name: &str) -> &'a Value {
        spec.index_of(name)
            .and_then(|i| self.values.get(i))
            .unwrap_or(&Value::Null)
    }

    pub fn text<'a>(&'a self, spec: &ResourceSpec, name: &str) -> &'a str {
        self.get(spec, name).as_text().unwrap_or("")
    }

    pub fn int(&self, spec: &ResourceSpec, name: &str) -> i64 {
        self.get(spec, name).as_int().unwrap_or(0)
    }

    pub fn display(&self, spec: &ResourceSpec) -> String {
        (spec.display)(spec, self)
    }
}
