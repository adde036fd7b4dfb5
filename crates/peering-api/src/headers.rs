//! Headers on every response, errors included: `API-Version`, `X-Request-ID`,
//! `X-Content-Type-Options`; on HTML pages a content security policy that forbids framing
//! and scripts from elsewhere; `Cache-Control: no-store` where a token key or a session
//! may be in the answer.

use actix_web::body::{EitherBody, MessageBody};

use crate::error::ApiError;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap, HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::HttpMessage;

/// The id of the current request, also stored in its change records.
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

pub async fn request_headers(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = uuid::Uuid::new_v4().to_string();
    let layout = crate::respond::layout(req.request());
    let path = crate::respond::path_below_base(req.request()).to_string();
    let credentials = req.headers().contains_key(header::AUTHORIZATION)
        || req.cookie(crate::auth::SESSION_COOKIE).is_some();
    req.extensions_mut().insert(RequestId(id.clone()));
    let mut res = next.call(req).await?;
    let headers = res.headers_mut();
    headers.insert(
        HeaderName::from_static("api-version"),
        HeaderValue::from_static(layout.api_version()),
    );
    if let Ok(v) = HeaderValue::from_str(&id) {
        headers.insert(HeaderName::from_static("x-request-id"), v);
    }
    security_headers(&path, headers);
    // An answer to a caller who said who they are may hold what only they see (secrets,
    // objects behind permissions): no shared cache keeps it.
    if credentials && !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private"));
    }
    Ok(res)
}

/// The policy of every HTML page: our own scripts, styles and images only (inline styles
/// for the pages' own style sheet and Swagger UI's), no framing, forms posted only to us.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; \
    base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Paths whose answers may carry a token key or set a session: never kept by a cache.
const PRIVATE_PATHS: &[&str] = &["/api/users/tokens/", "/user/", "/login/", "/logout/"];

fn security_headers(path: &str, headers: &mut HeaderMap) {
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    let html = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if html {
        headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        );
        headers.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        );
    }
    if PRIVATE_PATHS.iter().any(|p| path.starts_with(p)) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
}

/// Whether the request names a host of well-formed name (answers write it into their
/// links, unescaped) and, unless `PEERING_ALLOWED_HOSTS` is empty, one of those. Probes
/// are answered whatever they name: orchestrators call them by address.
fn host_allowed(req: &ServiceRequest) -> bool {
    if matches!(
        crate::respond::path_below_base(req.request()),
        "/healthz" | "/readyz"
    ) {
        return true;
    }
    let host = crate::client::host(req.request());
    if !well_formed_host(&host) {
        return false;
    }
    let allowed = match req.app_data::<actix_web::web::Data<crate::AppState>>() {
        Some(state) if !state.settings.allowed_hosts.is_empty() => &state.settings.allowed_hosts,
        _ => return true,
    };
    let name = host_name(&host);
    allowed.iter().any(|a| {
        a == "*"
            || a.eq_ignore_ascii_case(name)
            || a.strip_prefix('.').is_some_and(|domain| {
                name.eq_ignore_ascii_case(domain)
                    || name
                        .to_ascii_lowercase()
                        .ends_with(&format!(".{}", domain.to_ascii_lowercase()))
            })
    })
}

/// A DNS name or an IPv4 address (letters, digits, `.`, `-`, `_`), or an IPv6 address in
/// brackets, then an optional port: what a URL's authority may hold without escaping.
fn well_formed_host(host: &str) -> bool {
    let name = host_name(host);
    let port_ok = host.len() == name.len() || host.len() - name.len() > 1;
    let name_ok = match name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        Some(address) => address.contains(':') && address.parse::<std::net::Ipv6Addr>().is_ok(),
        None => {
            !name.is_empty()
                && (name.bytes()).all(|b| b.is_ascii_alphanumeric() || b"-._".contains(&b))
        }
    };
    port_ok && name_ok
}

/// `host` without its port (`[::1]:8000` gives `[::1]`).
fn host_name(host: &str) -> &str {
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) && !name.ends_with(':') => {
            name
        }
        _ => host,
    }
}

/// The longest request address (path and query) served.
pub const MAX_URI_BYTES: usize = 8192;
/// The most header bytes a request may carry.
pub const MAX_HEADER_BYTES: usize = 16384;

/// The API versions a client may ask for (`Accept: application/json; version=1.8`): the
/// reference's releases whose API peeringd answers, and its own.
fn known_version(version: &str) -> bool {
    peering_domain::resources::Layout::of_version(version).is_some()
        || version == crate::api_version()
}

/// Whether an API request asks for a version there is not, as the reference refuses
/// (406) under its versioning by `Accept` header.
fn asks_unknown_version(req: &ServiceRequest) -> bool {
    crate::respond::path_below_base(req.request()).starts_with("/api/")
        && accepted_versions(req.headers()).any(|version| !known_version(version))
}

/// The versions `Accept` names (`application/json; version=1.10`), unquoted.
pub(crate) fn accepted_versions(headers: &HeaderMap) -> impl Iterator<Item = &str> {
    let accept = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    accept
        .split(',')
        .flat_map(|media| media.split(';').skip(1))
        .filter_map(|param| param.trim().strip_prefix("version="))
        .map(|version| version.trim().trim_matches('"'))
}

/// Refuses, with a JSON answer, a request whose address or headers are larger than any
/// client of ours sends (the HTTP server's own limits are higher and answer without a
/// body).
pub async fn request_limits(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let uri_bytes = req.uri().path_and_query().map_or(0, |p| p.as_str().len());
    let header_bytes: usize = req
        .headers()
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum();
    let refusal = if !host_allowed(&req) {
        Some(ApiError::Detail400("Invalid Host header.".into()))
    } else if uri_bytes > MAX_URI_BYTES {
        Some(ApiError::UriTooLong(MAX_URI_BYTES))
    } else if header_bytes > MAX_HEADER_BYTES {
        Some(ApiError::HeadersTooLarge(MAX_HEADER_BYTES))
    } else if asks_unknown_version(&req) {
        Some(ApiError::InvalidVersion)
    } else {
        None
    };
    match refusal {
        Some(e) => Ok(req.error_response(e).map_into_right_body()),
        None => next
            .call(req)
            .await
            .map(ServiceResponse::map_into_left_body),
    }
}
