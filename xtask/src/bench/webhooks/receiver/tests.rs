//! The receiver against a real client on 127.0.0.1: answers, keep-alive, counting, limits.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::*;

fn connect(receiver: &Receiver) -> TcpStream {
    let stream = TcpStream::connect(receiver.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    stream
}

/// Reads one response's head and returns its status line.
fn read_answer(reader: &mut impl BufRead) -> String {
    let mut status = String::new();
    reader.read_line(&mut status).unwrap();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        if line == "\r\n" {
            return status.trim_end().to_string();
        }
    }
}

/// Waits until the receiver's count reaches `n` (it counts before it answers, so this is
/// immediate after an answer was read).
fn requests_reach(receiver: &Receiver, n: u64) -> bool {
    let started = Instant::now();
    while receiver.requests() < n && started.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(5));
    }
    receiver.requests() == n
}

#[test]
fn counts_requests_of_a_keep_alive_client_and_answers_200() {
    let receiver = Receiver::start().unwrap();
    assert!(receiver.url(2).starts_with("http://127.0.0.1:"));
    assert!(receiver.url(2).ends_with("/hook/2"));
    let stream = connect(&receiver);
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    let body = r#"{"event":"created","model":"autonomoussystem"}"#;
    let requests = [
        format!(
            "POST /hook/0 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Hook-Signature: abc\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
        "POST /hook/1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n6\r\n world\r\n0\r\nTrailer: y\r\n\r\n".to_string(),
        "GET /hook/0 HTTP/1.1\r\nHost: x\r\n\r\n".to_string(),
    ];
    for (i, request) in requests.iter().enumerate() {
        // Sent in two parts, as a client's writes may arrive.
        let (first, second) = request.split_at(request.len() / 2);
        writer.write_all(first.as_bytes()).unwrap();
        writer.flush().unwrap();
        std::thread::sleep(Duration::from_millis(20));
        writer.write_all(second.as_bytes()).unwrap();
        assert_eq!(read_answer(&mut reader), "HTTP/1.1 200 OK");
        assert!(requests_reach(&receiver, i as u64 + 1));
    }
    assert_eq!(receiver.signed(), 1);
    // A second client is counted too, and closing is honoured.
    let mut other = connect(&receiver);
    other
        .write_all(b"POST /hook/1 HTTP/1.1\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}")
        .unwrap();
    let mut answer = String::new();
    other.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
    assert!(answer.contains("Connection: close"));
    assert!(requests_reach(&receiver, 4));
    // The first client is still connected, idle: stopping does not wait for it.
    let started = Instant::now();
    drop(receiver);
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[test]
fn heads_are_parsed_for_what_the_receiver_needs() {
    let lines = |text: &str| text.lines().map(String::from).collect::<Vec<_>>();
    let head = parse_head(&lines(
        "POST /hook/0 HTTP/1.1\ncontent-length: 12\nCONNECTION: Close\nx-hook-signature: 0f",
    ))
    .unwrap();
    assert_eq!(
        head,
        Head {
            content_length: 12,
            chunked: false,
            close: true,
            signed: true
        }
    );
    assert!(parse_head(&lines("GET / HTTP/1.0")).unwrap().close);
    assert!(!parse_head(&lines("GET / HTTP/1.1")).unwrap().close);
    assert!(parse_head(&lines("GET / SPDY/3")).is_err());
    assert!(parse_head(&lines("GET / HTTP/1.1\nno colon here")).is_err());
    assert!(parse_head(&lines("GET / HTTP/1.1\nContent-Length: many")).is_err());
    let too_big = format!("POST / HTTP/1.1\nContent-Length: {}", MAX_BODY + 1);
    assert!(parse_head(&lines(&too_big)).is_err());
}

#[test]
fn a_head_without_end_is_refused_at_the_limit() {
    let receiver = Receiver::start().unwrap();
    let mut stream = connect(&receiver);
    stream.write_all(b"POST / HTTP/1.1\r\n").unwrap();
    let header = format!("X-Filler: {}\r\n", "a".repeat(1000));
    for _ in 0..(MAX_HEAD / header.len() + 1) {
        if stream.write_all(header.as_bytes()).is_err() {
            break;
        }
    }
    // The receiver drops the connection without answering or counting.
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    assert!(answer.is_empty());
    assert_eq!(receiver.requests(), 0);
}
