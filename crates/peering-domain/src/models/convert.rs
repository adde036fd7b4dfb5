//! What every typed model offers: its declaration, validation by the server's rules, and
//! conversion to and from [`Record`].

use std::collections::HashMap;
use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value as Json;

use crate::errors::FieldErrors;
use crate::input::{self, Input, Mode, Ref};
use crate::record::Record;
use crate::spec::{ChoiceRender, Kind, NoRelated, RelatedLookup, ResourceSpec};
use crate::value::{Iso8601, Value};

/// An object as the API shows it.
pub trait Model: Serialize + DeserializeOwned + Clone + Debug + Send + Sync + 'static {
    /// Its brief form (`?brief=true`).
    type Brief: Serialize + DeserializeOwned + Clone + Debug + Send + Sync + 'static;

    /// The filters of its lists.
    type Filters;

    /// The declaration of its resource.
    fn spec() -> &'static ResourceSpec;

    /// Its filterable fields, each with the lookups its kind accepts.
    fn filters() -> Self::Filters;

    /// Its id.
    fn id(&self) -> i64;
}

/// A resource clients may create and change.
pub trait Editable: Model {
    /// The body of a create or a replace.
    type Writable: Writable;
    /// The body of a partial update: every field optional.
    type Patch: Serialize + DeserializeOwned + Clone + Debug + Default + Send + Sync + 'static;
}

/// The body of a create or replace, checked and converted by the server's own rules.
pub trait Writable: Serialize + DeserializeOwned + Clone + Debug + Send + Sync + 'static {
    /// The declaration of its resource.
    fn spec() -> &'static ResourceSpec;

    /// The checks the server makes without its database, with the server's messages: each
    /// field's type, range, length and choices, required fields, and the resource's rules
    /// across fields (those that need related objects are skipped: see
    /// [`Writable::validate_with`]). Uniqueness needs the database and is not checked.
    fn validate(&self) -> Result<(), FieldErrors> {
        self.validate_with(&NoRelated)
    }

    /// [`Writable::validate`], with the related objects that rules across objects read (a
    /// session's address must lie in its connection's network): give them in a
    /// [`RelatedRecords`].
    fn validate_with(&self, related: &dyn RelatedLookup) -> Result<(), FieldErrors> {
        let spec = Self::spec();
        let mut record = self.to_record()?;
        if let Some(derive) = spec.derive {
            derive(spec, &mut record, related);
        }
        match spec.validate.map(|rules| rules(spec, &record, related)) {
            Some(errors) if !errors.is_empty() => Err(errors),
            _ => Ok(()),
        }
    }

    /// The record a create with this body would store (id 0; absent fields take their
    /// defaults), or the field errors the server would answer.
    fn to_record(&self) -> Result<Record, FieldErrors> {
        let spec = Self::spec();
        let body = serde_json::to_value(self)
            .map_err(|e| FieldErrors::single("non_field_errors", e.to_string()))?;
        let draft = input::parse(spec, &body, Mode::Create)?;
        let resolved = draft.inputs.into_iter().map(|i| i.map(resolved)).collect();
        Ok(Record {
            id: 0,
            values: input::apply(spec, resolved, None),
        })
    }

    /// The body that would write `record` again (write-only fields, such as passwords,
    /// are left out).
    fn from_record(record: &Record) -> Result<Self, serde_json::Error> {
        serde_json::from_value(writable_json(Self::spec(), record))
    }
}

/// The value an input stands for once its references are ids (typed bodies only ever
/// name related objects by id).
fn resolved(input: Input) -> Value {
    let id = |r: Ref| match r {
        Ref::Id(id) => Some(id),
        Ref::Attrs(_) => None,
    };
    match input {
        Input::Value(value) => value,
        Input::Ref(r) => r.and_then(id).map_or(Value::Null, Value::Int),
        Input::Refs(refs) => Value::Ids(refs.into_iter().filter_map(id).collect()),
    }
}

/// The writable fields of `record` as a write body.
fn writable_json(spec: &ResourceSpec, record: &Record) -> Json {
    let body = spec
        .fields
        .iter()
        .zip(&record.values)
        .filter(|(field, _)| field.writable() && !field.write_only)
        .map(|(field, value)| (field.name.to_string(), field_json(&field.kind, value)))
        .collect();
    Json::Object(body)
}

fn field_json(kind: &Kind, value: &Value) -> Json {
    match (kind, value) {
        (
            Kind::Choice {
                render: ChoiceRender::RawInt,
                ..
            },
            Value::Text(text),
        ) => text
            .parse::<i64>()
            .map_or_else(|_| Json::from(text.as_str()), Json::from),
        (_, Value::Null) => Json::Null,
        (_, Value::Bool(b)) => Json::Bool(*b),
        (_, Value::Int(i)) => Json::from(*i),
        (_, Value::Text(text)) => Json::from(text.as_str()),
        (_, Value::Time(t)) => Json::String(Iso8601::micros(*t).to_string()),
        (_, Value::Json(json)) => (**json).clone(),
        (_, Value::Ids(ids)) => Json::from(ids.clone()),
    }
}

/// Related objects at hand, for the rules that read them ([`Writable::validate_with`]).
#[derive(Debug, Default)]
pub struct RelatedRecords {
    records: HashMap<(&'static str, i64), Record>,
}

impl RelatedRecords {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the object `id` of its resource, as `body` describes it.
    pub fn with<W: Writable>(mut self, id: i64, body: &W) -> Result<Self, FieldErrors> {
        let mut record = body.to_record()?;
        record.id = id;
        self.records.insert((W::spec().table, id), record);
        Ok(self)
    }
}

impl RelatedLookup for RelatedRecords {
    fn related(&self, spec: &ResourceSpec, id: i64) -> Option<&Record> {
        self.records.get(&(spec.table, id))
    }
}
