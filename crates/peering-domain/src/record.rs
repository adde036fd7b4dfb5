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
    /// The value of the field `name`. A name the resource does not declare is a mistake in
    /// the code asking (names are never taken from input): debug builds, which every test
    /// runs, stop on it; a release build reads it as null rather than fail a request.
    pub fn get<'a>(&'a self, spec: &ResourceSpec, name: &str) -> &'a Value {
        let index = spec.index_of(name);
        debug_assert!(index.is_some(), "{} declares no field {name:?}", spec.table);
        index
            .and_then(|i| self.values.get(i))
            .unwrap_or(&Value::Null)
    }

    pub fn text<'a>(&'a self, spec: &ResourceSpec, name: &str) -> &'a str {
        self.get(spec, name).as_text().unwrap_or("")
    }

    pub fn int(&self, spec: &ResourceSpec, name: &str) -> i64 {
        self.get(spec, name).as_int().unwrap_or(0)
    }

    /// The label of the object, for display rules that read only its own fields.
    pub fn display(&self, spec: &ResourceSpec) -> String {
        (spec.display)(spec, self, &crate::spec::NoRelated)
    }

    /// The label of the object, with the related objects its display rule reads.
    pub fn display_with(
        &self,
        spec: &ResourceSpec,
        related: &dyn crate::spec::RelatedLookup,
    ) -> String {
        (spec.display)(spec, self, related)
    }

    /// The resource and id its generic relation (`Kind::GenericObject`) names.
    pub fn generic_target(&self, spec: &ResourceSpec) -> Option<(&'static ResourceSpec, i64)> {
        let (type_field, id_field) = spec.fields.iter().find_map(|f| match f.kind {
            crate::spec::Kind::GenericObject {
                type_field,
                id_field,
                ..
            } => Some((type_field, id_field)),
            _ => None,
        })?;
        let target = crate::resources::by_content_type(self.text(spec, type_field))?;
        Some((target, self.get(spec, id_field).as_int()?))
    }

    /// The object a foreign key of this record points at, if loaded.
    pub fn follow<'a>(
        &self,
        spec: &ResourceSpec,
        field: &str,
        related: &'a dyn crate::spec::RelatedLookup,
    ) -> Option<&'a Record> {
        let target = match spec.field(field)?.kind {
            crate::spec::Kind::ForeignKey { target, .. } => target(),
            _ => return None,
        };
        related.related(target, self.get(spec, field).as_int()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::default_value;
    use crate::spec::NoRelated;

    fn blank(spec: &ResourceSpec) -> Record {
        Record {
            id: 1,
            values: spec.fields.iter().map(default_value).collect(),
        }
    }

    /// Every display rule, validation and derivation reads only fields its resource
    /// declares (a misspelt name stops the debug build's `get`).
    #[test]
    fn every_hook_names_declared_fields() {
        for spec in crate::resources::ALL {
            let mut record = blank(spec);
            let _ = record.display(spec);
            if let Some(validate) = spec.validate {
                let _ = validate(spec, &record, &NoRelated);
            }
            if let Some(derive) = spec.derive {
                derive(spec, &mut record, &NoRelated);
            }
        }
    }

    #[test]
    #[should_panic(expected = "declares no field")]
    fn an_undeclared_name_is_caught() {
        let spec = &crate::resources::AUTONOMOUS_SYSTEM;
        let _ = blank(spec).int(spec, "asm");
    }
}
