//! Request bodies: read within a size and a time limit, then parsed as JSON. A large body
//! becomes a tree many times its size, so only a few are read and held at once: the others
//! wait for their turn, and memory stays bounded whatever the number of clients sending
//! large bodies together.

use actix_web::{web, HttpRequest};
use futures_util::StreamExt;
use serde_json::Value as Json;
use tokio::sync::OwnedSemaphorePermit;

use crate::error::ApiError;
use crate::AppState;

/// Bodies above this size take a turn.
pub const LARGE_BODY_BYTES: usize = 1 << 20;
/// How many large bodies are read and held at once.
pub const LARGE_BODIES_AT_ONCE: usize = 2;

/// A large body's turn, held until the request is answered.
pub type Turn = Option<OwnedSemaphorePermit>;

/// Refuses a body whose declared type is none the API parses, as the reference does:
/// JSON, and forms (which the reference also takes; here they fail as JSON, with a 400
/// saying why). A body without a type is taken as JSON.
pub fn check_media_type(req: &HttpRequest) -> Result<(), ApiError> {
    let Some(value) = req.headers().get(actix_web::http::header::CONTENT_TYPE) else {
        return Ok(());
    };
    let declared = String::from_utf8_lossy(value.as_bytes()).to_string();
    let media = declared
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let parsed = media.is_empty()
        || media == "application/json"
        || media.ends_with("+json")
        || media == "application/x-www-form-urlencoded"
        || media == "multipart/form-data";
    if parsed {
        Ok(())
    } else {
        Err(ApiError::UnsupportedMediaType(declared))
    }
}

/// Reads the body (see [`read_limited`]) and parses it as JSON.
pub async fn read_json(
    req: &HttpRequest,
    payload: web::Payload,
    state: &AppState,
    limit: usize,
) -> Result<(Json, Turn), ApiError> {
    check_media_type(req)?;
    let (body, turn) = read_limited(payload, state, limit).await?;
    let json = serde_json::from_slice(&body)
        .map_err(|e| ApiError::Detail400(format!("JSON parse error - {e}")))?;
    Ok((json, turn))
}

/// Reads the body, refusing more than `limit` bytes or a body slower to arrive than
/// `PEERING_BODY_TIMEOUT_SECS`; a body past [`LARGE_BODY_BYTES`] waits for its turn first.
pub async fn read_limited(
    payload: web::Payload,
    state: &AppState,
    limit: usize,
) -> Result<(web::BytesMut, Turn), ApiError> {
    let timeout = state.settings.body_timeout;
    actix_web::rt::time::timeout(timeout, read_body(payload, state, limit))
        .await
        .map_err(|_| ApiError::BodyTimeout(timeout.as_secs()))?
}

async fn read_body(
    mut payload: web::Payload,
    state: &AppState,
    limit: usize,
) -> Result<(web::BytesMut, Turn), ApiError> {
    let mut body = web::BytesMut::new();
    let mut turn: Turn = None;
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| match e {
            actix_web::error::PayloadError::Overflow => ApiError::TooLarge(limit),
            other => ApiError::Detail400(format!("Malformed request body: {other}")),
        })?;
        if body.len() + chunk.len() > limit {
            return Err(ApiError::TooLarge(limit));
        }
        if turn.is_none() && body.len() + chunk.len() > LARGE_BODY_BYTES {
            let permit = state.large_bodies.clone().acquire_owned().await;
            turn = Some(permit.map_err(|_| ApiError::Internal("body turns closed".into()))?);
        }
        body.extend_from_slice(&chunk);
    }
    Ok((body, turn))
}

/// A write body read whole but parsed an item at a time: a list of a million items costs
/// the bytes and a pointer per item, not a tree of every item at once.
#[derive(Debug)]
pub struct Listed {
    bytes: web::BytesMut,
}

/// What a write body holds: a list of items, each still JSON text, or a single value.
#[derive(Debug)]
pub enum Items<'a> {
    List(Vec<&'a serde_json::value::RawValue>),
    One(Json),
}

impl Listed {
    /// Whether the body is empty (whitespace at most), which the reference reads as `{}`.
    pub fn is_blank(&self) -> bool {
        self.bytes.iter().all(u8::is_ascii_whitespace)
    }

    pub fn items(&self) -> Result<Items<'_>, ApiError> {
        let parse_error =
            |e: serde_json::Error| ApiError::Detail400(format!("JSON parse error - {e}"));
        let first = self.bytes.iter().find(|b| !b.is_ascii_whitespace());
        if first == Some(&b'[') {
            serde_json::from_slice(&self.bytes)
                .map(Items::List)
                .map_err(parse_error)
        } else {
            serde_json::from_slice(&self.bytes)
                .map(Items::One)
                .map_err(parse_error)
        }
    }
}

/// One item of a list body as a value (its text was checked when the list was read).
pub fn item(raw: &serde_json::value::RawValue) -> Json {
    serde_json::from_str(raw.get()).unwrap_or(Json::Null)
}

/// Reads a write body (see [`read_limited`]) to be parsed an item at a time.
pub async fn read_listed(
    req: &HttpRequest,
    payload: web::Payload,
    state: &AppState,
    limit: usize,
) -> Result<(Listed, Turn), ApiError> {
    check_media_type(req)?;
    let (bytes, turn) = read_limited(payload, state, limit).await?;
    Ok((Listed { bytes }, turn))
}
