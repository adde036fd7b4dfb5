//! The OpenAPI 3 document of the REST API, built once at run time from the resource
//! declarations, and the routes that serve it and Swagger UI.
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
//! `Detail`, `ValidationError`, `BadRequest` (any 400 body), `ObjectId`, `Status` (the body
//! of `/api/status/`, the one path besides the resources').

mod forms;
mod parameters;
mod paths;
mod refine;
mod schemas;
pub mod swagger_ui;
#[cfg(test)]
mod tests;

use std::sync::OnceLock;

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use openapiv3 as v3;
use paperclip::v2::models::{DefaultApiRaw, Info, SecurityScheme};
use peering_domain::resources::ALL;
use peering_domain::ResourceSpec;

use self::forms::{collection_path, detail_path, paginated_name, Form};
use self::schemas::{
    bad_request_schema, detail_schema, form_schema, id, object, paginated_schema, status_schema,
    validation_error_schema,
};
use crate::error::ApiError;
use crate::respond::respond_text;

/// Where the document is served.
pub const SCHEMA: &str = "/api/schema/";

/// The status endpoint, described with the resources.
const STATUS: &str = "/api/status/";

/// Name of the security scheme: `Authorization: Token <40 hex digits>`.
const TOKEN_AUTH: &str = "tokenAuth";

/// The OpenAPI 3.0 document, as served at [`SCHEMA`]. Its only server is `/`, so clients
/// resolve paths (which start with `/api/`) against the host they fetched it from.
pub fn document() -> v3::OpenAPI {
    let mut doc = paperclip_core::v3::openapiv2_to_v3(api());
    refine::refine(&mut doc);
    doc
}

/// The Swagger 2.0 document built with paperclip's models, before conversion.
pub fn api() -> DefaultApiRaw {
    let mut api = DefaultApiRaw {
        info: Info {
            title: "peeringd API".into(),
            description: Some(format!(
                "Reads need a token only when `LOGIN_REQUIRED` is set; writes always do. \
                 Every response carries `API-Version: {}`.",
                crate::api_version()
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
    let definitions = &mut api.definitions;
    definitions.insert("Detail".into(), detail_schema());
    definitions.insert("BadRequest".into(), bad_request_schema());
    definitions.insert("ValidationError".into(), validation_error_schema());
    definitions.insert("ObjectId".into(), object(&[("id", id())], true));
    definitions.insert("Status".into(), status_schema());
    api.paths.insert(STATUS.into(), paths::status_item());
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
    api
}

fn routed() -> impl Iterator<Item = &'static ResourceSpec> {
    ALL.iter().copied().filter(|spec| crate::is_routed(spec))
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

/// `GET /api/schema/`: the document, always as JSON (`?format=yaml` included: there is no
/// YAML writer among the dependencies, and YAML parsers read JSON).
pub async fn schema(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let text = json().ok_or_else(|| ApiError::Internal("no OpenAPI document".into()))?;
    Ok(respond_text(&req, StatusCode::OK, text.to_owned()))
}

/// `GET /api/docs/`: the document for `?format=openapi` (where NetBox-style clients look),
/// otherwise a redirect to Swagger UI.
pub async fn docs(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let pairs: Vec<(String, String)> =
        serde_urlencoded::from_str(req.query_string()).unwrap_or_default();
    if pairs.iter().any(|(k, v)| k == "format" && v == "openapi") {
        return schema(req).await;
    }
    Ok(HttpResponse::Found()
        .insert_header((header::LOCATION, swagger_ui::UI))
        .finish())
}

/// Registers the document, `/api/docs/` and Swagger UI. Public, whatever `LOGIN_REQUIRED`
/// says, like the reference. Must come before the generic `/api/{app}/…` routes, which
/// would otherwise take `schema` and `docs` for applications.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route(SCHEMA, web::get().to(schema))
        .route("/api/docs/", web::get().to(docs))
        .configure(swagger_ui::configure);
}
