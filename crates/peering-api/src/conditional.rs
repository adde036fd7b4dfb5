//! Conditional requests on single objects: a read answers with an `ETag`, and `304 Not
//! Modified` when the client already holds that version (`If-None-Match`); a write with
//! `If-Match` is refused with a 412 when the object changed since the client read it, so
//! that two editors do not overwrite each other unknowingly.

use actix_web::http::header;
use actix_web::HttpRequest;

/// The entity tag of a representation: a hash of its bytes, the same on every instance
/// and build. XXH3 is made to tell contents apart (a changed object gets another tag, so
/// that `If-Match` catches the change) at memory speed, where SipHash took 3% of a detail's
/// time.
pub fn etag(body: &[u8]) -> String {
    format!("\"{:016x}\"", xxhash_rust::xxh3::xxh3_64(body))
}

/// The tags listed in a request header, weak ones compared by their value.
fn listed(req: &HttpRequest, name: header::HeaderName) -> Option<Vec<String>> {
    let values: Vec<String> = req
        .headers()
        .get_all(name)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/").to_string())
        .filter(|t| !t.is_empty())
        .collect();
    (!values.is_empty()).then_some(values)
}

/// Whether `If-None-Match` names `etag` (or `*`): the client's copy is current.
pub fn not_modified(req: &HttpRequest, etag: &str) -> bool {
    listed(req, header::IF_NONE_MATCH)
        .is_some_and(|tags| tags.iter().any(|t| t == "*" || t == etag))
}

/// The tags of `If-Match`, if the request has one other than `*` (which any existing
/// object matches).
pub fn required(req: &HttpRequest) -> Option<Vec<String>> {
    listed(req, header::IF_MATCH).filter(|tags| !tags.iter().any(|t| t == "*"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn tags_are_compared_by_value() {
        let tag = etag(b"{\"id\":1}");
        assert_eq!(tag, etag(b"{\"id\":1}"));
        assert_ne!(tag, etag(b"{\"id\":2}"));
        let req = TestRequest::default()
            .insert_header((header::IF_NONE_MATCH, format!("\"x\", W/{tag}")))
            .to_http_request();
        assert!(not_modified(&req, &tag));
        let any = TestRequest::default()
            .insert_header((header::IF_MATCH, "*"))
            .to_http_request();
        assert_eq!(required(&any), None);
        let given = TestRequest::default()
            .insert_header((header::IF_MATCH, tag.clone()))
            .to_http_request();
        assert_eq!(required(&given), Some(vec![tag]));
    }
}
