//! The API root, application roots and `/api/status/`.

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use peering_openapi::layout::{apps, extra_links};
use serde_json::{json, Value as Json};

use crate::auth::authenticate;
use crate::error::ApiError;
use crate::respond::{base_url, respond};
use crate::AppState;

/// A map of names to URLs (browsers get it as a page through the browsable API).
fn links_page(req: &HttpRequest, links: BTreeMap<String, String>) -> HttpResponse {
    let body: serde_json::Map<String, Json> =
        links.into_iter().map(|(k, v)| (k, json!(v))).collect();
    respond(req, StatusCode::OK, &Json::Object(body))
}

pub async fn api_root(req: HttpRequest) -> HttpResponse {
    let base = base_url(&req);
    let mut links: BTreeMap<String, String> = apps()
        .keys()
        .map(|app| (app.to_string(), format!("{base}/api/{app}/")))
        .collect();
    links.insert("status".into(), format!("{base}/api/status/"));
    links_page(&req, links)
}

pub async fn app_root(req: HttpRequest, app: &str) -> Result<HttpResponse, ApiError> {
    let base = base_url(&req);
    let apps = apps();
    let specs = apps.get(app).ok_or(ApiError::NotFound)?;
    let mut links: BTreeMap<String, String> = specs
        .iter()
        .map(|(path, _)| (path.to_string(), format!("{base}/api/{app}/{path}/")))
        .collect();
    for extra in extra_links(app) {
        links.insert(extra.to_string(), format!("{base}/api/{app}/{extra}/"));
    }
    Ok(links_page(&req, links))
}

pub async fn status(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    authenticate(&req, &state)
        .await?
        .require_read(&state, None)?;
    let store = state.store.clone();
    let healthy = web::block(move || store.upkeep().ping()).await?;
    // The reference's `peering-manager-version` is the release whose API the request came
    // through; it has no Django, Python or RQ versions to give (docs/differences.md).
    let layout = crate::respond::layout(&req);
    let body = json!({
        "peering-manager-version": layout.release(),
        "peeringd-version": env!("CARGO_PKG_VERSION"),
        "api-version": layout.api_version(),
        "database": {
            "backend": state.store.backend().name(),
            "healthy": healthy,
        },
    });
    let status = if healthy {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    Ok(respond(&req, status, &body))
}
