//! The fake PeeringDB's full answers, recorded before a timed synchronisation and replayed
//! byte for byte on 127.0.0.1, so that the clock measures peeringd and not the fake
//! generating tens of megabytes of JSON (xtask, and the fake with it, is built without
//! optimisation, and shares the machine's cores with peeringd). Any other request (an
//! incremental synchronisation's `since=`) goes through to the fake, which answers it
//! from its data as it is then.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use peeringdb_fake::{FakePeeringDb, NAMESPACES};

/// A replaying front of a fake PeeringDB; it stops accepting when dropped.
pub struct Replay {
    /// The API's base (`…/api`), as `PEERING_PEERINGDB_URL` takes it.
    pub url: String,
    /// The recorded answers' size, headers included.
    pub bytes: u64,
    stop: Arc<AtomicBool>,
    addr: SocketAddr,
}

impl Replay {
    /// Records the fake's answer to `GET /api/{type}?since=0&depth=0` for every object
    /// type, then serves on a free port of 127.0.0.1.
    pub fn start(fake: &FakePeeringDb) -> Result<Replay, String> {
        let (fake_addr, base) = split_url(&fake.url)?;
        let mut recorded = HashMap::new();
        for namespace in NAMESPACES {
            let target = format!("{base}/{namespace}?since=0&depth=0");
            let raw = fetch(fake_addr, &target)?;
            if !raw.starts_with(b"HTTP/1.1 200 ") {
                let head = String::from_utf8_lossy(&raw[..raw.len().min(200)]).into_owned();
                return Err(format!(
                    "the fake PeeringDB answered {target} with {head:?}"
                ));
            }
            recorded.insert(namespace.to_string(), raw);
        }
        let bytes = recorded.values().map(|raw| raw.len() as u64).sum();
        let listener = TcpListener::bind("127.0.0.1:0")
            .map_err(|e| format!("cannot listen on 127.0.0.1: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let stop = Arc::new(AtomicBool::new(false));
        let (recorded, stopped) = (Arc::new(recorded), stop.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopped.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let recorded = recorded.clone();
                std::thread::spawn(move || {
                    if let Err(e) = serve(stream, &recorded, fake_addr) {
                        eprintln!("   replay of the fake PeeringDB: {e}");
                    }
                });
            }
        });
        Ok(Replay {
            url: format!("http://{addr}{base}"),
            bytes,
            stop,
            addr,
        })
    }
}

impl Drop for Replay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accepting thread so that it sees the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
    }
}

/// `http://127.0.0.1:port/api` as the address and the base path.
fn split_url(url: &str) -> Result<(SocketAddr, String), String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("not a plain HTTP URL: {url}"))?;
    let (authority, base) = rest.split_once('/').unwrap_or((rest, ""));
    let addr = authority
        .parse()
        .map_err(|e| format!("not an address in {url}: {e}"))?;
    Ok((addr, format!("/{base}").trim_end_matches('/').to_string()))
}

/// One request's whole raw answer, read until the server closes the connection, as the
/// fake ends its answers.
fn fetch(addr: SocketAddr, target: &str) -> Result<Vec<u8>, String> {
    let fail = |e: std::io::Error| format!("GET {target} from the fake PeeringDB: {e}");
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).map_err(fail)?;
    write!(
        stream,
        "GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .map_err(fail)?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).map_err(fail)?;
    Ok(raw)
}

/// Answers one request: a recorded answer for a full download, else the fake's.
fn serve(
    stream: TcpStream,
    recorded: &HashMap<String, Vec<u8>>,
    fake: SocketAddr,
) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .map_err(io)?;
    let mut reader = BufReader::new(stream.try_clone().map_err(io)?);
    let mut line = String::new();
    reader.read_line(&mut line).map_err(io)?;
    let target = line.split_whitespace().nth(1).unwrap_or("/").to_string();
    // The rest of the head says nothing the answer depends on.
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).map_err(io)? == 0 || header.trim().is_empty() {
            break;
        }
    }
    let mut out = stream;
    match recorded_for(&target).and_then(|namespace| recorded.get(namespace)) {
        Some(raw) => out.write_all(raw).map_err(io)?,
        None => out.write_all(&fetch(fake, &target)?).map_err(io)?,
    }
    out.flush().map_err(io)
}

/// The object type of a request for all of its objects (no `since`, or `since=0`).
fn recorded_for(target: &str) -> Option<&str> {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let since = query.split('&').find_map(|p| p.strip_prefix("since="));
    let everything = since.is_none_or(|s| s.parse::<i64>().is_ok_and(|s| s <= 0));
    everything.then(|| path.trim_end_matches('/').rsplit('/').next().unwrap_or(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_downloads_are_recorded_and_the_rest_goes_through() {
        assert_eq!(recorded_for("/api/net?since=0&depth=0"), Some("net"));
        assert_eq!(recorded_for("/api/netixlan/?depth=0"), Some("netixlan"));
        assert_eq!(recorded_for("/api/net?since=1767225601&depth=0"), None);
    }

    #[test]
    fn fake_urls() {
        let (addr, base) = split_url("http://127.0.0.1:8080/api").unwrap();
        assert_eq!((addr.port(), base.as_str()), (8080, "/api"));
        assert_eq!(split_url("http://127.0.0.1:1/").unwrap().1, "");
        assert!(split_url("https://127.0.0.1:1/api").is_err());
    }
}
