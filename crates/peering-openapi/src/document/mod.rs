//! The OpenAPI 3 document of the REST API, built once at run time from the resource
//! declarations (peering-api serves it, with Swagger UI).
//!
//! Resources are data (`peering_domain::resources::ALL`) served by two generic routes, so no
//! handler can describe itself. This module walks the declarations instead:
//!
//! 1. [`api`] assembles a Swagger 2.0 document with paperclip's model types
//!    (`paperclip::v2::models`): paths and operations (`paths.rs`), parameters from the
//!    store's filter catalog (`parameters.rs`), schemas per form (`forms.rs`, `schemas.rs`);
//! 2. [`document`] converts it with paperclip's `openapiv2_to_v3`, then refines the OpenAPI 3
//!    result (`refine.rs`) where Swagger 2.0 or the converter has no words for what the API
//!    does: `nullable`, `readOnly`, bounds, lengths, patterns, untyped JSON, property order,
//!    and bodies that are one object or a list of them.
//!
//! Component names, per resource `N` (its `name` without spaces, e.g. `AutonomousSystem`):
//! `N` (complete form), `BriefN`, `NestedN`, `PaginatedNList`, and for writable resources
//! `WritableN` (POST, PUT), `PatchedWritableN` (PATCH), `BulkWritableN` and
//! `PatchedBulkWritableN` (items of bulk PUT and PATCH, with their `id`). Shared ones:
//! `Detail`, `ValidationError`, `BadRequest` (any 400 body), `ObjectBadRequest` (a 400 that
//! concerns one object or the query: no list), `ObjectId`, `Metadata` and `FieldMetadata`
//! (OPTIONS), `Status` (the body of `/api/status/`), `ApiRoot` (`/api/`) and per application
//! `A` (capitalised) `ARoot` (`/api/a/`).
//!
//! Paths: every route of the API but `/api/docs/` (an alias of `/api/schema/` for clients
//! that look there, else a redirect) and Swagger UI's files.
//!
//! The text is served as built here: peering-api only sets its server to the base path.

mod accounts;
mod actions;
mod aliases;
mod forms;
mod parameters;
mod paths;
mod refine;
mod schemas;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use openapiv3 as v3;
use paperclip::v2::models::{DefaultApiRaw, Info, SecurityScheme};
use peering_domain::names::FieldNames;
use peering_domain::resources::ALL;
use peering_domain::ResourceSpec;

use self::forms::{app_root_name, collection_path, detail_path, paginated_name, Form, API_ROOT};
use self::schemas::{
    bad_request_schema, detail_schema, field_metadata_schema, form_schema, id, links_schema,
    metadata_schema, object, object_bad_request_schema, paginated_schema, status_schema,
    validation_error_schema,
};
use crate::layout::Apps;

/// Where the document is served.
pub const SCHEMA: &str = "/api/schema/";

/// The status endpoint, described with the resources.
const STATUS: &str = "/api/status/";

/// The API root.
const ROOT: &str = "/api/";

/// Name of the security scheme: `Authorization: Token <40 hex digits>`.
const TOKEN_AUTH: &str = "tokenAuth";

/// The OpenAPI 3.0 document, as served at [`SCHEMA`]. Its only server is `/`, so clients
/// resolve paths (which start with `/api/`) against the host they fetched it from.
pub fn document() -> v3::OpenAPI {
    let mut doc = paperclip_core::v3::openapiv2_to_v3(api());
    refine::refine(&mut doc);
    aliases::describe(&mut doc);
    doc
}

/// The Swagger 2.0 document built with paperclip's models, before conversion.
pub fn api() -> DefaultApiRaw {
    let mut api = skeleton();
    let apps = apps();
    describe_common(&mut api, &apps);
    accounts::definitions(&mut api);
    accounts::paths(&mut api);
    actions::definitions(&mut api);
    actions::paths(&mut api);
    describe_app_roots(&mut api, &apps);
    describe_resources(&mut api);
    api
}

/// The document's information and its security scheme.
fn skeleton() -> DefaultApiRaw {
    let mut api = DefaultApiRaw {
        info: Info {
            title: "peeringd API".into(),
            description: Some(format!(
                "Reads need a token only when `LOGIN_REQUIRED` is set; writes always do. \
                 Every response carries `API-Version`: the reference release whose layout \
                 the request came through, `1.10` on the paths only it has or with \
                 `Accept: application/json; version=1.10`, else `1.8`. Links follow that \
                 layout. peeringd's own version is `{}`.",
                env!("CARGO_PKG_VERSION")
            )),
            version: env!("CARGO_PKG_VERSION").into(),
            ..Info::default()
        },
        base_path: Some("/".into()),
        ..DefaultApiRaw::default()
    };
    api.security_definitions.insert(
        TOKEN_AUTH.into(),
        SecurityScheme {
            type_: "apiKey".into(),
            in_: Some("header".into()),
            name: Some("Authorization".into()),
            description: Some("`Token <key>`, the key being 40 hexadecimal digits.".into()),
            ..SecurityScheme::default()
        },
    );
    api
}

