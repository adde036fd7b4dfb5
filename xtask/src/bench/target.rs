//! A server under measurement: ours, started by the harness, or another one of the same API
//! given by `--against URL --token T`. Either way it listens on the loopback interface.

use std::net::{IpAddr, Ipv4Addr, SocketAddr, ToSocketAddrs};

use serde_json::Value;

use super::http;

pub struct Target {
    pub addr: SocketAddr,
    /// Prefix of every path, e.g. `/peering` when the API is at `/peering/api/`; often empty.
    pub base_path: String,
    pub token: String,
}

impl Target {
    pub fn local(addr: SocketAddr, token: &str) -> Target {
        Target {
            addr,
            base_path: String::new(),
            token: token.into(),
        }
    }

    /// The server `--against` names; refuses anything but plain HTTP on loopback, as all
    /// measurement stays on this machine.
    pub fn against(url: &str, token: &str) -> Result<Target, String> {
        let (addr, base_path) = parse_loopback_url(url)?;
        Ok(Target {
            addr,
            base_path,
            token: token.into(),
        })
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}{path}", self.addr, self.base_path)
    }

    pub fn send(
        &self,
        method: &str,
        path: &str,
        body: Option<&str>,
    ) -> Result<http::Response, String> {
        let path = format!("{}{path}", self.base_path);
        http::request(self.addr, method, &path, Some(&self.token), body)
    }

    /// GETs a JSON object, failing on any status but 200.
    pub fn get_json(&self, path: &str) -> Result<Value, String> {
        let response = self.send("GET", path, None)?;
        if response.status != 200 {
            return Err(format!(
                "GET {} answered {}: {}",
                self.url(path),
                response.status,
                truncate(&response.body, 500)
            ));
        }
        serde_json::from_str(&response.body)
            .map_err(|e| format!("GET {}: invalid JSON: {e}", self.url(path)))
    }

    /// POSTs a JSON array (a bulk create) and returns the new objects' ids, in order.
    pub fn create_many(&self, path: &str, items: &[Value]) -> Result<Vec<i64>, String> {
        let body = serde_json::to_string(items).expect("JSON values serialize");
        let response = self.send("POST", path, Some(&body))?;
        if response.status != 201 {
            return Err(format!(
                "POST {path} answered {} instead of 201: {}",
                response.status,
                truncate(&response.body, 1000)
            ));
        }
        ids_of(&response.body, items.len()).ok_or_else(|| {
            format!(
                "POST {path}: expected an array of {} objects with ids, got: {}",
                items.len(),
                truncate(&response.body, 500)
            )
        })
    }
}

/// The ids of a bulk answer, when it holds exactly `expected` objects that all have one.
pub fn ids_of(body: &str, expected: usize) -> Option<Vec<i64>> {
    let created: Value = serde_json::from_str(body).ok()?;
    let ids: Vec<i64> = created
        .as_array()?
        .iter()
        .map(|o| o["id"].as_i64())
        .collect::<Option<_>>()?;
    (ids.len() == expected).then_some(ids)
}

pub fn truncate(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

/// `http://HOST:PORT[/base]` with a loopback host, as an address and a base path without
/// its trailing slash (and without a trailing `/api`, which every request path carries).
fn parse_loopback_url(url: &str) -> Result<(SocketAddr, String), String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("--against {url:?}: only http:// URLs are supported"))?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) if !port.contains(']') => (
            host,
            port.parse::<u16>()
                .map_err(|_| format!("--against {url:?}: bad port {port:?}"))?,
        ),
        _ => (authority, 80),
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let ip = match host {
        "localhost" => IpAddr::V4(Ipv4Addr::LOCALHOST),
        _ => host.parse::<IpAddr>().map_err(|_| {
            format!("--against {url:?}: the host must be an IP address or localhost")
        })?,
    };
    if !ip.is_loopback() {
        return Err(format!(
            "--against {url:?}: the benchmark talks to loopback addresses only (127.0.0.0/8, ::1)"
        ));
    }
    let addr = (ip, port)
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .ok_or_else(|| format!("--against {url:?}: bad address"))?;
    let base = path.trim_end_matches('/');
    let base = base.strip_suffix("/api").unwrap_or(base);
    Ok((addr, base.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_urls() {
        let parsed = |url| parse_loopback_url(url).map(|(a, b)| (a.to_string(), b));
        assert_eq!(
            parsed("http://127.0.0.1:8001"),
            Ok(("127.0.0.1:8001".into(), "".into()))
        );
        assert_eq!(
            parsed("http://localhost:8001/"),
            Ok(("127.0.0.1:8001".into(), "".into()))
        );
        assert_eq!(
            parsed("http://127.0.0.2/pm/api/"),
            Ok(("127.0.0.2:80".into(), "/pm".into()))
        );
        assert_eq!(
            parsed("http://[::1]:9000/api"),
            Ok(("[::1]:9000".into(), "".into()))
        );
        assert!(parsed("http://192.0.2.1:8000").is_err());
        assert!(parsed("http://example.net:8000").is_err());
        assert!(parsed("https://127.0.0.1:8000").is_err());
        assert!(parsed("http://127.0.0.1:port").is_err());
    }

    #[test]
    fn ids_of_a_bulk_answer() {
        assert_eq!(ids_of(r#"[{"id":3},{"id":4}]"#, 2), Some(vec![3, 4]));
        assert_eq!(ids_of(r#"[{"id":3}]"#, 2), None);
        assert_eq!(ids_of(r#"[{"id":"x"}]"#, 1), None);
        assert_eq!(ids_of(r#"{"id":3}"#, 1), None);
    }
}
