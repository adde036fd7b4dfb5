//! Who the client is and how it reached us. Behind a reverse proxy, the connection comes
//! from the proxy, which names the client in `X-Forwarded-For` and the scheme in
//! `X-Forwarded-Proto`; anyone can send those headers, so they are believed only from the
//! proxies named by `PEERING_TRUSTED_PROXIES`.

use std::net::IpAddr;

use actix_web::{web, HttpRequest};
use ipnet::IpNet;

use crate::AppState;

fn trusted(req: &HttpRequest) -> &[IpNet] {
    req.app_data::<web::Data<AppState>>()
        .map_or(&[], |s| s.settings.trusted_proxies.as_slice())
}

fn is_trusted(proxies: &[IpNet], ip: IpAddr) -> bool {
    proxies.iter().any(|net| net.contains(&ip))
}

fn peer(req: &HttpRequest) -> Option<IpAddr> {
    req.peer_addr().map(|a| a.ip())
}

/// The client's address: the connection's peer, or, when the peer is a trusted proxy,
/// the nearest address in `X-Forwarded-For` that is not one of our proxies.
pub fn address(req: &HttpRequest) -> Option<IpAddr> {
    let peer = peer(req)?;
    let proxies = trusted(req);
    if !is_trusted(proxies, peer) {
        return Some(peer);
    }
    let forwarded: Vec<IpAddr> = req
        .headers()
        .get_all("x-forwarded-for")
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|a| a.trim().parse().ok())
        .collect();
    // Each proxy appends the address it saw: read from the right, past our own proxies.
    Some(
        forwarded
            .iter()
            .rev()
            .find(|ip| !is_trusted(proxies, **ip))
            .or(forwarded.first())
            .copied()
            .unwrap_or(peer),
    )
}

/// `http` or `https`: what the client used, as a trusted proxy reports it.
pub fn scheme(req: &HttpRequest) -> &'static str {
    let from_proxy = peer(req).is_some_and(|ip| is_trusted(trusted(req), ip));
    let proto = req
        .headers()
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .map(|v| v.split(',').next().unwrap_or("").trim());
    match proto {
        Some(p) if from_proxy && p.eq_ignore_ascii_case("https") => "https",
        _ => "http",
    }
}

/// The host the client asked for (the `Host` header; a proxy passes it on).
pub fn host(req: &HttpRequest) -> String {
    req.headers()
        .get(actix_web::http::header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .or_else(|| req.uri().authority().map(|a| a.to_string()))
        .unwrap_or_else(|| req.app_config().host().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn request(peer: &str, forwarded: Option<&str>, proto: Option<&str>) -> HttpRequest {
        let db = peering_store::testing::TestDatabase::sqlite();
        let store = peering_store::Store::open(&db.url, 1).expect("store");
        let settings = crate::Settings {
            trusted_proxies: vec!["10.0.0.0/8".parse().unwrap()],
            ..crate::Settings::default()
        };
        let mut r = TestRequest::default()
            .peer_addr(peer.parse().unwrap())
            .app_data(web::Data::new(AppState::new(store, settings)));
        if let Some(f) = forwarded {
            r = r.insert_header(("X-Forwarded-For", f));
        }
        if let Some(p) = proto {
            r = r.insert_header(("X-Forwarded-Proto", p));
        }
        r.to_http_request()
    }

    #[test]
    fn forwarded_headers_count_only_from_trusted_proxies() {
        let direct = request("203.0.113.9:5000", Some("198.51.100.1"), Some("https"));
        assert_eq!(address(&direct), Some("203.0.113.9".parse().unwrap()));
        assert_eq!(scheme(&direct), "http");
        let proxied = request(
            "10.0.0.2:5000",
            Some("192.0.2.66, 198.51.100.1, 10.0.0.3"),
            Some("https"),
        );
        // The client may have written the first address itself: the last one our
        // proxies did not add is the one that connected to them.
        assert_eq!(address(&proxied), Some("198.51.100.1".parse().unwrap()));
        assert_eq!(scheme(&proxied), "https");
        let without = request("10.0.0.2:5000", None, None);
        assert_eq!(address(&without), Some("10.0.0.2".parse().unwrap()));
    }
}