/// The components every operation shares (errors, metadata), and the paths that are no
/// resource's: the status, the schema itself, the API root.
fn describe_common(api: &mut DefaultApiRaw, apps: &Apps) {
    let definitions = &mut api.definitions;
    definitions.insert("Detail".into(), detail_schema());
    definitions.insert("BadRequest".into(), bad_request_schema());
    definitions.insert("ObjectBadRequest".into(), object_bad_request_schema());
    definitions.insert("ValidationError".into(), validation_error_schema());
    definitions.insert("ObjectId".into(), object(&[("id", id())], true));
    definitions.insert("Status".into(), status_schema());
    definitions.insert("Metadata".into(), metadata_schema());
    definitions.insert("FieldMetadata".into(), field_metadata_schema());
    api.paths.insert(STATUS.into(), paths::status_item());
    api.paths.insert(SCHEMA.into(), paths::schema_item());
    let root = apps.keys().copied().chain(["status"]);
    definitions.insert(API_ROOT.into(), links_schema(root));
    api.paths.insert(ROOT.into(), paths::api_root_item());
}

/// Each application's root: the links it lists.
fn describe_app_roots(api: &mut DefaultApiRaw, apps: &Apps) {
    for (app, specs) in apps {
        let extra = crate::layout::extra_links(app).iter().copied();
        let links = links_schema(specs.iter().map(|(path, _)| *path).chain(extra));
        api.definitions.insert(app_root_name(app), links);
        api.paths
            .insert(format!("/api/{app}/"), paths::app_root_item(app));
    }
}

/// Each resource's forms, its paginated list, and its collection and detail paths.
fn describe_resources(api: &mut DefaultApiRaw) {
    let definitions = &mut api.definitions;
    for spec in ALL {
        // Nested forms of every resource, routed or not: other objects embed them.
        definitions.insert(Form::Nested.name(spec), form_schema(spec, Form::Nested));
    }
    for spec in routed() {
        for form in Form::ALL.into_iter().filter(|f| f.applies_to(spec)) {
            definitions.insert(form.name(spec), form_schema(spec, form));
        }
        definitions.insert(paginated_name(spec), paginated_schema(spec));
        api.paths
            .insert(collection_path(spec), paths::collection_item(spec));
        api.paths
            .insert(detail_path(spec), paths::detail_item(spec));
    }
}

fn routed() -> impl Iterator<Item = &'static ResourceSpec> {
    ALL.iter().copied()
}

/// The applications served, with their resources: what `/api/` and `/api/{app}/` list (the
/// conformance check of peeringd's tests compares every root response with the document).
fn apps() -> Apps {
    crate::layout::apps()
}

/// The document as JSON text, built on first use and kept: it depends only on the
/// declarations. `None` (logged once) if it cannot be serialised.
pub fn json() -> Option<&'static str> {
    static JSON: OnceLock<Option<String>> = OnceLock::new();
    JSON.get_or_init(|| {
        serde_json::to_string(&document())
            .map_err(|e| log::error!("cannot serialise the OpenAPI document: {e}"))
            .ok()
    })
    .as_deref()
}

/// The document as JSON text in a spelling of the external database's fields: the
/// reference's names (`*_peeringdb_*`) replace the spec's wherever they name a property, a
/// required member or a filter.
pub fn json_for(names: FieldNames) -> Option<&'static str> {
    static REFERENCE: OnceLock<Option<String>> = OnceLock::new();
    match names {
        FieldNames::Spec => json(),
        FieldNames::PeeringDb => REFERENCE
            .get_or_init(|| json().map(with_reference_names))
            .as_deref(),
    }
}

fn with_reference_names(text: &str) -> String {
    let mut renamed = BTreeMap::new();
    for field in ALL.iter().flat_map(|spec| spec.fields) {
        let reference = peering_domain::names::to_reference(field.name);
        if reference != field.name {
            renamed.insert(field.name, reference);
        }
    }
    renamed
        .into_iter()
        .fold(text.to_string(), |text, (spec, reference)| {
            text.replace(&format!("\"{spec}\""), &format!("\"{reference}\""))
        })
}

/// The document as YAML text (the same value as [`json_for`]), built on first use and kept.
pub fn yaml_for(names: FieldNames) -> Option<&'static str> {
    static YAML: [OnceLock<Option<String>>; 2] = [OnceLock::new(), OnceLock::new()];
    YAML[names as usize]
        .get_or_init(|| {
            let value: serde_json::Value = serde_json::from_str(json_for(names)?).ok()?;
            serde_yaml::to_string(&value)
                .map_err(|e| log::error!("cannot write the OpenAPI document as YAML: {e}"))
                .ok()
        })
        .as_deref()
}
