//! Compressed answers for clients that ask (`Accept-Encoding: br` or `gzip`). Only read
//! answers kept by the answer cache are compressed, once per answer and encoding: the
//! compressed bytes are kept beside the plain ones, so a read served from the cache costs
//! no compression. Answers under 1 KiB are sent as they are (compressing them costs more
//! than it saves), and so are pages for browsers, indented answers and writes.

use std::io::Write;

use actix_web::http::header::{HeaderValue, CONTENT_ENCODING, VARY};
use actix_web::http::StatusCode;
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};

use crate::cache::Key;
use crate::respond::{indents, respond_bytes};
use crate::AppState;
use peering_app::answers::page_parts::PageParts;

/// Smaller answers are not compressed.
pub const MIN_BYTES: usize = 1024;

/// An encoding the server produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Brotli,
    Gzip,
}

impl Encoding {
    pub fn token(self) -> &'static str {
        match self {
            Encoding::Brotli => "br",
            Encoding::Gzip => "gzip",
        }
    }

    /// `body` compressed: gzip at level 4, brotli at quality 4 (fast, and most of what
    /// higher levels give on JSON).
    pub fn compress(self, body: &[u8]) -> std::io::Result<Vec<u8>> {
        let mut out = Vec::with_capacity(body.len() / 6);
        match self {
            Encoding::Gzip => {
                let mut encoder =
                    flate2::write::GzEncoder::new(&mut out, flate2::Compression::new(4));
                encoder.write_all(body)?;
                encoder.finish()?;
            }
            Encoding::Brotli => {
                let mut encoder = brotli::CompressorWriter::new(&mut out, 32 * 1024, 4, 22);
                encoder.write_all(body)?;
                // Ends the stream (a flush alone leaves it open).
                encoder.into_inner();
            }
        }
        Ok(out)
    }
}

/// The encoding to answer with: brotli if the client takes it, else gzip, else none
/// (an encoding with `q=0` is refused).
pub fn negotiate(req: &HttpRequest) -> Option<Encoding> {
    let accepted: Vec<(String, bool)> = req
        .headers()
        .get_all(actix_web::http::header::ACCEPT_ENCODING)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|item| {
            let mut parts = item.split(';');
            let token = parts.next().unwrap_or("").trim().to_ascii_lowercase();
            let refused = parts.any(|p| {
                p.trim()
                    .strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    == Some(0.0)
            });
            (token, !refused)
        })
        .collect();
    let takes = |token: &str| accepted.iter().any(|(t, ok)| *ok && t == token);
    if takes("br") {
        Some(Encoding::Brotli)
    } else if takes("gzip") {
        Some(Encoding::Gzip)
    } else {
        None
    }
}

/// Answers a cached read: compressed when the client asks and the answer is large
/// enough, from the cache when it was compressed before. `key` is the plain answer's cache
/// key (`None` when the cache is off).
pub async fn respond_cached(
    req: &HttpRequest,
    state: &AppState,
    key: Option<Key>,
    body: Bytes,
) -> HttpResponse {
    let encoding = negotiate(req).filter(|_| {
        body.len() >= MIN_BYTES && !indents(req) && !crate::pages::browsable::wants_html(req)
    });
    let Some(encoding) = encoding else {
        let mut res = respond_bytes(req, StatusCode::OK, body);
        vary(&mut res);
        return res;
    };
    let kept_as = key.map(|k| k.encoded(encoding.token()));
    let kept = kept_as.as_ref().and_then(|k| state.responses.get(k));
    let compressed = match kept {
        Some(bytes) => Some(bytes),
        None => {
            let plain = body.clone();
            match web::block(move || encoding.compress(&plain)).await {
                Ok(Ok(bytes)) => {
                    let bytes = Bytes::from(bytes);
                    if let Some(k) = kept_as {
                        state.responses.put(k, bytes.clone());
                    }
                    Some(bytes)
                }
                _ => None,
            }
        }
    };
    let mut res = match compressed {
        Some(bytes) => {
            let mut res = respond_bytes(req, StatusCode::OK, bytes);
            res.headers_mut()
                .insert(CONTENT_ENCODING, HeaderValue::from_static(encoding.token()));
            res
        }
        None => respond_bytes(req, StatusCode::OK, body),
    };
    vary(&mut res);
    res
}

/// A large page kept as its parts: sent from them a piece at a time, unless the client
/// asks for it compressed (kept under `key` once compressed, as any answer) or indented,
/// or as a browsable page, which need it whole.
pub async fn respond_assembled(
    req: &HttpRequest,
    state: &AppState,
    key: Option<Key>,
    parts: PageParts,
) -> HttpResponse {
    if negotiate(req).is_some() || indents(req) || crate::pages::browsable::wants_html(req) {
        let whole = Bytes::from(parts.into_text());
        return respond_cached(req, state, key, whole).await;
    }
    let mut res = crate::respond::respond_parts(parts);
    vary(&mut res);
    res
}

/// Caches between client and server keep one answer per encoding.
fn vary(res: &mut HttpResponse) {
    res.headers_mut()
        .append(VARY, HeaderValue::from_static("Accept-Encoding"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;
    use std::io::Read;

    fn asking(accept: &str) -> Option<Encoding> {
        negotiate(
            &TestRequest::default()
                .insert_header((actix_web::http::header::ACCEPT_ENCODING, accept))
                .to_http_request(),
        )
    }

    #[test]
    fn brotli_first_then_gzip_and_never_a_refused_one() {
        assert_eq!(asking("gzip, deflate, br"), Some(Encoding::Brotli));
        assert_eq!(asking("gzip, br;q=0"), Some(Encoding::Gzip));
        assert_eq!(asking("identity"), None);
        assert_eq!(asking("GZIP"), Some(Encoding::Gzip));
    }

    #[test]
    fn compressed_answers_decompress_to_the_same_bytes() {
        let body = br#"{"results":[{"id":1,"name":"AS 1"}]}"#.repeat(100);
        let gz = Encoding::Gzip.compress(&body).unwrap();
        let mut plain = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut plain)
            .unwrap();
        assert_eq!(plain, body);
        let br = Encoding::Brotli.compress(&body).unwrap();
        let mut plain = Vec::new();
        brotli::Decompressor::new(&br[..], 4096)
            .read_to_end(&mut plain)
            .unwrap();
        assert_eq!(plain, body);
        assert!(br.len() < body.len() / 5);
    }
}
