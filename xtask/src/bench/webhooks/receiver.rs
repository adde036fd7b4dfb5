//! The receiver the bench's webhooks point at: a small HTTP/1.1 server on 127.0.0.1 (port
//! 0) that answers `200` at once to every request, keeps connections alive as clients ask,
//! and counts the requests, and those signed with `X-Hook-Signature`.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// A request's head may not be longer (a delivery's is a few hundred bytes).
const MAX_HEAD: usize = 64 * 1024;
/// Nor its body: a change's payload is a few kilobytes.
const MAX_BODY: u64 = 16 * 1024 * 1024;
/// How often an idle connection looks whether the receiver is stopping.
const IDLE_POLL: Duration = Duration::from_millis(200);

#[derive(Default)]
struct Counters {
    requests: AtomicU64,
    signed: AtomicU64,
    stopping: AtomicBool,
}

pub struct Receiver {
    pub addr: SocketAddr,
    counters: Arc<Counters>,
    accept: Option<JoinHandle<()>>,
}

impl Receiver {
    /// Listens on 127.0.0.1, on a port the system picks.
    pub fn start() -> Result<Receiver, String> {
        let listener = TcpListener::bind("127.0.0.1:0")
            .map_err(|e| format!("webhook receiver: cannot listen on 127.0.0.1: {e}"))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("webhook receiver: {e}"))?;
        let counters = Arc::new(Counters::default());
        let accept = {
            let counters = counters.clone();
            std::thread::spawn(move || accept_until_stopped(&listener, &counters))
        };
        Ok(Receiver {
            addr,
            counters,
            accept: Some(accept),
        })
    }

    /// Requests answered so far.
    pub fn requests(&self) -> u64 {
        self.counters.requests.load(Ordering::Relaxed)
    }

    /// Requests that carried an `X-Hook-Signature` header.
    pub fn signed(&self) -> u64 {
        self.counters.signed.load(Ordering::Relaxed)
    }

    /// The URL of webhook `n`: one path each, as the webhooks must differ by their URL.
    pub fn url(&self, n: u32) -> String {
        format!("http://{}/hook/{n}", self.addr)
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.counters.stopping.store(true, Ordering::Relaxed);
        // Wakes the accept loop, which then sees it is stopping.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
    }
}

fn accept_until_stopped(listener: &TcpListener, counters: &Arc<Counters>) {
    let mut connections = Vec::new();
    for stream in listener.incoming() {
        if counters.stopping.load(Ordering::Relaxed) {
            break;
        }
        let Ok(stream) = stream else { continue };
        let counters = counters.clone();
        connections.push(std::thread::spawn(move || {
            let _ = serve(stream, &counters);
        }));
        connections.retain(|c: &JoinHandle<()>| !c.is_finished());
    }
    // Each connection sees the flag within IDLE_POLL of its last request.
    for connection in connections {
        let _ = connection.join();
    }
}

/// Answers the requests of one connection until the client closes it, asks to, or the
/// receiver stops.
fn serve(stream: TcpStream, counters: &Counters) -> Result<(), String> {
    stream
        .set_read_timeout(Some(IDLE_POLL))
        .map_err(|e| e.to_string())?;
    let mut writer = stream.try_clone().map_err(|e| e.to_string())?;
    let mut reader = BufReader::new(stream);
    loop {
        let Some(head) = read_head(&mut reader, &counters.stopping)? else {
            return Ok(());
        };
        skip_body(&mut reader, &head, &counters.stopping)?;
        counters.requests.fetch_add(1, Ordering::Relaxed);
        if head.signed {
            counters.signed.fetch_add(1, Ordering::Relaxed);
        }
        let connection = if head.close { "close" } else { "keep-alive" };
        let answer =
            format!("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: {connection}\r\n\r\n");
        writer
            .write_all(answer.as_bytes())
            .map_err(|e| e.to_string())?;
        if head.close {
            return Ok(());
        }
    }
}

/// What the receiver needs of a request's head.
#[derive(Debug, Default, PartialEq)]
struct Head {
    content_length: u64,
    chunked: bool,
    close: bool,
    signed: bool,
}

