//! JSON responses, indented when the client asks for `Accept: application/json; indent=N`.

use std::convert::Infallible;

use actix_web::body::{MessageBody, SizedStream};
use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse};
use peering_app::answers::page_parts::{Cursor, PageParts};
use peering_domain::resources::Layout;
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
    let mut res = HttpResponse::build(status);
    res.content_type("application/json");
    if body.len() > SENT_WHOLE_UP_TO {
        return res.body(in_pieces(body));
    }
    res.body(body)
}

/// Answers up to this size are handed to the connection whole.
pub(crate) const SENT_WHOLE_UP_TO: usize = 128 * 1024;
/// The bytes of a larger answer the connection takes at a time.
const PIECE_BYTES: usize = 64 * 1024;

/// A large answer handed to the connection a piece at a time, with its whole length.
/// Handed whole, the connection copies all of it into its write buffer, a second
/// megabyte-sized block for each page of 1,000 objects; a piece at a time, it copies what
/// the socket takes. The pieces share the answer's bytes.
fn in_pieces(body: Bytes) -> impl MessageBody<Error = Infallible> + Unpin {
    let size = body.len() as u64;
    let pieces = (0..body.len())
        .step_by(PIECE_BYTES)
        .map(move |at| Ok::<_, Infallible>(body.slice(at..(at + PIECE_BYTES).min(body.len()))));
    SizedStream::new(size, futures_util::stream::iter(pieces))
}

/// A page kept as its parts, copied from them a piece at a time as the connection takes
/// them: the page is never whole in memory, only a piece of it and the texts it shares
/// with the objects kept rendered.
pub fn respond_parts(parts: PageParts) -> HttpResponse {
    let size = parts.len() as u64;
    let mut cursor = Cursor::default();
    let pieces = std::iter::from_fn(move || {
        let mut piece = Vec::with_capacity(PIECE_BYTES);
        parts.copy_next(&mut cursor, &mut piece, PIECE_BYTES);
        (!piece.is_empty()).then(|| Ok::<_, Infallible>(Bytes::from(piece)))
    });
    let mut res = HttpResponse::build(StatusCode::OK);
    res.content_type("application/json");
    res.body(SizedStream::new(size, futures_util::stream::iter(pieces)))
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

/// The layout the request came through: the reference version its `Accept` names
/// (`version=1.10`), else 1.10 for a path only that layout has (`/api/devices/routers/`),
/// else 1.8. Its links and `API-Version` follow it.
pub fn layout(req: &HttpRequest) -> Layout {
    let named = crate::headers::accepted_versions(req.headers()).find_map(Layout::of_version);
    named
        .or_else(|| {
            let path = crate::api_path::ApiPath::parse(path_below_base(req))?;
            Layout::of_path(path.app, path.model?)
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use std::pin::Pin;

    use actix_web::body::BodySize;

    use super::*;

    #[actix_web::test]
    async fn a_large_answer_is_sent_in_pieces_that_make_it_whole() {
        let whole: Bytes = (0..PIECE_BYTES * 3 + 17).map(|i| i as u8).collect();
        let mut body = in_pieces(whole.clone());
        assert_eq!(body.size(), BodySize::Sized(whole.len() as u64));
        let mut sent = Vec::new();
        let mut pieces = 0;
        while let Some(piece) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_next(cx)).await {
            let piece = piece.unwrap();
            assert!(piece.len() <= PIECE_BYTES);
            sent.extend_from_slice(&piece);
            pieces += 1;
        }
        assert_eq!(pieces, 4);
        assert_eq!(sent, whole);
    }

    #[actix_web::test]
    async fn answers_are_whole_up_to_their_limit_and_in_pieces_past_it() {
        let req = actix_web::test::TestRequest::default().to_http_request();
        for (len, in_pieces) in [(SENT_WHOLE_UP_TO, false), (SENT_WHOLE_UP_TO + 1, true)] {
            let text = Bytes::from(vec![b' '; len]);
            let res = respond_bytes(&req, StatusCode::OK, text.clone());
            let body = res.into_body();
            assert_eq!(body.size(), BodySize::Sized(len as u64));
            let mut body = std::pin::pin!(body);
            let first = std::future::poll_fn(|cx| body.as_mut().poll_next(cx)).await;
            let first = first.unwrap().unwrap();
            assert_eq!(first.len() < len, in_pieces, "{len}");
        }
    }
}
