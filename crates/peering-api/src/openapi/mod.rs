//! Serving the OpenAPI document (`peering_openapi`, built apart from HTTP) at
//! `/api/schema/` and `/api/docs/`, with Swagger UI.

pub mod swagger_ui;

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use peering_openapi::{json_for, yaml_for};

use crate::error::ApiError;
use crate::respond::respond_text;

pub use peering_openapi::{document, SCHEMA};

/// The value of the last `name` parameter of the query, if any (a malformed query has none).
fn query_value(req: &HttpRequest, name: &str) -> Option<String> {
    let pairs: Vec<(String, String)> =
        serde_urlencoded::from_str(req.query_string()).unwrap_or_default();
    pairs
        .into_iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}

/// The document's text with its server at the base path (`PEERING_BASE_PATH`), so that
/// clients and Swagger UI call the API where the proxy serves it.
fn served_at(req: &HttpRequest, text: &str, yaml: bool) -> String {
    let base = crate::respond::base_path(req);
    if base.is_empty() {
        return text.to_owned();
    }
    let (root, based) = if yaml {
        ("servers:\n- url: /\n", format!("servers:\n- url: {base}\n"))
    } else {
        (
            r#""servers":[{"url":"/"}]"#,
            format!(r#""servers":[{{"url":"{base}"}}]"#),
        )
    };
    text.replacen(root, &based, 1)
}

/// `GET /api/schema/`: the document, as YAML for `?format=yaml`, as JSON otherwise.
pub async fn schema(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    if query_value(&req, "format").as_deref() == Some("yaml") {
        let text = yaml_for(crate::respond::field_names(&req))
            .ok_or_else(|| ApiError::Internal("no OpenAPI document".into()))?;
        return Ok(HttpResponse::Ok()
            .content_type("application/yaml")
            .body(served_at(&req, text, true)));
    }
    let text = json_for(crate::respond::field_names(&req))
        .ok_or_else(|| ApiError::Internal("no OpenAPI document".into()))?;
    Ok(respond_text(
        &req,
        StatusCode::OK,
        served_at(&req, text, false),
    ))
}

/// `GET /api/docs/`: the document for `?format=openapi` (where NetBox-style clients look),
/// otherwise a redirect to Swagger UI.
pub async fn docs(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    if query_value(&req, "format").as_deref() == Some("openapi") {
        let text = json_for(crate::respond::field_names(&req))
            .ok_or_else(|| ApiError::Internal("no OpenAPI document".into()))?;
        return Ok(respond_text(
            &req,
            StatusCode::OK,
            served_at(&req, text, false),
        ));
    }
    let location = format!("{}{}", crate::respond::base_path(&req), swagger_ui::UI);
    Ok(HttpResponse::Found()
        .insert_header((header::LOCATION, location))
        .finish())
}

/// Other methods than GET and HEAD on the document and `/api/docs/`.
async fn method_not_allowed(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::MethodNotAllowed(req.method().to_string()))
}

/// Registers the document, `/api/docs/` and Swagger UI. Public, whatever `LOGIN_REQUIRED`
/// says, like the reference. Must come before the generic `/api/{app}/…` routes, which
/// would otherwise take `schema` and `docs` for applications. HEAD is answered as GET
/// (without the body), other methods with a 405.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource(SCHEMA)
            .route(web::get().to(schema))
            .route(web::head().to(schema))
            .default_service(web::to(method_not_allowed)),
    )
    .service(
        web::resource("/api/docs/")
            .route(web::get().to(docs))
            .route(web::head().to(docs))
            .default_service(web::to(method_not_allowed)),
    )
    .configure(swagger_ui::configure);
}
