//! Representations of records: complete, brief and nested, as JSON.

use peering_domain::resources::TAG;
use peering_domain::spec::{ChoiceRender, Kind};
use peering_domain::{Record, ResourceSpec, Value};
use peering_store::Related;
use serde_json::{json, Map, Value as Json};

/// Everything rendering needs besides the record: related objects and the base URL.
pub struct Renderer<'a> {
    pub related: &'a Related,
    /// `scheme://host` of the request, so that URLs are absolute.
    pub base: &'a str,
}

pub fn timestamp(t: &chrono::DateTime<chrono::Utc>) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
}

impl Renderer<'_> {
    pub fn url(&self, spec: &ResourceSpec, id: i64) -> String {
        format!("{}/api/{}/{}/{}/", self.base, spec.app, spec.path, id)
    }

    /// The complete representation: every visible field, relations nested.
    pub fn full(&self, spec: &'static ResourceSpec, record: &Record) -> Json {
        let mut map = Map::with_capacity(spec.fields.len() + 3);
        map.insert("id".into(), json!(record.id));
        map.insert("url".into(), json!(self.url(spec, record.id)));
        map.insert("display".into(), json!(record.display(spec)));
        for (field, value) in spec.fields.iter().zip(&record.values) {
            if field.hidden {
                continue;
            }
            map.insert(field.name.into(), self.value(&field.kind, value));
        }
        Json::Object(map)
    }

    /// A representation limited to `names` (the brief or nested field set).
    pub fn subset(&self, spec: &'static ResourceSpec, record: &Record, names: &[&str]) -> Json {
        let mut map = Map::with_capacity(names.len());
        for name in names {
            let v = match *name {
                "id" => json!(record.id),
                "url" => json!(self.url(spec, record.id)),
                "display" => json!(record.display(spec)),
                other => match spec.index_of(other) {
                    Some(i) => self.value(&spec.fields[i].kind, &record.values[i]),
                    None => Json::Null,
                },
            };
            map.insert((*name).into(), v);
        }
        Json::Object(map)
    }

    pub fn brief(&self, spec: &'static ResourceSpec, record: &Record) -> Json {
        self.subset(spec, record, spec.brief)
    }

    fn nested(&self, spec: &'static ResourceSpec, id: i64) -> Json {
        match self.related.get(spec, id) {
            Some(r) => self.subset(spec, r, spec.nested),
            None => json!({"id": id, "url": self.url(spec, id)}),
        }
    }

    fn value(&self, kind: &Kind, value: &Value) -> Json {
        match (kind, value) {
            (_, Value::Null) => Json::Null,
            (Kind::Choice { set, render }, Value::Text(v)) => match render {
                ChoiceRender::Object => json!({"value": v, "label": set.label(v).unwrap_or(v)}),
                ChoiceRender::Raw => json!(v),
                ChoiceRender::RawInt => v.parse::<i64>().map(Json::from).unwrap_or(json!(v)),
            },
            (Kind::ForeignKey { target, .. }, Value::Int(id)) => self.nested(target(), *id),
            (Kind::ManyToMany { target, .. }, Value::Ids(ids)) => {
                Json::Array(ids.iter().map(|id| self.nested(target(), *id)).collect())
            }
            (Kind::Tags, Value::Ids(ids)) => {
                Json::Array(ids.iter().map(|id| self.nested(&TAG, *id)).collect())
            }
            (_, Value::Bool(b)) => json!(b),
            (_, Value::Int(i)) => json!(i),
            (_, Value::Text(t)) => json!(t),
            (_, Value::Json(j)) => j.clone(),
            (_, Value::Time(t)) => json!(timestamp(t)),
            (_, Value::Ids(ids)) => json!(ids),
        }
    }
}
