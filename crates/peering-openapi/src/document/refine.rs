//! OpenAPI 3 refinements of the converted document: what Swagger 2.0 has no words for, or
//! what paperclip's converter drops (`nullable`, `readOnly`, bounds, lengths, patterns, any
//! JSON value, property order, `oneOf`/`anyOf` bodies, other media types than JSON).

use openapiv3 as v3;
use peering_domain::resources::ALL;
use peering_domain::spec::{Field, Kind, TextFormat};
use peering_domain::ResourceSpec;

use super::forms::{
    app_root_name, collection_path, detail_path, paginated_name, Form, Member, API_ROOT,
};
use super::{apps, routed, Apps, ROOT, SCHEMA, STATUS};

fn component(name: &str) -> v3::ReferenceOr<v3::Schema> {
    v3::ReferenceOr::ref_(&format!("#/components/schemas/{name}"))
}

fn one_of(alternatives: Vec<v3::ReferenceOr<v3::Schema>>) -> v3::SchemaKind {
    v3::SchemaKind::OneOf {
        one_of: alternatives,
    }
}

pub(super) fn refine(doc: &mut v3::OpenAPI) {
    let apps = apps();
    let components = doc.components.get_or_insert_with(Default::default);
    refine_error_shapes(components);
    refine_root_links(components, &apps);
    if let Some(v3::ReferenceOr::Item(field_errors)) = components.schemas.get_mut("ValidationError")
    {
        refine_field_errors(field_errors);
    }
    refine_resource_schemas(components);
    refine_resource_paths(doc);
    refine_status_and_roots(doc, &apps);
    super::accounts::refine(doc);
    for (path, method, code) in super::actions::text_answers() {
        let op = match doc.paths.paths.get_mut(&path) {
            Some(v3::ReferenceOr::Item(item)) if method == "POST" => item.post.as_mut(),
            Some(v3::ReferenceOr::Item(item)) => item.get.as_mut(),
            _ => None,
        };
        only_media(op, code, "text/plain", string_schema());
    }
    // The document is YAML with `format=yaml`, the same object.
    let object = schema_of(v3::SchemaKind::Type(v3::Type::Object(Default::default())));
    add_media(get_operation(doc, SCHEMA), 200, "application/yaml", object);
}

/// The shapes of a 400: field errors (one object or a list of them), messages, a detail.
fn refine_error_shapes(components: &mut v3::Components) {
    let schemas = &mut components.schemas;
    let field_errors = component("ValidationError");
    if let Some(v3::ReferenceOr::Item(bad_request)) = schemas.get_mut("BadRequest") {
        bad_request.schema_kind = one_of(vec![
            field_errors.clone(),
            v3::ReferenceOr::Item(array_of(field_errors.clone())),
            component("Detail"),
        ]);
    }
    if let Some(v3::ReferenceOr::Item(bad_request)) = schemas.get_mut("MessagesBadRequest") {
        let messages = array_of(v3::ReferenceOr::Item(string_schema()));
        bad_request.schema_kind = one_of(vec![
            field_errors.clone(),
            v3::ReferenceOr::Item(messages),
            component("Detail"),
        ]);
    }
    if let Some(v3::ReferenceOr::Item(bad_request)) = schemas.get_mut("ObjectBadRequest") {
        bad_request.schema_kind = one_of(vec![field_errors, component("Detail")]);
    }
}

/// The links of the API root and of each application's root are URIs.
fn refine_root_links(components: &mut v3::Components, apps: &Apps) {
    let roots = apps.keys().map(|app| app_root_name(app));
    for root in roots.chain([API_ROOT.to_string()]) {
        if let Some(v3::ReferenceOr::Item(schema)) = components.schemas.get_mut(&root) {
            for link in object_type(schema)
                .into_iter()
                .flat_map(|o| o.properties.values_mut())
            {
                if let v3::ReferenceOr::Item(link) = link {
                    uri(link);
                }
            }
        }
    }
}

/// Every form of every resource, and its paginated list.
fn refine_resource_schemas(components: &mut v3::Components) {
    for spec in ALL {
        for form in std::iter::once(Form::Nested).chain(Form::ALL) {
            if let Some(v3::ReferenceOr::Item(schema)) =
                components.schemas.get_mut(&form.name(spec))
            {
                refine_form(schema, spec, form);
            }
        }
        if let Some(v3::ReferenceOr::Item(page)) = components.schemas.get_mut(&paginated_name(spec))
        {
            refine_page(page, spec);
        }
    }
}

