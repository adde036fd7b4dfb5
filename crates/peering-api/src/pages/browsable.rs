//! The browsable API: a GET from a browser (`Accept: text/html`, or `?format=api`) on any
//! API endpoint gets the same JSON as an HTML page, with links to related objects and to
//! the next and previous pages. `?format=json` always gets JSON.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderValue, CONTENT_TYPE};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::{HttpMessage, HttpRequest};
use maud::{html, Markup};
use serde_json::Value as Json;

use super::layout;
use crate::auth::Caller;

/// Whether the request asks for the HTML rendering.
pub(crate) fn wants_html(req: &HttpRequest) -> bool {
    if !matches!(*req.method(), Method::GET | Method::HEAD) {
        return false;
    }
    let path = crate::respond::path_below_base(req);
    if !path.starts_with("/api/")
        || path.starts_with("/api/schema/")
        || path.starts_with("/api/docs/")
    {
        return false;
    }
    let format = serde_urlencoded::from_str::<Vec<(String, String)>>(req.query_string())
        .ok()
        .and_then(|pairs| pairs.into_iter().rev().find(|(k, _)| k == "format"))
        .map(|(_, v)| v);
    match format.as_deref() {
        Some("api") => true,
        Some(_) => false,
        None => req
            .headers()
            .get("Accept")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|a| a.contains("text/html")),
    }
}

pub async fn middleware(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let html = wants_html(req.request());
    let res = next.call(req).await?.map_into_boxed_body();
    let is_json = res
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/json"));
    if !html || !is_json {
        return Ok(res);
    }
    let (request, response) = res.into_parts();
    let status = response.status();
    let mut head = response.head().clone();
    let body = actix_web::body::to_bytes(response.into_body())
        .await
        .unwrap_or_default();
    let data: Json = serde_json::from_slice(&body).unwrap_or(Json::Null);
    let caller = request
        .extensions()
        .get::<Caller>()
        .cloned()
        .unwrap_or_else(Caller::anonymous);
    let page = page(&request, &caller, status, &data).into_string();
    head.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    let mut out = actix_web::HttpResponse::with_body(status, page).map_into_boxed_body();
    for (name, value) in head.headers().iter() {
        if name != actix_web::http::header::CONTENT_LENGTH {
            out.headers_mut().insert(name.clone(), value.clone());
        }
    }
    Ok(ServiceResponse::new(request, out))
}

/// The title of an endpoint: its last path segments, humanised.
fn title(path: &str) -> String {
    let parts: Vec<&str> = path.trim_matches('/').split('/').skip(1).collect();
    match parts.as_slice() {
        [] => "API root".to_string(),
        [app] => format!("{app} API"),
        [app, model] => format!("{} ({app})", model.replace('-', " ")),
        [app, model, id, ..] => format!("{} #{id} ({app})", model.replace('-', " ")),
    }
}

fn page(
    req: &HttpRequest,
    caller: &Caller,
    status: actix_web::http::StatusCode,
    data: &Json,
) -> Markup {
    let base = crate::respond::base_url(req);
    let link = |key: &str| data.get(key).and_then(Json::as_str).map(str::to_string);
    let (next, previous) = (link("next"), link("previous"));
    let csrf = caller.user.as_ref().and_then(|u| u.session_csrf.clone());
    let json_url = format!(
        "{}?{}",
        req.path(),
        if req.query_string().is_empty() {
            "format=json".to_string()
        } else {
            format!("{}&format=json", req.query_string())
        }
    );
    layout(
        &title(crate::respond::path_below_base(req)),
        caller,
        csrf.as_deref(),
        crate::respond::base_path(req),
        html! {
            p #request { code { "GET " (req.path()) @if !req.query_string().is_empty() { "?" (req.query_string()) } }
                " — HTTP " (status.as_u16()) " " (status.canonical_reason().unwrap_or("")) }
            @if let Some(count) = data.get("count").and_then(Json::as_i64) {
                p #count { (count) " objects" }
            }
            @if next.is_some() || previous.is_some() {
                p.pager {
                    @if let Some(p) = &previous { a #previous href=(p) { "← Previous" } }
                    @if let Some(n) = &next { a #next href=(n) { "Next →" } }
                }
            }
            pre #response { (render_value(data, 0, &base)) }
            p { a #as-json href=(json_url) { "This response as JSON" } }
        },
    )
}

/// Four spaces a level, as the JSON is indented.
fn pad(depth: usize) -> String {
    "    ".repeat(depth)
}

/// Indented JSON as HTML; URLs of this server become links.
fn render_value(value: &Json, depth: usize, base: &str) -> Markup {
    html! {
        @match value {
            Json::Object(map) if !map.is_empty() => {
                "{\n"
                @for (i, (k, v)) in map.iter().enumerate() {
                    (pad(depth + 1)) span.key { "\"" (k) "\"" } ": "
                    (render_value(v, depth + 1, base))
                    @if i + 1 < map.len() { "," }
                    "\n"
                }
                (pad(depth)) "}"
            }
            Json::Array(items) if !items.is_empty() => {
                "[\n"
                @for (i, v) in items.iter().enumerate() {
                    (pad(depth + 1)) (render_value(v, depth + 1, base))
                    @if i + 1 < items.len() { "," }
                    "\n"
                }
                (pad(depth)) "]"
            }
            Json::String(s) if s.starts_with(base) && s[base.len()..].starts_with("/api/") => {
                "\"" a href=(s) { (s) } "\""
            }
            other => (other.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn links_only_to_this_server_and_escapes_everything_else() {
        let out = render_value(
            &json!({"url": "http://h/api/x/1/", "name": "<b>&", "ext": "http://other/api/"}),
            0,
            "http://h",
        )
        .into_string();
        assert!(out.contains("<a href=\"http://h/api/x/1/\">"));
        assert!(out.contains("&lt;b&gt;&amp;"));
        assert!(!out.contains("<a href=\"http://other"));
    }

    #[test]
    fn titles_name_the_endpoint() {
        assert_eq!(title("/api/"), "API root");
        assert_eq!(title("/api/peering/"), "peering API");
        assert_eq!(
            title("/api/peering/autonomous-systems/"),
            "autonomous systems (peering)"
        );
        assert_eq!(
            title("/api/peering/autonomous-systems/4/"),
            "autonomous systems #4 (peering)"
        );
    }
}
