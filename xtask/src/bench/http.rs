//! A minimal HTTP/1.1 client on `TcpStream`: one request per connection
//! (`Connection: close`), enough to load data and poll the server without an HTTP crate.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

#[derive(Debug, PartialEq)]
pub struct Response {
    pub status: u16,
    pub body: String,
}

/// Sends one request; `body`, if any, is sent as JSON.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> Result<Response, String> {
    let fail = |e: std::io::Error| format!("{method} {path}: {e}");
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).map_err(fail)?;
    // Generous: a bulk create of 1000 objects on a busy 2-core machine takes a while.
    stream
        .set_read_timeout(Some(Duration::from_secs(300)))
        .map_err(fail)?;
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept: application/json\r\n"
    );
    if let Some(token) = token {
        head.push_str(&format!("Authorization: Token {token}\r\n"));
    }
    if let Some(body) = body {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).map_err(fail)?;
    if let Some(body) = body {
        stream.write_all(body.as_bytes()).map_err(fail)?;
    }
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).map_err(fail)?;
    parse_response(&raw).map_err(|e| format!("{method} {path}: {e}"))
}

/// Parses a whole response read until the server closed the connection.
pub fn parse_response(raw: &[u8]) -> Result<Response, String> {
    let head_end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("response without end of headers")?;
    let head = std::str::from_utf8(&raw[..head_end]).map_err(|_| "non-UTF-8 headers")?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let mut parts = status_line.split(' ');
    if !parts.next().unwrap_or_default().starts_with("HTTP/1.") {
        return Err(format!("bad status line {status_line:?}"));
    }
    let status = parts
        .next()
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or_else(|| format!("bad status line {status_line:?}"))?;

    let mut content_length = None;
    let mut chunked = false;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            return Err(format!("bad header line {line:?}"));
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            content_length = Some(
                value
                    .parse::<usize>()
                    .map_err(|_| format!("bad Content-Length {value:?}"))?,
            );
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = value.to_ascii_lowercase().contains("chunked");
        }
    }

    let rest = &raw[head_end + 4..];
    let body = if chunked {
        decode_chunked(rest)?
    } else if let Some(length) = content_length {
        rest.get(..length)
            .ok_or_else(|| format!("body truncated: {} of {length} bytes", rest.len()))?
            .to_vec()
    } else {
        // No length: the body runs to the end of the connection.
        rest.to_vec()
    };
    let body = String::from_utf8(body).map_err(|_| "non-UTF-8 body")?;
    Ok(Response { status, body })
}

fn decode_chunked(mut rest: &[u8]) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    loop {
        let line_end = rest
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("chunked body truncated")?;
        let size_line = std::str::from_utf8(&rest[..line_end]).map_err(|_| "bad chunk size")?;
        // A chunk size may carry `;extensions`.
        let size_hex = size_line.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size_hex, 16)
            .map_err(|_| format!("bad chunk size {size_line:?}"))?;
        rest = &rest[line_end + 2..];
        if size == 0 {
            return Ok(body);
        }
        let chunk = rest.get(..size).ok_or("chunked body truncated")?;
        body.extend_from_slice(chunk);
        rest = rest
            .get(size..)
            .and_then(|r| r.strip_prefix(b"\r\n"))
            .ok_or("chunk not followed by CRLF")?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_length_body() {
        let raw = b"HTTP/1.1 201 Created\r\ncontent-type: application/json\r\nContent-Length: 8\r\n\r\n{\"id\":1}trailing";
        assert_eq!(
            parse_response(raw).unwrap(),
            Response {
                status: 201,
                body: "{\"id\":1}".into()
            }
        );
    }

    #[test]
    fn chunked_body() {
        let raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\n[1,2\r\nA\r\n,3,4,5,6,7\r\n1\r\n]\r\n0\r\n\r\n";
        let response = parse_response(raw).unwrap();
        assert_eq!(response.status, 200);
        assert_eq!(response.body, "[1,2,3,4,5,6,7]");
    }

    #[test]
    fn body_until_close_and_empty_body() {
        let raw = b"HTTP/1.0 404 Not Found\r\nServer: x\r\n\r\nnot here";
        assert_eq!(parse_response(raw).unwrap().body, "not here");
        let raw = b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n";
        assert_eq!(parse_response(raw).unwrap().body, "");
    }

    #[test]
    fn malformed_responses() {
        assert!(parse_response(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n").is_err());
        assert!(parse_response(b"SSH-2.0 hello\r\n\r\n").is_err());
        assert!(parse_response(b"HTTP/1.1 abc OK\r\n\r\n").is_err());
        assert!(parse_response(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nshort").is_err());
        assert!(
            parse_response(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab")
                .is_err()
        );
    }
}