/// A detail read is complete or brief; a creation takes one object or a list; a list may
/// be an export's text.
fn refine_resource_paths(doc: &mut v3::OpenAPI) {
    for spec in routed() {
        if let Some(v3::ReferenceOr::Item(item)) = doc.paths.paths.get_mut(&detail_path(spec)) {
            for media in response_media(item.get.as_mut(), 200) {
                media.schema = Some(v3::ReferenceOr::Item(full_or_brief(spec)));
            }
        }
        if let Some(v3::ReferenceOr::Item(item)) = doc.paths.paths.get_mut(&collection_path(spec)) {
            refine_create(item.post.as_mut());
            // `?export=<name>`: the list rendered by an export template.
            add_media(item.get.as_mut(), 200, "text/plain", string_schema());
        }
    }
}

/// `/api/status/`'s 503, and the roots' HTML pages.
fn refine_status_and_roots(doc: &mut v3::OpenAPI, apps: &Apps) {
    // A token that cannot be looked up makes `/api/status/` a 503 with a detail.
    for media in response_media(get_operation(doc, STATUS), 503) {
        media.schema = Some(v3::ReferenceOr::Item(schema_of(one_of(vec![
            component("Status"),
            component("Detail"),
        ]))));
    }
    // Roots are pages of links for a browser (`Accept: text/html`).
    let root_paths = apps.keys().map(|app| format!("/api/{app}/"));
    for path in root_paths.chain([ROOT.to_string()]) {
        add_media(get_operation(doc, &path), 200, "text/html", string_schema());
    }
}

fn get_operation<'a>(doc: &'a mut v3::OpenAPI, path: &str) -> Option<&'a mut v3::Operation> {
    match doc.paths.paths.get_mut(path) {
        Some(v3::ReferenceOr::Item(item)) => item.get.as_mut(),
        _ => None,
    }
}

/// Another media type of the response `code`, after JSON.
fn add_media(op: Option<&mut v3::Operation>, code: u16, media: &str, schema: v3::Schema) {
    let response = op.and_then(|op| op.responses.responses.get_mut(&v3::StatusCode::Code(code)));
    if let Some(v3::ReferenceOr::Item(response)) = response {
        let media_type = v3::MediaType {
            schema: Some(v3::ReferenceOr::Item(schema)),
            ..v3::MediaType::default()
        };
        response.content.insert(media.into(), media_type);
    }
}

/// The one media type of the response `code`.
fn only_media(op: Option<&mut v3::Operation>, code: u16, media: &str, schema: v3::Schema) {
    let response = op.and_then(|op| op.responses.responses.get_mut(&v3::StatusCode::Code(code)));
    if let Some(v3::ReferenceOr::Item(response)) = response {
        let media_type = v3::MediaType {
            schema: Some(v3::ReferenceOr::Item(schema)),
            ..v3::MediaType::default()
        };
        response.content.clear();
        response.content.insert(media.into(), media_type);
    }
}

fn string_schema() -> v3::Schema {
    schema_of(v3::SchemaKind::Type(v3::Type::String(Default::default())))
}

/// A field's messages: strings, or for a list field (`tags`, many-to-many relations), one
/// list of strings per item of the list sent (empty for a valid item), as in
/// `{"tags": [[], ["Related object not found using the provided numeric ID: 9"]]}`.
fn refine_field_errors(field_errors: &mut v3::Schema) {
    let Some(object) = object_type(field_errors) else {
        return;
    };
    let message = schema_of(one_of(vec![
        v3::ReferenceOr::Item(string_schema()),
        v3::ReferenceOr::Item(array_of(v3::ReferenceOr::Item(string_schema()))),
    ]));
    let messages = array_of(v3::ReferenceOr::Item(message));
    object.additional_properties = Some(v3::AdditionalProperties::Schema(Box::new(
        v3::ReferenceOr::Item(messages),
    )));
}

