//! Config contexts and their assignments, export templates, contact assignments
//! (reference 3.17, 3.19).

use super::common::{display_name, CREATED, UPDATED};
use super::data::{
    copy_data_file, AUTO_SYNCHRONISATION_ENABLED, DATA_SYNCHRONISED, SYNCED_DATA_FILE,
    SYNCED_DATA_PATH, SYNCED_DATA_READS, SYNCED_DATA_SOURCE,
};
use super::messaging::{CONTACT, CONTACT_ROLE};
use crate::errors::FieldErrors;
use crate::record::Record;
use crate::spec::{
    kinds, Default, ExtraFilter, Field, FilterSource, Kind, OnDelete, RelatedLookup, ResourceSpec,
    Search, Shown,
};

fn config_context() -> &'static ResourceSpec {
    &CONFIG_CONTEXT
}

fn contact() -> &'static ResourceSpec {
    &CONTACT
}

fn contact_role() -> &'static ResourceSpec {
    &CONTACT_ROLE
}

const CONTENT_TYPE: Field = Field::new("content_type", "Content type", Kind::ContentType)
    .required()
    .filter();
const OBJECT_ID: Field = Field::new("object_id", "Object ID", kinds::int(0, i64::MAX))
    .required()
    .filter();
const OBJECT: Field = Field::new(
    "object",
    "Object",
    Kind::GenericObject {
        type_field: "content_type",
        id_field: "object_id",
        cascade: true,
    },
)
.read_only();
const HIDDEN_CREATED: Field = CREATED.hidden();
const HIDDEN_UPDATED: Field = UPDATED.hidden();

/// The members of both the brief and the nested form.
const CONFIG_CONTEXT_MEMBERS: &[&str] = &["id", "url", "display", "name"];

pub static CONFIG_CONTEXT: ResourceSpec = ResourceSpec {
    app: "extras",
    model: "configcontext",
    path: "config-contexts",
    name: "Config Context",
    verbose_name: "config context",
    table: "config_contexts",
    fields: &[
        Field::new("name", "Name", kinds::text(100))
            .required()
            .unique()
            .filter(),
        Field::new("description", "Description", kinds::text(200))
            .default(Default::Text(""))
            .filter(),
        Field::new("is_active", "Active", Kind::Bool)
            .default(Default::Bool(true))
            .filter(),
        Field::new("data", "Data", kinds::JSON_OBJECT).required(),
        HIDDEN_CREATED,
        HIDDEN_UPDATED,
    ],
    ordering: &["name"],
    brief: CONFIG_CONTEXT_MEMBERS,
    nested: CONFIG_CONTEXT_MEMBERS,
    search: &[Search::Contains("name"), Search::Contains("description")],
    display: display_name,
    has_timestamps: false,
    ..ResourceSpec::DEFAULTS
};

/// The members of both the brief and the nested form.
const CONFIG_CONTEXT_ASSIGNMENT_MEMBERS: &[&str] = &["id", "url", "display", "config_context"];

pub static CONFIG_CONTEXT_ASSIGNMENT: ResourceSpec = ResourceSpec {
    app: "extras",
    model: "configcontextassignment",
    path: "config-context-assignments",
    name: "Config Context Assignment",
    verbose_name: "config context assignment",
    table: "config_context_assignments",
    fields: &[
        CONTENT_TYPE,
        OBJECT_ID,
        OBJECT,
        Field::new(
            "config_context",
            "Config context",
            kinds::fk(config_context, OnDelete::Protect),
        )
        .required()
        .filter(),
        Field::new("weight", "Weight", kinds::int(0, 32767))
            .default(Default::Int(1000))
            .filter(),
        CREATED,
        UPDATED,
    ],
    ordering: &["weight", "config_context.name"],
    brief: CONFIG_CONTEXT_ASSIGNMENT_MEMBERS,
    nested: CONFIG_CONTEXT_ASSIGNMENT_MEMBERS,
    display: |spec, r, related| {
        r.follow(spec, "config_context", related)
            .map(|c| c.text(&CONFIG_CONTEXT, "name").to_string())
            .unwrap_or_default()
    },
    reads: &["config_context", "object"],
    unique_together: &[(
        &["content_type", "object_id", "config_context"],
        "Config context assignment with this Content type, Object id and Config context already exists.",
    )],
    validate: Some(object_exists),
    ..ResourceSpec::DEFAULTS
};

/// The members of both the brief and the nested form.
const CONTACT_ASSIGNMENT_MEMBERS: &[&str] = &["id", "url", "display", "contact", "role"];

