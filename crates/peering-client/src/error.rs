//! What a call can fail with: the server's refusals, typed by status with the server's own
//! words kept, and the failures on the way (transport, a body that does not decode).

use std::fmt;
use std::time::Duration;

use peering_domain::FieldErrors;
use reqwest::header::{HeaderMap, RETRY_AFTER};
use reqwest::StatusCode;
use serde_json::Value as Json;

/// The messages the server answers with a 403 when it does not know who is calling: no
/// token, or one it refuses (unknown, malformed, expired, its user inactive). peeringd, like
/// the reference, answers these with 403; the client calls them [`Error::Unauthorized`].
const UNKNOWN_CALLER: &[&str] = &[
    "Authentication credentials were not provided.",
    "Invalid token",
    "Token expired",
    "User inactive",
];

/// A failed call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// 400: the body or the query was refused, field by field.
    #[error("bad request: {0}")]
    BadRequest(ValidationErrors),
    /// 401, or a 403 saying who is calling is unknown: no token, or one the server refuses.
    #[error("unauthorized: {detail}")]
    Unauthorized { status: u16, detail: String },
    /// 403: the caller may not do this (a read-only token, a permission not held).
    #[error("forbidden: {detail}")]
    Forbidden { detail: String },
    /// 404: no such object (or path).
    #[error("not found: {detail}")]
    NotFound { detail: String },
    /// 409: the write conflicts with stored objects (a protected delete names its
    /// dependents in `detail`).
    #[error("conflict: {detail}")]
    Conflict { detail: String, body: Json },
    /// 429: too many attempts; `retry_after` is the pause the server asked for, if any.
    #[error("too many requests: {detail}")]
    TooManyRequests {
        retry_after: Option<Duration>,
        detail: String,
    },
    /// 5xx.
    #[error("server error {status}: {body}")]
    Server { status: u16, body: String },
    /// Any other status that is not a success (405, 412, 413, …).
    #[error("unexpected status {status}: {body}")]
    Unexpected { status: u16, body: String },
    /// The request did not get an answer (connection, TLS, timeout), or could not be built.
    #[error("transport: {0}")]
    Transport(#[from] reqwest::Error),
    /// An answer that is not the JSON expected.
    #[error("cannot read the answer ({error}): {body}")]
    Decode {
        body: String,
        error: serde_json::Error,
    },
    /// A base URL that cannot be one, or a path outside it.
    #[error("invalid URL: {0}")]
    Url(String),
    /// A `next` link to another origin than the base URL's: not followed, so that the token
    /// is never sent elsewhere.
    #[error("refused to follow a link to another origin: {0}")]
    ForeignLink(String),
    /// A token that cannot be sent in a header.
    #[error("the token cannot be sent in a header")]
    InvalidToken,
    /// A body that does not serialise as the JSON object a write sends.
    #[error("cannot write the body: {0}")]
    Body(String),
}

impl Error {
    /// The HTTP status, for the errors that are an answer of the server.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::BadRequest(_) => Some(400),
            Error::Unauthorized { status, .. } => Some(*status),
            Error::Forbidden { .. } => Some(403),
            Error::NotFound { .. } => Some(404),
            Error::Conflict { .. } => Some(409),
            Error::TooManyRequests { .. } => Some(429),
            Error::Server { status, .. } | Error::Unexpected { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// The error an answer that is not a success stands for.
    pub(crate) fn from_answer(status: StatusCode, headers: &HeaderMap, body: &[u8]) -> Error {
        let text = String::from_utf8_lossy(body).into_owned();
        let json: Option<Json> = serde_json::from_slice(body).ok();
        let detail = json
            .as_ref()
            .and_then(|j| j.get("detail"))
            .and_then(Json::as_str)
            .map_or_else(|| text.clone(), str::to_string);
        match status.as_u16() {
            400 => match json.as_ref().and_then(ValidationErrors::from_json) {
                Some(errors) => Error::BadRequest(errors),
                None => Error::Unexpected {
                    status: 400,
                    body: text,
                },
            },
            401 => Error::Unauthorized {
                status: 401,
                detail,
            },
            403 if UNKNOWN_CALLER.iter().any(|m| detail.starts_with(m)) => Error::Unauthorized {
                status: 403,
                detail,
            },
            403 => Error::Forbidden { detail },
            404 => Error::NotFound { detail },
            409 => Error::Conflict {
                detail,
                body: json.unwrap_or(Json::String(text)),
            },
            429 => Error::TooManyRequests {
                retry_after: retry_after(headers),
                detail,
            },
            500..=599 => Error::Server {
                status: status.as_u16(),
                body: text,
            },
            other => Error::Unexpected {
                status: other,
                body: text,
            },
        }
    }
}

/// `Retry-After` in seconds (the form peeringd and PeeringDB send).
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?;
    value.trim().parse().ok().map(Duration::from_secs)
}

