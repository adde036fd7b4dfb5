//! Swagger 2.0 schemas (paperclip's `DefaultSchemaRaw`) of every form of a resource and of
//! the shared bodies (`Detail`, `ValidationError`, `BadRequest`, `ObjectId`).

use paperclip::v2::models::{DataType, DataTypeFormat, DefaultSchemaRaw, Either};
use peering_domain::choices::ChoiceSet;
use peering_domain::resources::TAG;
use peering_domain::spec::{ChoiceRender, Kind, Shown};
use peering_domain::ResourceSpec;

use super::forms::{Form, Member};

pub(super) fn typed(data_type: DataType, format: Option<DataTypeFormat>) -> DefaultSchemaRaw {
    DefaultSchemaRaw {
        data_type: Some(data_type),
        format,
        ..DefaultSchemaRaw::default()
    }
}

pub(super) fn id() -> DefaultSchemaRaw {
    typed(DataType::Integer, Some(DataTypeFormat::Int64))
}

pub(super) fn string() -> DefaultSchemaRaw {
    typed(DataType::String, None)
}

/// A Swagger 2.0 reference; the conversion rewrites it to `#/components/schemas/`.
pub(super) fn reference(name: &str) -> DefaultSchemaRaw {
    DefaultSchemaRaw {
        reference: Some(format!("#/definitions/{name}")),
        ..DefaultSchemaRaw::default()
    }
}

pub(super) fn array(items: DefaultSchemaRaw) -> DefaultSchemaRaw {
    DefaultSchemaRaw {
        items: Some(Box::new(items)),
        ..typed(DataType::Array, None)
    }
}

pub(super) fn object(
    properties: &[(&str, DefaultSchemaRaw)],
    all_required: bool,
) -> DefaultSchemaRaw {
    let mut schema = typed(DataType::Object, None);
    for (name, property) in properties {
        schema
            .properties
            .insert((*name).into(), Box::new(property.clone()));
        if all_required {
            schema.required.insert((*name).into());
        }
    }
    schema
}

fn with_enum(mut schema: DefaultSchemaRaw, values: Vec<serde_json::Value>) -> DefaultSchemaRaw {
    schema.enum_ = values;
    schema
}

/// A choice as its raw value: a string, or an integer for `RawInt`.
fn choice_value(set: &ChoiceSet, render: ChoiceRender) -> DefaultSchemaRaw {
    match render {
        ChoiceRender::RawInt => with_enum(
            id(),
            set.values
                .iter()
                .filter_map(|v| v.parse::<i64>().ok())
                .map(Into::into)
                .collect(),
        ),
        _ => with_enum(string(), set.values.iter().map(|v| (*v).into()).collect()),
    }
}

/// `{"value": …, "label": …}`.
fn labelled_choice(set: &ChoiceSet) -> DefaultSchemaRaw {
    let labels = set.choices.iter().map(|(_, l)| (*l).into()).collect();
    object(
        &[
            ("value", choice_value(set, ChoiceRender::Raw)),
            ("label", with_enum(string(), labels)),
        ],
        true,
    )
}

fn nested(target: &ResourceSpec) -> DefaultSchemaRaw {
    reference(&Form::Nested.name(target))
}

/// A field's value as read (`write == false`) or as written: relations are read as nested
/// objects and written as ids (or attribute objects, see the description).
fn kind_schema(kind: &Kind, write: bool) -> DefaultSchemaRaw {
    match *kind {
        Kind::Int { .. } | Kind::ReverseCount { .. } => id(),
        Kind::Text { .. }
        | Kind::Ip { .. }
        | Kind::Mac
        | Kind::DisplayCopy
        | Kind::Derived {
            shown: Shown::Text, ..
        }
        | Kind::ContentType => string(),
        // The nested form of any resource: an object with at least `id`, `url`, `display`.
        Kind::GenericObject { .. } => typed(DataType::Object, None),
        Kind::ContentTypes => array(string()),
        Kind::Uuid => typed(DataType::String, Some(DataTypeFormat::Uuid)),
        Kind::Bool
        | Kind::Derived {
            shown: Shown::Bool, ..
        } => typed(DataType::Boolean, None),
        Kind::Time => typed(DataType::String, Some(DataTypeFormat::DateTime)),
        Kind::Json { object_only: true } => typed(DataType::Object, None),
        // Any JSON value; Swagger 2.0 cannot say so, `refine` does.
        Kind::Json { object_only: false }
        | Kind::Derived {
            shown: Shown::Json, ..
        } => DefaultSchemaRaw::default(),
        Kind::Choice {
            set,
            render: ChoiceRender::Object,
        } if !write => labelled_choice(set),
        Kind::Choice { set, render } => choice_value(set, render),
        Kind::ForeignKey { .. } if write => related_id(),
        Kind::ForeignKey { target, .. } => nested(target()),
        Kind::ManyToMany { .. } | Kind::Tags if write => array(related_id()),
        Kind::ManyToMany { target, .. } => array(nested(target())),
        Kind::Tags => array(nested(&TAG)),
    }
}

fn related_id() -> DefaultSchemaRaw {
    DefaultSchemaRaw {
        description: Some(
            "ID of the related object (a dictionary of its attributes is accepted too).".into(),
        ),
        ..id()
    }
}