pub static CONTACT_ASSIGNMENT: ResourceSpec = ResourceSpec {
    app: "messaging",
    model: "contactassignment",
    path: "contact-assignments",
    name: "Contact Assignment",
    verbose_name: "contact assignment",
    table: "contact_assignments",
    fields: &[
        CONTENT_TYPE,
        OBJECT_ID,
        OBJECT,
        Field::new("contact", "Contact", kinds::fk(contact, OnDelete::Protect))
            .required()
            .filter(),
        Field::new("role", "Role", kinds::fk(contact_role, OnDelete::Protect))
            .required()
            .filter(),
        CREATED,
        UPDATED,
    ],
    ordering: &["contact.name"],
    brief: CONTACT_ASSIGNMENT_MEMBERS,
    nested: CONTACT_ASSIGNMENT_MEMBERS,
    display: |spec, r, related| {
        r.follow(spec, "contact", related)
            .map(|c| c.text(&CONTACT, "name").to_string())
            .unwrap_or_default()
    },
    reads: &["contact", "object"],
    unique_together: &[(
        &["content_type", "object_id", "contact", "role"],
        "Contact assignment with this Content type, Object id, Contact and Role already exists.",
    )],
    validate: Some(object_exists),
    extra_filters: &[ExtraFilter::related("role", "role.slug")],
    ..ResourceSpec::DEFAULTS
};

/// The members of both the brief and the nested form.
const EXPORT_TEMPLATE_MEMBERS: &[&str] = &["id", "url", "display", "name"];

pub static EXPORT_TEMPLATE: ResourceSpec = ResourceSpec {
    app: "extras",
    model: "exporttemplate",
    path: "export-templates",
    name: "Export Template",
    verbose_name: "export template",
    table: "export_templates",
    fields: &[
        Field::new("name", "Name", kinds::text(100))
            .required()
            .filter(),
        CONTENT_TYPE,
        Field::new("description", "Description", kinds::text(200))
            .default(Default::Text(""))
            .filter(),
        Field::new(
            "template",
            "Template",
            Kind::Text {
                max_len: None,
                ci: true,
                format: crate::spec::TextFormat::Plain,
            },
        )
        .required()
        .template(),
        Field::new("jinja2_trim", "Trim", Kind::Bool).default(Default::Bool(false)),
        Field::new("jinja2_lstrip", "Lstrip", Kind::Bool).default(Default::Bool(false)),
        HIDDEN_CREATED,
        HIDDEN_UPDATED,
        SYNCED_DATA_SOURCE,
        SYNCED_DATA_FILE,
        SYNCED_DATA_PATH,
        AUTO_SYNCHRONISATION_ENABLED,
        DATA_SYNCHRONISED,
    ],
    ordering: &["content_type", "name"],
    brief: EXPORT_TEMPLATE_MEMBERS,
    nested: EXPORT_TEMPLATE_MEMBERS,
    search: &[Search::Contains("name"), Search::Contains("description")],
    display: display_name,
    unique_together: &[(
        &["content_type", "name"],
        "Export template with this Content type and Name already exists.",
    )],
    validate: Some(|spec, r, _| {
        let mut errors = FieldErrors::new();
        if r.text(spec, "name").eq_ignore_ascii_case("table") {
            errors.add(
                "name",
                "\"table\" is a reserved name. Please choose a different name.",
            );
        }
        errors
    }),
    reads: SYNCED_DATA_READS,
    derive: Some(copy_data_file),
    has_timestamps: false,
    ..ResourceSpec::DEFAULTS
};

/// A generic relation must name an object that exists (the reference does not check).
fn object_exists(spec: &ResourceSpec, r: &Record, related: &dyn RelatedLookup) -> FieldErrors {
    let mut errors = FieldErrors::new();
    if let Some((target, id)) = r.generic_target(spec) {
        if related.related(target, id).is_none() {
            errors.add(
                "object_id",
                format!("No {} with ID {id} exists.", target.verbose_name),
            );
        }
    }
    errors
}