/// The body of a 400, as the server sent it: one object of field errors (field, or
/// `__all__`/`non_field_errors`/`detail`, to messages), or for a list body one such object
/// per item, in order (empty for the items without errors).
#[derive(Debug, Clone, PartialEq)]
pub enum ValidationErrors {
    Fields(FieldErrors),
    Items(Vec<FieldErrors>),
}

impl ValidationErrors {
    fn from_json(json: &Json) -> Option<ValidationErrors> {
        match json {
            Json::Object(map) => Some(ValidationErrors::Fields(FieldErrors(map.clone()))),
            Json::Array(items) => items
                .iter()
                .map(|item| item.as_object().map(|m| FieldErrors(m.clone())))
                .collect::<Option<Vec<_>>>()
                .map(ValidationErrors::Items),
            _ => None,
        }
    }

    /// The messages about `field`, of the object or of every item of a list body (nested
    /// lists, as the errors of a list field's items, are flattened).
    pub fn messages(&self, field: &str) -> Vec<String> {
        let mut found = Vec::new();
        for errors in self.objects() {
            if let Some(value) = errors.0.get(field) {
                flatten(value, &mut found);
            }
        }
        found
    }

    /// The message of a refusal that is about no field in particular: `detail`.
    pub fn detail(&self) -> Option<&str> {
        match self {
            ValidationErrors::Fields(errors) => errors.0.get("detail").and_then(Json::as_str),
            ValidationErrors::Items(_) => None,
        }
    }

    /// The fields named, in the order the server gave them (those of every item for a list).
    pub fn fields(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for errors in self.objects() {
            for name in errors.0.keys() {
                if !names.contains(&name.as_str()) {
                    names.push(name);
                }
            }
        }
        names
    }

    /// The body as the server sent it.
    pub fn to_json(&self) -> Json {
        match self {
            ValidationErrors::Fields(errors) => Json::Object(errors.0.clone()),
            ValidationErrors::Items(items) => {
                Json::Array(items.iter().map(|e| Json::Object(e.0.clone())).collect())
            }
        }
    }

    fn objects(&self) -> &[FieldErrors] {
        match self {
            ValidationErrors::Fields(errors) => std::slice::from_ref(errors),
            ValidationErrors::Items(items) => items,
        }
    }
}

fn flatten(value: &Json, into: &mut Vec<String>) {
    match value {
        Json::String(text) => into.push(text.clone()),
        Json::Array(items) => items.iter().for_each(|v| flatten(v, into)),
        Json::Object(map) => map.values().for_each(|v| flatten(v, into)),
        other => into.push(other.to_string()),
    }
}

impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (index, errors) in self.objects().iter().enumerate() {
            for (field, value) in &errors.0 {
                let mut messages = Vec::new();
                flatten(value, &mut messages);
                if !first {
                    f.write_str("; ")?;
                }
                first = false;
                if matches!(self, ValidationErrors::Items(_)) {
                    write!(f, "[{index}] ")?;
                }
                write!(f, "{field}: {}", messages.join(" "))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answer(status: u16, body: &Json) -> Error {
        let status = StatusCode::from_u16(status).unwrap();
        Error::from_answer(status, &HeaderMap::new(), body.to_string().as_bytes())
    }

    #[test]
    fn statuses_become_their_variants_with_the_servers_words() {
        let e = answer(400, &json!({"asn": ["A valid integer is required."]}));
        let Error::BadRequest(errors) = e else {
            panic!("{e:?}")
        };
        assert_eq!(errors.messages("asn"), ["A valid integer is required."]);
        let items = answer(400, &json!([{}, {"name": ["This field is required."]}]));
        let Error::BadRequest(errors) = items else {
            panic!("{items:?}")
        };
        assert_eq!(errors.messages("name"), ["This field is required."]);
        assert_eq!(errors.to_string(), "[1] name: This field is required.");
        let none = json!({"detail": "Authentication credentials were not provided."});
        assert!(matches!(answer(403, &none), Error::Unauthorized { .. }));
        let denied = json!({"detail": "You do not have permission to perform this action."});
        assert!(
            matches!(answer(403, &denied), Error::Forbidden { detail } if detail.starts_with("You do not"))
        );
        assert!(
            matches!(answer(404, &json!({"detail": "Not found."})), Error::NotFound { detail } if detail == "Not found.")
        );
        assert!(matches!(
            answer(409, &json!({"detail": "x"})),
            Error::Conflict { .. }
        ));
        assert!(matches!(
            answer(503, &json!({"detail": "x"})),
            Error::Server { status: 503, .. }
        ));
        assert!(matches!(
            answer(413, &json!({"detail": "x"})),
            Error::Unexpected { status: 413, .. }
        ));
    }

    #[test]
    fn retry_after_is_read_in_seconds() {
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, "7".parse().unwrap());
        let e = Error::from_answer(StatusCode::TOO_MANY_REQUESTS, &headers, b"{}");
        assert!(matches!(
            e,
            Error::TooManyRequests { retry_after: Some(d), .. } if d == Duration::from_secs(7)
        ));
    }
}
