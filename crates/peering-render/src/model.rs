//! Stored objects as template values: attributes named as in the API representation,
//! relations followed to objects (`session.autonomous_system.asn`), choices as their plain
//! values and secrets shown only to callers who may change them.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use minijinja::value::{DynObject, Object, ObjectRepr, Value};
use peering_domain::resources::{AUTONOMOUS_SYSTEM, TAG};
use peering_domain::spec::{ChoiceRender, Kind};
use peering_domain::value::Iso8601;
use peering_domain::{Record, ResourceSpec, Value as Stored};

use crate::dataset::Dataset;

/// One stored object, inside a render's dataset.
#[derive(Clone)]
pub struct Model {
    data: Arc<Dataset>,
    spec: &'static ResourceSpec,
    index: usize,
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{} {}>", self.spec.model, self.id())
    }
}

/// The same object: same resource, same row.
impl PartialEq for Model {
    fn eq(&self, other: &Model) -> bool {
        self.spec.table == other.spec.table && self.index == other.index
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display())
    }
}

impl Model {
    /// The object of `spec` with this id, if it exists.
    pub fn find(data: &Arc<Dataset>, spec: &'static ResourceSpec, id: i64) -> Option<Model> {
        let index = data.table(spec)?.position(id)?;
        Some(Model {
            data: data.clone(),
            spec,
            index,
        })
    }

    /// The object at a position of its resource's table.
    pub(crate) fn at(data: &Arc<Dataset>, spec: &'static ResourceSpec, index: usize) -> Model {
        Model {
            data: data.clone(),
            spec,
            index,
        }
    }

    /// Every object of `spec`, in list order.
    pub fn all(data: &Arc<Dataset>, spec: &'static ResourceSpec) -> Vec<Model> {
        let count = data.table(spec).map_or(0, |t| t.records.len());
        (0..count).map(|i| Model::at(data, spec, i)).collect()
    }

    pub fn value(self) -> Value {
        Value::from_object(self)
    }

    pub fn data(&self) -> &Arc<Dataset> {
        &self.data
    }

    pub fn spec(&self) -> &'static ResourceSpec {
        self.spec
    }

    pub fn record(&self) -> &Record {
        let table = self
            .data
            .table(self.spec)
            .expect("a model exists only once its table is loaded");
        &table.records[self.index]
    }

    pub fn id(&self) -> i64 {
        self.record().id
    }

    /// The object's place in its resource's list order.
    pub fn position(&self) -> usize {
        self.index
    }

    pub fn is(&self, spec: &ResourceSpec) -> bool {
        self.spec.table == spec.table
    }

    pub fn text(&self, field: &str) -> &str {
        self.record().text(self.spec, field)
    }

    pub fn int(&self, field: &str) -> Option<i64> {
        self.record().get(self.spec, field).as_int()
    }

    pub fn has_field(&self, field: &str) -> bool {
        self.spec.field(field).is_some()
    }

    /// The object a foreign key points at.
    pub fn follow(&self, field: &str) -> Option<Model> {
        let target = match self.spec.field(field)?.kind {
            Kind::ForeignKey { target, .. } => target(),
            _ => return None,
        };
        Model::find(&self.data, target, self.int(field)?)
    }

    /// The objects of a many-to-many relation or the tags, in the stored order.
    pub fn list(&self, field: &str) -> Vec<Model> {
        let Some(target) = self.spec.field(field).and_then(|f| list_target(f.kind)) else {
            return Vec::new();
        };
        self.record()
            .get(self.spec, field)
            .as_ids()
            .iter()
            .filter_map(|id| Model::find(&self.data, target, *id))
            .collect()
    }

    /// Objects of `spec` whose foreign key `field` points at this object.
    pub fn referring(&self, spec: &'static ResourceSpec, field: &'static str) -> Vec<Model> {
        let Some(table) = self.data.table(spec) else {
            return Vec::new();
        };
        table
            .referring(field, self.id())
            .into_iter()
            .map(|i| Model::at(&self.data, spec, i))
            .collect()
    }

    pub fn display(&self) -> String {
        self.record().display_with(self.spec, self.data.as_ref())
    }

    /// An attribute as templates read it: a field of the API representation, `id`,
    /// `display`, or one of the few properties the reference's templates rely on. Fields
    /// naming the external database answer to both spellings, whatever answers of the API
    /// use (`exists_in_extdb` and the reference's `exists_in_peeringdb`): templates
    /// written for the reference render unchanged.
    pub fn attribute(&self, name: &str) -> Option<Value> {
        // Merged from what the render's audience may read, not as the API shows it.
        if name == "config_context" && self.has_field("local_context_data") {
            return Some(crate::model::json_value(crate::filters::config_context(
                self,
            )));
        }
        let field = self.spec.field(name).or_else(|| {
            self.spec
                .field(&peering_domain::names::from_reference(name))
        });
        if let Some(field) = field {
            // A password is accepted on write and never shown, templates included.
            return (!field.write_only).then(|| self.field_value(field));
        }
        match name {
            "id" | "pk" => Some(Value::from(self.id())),
            "display" => Some(Value::from(self.display())),
            "is_private" if self.is(&AUTONOMOUS_SYSTEM) => {
                Some(Value::from(is_private_asn(self.int("asn").unwrap_or(0))))
            }
            "enabled" if self.has_field("status") && self.has_field("ip_address") => {
                Some(Value::from(self.text("status") == "enabled"))
            }
            _ => None,
        }
    }

    fn field_value(&self, field: &'static peering_domain::Field) -> Value {
        if field.secret && !self.shows_secrets() {
            return Value::from(());
        }
        match field.kind {
            Kind::ForeignKey { .. } => self
                .follow(field.name)
                .map_or(Value::from(()), Model::value),
            Kind::ManyToMany { .. } | Kind::Tags => models(self.list(field.name)),
            Kind::DisplayCopy => Value::from(self.display()),
            Kind::Derived { derive, .. } => plain(&derive(self.spec, self.record())),
            Kind::GenericObject { .. } => self.generic_object(),
            // An integer choice (an address family) is a number, as the reference keeps it.
            Kind::Choice {
                render: ChoiceRender::RawInt,
                ..
            } => match self.record().get(self.spec, field.name) {
                Stored::Text(t) => t
                    .parse::<i64>()
                    .map_or_else(|_| Value::from(t.as_str()), Value::from),
                other => plain(other),
            },
            _ => plain(self.record().get(self.spec, field.name)),
        }
    }

    /// Whether this object's secret fields are shown to the render's audience.
    fn shows_secrets(&self) -> bool {
        self.data
            .audience()
            .shows_secrets_of(self.spec, self.record())
    }

    fn generic_object(&self) -> Value {
        self.record()
            .generic_target(self.spec)
            .and_then(|(spec, id)| Model::find(&self.data, spec, id))
            .map_or(Value::from(()), Model::value)
    }

    /// The object as JSON, as the reference serialises a model for `as_json`/`as_yaml`:
    /// fields by name, related objects by id, secrets only where shown.
    pub fn to_json(&self) -> serde_json::Value {
        let record = self.record();
        let mut map = serde_json::Map::new();
        map.insert("id".into(), self.id().into());
        let secrets_shown = self.shows_secrets();
        for (field, value) in self.spec.fields.iter().zip(&record.values) {
            let kept = field.is_column() || field.is_relation_list() || field.computed.is_some();
            if !kept || field.write_only {
                continue;
            }
            let shown = !field.secret || secrets_shown;
            let json = if shown {
                stored_json(value)
            } else {
                serde_json::Value::Null
            };
            map.insert(field.name.into(), json);
        }
        serde_json::Value::Object(map)
    }
}

