//! A [`DataSource`] kept in memory: for tools that render their own data, and for tests.

use std::collections::HashMap;

use peering_domain::{Record, ResourceSpec, Value};

use crate::source::{DataSource, StoredKind, StoredTemplate};

/// Objects and stored templates held in memory.
#[derive(Debug, Default, Clone)]
pub struct MemorySource {
    records: HashMap<&'static str, Vec<Record>>,
    templates: Vec<(StoredKind, i64, String, StoredTemplate)>,
}

impl MemorySource {
    pub fn new() -> MemorySource {
        MemorySource::default()
    }

    /// Adds an object of `spec`: the fields named get these values, the others null.
    /// Objects are listed in the order they were added.
    pub fn insert(&mut self, spec: &'static ResourceSpec, id: i64, fields: &[(&str, Value)]) {
        let mut values = vec![Value::Null; spec.fields.len()];
        for (name, value) in fields {
            if let Some(i) = spec.index_of(name) {
                values[i] = value.clone();
            }
        }
        self.records
            .entry(spec.table)
            .or_default()
            .push(Record { id, values });
    }

    /// Adds a stored template another template can include by id or name.
    pub fn insert_template(
        &mut self,
        kind: StoredKind,
        id: i64,
        name: &str,
        template: StoredTemplate,
    ) {
        self.templates.push((kind, id, name.to_string(), template));
    }
}

impl DataSource for MemorySource {
    fn all(&self, spec: &'static ResourceSpec) -> Result<Vec<Record>, String> {
        Ok(self.records.get(spec.table).cloned().unwrap_or_default())
    }

    fn template(
        &self,
        kind: StoredKind,
        identifier: &str,
    ) -> Result<Option<StoredTemplate>, String> {
        let by_id = identifier.parse::<i64>().ok();
        Ok(self
            .templates
            .iter()
            .find(|(k, id, name, _)| {
                *k == kind && (by_id.map_or(name == identifier, |wanted| *id == wanted))
            })
            .map(|(_, _, _, t)| t.clone()))
    }
}