/// `next` and `previous` are nullable URIs; `results` hold either form.
fn refine_page(page: &mut v3::Schema, spec: &ResourceSpec) {
    let Some(page) = object_type(page) else {
        return;
    };
    for link in ["next", "previous"] {
        if let Some(property) = page.properties.get_mut(link) {
            if let v3::ReferenceOr::Item(schema) = property {
                uri(schema);
            }
            mark(property, true, false);
        }
    }
    if let Some(v3::ReferenceOr::Item(results)) = page.properties.get_mut("results") {
        if let v3::SchemaKind::Type(v3::Type::Array(array)) = &mut results.schema_kind {
            array.items = Some(v3::ReferenceOr::boxed_item(full_or_brief(spec)));
        }
    }
}

/// POST takes, and answers with, one object or a list of them.
fn refine_create(create: Option<&mut v3::Operation>) {
    let Some(create) = create else {
        return;
    };
    if let Some(v3::ReferenceOr::Item(body)) = create.request_body.as_mut() {
        body.content.values_mut().for_each(one_or_many);
    }
    response_media(Some(create), 201)
        .into_iter()
        .for_each(one_or_many);
}

/// The media types of an operation's response `code`.
fn response_media(op: Option<&mut v3::Operation>, code: u16) -> Vec<&mut v3::MediaType> {
    let response = op.and_then(|op| op.responses.responses.get_mut(&v3::StatusCode::Code(code)));
    match response {
        Some(v3::ReferenceOr::Item(response)) => response.content.values_mut().collect(),
        _ => Vec::new(),
    }
}

/// `brief` selects the form of a read, so a read is either form (`anyOf`: a complete
/// object is a valid brief one too).
fn full_or_brief(spec: &ResourceSpec) -> v3::Schema {
    let form =
        |form: Form| v3::ReferenceOr::ref_(&format!("#/components/schemas/{}", form.name(spec)));
    schema_of(v3::SchemaKind::AnyOf {
        any_of: vec![form(Form::Full), form(Form::Brief)],
    })
}

fn object_type(schema: &mut v3::Schema) -> Option<&mut v3::ObjectType> {
    match &mut schema.schema_kind {
        v3::SchemaKind::Type(v3::Type::Object(object)) => Some(object),
        _ => None,
    }
}

/// Members in the order the API writes them (Swagger 2.0 maps are sorted), with the
/// constraints of their fields.
fn refine_form(schema: &mut v3::Schema, spec: &'static ResourceSpec, form: Form) {
    let Some(object) = object_type(schema) else {
        return;
    };
    let members = form.members(spec);
    object.required = members
        .iter()
        .filter(|m| form.requires(**m))
        .map(|m| m.name().to_string())
        .collect();
    let mut sorted = std::mem::take(&mut object.properties);
    for member in members {
        if let Some(mut property) = sorted.shift_remove(member.name()) {
            refine_member(&mut property, member, form);
            object.properties.insert(member.name().into(), property);
        }
    }
}

fn refine_member(property: &mut v3::ReferenceOr<Box<v3::Schema>>, member: Member, form: Form) {
    let read = !form.is_write();
    let (nullable, read_only) = match member {
        // A secret reads as null to callers who may not change the object.
        Member::Field(field) | Member::PlainChoice(field) => (
            field.nullable || (read && field.secret),
            read && field.read_only,
        ),
        _ => (false, read),
    };
    if let v3::ReferenceOr::Item(schema) = property {
        match member {
            Member::Field(field) => constrain(schema, field),
            Member::Url | Member::DisplayUrl => uri(schema),
            _ => {}
        }
    }
    mark(property, nullable, read_only);
}

