//! OPTIONS: what an endpoint renders and parses, and, for a caller allowed to write, the
//! fields a write accepts with their types, limits and choices.

use peering_domain::names::FieldNames;
use peering_domain::permission::Action;
use peering_domain::spec::{Field, Kind, Shown, TextFormat};
use peering_domain::ResourceSpec;
use serde_json::{json, Map, Value as Json};

fn field_type(kind: &Kind) -> &'static str {
    match kind {
        Kind::Int { .. } | Kind::ReverseCount { .. } => "integer",
        Kind::Text {
            format: TextFormat::Slug,
            ..
        } => "slug",
        Kind::Text { .. }
        | Kind::Uuid
        | Kind::Mac
        | Kind::DisplayCopy
        | Kind::Derived {
            shown: Shown::Text, ..
        }
        | Kind::ContentType => "string",
        Kind::GenericObject { .. } | Kind::ContentTypes => "field",
        Kind::Ip { .. } => "string",
        Kind::Bool
        | Kind::Derived {
            shown: Shown::Bool, ..
        } => "boolean",
        Kind::Choice { .. } => "choice",
        Kind::Json { .. }
        | Kind::Derived {
            shown: Shown::Json, ..
        } => "json",
        Kind::Time => "datetime",
        Kind::ForeignKey { .. } => "nested object",
        Kind::ManyToMany { .. } | Kind::Tags => "field",
    }
}

/// Every field of the serializer, as DRF's `SimpleMetadata` describes them: those a write
/// takes with their limits and choices, and the read-only ones (`id`, `url`, `display`,
/// timestamps, counts) with their type and label only, in the representation's order.
fn describe_fields(spec: &ResourceSpec, names: FieldNames) -> Json {
    let mut fields = Map::new();
    let own_url = spec.field("url").is_some();
    let leading = [
        ("id", "integer", "ID"),
        ("url", "field", "Url"),
        ("display", "field", "Display"),
    ];
    for (name, kind, label) in leading {
        if name != "url" || !own_url {
            fields.insert(name.into(), read_only(kind, label, ""));
        }
    }
    for f in spec.fields.iter().filter(|f| f.writable() || f.shown()) {
        let d = if f.writable() {
            writable(f)
        } else {
            read_only(field_type(&f.kind), f.label, f.help)
        };
        fields.insert(names.of(f.name).into_owned(), d);
    }
    Json::Object(fields)
}

/// A field the API shows but no write takes.
fn read_only(kind: &str, label: &str, help: &str) -> Json {
    let mut d = Map::new();
    d.insert("type".into(), json!(kind));
    d.insert("required".into(), json!(false));
    d.insert("read_only".into(), json!(true));
    d.insert("label".into(), json!(label));
    if !help.is_empty() {
        d.insert("help_text".into(), json!(help));
    }
    Json::Object(d)
}

/// A field a write takes, with its limits and choices.
fn writable(f: &Field) -> Json {
    let mut d = Map::new();
    d.insert("type".into(), json!(field_type(&f.kind)));
    d.insert("required".into(), json!(f.required));
    d.insert("read_only".into(), json!(false));
    d.insert("label".into(), json!(f.label));
    if !f.help.is_empty() {
        d.insert("help_text".into(), json!(f.help));
    }
    match f.kind {
        Kind::Int { min, max } => {
            d.insert("min_value".into(), json!(min));
            d.insert("max_value".into(), json!(max));
        }
        Kind::Text {
            max_len: Some(n), ..
        } => {
            d.insert("max_length".into(), json!(n));
        }
        Kind::Choice { set, .. } => {
            let choices: Vec<Json> = set
                .choices
                .iter()
                .map(|(v, l)| json!({"value": v, "display_name": l}))
                .collect();
            d.insert("choices".into(), Json::Array(choices));
        }
        _ => {}
    }
    Json::Object(d)
}

/// The OPTIONS body of a collection (`detail == false`) or of one object: named after the
/// model, as the reference's viewsets are; on a collection, `POST` (create) and `PUT`
/// (bulk update) for callers who may do them (`may`), on one object `PUT`.
pub fn describe(
    spec: &'static ResourceSpec,
    may: impl Fn(Action) -> bool,
    detail: bool,
    names: FieldNames,
) -> Json {
    let mut body = Map::new();
    body.insert("name".into(), json!(spec.name));
    body.insert("description".into(), json!(""));
    body.insert("renders".into(), json!(["application/json", "text/html"]));
    body.insert(
        "parses".into(),
        json!([
            "application/json",
            "application/x-www-form-urlencoded",
            "multipart/form-data"
        ]),
    );
    let mut actions = Map::new();
    if spec.writes.edits() {
        if !detail && may(Action::Add) {
            actions.insert("POST".into(), describe_fields(spec, names));
        }
        if may(Action::Change) {
            actions.insert("PUT".into(), describe_fields(spec, names));
        }
    }
    if !actions.is_empty() {
        body.insert("actions".into(), Json::Object(actions));
    }
    Json::Object(body)
}
