//! Errors of the HTTP layer and the one table that maps them to statuses and bodies.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde_json::{json, Value as Json};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A validation or filter error; the body is the field-to-messages object (or a list).
    #[error("bad request")]
    BadRequest(Json),
    #[error("{0}")]
    Detail400(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("Not found.")]
    NotFound,
    #[error("Method \"{0}\" not allowed.")]
    MethodNotAllowed(String),
    #[error("{0}")]
    Conflict(String),
    #[error("The object changed since it was read: its ETag is not the one in If-Match.")]
    PreconditionFailed,
    #[error("Request body exceeds {0} bytes.")]
    TooLarge(usize),
    #[error("Unsupported media type \"{0}\" in request.")]
    UnsupportedMediaType(String),
    #[error("Invalid version in \"Accept\" header.")]
    InvalidVersion,
    #[error("The request body did not arrive within {0} s.")]
    BodyTimeout(u64),
    #[error("Request address too long: at most {0} bytes.")]
    UriTooLong(usize),
    #[error("Request headers too large: at most {0} bytes.")]
    HeadersTooLarge(usize),
    #[error("{0}")]
    TooManyRequests(String),
    #[error("{0}")]
    Unavailable(String),
    /// As many renders run inline as allowed: a 503 with `Retry-After`.
    #[error(transparent)]
    RendersBusy(#[from] crate::inline_renders::Busy),
    #[error("{0}")]
    Internal(String),
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) | ApiError::Detail400(_) => StatusCode::BAD_REQUEST,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::PreconditionFailed => StatusCode::PRECONDITION_FAILED,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::InvalidVersion => StatusCode::NOT_ACCEPTABLE,
            ApiError::BodyTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::UriTooLong(_) => StatusCode::URI_TOO_LONG,
            ApiError::HeadersTooLarge(_) => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            ApiError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(_) | ApiError::RendersBusy(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let body = match self {
            ApiError::BadRequest(body) => body.clone(),
            ApiError::Internal(message) => {
                log::error!("internal error: {message}");
                json!({"detail": "Internal server error."})
            }
            ApiError::RendersBusy(busy) => {
                return HttpResponse::build(self.status_code())
                    .insert_header((
                        actix_web::http::header::RETRY_AFTER,
                        busy.retry_after.to_string(),
                    ))
                    .json(busy.detail());
            }
            other => json!({"detail": other.to_string()}),
        };
        HttpResponse::build(self.status_code()).json(body)
    }
}

/// A full disk or a read-only database fails every write until someone acts: said once in
/// the log, not once per request.
fn log_storage_problem_once(problem: peering_store::StorageProblem) {
    use std::sync::atomic::{AtomicBool, Ordering};
    static DISK_FULL: AtomicBool = AtomicBool::new(false);
    static READ_ONLY: AtomicBool = AtomicBool::new(false);
    let said = match problem {
        peering_store::StorageProblem::DiskFull => &DISK_FULL,
        peering_store::StorageProblem::ReadOnly => &READ_ONLY,
    };
    if !said.swap(true, Ordering::Relaxed) {
        log::error!("{problem} Writes fail until it is fixed.");
    }
}

impl From<peering_store::Error> for ApiError {
    fn from(e: peering_store::Error) -> Self {
        use peering_store::Error as S;
        match e {
            S::Invalid { errors, .. } => ApiError::BadRequest(errors.into_json()),
            S::Protected(message) => ApiError::Conflict(message),
            S::NotFound => ApiError::NotFound,
            S::Forbidden(message) => ApiError::Forbidden(message),
            S::Unavailable(m) => {
                // The database's own words stay in the log: they may name hosts and users.
                log::error!("database unavailable: {m}");
                ApiError::Unavailable("The database is unavailable; try again later.".into())
            }
            S::Storage(problem) => {
                log_storage_problem_once(problem);
                ApiError::Unavailable(problem.to_string())
            }
            S::Busy(m) => {
                log::warn!("write refused after retries: {m}");
                ApiError::Unavailable(
                    "The database is busy with other writes; nothing was written. Try again."
                        .into(),
                )
            }
            S::Config(m) => ApiError::Detail400(m),
            S::Backend(cause) => ApiError::Internal(cause.into()),
            S::Aborted(m) => ApiError::Internal(m),
        }
    }
}

impl From<peering_app::answers::versions::ProbeError<peering_store::Error>> for ApiError {
    fn from(e: peering_app::answers::versions::ProbeError<peering_store::Error>) -> Self {
        match e {
            peering_app::answers::versions::ProbeError::Read(e) => e.into(),
            peering_app::answers::versions::ProbeError::Stopped => {
                ApiError::Internal("the data version thread stopped".into())
            }
        }
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(e: actix_web::error::BlockingError) -> Self {
        ApiError::Internal(e.to_string())
    }
}

impl From<peering_filter::FilterErrors> for ApiError {
    fn from(errors: peering_filter::FilterErrors) -> Self {
        let mut body = serde_json::Map::new();
        for e in errors.iter() {
            body.insert(e.param.clone(), json!([e.message]));
        }
        ApiError::BadRequest(Json::Object(body))
    }
}
