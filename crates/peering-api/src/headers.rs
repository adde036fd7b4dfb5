//! Headers on every response, errors included: `API-Version` and `X-Request-ID`.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
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
    req.extensions_mut().insert(RequestId(id.clone()));
    let mut res = next.call(req).await?;
    let headers = res.headers_mut();
    headers.insert(
        HeaderName::from_static("api-version"),
        HeaderValue::from_str(crate::api_version()).unwrap_or(HeaderValue::from_static("0.0")),
    );
    if let Ok(v) = HeaderValue::from_str(&id) {
        headers.insert(HeaderName::from_static("x-request-id"), v);
    }
    Ok(res)
}
