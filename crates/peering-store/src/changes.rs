//! Change records: one per created, updated or deleted object, with its request id.

use std::collections::HashMap;

use peering_domain::resources::TAG;
use peering_domain::spec::Kind;
use peering_domain::value::now;
use peering_domain::{Record, ResourceSpec, Value};
use serde_json::{Map, Value as Json};

use crate::connection::Db;
use crate::error::Error;
use crate::query::shallow_by_ids;
use crate::sql::{Bind, Sql};

/// Who changes what, and in which request.
#[derive(Debug, Clone)]
pub struct ChangeContext {
    pub request_id: String,
    pub user_id: Option<i64>,
    pub user_name: String,
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum Action {
    Create,
    Update,
    Delete,
}

impl Action {
    fn as_str(self) -> &'static str {
        match self {
            Action::Create => "create",
            Action::Update => "update",
            Action::Delete => "delete",
        }
    }
}

/// The stored form of an object in a change record: relations as ids, tags as names,
/// times with millisecond precision, as the reference's serializer writes them.
pub(crate) fn snapshot(
    db: &mut Db<'_>,
    tag_names: &mut HashMap<i64, String>,
    spec: &'static ResourceSpec,
    record: &Record,
) -> Result<Json, Error> {
    let mut map = Map::new();
    for (field, value) in spec.fields.iter().zip(&record.values) {
        let json = match (field.kind, value) {
            (Kind::ReverseCount { .. }, _) => continue,
            (Kind::Tags, Value::Ids(ids)) => {
                let missing: Vec<i64> = ids
                    .iter()
                    .filter(|i| !tag_names.contains_key(i))
                    .copied()
                    .collect();
                for t in shallow_by_ids(db, &TAG, &missing)? {
                    tag_names.insert(t.id, t.text(&TAG, "name").to_string());
                }
                let mut names: Vec<Json> = ids
                    .iter()
                    .filter_map(|i| tag_names.get(i))
                    .map(|n| Json::String(n.clone()))
                    .collect();
                names.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
                Json::Array(names)
            }
            (_, Value::Ids(ids)) => Json::Array(ids.iter().map(|i| Json::from(*i)).collect()),
            (_, Value::Null) => Json::Null,
            (_, Value::Bool(b)) => Json::Bool(*b),
            (_, Value::Int(i)) => Json::from(*i),
            (_, Value::Text(t)) => Json::String(t.clone()),
            (_, Value::Json(j)) => j.clone(),
            (_, Value::Time(t)) => Json::String(t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()),
        };
        map.insert(field.name.to_string(), json);
    }
    Ok(Json::Object(map))
}

pub(crate) fn record_change(
    db: &mut Db<'_>,
    ctx: &ChangeContext,
    spec: &'static ResourceSpec,
    record: &Record,
    action: Action,
    pre: Option<Json>,
    post: Option<Json>,
) -> Result<(), Error> {
    let repr: String = crate::query::display_of(db, spec, record)?
        .chars()
        .take(200)
        .collect();
    let content_type = spec.content_type();
    let json_bind = |j: Option<Json>| {
        j.map(|j| Bind::Text(j.to_string()))
            .unwrap_or(Bind::NullText)
    };
    let mut sql = Sql::new(
        "INSERT INTO object_changes (time, user_id, user_name, user_name_lc, request_id, action, \
         changed_object_type, changed_object_type_lc, changed_object_id, object_repr, object_repr_lc, \
         prechange_data, postchange_data) VALUES (",
    );
    let binds = [
        Bind::Int(peering_domain::value::time_to_micros(now())),
        ctx.user_id.map(Bind::Int).unwrap_or(Bind::NullInt),
        Bind::Text(ctx.user_name.clone()),
        Bind::Text(ctx.user_name.to_lowercase()),
        Bind::Text(ctx.request_id.clone()),
        Bind::Text(action.as_str().to_string()),
        Bind::Text(content_type.clone()),
        Bind::Text(content_type.to_lowercase()),
        Bind::Int(record.id),
        Bind::Text(repr.clone()),
        Bind::Text(repr.to_lowercase()),
        json_bind(pre),
        json_bind(post),
    ];
    for (i, b) in binds.into_iter().enumerate() {
        if i > 0 {
            sql.push(", ");
        }
        sql.bind(b);
    }
    sql.push(")");
    db.execute(&sql)?;
    Ok(())
}