fn member_schema(member: Member, write: bool) -> DefaultSchemaRaw {
    let mut schema = match member {
        Member::Id => id(),
        Member::Url | Member::DisplayUrl | Member::Display => string(),
        Member::Field(f) => kind_schema(&f.kind, write),
        Member::PlainChoice(f) => match f.kind {
            Kind::Choice { set, .. } => choice_value(set, ChoiceRender::Raw),
            _ => kind_schema(&f.kind, write),
        },
    };
    if let Member::Field(f) | Member::PlainChoice(f) = member {
        schema.title = Some(f.label.into());
        if !f.help.is_empty() {
            schema.description = Some(f.help.into());
        }
        if f.secret {
            schema.description = Some(
                "A secret: shown only to callers who may change the object, null to others; \
                 never kept in change records."
                    .into(),
            );
        }
    }
    schema
}

pub(super) fn form_schema(spec: &'static ResourceSpec, form: Form) -> DefaultSchemaRaw {
    let mut schema = typed(DataType::Object, None);
    for member in form.members(spec) {
        let name = member.name().to_string();
        if form.requires(member) {
            schema.required.insert(name.clone());
        }
        schema
            .properties
            .insert(name, Box::new(member_schema(member, form.is_write())));
    }
    schema
}

pub(super) fn paginated_schema(spec: &ResourceSpec) -> DefaultSchemaRaw {
    object(
        &[
            ("count", id()),
            ("next", string()),
            ("previous", string()),
            ("results", array(reference(&Form::Full.name(spec)))),
        ],
        true,
    )
}

pub(super) fn detail_schema() -> DefaultSchemaRaw {
    object(&[("detail", string())], true)
}

/// A placeholder: Swagger 2.0 has no `oneOf`, `refine` says what it is.
pub(super) fn bad_request_schema() -> DefaultSchemaRaw {
    DefaultSchemaRaw {
        description: Some(
            "Field errors; for a list body, a list of them (one per item); or a detail message."
                .into(),
        ),
        ..DefaultSchemaRaw::default()
    }
}

/// A placeholder like `BadRequest`: field errors of one object (or of query parameters) or
/// a detail message, never a list.
pub(super) fn object_bad_request_schema() -> DefaultSchemaRaw {
    DefaultSchemaRaw {
        description: Some("Field (or query parameter) errors, or a detail message.".into()),
        ..DefaultSchemaRaw::default()
    }
}

/// `{"field": ["message", …], …}`.
pub(super) fn validation_error_schema() -> DefaultSchemaRaw {
    DefaultSchemaRaw {
        description: Some("Messages per field (`non_field_errors` for the whole object).".into()),
        extra_props: Some(Either::Right(Box::new(array(string())))),
        ..typed(DataType::Object, None)
    }
}

/// The body of `/api/status/`.
pub(super) fn status_schema() -> DefaultSchemaRaw {
    let backends = vec!["sqlite".into(), "postgresql".into()];
    let database = object(
        &[
            ("backend", with_enum(string(), backends)),
            ("healthy", typed(DataType::Boolean, None)),
        ],
        true,
    );
    object(
        &[
            ("peering-manager-version", string()),
            ("peeringd-version", string()),
            ("api-version", string()),
            ("database", database),
        ],
        true,
    )
}

/// `{"name": URL, …}`: a root's body, one required URL per name (`refine` makes them URIs).
pub(super) fn links_schema<'a>(names: impl IntoIterator<Item = &'a str>) -> DefaultSchemaRaw {
    let properties: Vec<(&str, DefaultSchemaRaw)> =
        names.into_iter().map(|name| (name, string())).collect();
    object(&properties, true)
}

/// The body of OPTIONS (peering-api's `options.rs`): `actions` only for a caller allowed to
/// write, with the fields of a `POST` (collection) or `PUT` (detail).
pub(super) fn metadata_schema() -> DefaultSchemaRaw {
    let fields = DefaultSchemaRaw {
        description: Some(
            "Every field, by name: those a write accepts, and the read-only ones.".into(),
        ),
        extra_props: Some(Either::Right(Box::new(reference("FieldMetadata")))),
        ..typed(DataType::Object, None)
    };
    let mut schema = object(
        &[
            ("name", string()),
            ("description", string()),
            ("renders", array(string())),
            ("parses", array(string())),
        ],
        true,
    );
    schema.properties.insert(
        "actions".into(),
        Box::new(object(&[("POST", fields.clone()), ("PUT", fields)], false)),
    );
    schema
}

/// One field of OPTIONS' `actions`: the bounds, length and choices when it has them.
pub(super) fn field_metadata_schema() -> DefaultSchemaRaw {
    let choice = object(&[("value", string()), ("display_name", string())], true);
    let mut schema = object(
        &[
            ("type", string()),
            ("required", typed(DataType::Boolean, None)),
            ("read_only", typed(DataType::Boolean, None)),
            ("label", string()),
        ],
        true,
    );
    for (name, property) in [
        ("help_text", string()),
        ("min_value", id()),
        ("max_value", id()),
        ("max_length", id()),
        ("choices", array(choice)),
    ] {
        schema.properties.insert(name.into(), Box::new(property));
    }
    schema
}
