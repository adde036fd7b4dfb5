//! One access-log line per request (method, path, status, bytes, duration, request id,
//! user), under the target `peeringd::access`, and the request counted in the metrics.
//! The binary's subscriber writes it as text or JSON (`PEERING_LOG_FORMAT`).

use std::time::Instant;

use actix_web::body::{BodySize, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{web, HttpMessage};
use peering_domain::resources::by_path;

use crate::api_path::ApiPath;
use crate::auth::Caller;
use crate::headers::RequestId;
use crate::AppState;

/// The longest path and query written to the log.
const LOGGED_PATH_BYTES: usize = 2048;

pub async fn observe(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let method = req.method().to_string();
    let path = logged_path(&req);
    let state = req.app_data::<web::Data<AppState>>().cloned();
    let res = next.call(req).await?;
    let elapsed = started.elapsed();
    let status = res.status().as_u16();
    let bytes = match res.response().body().size() {
        BodySize::Sized(n) => n.to_string(),
        BodySize::None => "0".into(),
        BodySize::Stream => "-".into(),
    };
    let request = res.request();
    let route = route_of(request);
    let request_id = request
        .extensions()
        .get::<RequestId>()
        .map(|r| r.0.clone())
        .unwrap_or_default();
    let user = request
        .extensions()
        .get::<Caller>()
        .and_then(|c| c.user.as_ref().map(|u| u.username.clone()))
        .unwrap_or_else(|| "-".into());
    tracing::info!(
        target: "peeringd::access",
        method = %method,
        path = %path,
        status,
        bytes = %bytes,
        duration_ms = elapsed.as_secs_f64() * 1000.0,
        request_id = %request_id,
        user = %user,
    );
    if let Some(state) = state {
        state
            .metrics
            .observe(&method, &route, status, elapsed.as_secs_f64());
    }
    Ok(res)
}

fn logged_path(req: &ServiceRequest) -> String {
    let full = req
        .uri()
        .path_and_query()
        .map_or_else(|| req.path().to_string(), |p| p.as_str().to_string());
    if full.len() <= LOGGED_PATH_BYTES {
        return full;
    }
    let mut end = LOGGED_PATH_BYTES;
    while !full.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &full[..end])
}

/// The route a request took, as a label of few values: the resource's path with `{id}`
/// for a known resource, the route's pattern otherwise, `other` for no route.
fn route_of(req: &actix_web::HttpRequest) -> String {
    if let Some(path) = ApiPath::of(req) {
        if let Some(spec) = path.model.and_then(|model| by_path(path.app, model)) {
            let id = if path.id.is_some() { "{id}/" } else { "" };
            return format!("/api/{}/{}/{id}", spec.app, spec.path);
        }
        return path.pattern().to_string();
    }
    req.match_pattern().unwrap_or_else(|| "other".into())
}

#[cfg(test)]
mod tests {
    use actix_web::test::TestRequest;

    fn route(uri: &str) -> String {
        super::route_of(&TestRequest::with_uri(uri).to_http_request())
    }

    #[test]
    fn generic_routes_are_labelled_by_resource_or_pattern() {
        assert_eq!(
            route("/api/peering/autonomous-systems/?limit=5"),
            "/api/peering/autonomous-systems/"
        );
        assert_eq!(
            route("/api/peering/autonomous-systems/7/"),
            "/api/peering/autonomous-systems/{id}/"
        );
        assert_eq!(
            route("/api/peering/autonomous-systems/7/sync-with-peeringdb/"),
            "/api/peering/autonomous-systems/{id}/"
        );
        assert_eq!(route("/api/peering/"), "/api/{app}/");
        assert_eq!(route("/api/peering/nothing/"), "/api/{app}/{model}/");
        assert_eq!(route("/api/peering/nothing/7/"), "/api/{app}/{model}/{id}/");
        assert_eq!(route("/elsewhere"), "other");
    }
}