fn list_target(kind: Kind) -> Option<&'static ResourceSpec> {
    match kind {
        Kind::ManyToMany { target, .. } => Some(target()),
        Kind::Tags => Some(&TAG),
        _ => None,
    }
}

/// Objects in their resource's list order, each once.
pub fn in_list_order(mut list: Vec<Model>) -> Vec<Model> {
    list.sort_by_key(Model::position);
    list.dedup_by_key(|m| m.position());
    list
}

/// A list of objects as a template value.
pub fn models(list: Vec<Model>) -> Value {
    Value::from(list.into_iter().map(Model::value).collect::<Vec<_>>())
}

/// A stored value that is not a relation, as templates see it.
pub fn plain(value: &Stored) -> Value {
    match value {
        Stored::Null => Value::from(()),
        Stored::Bool(b) => Value::from(*b),
        Stored::Int(i) => Value::from(*i),
        Stored::Text(s) => Value::from(s.as_str()),
        Stored::Time(t) => Value::from(Iso8601::micros(*t).to_string()),
        Stored::Json(j) => crate::model::json_value(j),
        Stored::Ids(ids) => Value::from(ids.clone()),
    }
}

/// A record of a resource templates do not follow (the PeeringDB copy's) as JSON: fields
/// by name, related objects by id.
pub fn record_json(spec: &ResourceSpec, record: &peering_domain::Record) -> serde_json::Value {
    let mut map = serde_json::Map::new();
    map.insert("id".into(), record.id.into());
    for (field, value) in spec.fields.iter().zip(&record.values) {
        if field.is_column() {
            map.insert(field.name.into(), stored_json(value));
        }
    }
    serde_json::Value::Object(map)
}

fn stored_json(value: &Stored) -> serde_json::Value {
    match value {
        Stored::Null => serde_json::Value::Null,
        Stored::Bool(b) => (*b).into(),
        Stored::Int(i) => (*i).into(),
        Stored::Text(s) => s.as_str().into(),
        Stored::Time(t) => Iso8601::micros(*t).to_string().into(),
        Stored::Json(j) => (**j).clone(),
        Stored::Ids(ids) => ids.clone().into(),
    }
}

/// The object behind a template value, if it is one.
pub fn model_of(value: &Value) -> Option<&Model> {
    value.downcast_object_ref::<Model>()
}

pub use peering_domain::peeringdb_rules::is_private_asn;

impl Object for Model {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Plain
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        self.attribute(key.as_str()?)
    }

    fn get_value_by_str(self: &Arc<Self>, key: &str) -> Option<Value> {
        self.attribute(key)
    }

    fn is_true(self: &Arc<Self>) -> bool {
        true
    }

    /// Two values are the same object when they name the same row, however reached.
    fn custom_cmp(self: &Arc<Self>, other: &DynObject) -> Option<Ordering> {
        let other = other.downcast_ref::<Model>()?;
        Some((self.spec.table, self.id()).cmp(&(other.spec.table, other.id())))
    }

    fn render(self: &Arc<Self>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display())
    }
}

/// JSON data as a template value.
pub fn json_value<T: serde::Serialize>(json: T) -> Value {
    Value::from(minijinja::value::Serde(json))
}