pub static WEBHOOK: ResourceSpec = ResourceSpec {
    app: "extras",
    model: "webhook",
    path: "webhooks",
    name: "Webhook",
    verbose_name: "webhook",
    table: "webhooks",
    fields: &[
        Field::new("content_types", "Content types", Kind::ContentTypes).required(),
        Field::new("name", "Name", kinds::text(100))
            .required()
            .unique()
            .filter(),
        Field::new("type_create", "On create", Kind::Bool)
            .default(Default::Bool(false))
            .filter(),
        Field::new("type_update", "On update", Kind::Bool)
            .default(Default::Bool(false))
            .filter(),
        Field::new("type_delete", "On delete", Kind::Bool)
            .default(Default::Bool(false))
            .filter(),
        // The URL, headers and body are templates, rendered for each delivery.
        Field::new("payload_url", "URL", kinds::text(512))
            .required()
            .template(),
        Field::new("enabled", "Enabled", Kind::Bool)
            .default(Default::Bool(true))
            .filter(),
        Field::new(
            "http_method",
            "HTTP method",
            Kind::Choice {
                set: &crate::choices::HTTP_METHOD,
                render: crate::spec::ChoiceRender::Raw,
            },
        )
        .default(Default::Text("POST"))
        .filter(),
        Field::new("http_content_type", "HTTP content type", kinds::text(128))
            .default(Default::Text("application/json"))
            .filter(),
        Field::new("additional_headers", "Additional headers", kinds::LONG_TEXT)
            .default(Default::Text(""))
            .template(),
        Field::new("body_template", "Body template", kinds::LONG_TEXT)
            .default(Default::Text(""))
            .template(),
        Field::new("secret", "Secret", kinds::plain_text(255))
            .secret()
            .default(Default::Text(""))
            .filter(),
        Field::new("conditions", "Conditions", kinds::JSON)
            .nullable()
            .default(Default::Null),
        Field::new("ssl_verification", "SSL verification", Kind::Bool)
            .default(Default::Bool(true))
            .filter(),
        Field::new("ca_file_path", "CA file path", kinds::plain_text(4096))
            .nullable()
            .default(Default::Null)
            .filter(),
        CREATED,
        UPDATED,
    ],
    ordering: &["name"],
    brief: &["id", "name", "url"],
    nested: &["id", "url", "display", "name"],
    display: display_name,
    unique_together: &[(
        &["type_create", "type_update", "type_delete", "payload_url"],
        "The fields type_create, type_update, type_delete, payload_url must make a unique set.",
    )],
    validate: Some(|spec, r, _| {
        let mut errors = FieldErrors::new();
        let on = |name| r.get(spec, name).as_bool() == Some(true);
        if !on("type_create") && !on("type_update") && !on("type_delete") {
            errors.add(
                "__all__",
                "At least one event type must be selected: create, update, and/or delete.",
            );
        }
        if !on("ssl_verification") && !r.get(spec, "ca_file_path").is_null() {
            errors.add(
                "ca_file_path",
                "Do not specify a CA certificate file if SSL verification is disabled.",
            );
        }
        errors
    }),
    ..ResourceSpec::DEFAULTS
};

/// An IX-API account; its `url` is the IX-API endpoint, shown instead of the API link.
/// The members of both the brief and the nested form.
const IXAPI_MEMBERS: &[&str] = &["id", "display", "name", "url"];

/// The account's `url`, under 1.10's name.
fn api_url(spec: &ResourceSpec, r: &Record) -> crate::value::Value {
    r.get(spec, "url").clone()
}

pub static IXAPI: ResourceSpec = ResourceSpec {
    app: "extras",
    model: "ixapi",
    path: "ix-api",
    name: "IX-API",
    verbose_name: "IX-API",
    table: "ixapi_accounts",
    fields: &[
        Field::new("name", "Name", kinds::text(100))
            .required()
            .filter(),
        // 1.10 renamed it `api_url` (its `url` is the object's link): written under either
        // name, shown under both.
        Field::new("url", "URL", kinds::plain_text(2000))
            .required()
            .written_as("api_url"),
        Field::new(
            "api_url",
            "API URL",
            Kind::Derived {
                derive: api_url,
                shown: Shown::Text,
            },
        )
        .read_only(),
        Field::new("api_key", "API key", kinds::plain_text(2000))
            .required()
            .secret()
            .filter(),
        Field::new("api_secret", "API secret", kinds::plain_text(2000))
            .required()
            .secret(),
        Field::new("identity", "Identity", kinds::plain_text(256)).required(),
        HIDDEN_CREATED,
        HIDDEN_UPDATED,
    ],
    ordering: &["name"],
    brief: IXAPI_MEMBERS,
    nested: IXAPI_MEMBERS,
    display: display_name,
    unique_together: &[(
        &["url", "api_key"],
        "IX-API with this URL and API key already exists.",
    )],
    // 1.10 names the endpoint's address `api_url`.
    extra_filters: &[ExtraFilter {
        param: "api_url",
        source: FilterSource::Column {
            column: "url",
            kind: kinds::plain_text(2000),
        },
    }],
    has_timestamps: false,
    ..ResourceSpec::DEFAULTS
};
