//! JSON responses, indented when the client asks for `Accept: application/json; indent=N`.

use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse};
use serde_json::Value as Json;

/// The indentation a client asked for in its `Accept` header, if any.
fn requested_indent(req: &HttpRequest) -> Option<usize> {
    let accept = req.headers().get("Accept")?.to_str().ok()?;
    accept.split(';').find_map(|part| {
        let (k, v) = part.trim().split_once('=')?;
        (k.trim() == "indent")
            .then(|| v.trim().parse::<usize>().ok())
            .flatten()
    })
}

/// Whether the client asked for indented JSON (which needs the whole answer at once).
pub fn indents(req: &HttpRequest) -> bool {
    requested_indent(req).is_some()
}

pub fn respond(req: &HttpRequest, status: StatusCode, body: &Json) -> HttpResponse {
    respond_text(req, status, body.to_string())
}

/// Sends JSON already written as text; re-indented only when the client asks for it.
pub fn respond_text(req: &HttpRequest, status: StatusCode, text: String) -> HttpResponse {
    respond_bytes(req, status, Bytes::from(text))
}

/// [`respond_text`] for a body already shared (a cached answer).
pub fn respond_bytes(req: &HttpRequest, status: StatusCode, body: Bytes) -> HttpResponse {
    let body = match requested_indent(req) {
        Some(n) => {
            let indent = " ".repeat(n.min(16));
            let mut out = Vec::new();
            let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
            let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
            let parsed: Result<Json, _> = serde_json::from_slice(&body);
            match parsed.map(|json| serde::Serialize::serialize(&json, &mut ser)) {
                Ok(Ok(())) => Bytes::from(out),
                _ => body,
            }
        }
        None => body,
    };
    HttpResponse::build(status)
        .content_type("application/json")
        .body(body)
}

/// `scheme://host` of the request, for absolute URLs.
/// The spelling of the external database's fields this server answers with.
pub fn field_names(req: &HttpRequest) -> peering_domain::names::FieldNames {
    req.app_data::<actix_web::web::Data<crate::AppState>>()
        .map(|state| state.settings.field_names)
        .unwrap_or_default()
}

/// `scheme://host` and the base path (`PEERING_BASE_PATH`): what `/api/…` is appended to
/// for absolute URLs.
pub fn base_url(req: &HttpRequest) -> String {
    format!("{}{}", origin(req), base_path(req))
}

/// `scheme://host` of the request, as the client reached us.
pub fn origin(req: &HttpRequest) -> String {
    format!(
        "{}://{}",
        crate::client::scheme(req),
        crate::client::host(req)
    )
}

/// The path the server is served under (`""` at the root, else `/prefix`).
pub fn base_path(req: &HttpRequest) -> &str {
    req.app_data::<actix_web::web::Data<crate::AppState>>()
        .map_or("", |s| s.settings.base_path.as_str())
}

/// The request's path below the base path (`/api/` for `/prefix/api/`).
pub fn path_below_base(req: &HttpRequest) -> &str {
    let path = req.path();
    match path.strip_prefix(base_path(req)) {
        Some(rest) if rest.starts_with('/') => rest,
        _ => path,
    }
}