/// Reads a request's head; `None` when the client closed the connection between requests,
/// or the receiver is stopping.
fn read_head(reader: &mut impl BufRead, stopping: &AtomicBool) -> Result<Option<Head>, String> {
    let mut lines: Vec<String> = Vec::new();
    let (mut line, mut size) = (String::new(), 0);
    loop {
        match reader.read_line(&mut line) {
            Ok(0) if lines.is_empty() && line.is_empty() => return Ok(None),
            Ok(0) => return Err("connection closed inside a request head".into()),
            Ok(_) if line.ends_with('\n') => {
                size += line.len();
                let text = line.trim_end_matches(['\r', '\n']).to_string();
                line.clear();
                match (text.is_empty(), lines.is_empty()) {
                    // A stray CRLF between requests, as RFC 9112 allows.
                    (true, true) => {}
                    (true, false) => return parse_head(&lines).map(Some),
                    (false, _) => lines.push(text),
                }
            }
            Ok(_) => {}
            // What was read before the timeout stays in `line` for the next read.
            Err(e) if is_timeout(&e) && stopping.load(Ordering::Relaxed) => return Ok(None),
            Err(e) if is_timeout(&e) => {}
            Err(e) => return Err(e.to_string()),
        }
        if size + line.len() > MAX_HEAD {
            return Err("request head too long".into());
        }
    }
}

fn is_timeout(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}

/// The request line and header lines, without their CRLF.
fn parse_head(lines: &[String]) -> Result<Head, String> {
    let request_line = lines.first().map(String::as_str).unwrap_or_default();
    let version = request_line.rsplit(' ').next().unwrap_or_default();
    if !version.starts_with("HTTP/1.") {
        return Err(format!("bad request line {request_line:?}"));
    }
    let mut head = Head {
        // HTTP/1.0 closes after each request unless asked otherwise.
        close: version == "HTTP/1.0",
        ..Head::default()
    };
    for line in &lines[1..] {
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| format!("bad header line {line:?}"))?;
        let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
        match name.as_str() {
            "content-length" => {
                head.content_length = value
                    .parse()
                    .map_err(|_| format!("bad Content-Length {value:?}"))?;
            }
            "transfer-encoding" => head.chunked = value.to_ascii_lowercase().contains("chunked"),
            "connection" => head.close = value.eq_ignore_ascii_case("close"),
            "x-hook-signature" => head.signed = !value.is_empty(),
            _ => {}
        }
    }
    if head.content_length > MAX_BODY {
        return Err("request body too long".into());
    }
    Ok(head)
}

/// Reads past a request's body, which the receiver does not keep.
fn skip_body(reader: &mut impl BufRead, head: &Head, stopping: &AtomicBool) -> Result<(), String> {
    if !head.chunked {
        return copy_exactly(reader, head.content_length, stopping);
    }
    let mut total = 0;
    loop {
        let mut size_line = String::new();
        read_line_waiting(reader, &mut size_line, stopping)?;
        let hex = size_line.split(';').next().unwrap_or_default().trim();
        let size = u64::from_str_radix(hex, 16).map_err(|_| format!("bad chunk {hex:?}"))?;
        total += size;
        if total > MAX_BODY {
            return Err("request body too long".into());
        }
        if size == 0 {
            // Trailers, if any, then the empty line.
            loop {
                let mut line = String::new();
                read_line_waiting(reader, &mut line, stopping)?;
                if line.trim_end_matches(['\r', '\n']).is_empty() {
                    return Ok(());
                }
            }
        }
        copy_exactly(reader, size + 2, stopping)?; // The chunk and its CRLF.
    }
}

/// Reads one whole line, waiting for it unless the receiver is stopping.
fn read_line_waiting(
    reader: &mut impl BufRead,
    line: &mut String,
    stopping: &AtomicBool,
) -> Result<(), String> {
    loop {
        match reader.read_line(line) {
            Ok(0) => return Err("connection closed inside a request body".into()),
            Ok(_) if line.ends_with('\n') => return Ok(()),
            Ok(_) => {}
            Err(e) if is_timeout(&e) && !stopping.load(Ordering::Relaxed) => {}
            Err(e) => return Err(e.to_string()),
        }
        if line.len() > MAX_HEAD {
            return Err("chunk line too long".into());
        }
    }
}

/// Reads `left` bytes and drops them, waiting for them unless the receiver is stopping.
fn copy_exactly(
    reader: &mut impl BufRead,
    mut left: u64,
    stopping: &AtomicBool,
) -> Result<(), String> {
    let mut buffer = [0u8; 8192];
    while left > 0 {
        let want = buffer
            .len()
            .min(usize::try_from(left).unwrap_or(usize::MAX));
        match reader.read(&mut buffer[..want]) {
            Ok(0) => return Err("connection closed inside a request body".into()),
            Ok(n) => left -= n as u64,
            Err(e) if is_timeout(&e) && !stopping.load(Ordering::Relaxed) => {}
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
