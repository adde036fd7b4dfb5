//! JSON responses, indented when the client asks for `Accept: application/json; indent=N`.

use actix_web::http::StatusCode;
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

pub fn respond(req: &HttpRequest, status: StatusCode, body: &Json) -> HttpResponse {
    respond_text(req, status, body.to_string())
}

/// Sends JSON already written as text; re-indented only when the client asks for it.
pub fn respond_text(req: &HttpRequest, status: StatusCode, text: String) -> HttpResponse {
    let text = match requested_indent(req) {
        Some(n) => {
            let indent = " ".repeat(n.min(16));
            let mut out = Vec::new();
            let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
            let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
            let parsed: Result<Json, _> = serde_json::from_str(&text);
            match parsed.map(|body| serde::Serialize::serialize(&body, &mut ser)) {
                Ok(Ok(())) => String::from_utf8(out).unwrap_or(text),
                _ => text,
            }
        }
        None => text,
    };
    HttpResponse::build(status)
        .content_type("application/json")
        .body(text)
}

/// `scheme://host` of the request, for absolute URLs.
pub fn base_url(req: &HttpRequest) -> String {
    let info = req.connection_info();
    format!("{}://{}", info.scheme(), info.host())
}
