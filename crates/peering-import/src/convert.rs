//! An object as the source's API shows it, turned into what a creation takes: related
//! objects by id (ids are kept, so they name the same objects here), choices by value,
//! fields under either spelling (`*_peeringdb_*` or `*_extdb_*`), read-only ones left out
//! but the times, which the import keeps.

use peering_domain::input::{parse, Draft, Input, Mode};
use peering_domain::names::to_reference;
use peering_domain::{Kind, ResourceSpec, Value};
use peering_store::ImportedObject;

use crate::Admit;
use serde_json::{Map, Value as Json};

/// A stored password that no password matches (not a hash).
const UNUSABLE_PASSWORD: &str = "!";

/// The id of a related object shown nested (or already as an id).
fn id_of(value: &Json) -> Json {
    match value {
        Json::Object(o) => o.get("id").cloned().unwrap_or(Json::Null),
        other => other.clone(),
    }
}

/// A shown value as a creation takes it.
fn as_input(kind: Kind, value: &Json) -> Json {
    match kind {
        Kind::ForeignKey { .. } => id_of(value),
        Kind::ManyToMany { .. } | Kind::Tags => match value {
            Json::Array(items) => Json::Array(items.iter().map(id_of).collect()),
            other => other.clone(),
        },
        Kind::Choice { .. } => match value {
            Json::Object(o) => o.get("value").cloned().unwrap_or(Json::Null),
            other => other.clone(),
        },
        _ => value.clone(),
    }
}

/// Flags the API shows only in later releases and peeringd keeps without showing (an
/// autonomous system's `name_peeringdb_sync`): taken as they are.
fn kept_hidden(spec: &ResourceSpec, object: &Json, draft: &mut Draft) {
    for (i, field) in spec.fields.iter().enumerate() {
        if !field.hidden || !matches!(field.kind, Kind::Bool) {
            continue;
        }
        let shown = object
            .get(field.name)
            .or_else(|| object.get(to_reference(field.name).as_ref()));
        if let Some(flag) = shown.and_then(Json::as_bool) {
            draft.inputs[i] = Some(Input::Value(Value::Bool(flag)));
        }
    }
}

/// Documents jobs store and no write gives (an autonomous system's `prefixes` and
/// `as_list` from the IRR, an exchange's PeeringDB prefixes): taken as shown, so that the
/// import need not ask the IRR or PeeringDB again; the write rules check them as any value.
fn kept_refreshed(spec: &ResourceSpec, object: &Json, draft: &mut Draft) {
    for (i, field) in spec.fields.iter().enumerate() {
        let refreshed = field.read_only && field.is_column() && !field.hidden;
        if !refreshed || !matches!(field.kind, Kind::Json { .. }) {
            continue;
        }
        let shown = object
            .get(field.name)
            .or_else(|| object.get(to_reference(field.name).as_ref()));
        match shown {
            Some(Json::Null) if field.nullable => {
                draft.inputs[i] = Some(Input::Value(Value::Null));
            }
            Some(Json::Null) | None => {}
            Some(shown) => draft.inputs[i] = Some(Input::Value(Value::json(shown.clone()))),
        }
    }
}

fn time_of(object: &Json, name: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    let text = object.get(name)?.as_str()?;
    chrono::DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.with_timezone(&chrono::Utc))
}

/// The object to create, admitted by the write rules, or why it cannot be.
pub fn imported(
    spec: &'static ResourceSpec,
    object: &Json,
    admit: Admit<'_>,
) -> Result<ImportedObject, String> {
    let Some(id) = object.get("id").and_then(Json::as_i64) else {
        return Err(format!("without an id: {object}"));
    };
    let mut input = Map::new();
    for field in spec.fields.iter().filter(|f| f.writable()) {
        let shown = object
            .get(field.name)
            .or_else(|| object.get(to_reference(field.name).as_ref()));
        if let Some(value) = shown {
            input.insert(field.name.to_string(), as_input(field.kind, value));
        }
    }
    // An API never gives a password: the account comes without a usable one ("!" matches
    // no password), to be set with `peeringd user set-password`.
    let password = spec
        .fields
        .iter()
        .position(|f| f.name == "password" && f.write_only);
    if password.is_some() {
        input.insert("password".into(), Json::String(UNUSABLE_PASSWORD.into()));
    }
    let mut draft = parse(spec, &Json::Object(input), Mode::Create)
        .map_err(|errors| format!("#{id}: {}", errors.into_json()))?;
    kept_hidden(spec, object, &mut draft);
    kept_refreshed(spec, object, &mut draft);
    // The marker is no password to check or hash, but what the store keeps for none: out
    // of the draft while the rules run.
    let unusable = password.map(|at| (at, draft.inputs[at].take()));
    admit(spec, &mut draft).map_err(|e| match e {
        peering_store::Error::Invalid { errors, .. } => format!("#{id}: {}", errors.into_json()),
        other => format!("#{id}: {other}"),
    })?;
    if let Some((at, marker)) = unusable {
        draft.inputs[at] = marker;
    }
    let times = spec
        .fields
        .iter()
        .filter(|f| matches!(f.kind, Kind::Time) && f.read_only)
        .filter_map(|f| Some((f.name, time_of(object, f.name)?)))
        .collect();
    Ok(ImportedObject { id, draft, times })
}