/// Bounds, lengths and patterns of a field; `{}` (any value) for untyped JSON.
fn constrain(schema: &mut v3::Schema, field: &Field) {
    match (&mut schema.schema_kind, field.kind) {
        (v3::SchemaKind::Type(v3::Type::Integer(t)), Kind::Int { min, max }) => {
            t.minimum = Some(min);
            t.maximum = Some(max);
        }
        (
            v3::SchemaKind::Type(v3::Type::String(t)),
            Kind::Text {
                max_len, format, ..
            },
        ) => {
            t.max_length = max_len;
            t.min_length = (!field.blank).then_some(1);
            let repeat = if field.blank { '*' } else { '+' };
            t.pattern = match format {
                TextFormat::Plain | TextFormat::Password => None,
                TextFormat::Slug => Some(format!("^[-\\w]{repeat}$")),
                TextFormat::Color => Some("^([0-9a-fA-F]{6})?$".into()),
                // `format: email` would refuse the empty string of a blank field, so that
                // one gets a pattern (the server's check: one `@`, a dotted domain, no
                // spaces) that also accepts nothing.
                TextFormat::Email if field.blank => Some(format!("^({EMAIL})?$")),
                TextFormat::Email => None,
            };
            if format == TextFormat::Email && !field.blank {
                t.format = v3::VariantOrUnknownOrEmpty::Unknown("email".into());
            }
        }
        (v3::SchemaKind::Type(v3::Type::String(t)), Kind::Choice { .. }) if blank_choice(field) => {
            t.enumeration.push(Some(String::new()));
        }
        (v3::SchemaKind::Type(v3::Type::Object(o)), Kind::Choice { .. }) => {
            // `{"value": …, "label": …}` in that order, as rendered.
            o.properties.sort_by(|a, _, b, _| b.cmp(a));
            o.required.sort_by(|a, b| b.cmp(a));
            if blank_choice(field) {
                // A blank value is rendered with a blank label.
                for property in o.properties.values_mut() {
                    if let v3::ReferenceOr::Item(schema) = property {
                        if let v3::SchemaKind::Type(v3::Type::String(t)) = &mut schema.schema_kind {
                            t.enumeration.push(Some(String::new()));
                        }
                    }
                }
            }
        }
        (_, Kind::Json { object_only: false }) => {
            schema.schema_kind = v3::SchemaKind::Any(v3::AnySchema::default());
        }
        _ => {}
    }
}

/// An address as the server checks it, without anchors.
const EMAIL: &str = r"[^@\s]+@[^@\s.]+(\.[^@\s.]+)+";

/// A choice whose default is blank accepts, and may hold, the empty string besides its
/// choices (as `peering_domain::input` allows).
fn blank_choice(field: &Field) -> bool {
    field.default == peering_domain::spec::Default::Text("")
}

pub(super) fn uri(schema: &mut v3::Schema) {
    if let v3::SchemaKind::Type(v3::Type::String(t)) = &mut schema.schema_kind {
        t.format = v3::VariantOrUnknownOrEmpty::Unknown("uri".into());
    }
}

/// Sets `nullable` and `readOnly`. A `$ref` can have no siblings in OpenAPI 3.0, so a
/// reference that needs them is wrapped in a one-element `allOf`.
pub(super) fn mark(
    property: &mut v3::ReferenceOr<Box<v3::Schema>>,
    nullable: bool,
    read_only: bool,
) {
    if !nullable && !read_only {
        return;
    }
    if let v3::ReferenceOr::Reference { reference } = property {
        let target = v3::ReferenceOr::Reference {
            reference: std::mem::take(reference),
        };
        *property = v3::ReferenceOr::boxed_item(schema_of(v3::SchemaKind::AllOf {
            all_of: vec![target],
        }));
    }
    if let v3::ReferenceOr::Item(schema) = property {
        schema.schema_data.nullable = nullable;
        schema.schema_data.read_only = read_only;
        // A nullable enum must list null to accept it.
        match &mut schema.schema_kind {
            v3::SchemaKind::Type(v3::Type::String(t)) if nullable && !t.enumeration.is_empty() => {
                t.enumeration.push(None)
            }
            v3::SchemaKind::Type(v3::Type::Integer(t)) if nullable && !t.enumeration.is_empty() => {
                t.enumeration.push(None)
            }
            _ => {}
        }
    }
}

fn schema_of(kind: v3::SchemaKind) -> v3::Schema {
    v3::Schema {
        schema_data: v3::SchemaData::default(),
        schema_kind: kind,
    }
}

/// `S` becomes `oneOf: [S, array of S]`.
fn one_or_many(media: &mut v3::MediaType) {
    if let Some(one) = media.schema.take() {
        let many = v3::ReferenceOr::Item(array_of(one.clone()));
        media.schema = Some(v3::ReferenceOr::Item(schema_of(v3::SchemaKind::OneOf {
            one_of: vec![one, many],
        })));
    }
}

fn array_of(items: v3::ReferenceOr<v3::Schema>) -> v3::Schema {
    let items = match items {
        v3::ReferenceOr::Reference { reference } => v3::ReferenceOr::Reference { reference },
        v3::ReferenceOr::Item(schema) => v3::ReferenceOr::boxed_item(schema),
    };
    schema_of(v3::SchemaKind::Type(v3::Type::Array(v3::ArrayType {
        items: Some(items),
        min_items: None,
        max_items: None,
        unique_items: false,
    })))
}
