//! A webhook receiver on 127.0.0.1 (port 0): it records each request's method, path,
//! headers and body, and answers as told: 200, 500 a number of times first, or never
//! (it holds the connection until it is dropped). A small HTTP/1.1 server on std's
//! sockets, one thread per connection, each answer closing its connection.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How the receiver answers.
#[derive(Debug, Clone, Copy)]
pub enum Answers {
    Ok,
    /// 500 to the first `n` requests, then 200.
    FailFirst(usize),
    /// Never: reads the request and waits until the receiver is dropped.
    Never,
}

#[derive(Debug, Clone)]
pub struct Received {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub at: Instant,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }
}

struct Shared {
    answers: Answers,
    received: Mutex<Vec<Received>>,
    seen: AtomicUsize,
    stop: AtomicBool,
}

pub struct Receiver {
    /// `http://127.0.0.1:port`.
    pub base: String,
    shared: Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Receiver {
    pub fn start(answers: Answers) -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let base = format!("http://{}", listener.local_addr().expect("address"));
        let shared = Arc::new(Shared {
            answers,
            received: Mutex::new(Vec::new()),
            seen: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        });
        let accepting = shared.clone();
        let thread = std::thread::spawn(move || accept(&listener, &accepting));
        Receiver {
            base,
            shared,
            thread: Some(thread),
        }
    }

    pub fn received(&self) -> Vec<Received> {
        self.shared.received.lock().unwrap().clone()
    }

    /// Waits until `n` requests arrived (at most `within`); the requests.
    pub fn wait_for(&self, n: usize, within: Duration) -> Vec<Received> {
        let deadline = Instant::now() + within;
        loop {
            let received = self.received();
            if received.len() >= n {
                return received;
            }
            assert!(
                Instant::now() < deadline,
                "{} request(s) of {n} arrived",
                received.len()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn accept(listener: &TcpListener, shared: &Arc<Shared>) {
    let mut connections = Vec::new();
    while !shared.stop.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, _)) => {
                let shared = shared.clone();
                connections.push(std::thread::spawn(move || serve(stream, &shared)));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(5)),
        }
    }
    for connection in connections {
        let _ = connection.join();
    }
}

fn serve(stream: TcpStream, shared: &Shared) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let Some(request) = read_request(&stream) else {
        return;
    };
    let n = shared.seen.fetch_add(1, Ordering::SeqCst);
    shared.received.lock().unwrap().push(request);
    let status = match shared.answers {
        Answers::Ok => "200 OK",
        Answers::FailFirst(failures) if n < failures => "500 Internal Server Error",
        Answers::FailFirst(_) => "200 OK",
        Answers::Never => {
            while !shared.stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(10));
            }
            return;
        }
    };
    let body = if status.starts_with("500") {
        "receiver down"
    } else {
        "ok"
    };
    let mut stream = stream;
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
}

fn read_request(stream: &TcpStream) -> Option<Received> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.push((name.trim().to_string(), value.trim().to_string()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length.min(1 << 20)];
    reader.read_exact(&mut body).ok()?;
    Some(Received {
        method,
        path,
        headers,
        body,
        at: Instant::now(),
    })
}
