//! A webhook receiver on 127.0.0.1 (port 0): it records each request's method, path,
//! headers and body, and answers as told: 200, 500 a number of times first, or never
//! (it holds the connection until it is dropped). A small HTTP/1.1 server on std's
//! sockets, one thread per connection, each answer closing its connection; over TLS with
//! the test fixtures' certificate for `localhost` and 127.0.0.1 (signed by their CA,
//! `ca_file()`) when started with [`Receiver::start_tls`].

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How the receiver answers.
#[derive(Debug, Clone)]
pub enum Answers {
    Ok,
    /// A redirect to this location for the path `/moved/`, 200 for any other.
    Redirect(String),
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

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/email");

/// The CA that signed the TLS receiver's certificate.
pub fn ca_file() -> String {
    format!("{FIXTURES}/ca.pem")
}

fn tls_config() -> Arc<rustls::ServerConfig> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let certs: Vec<CertificateDer<'static>> =
        CertificateDer::pem_file_iter(format!("{FIXTURES}/server.pem"))
            .expect("server.pem")
            .collect::<Result<_, _>>()
            .expect("certificates");
    let key = PrivateKeyDer::from_pem_file(format!("{FIXTURES}/server.key")).expect("key");
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("versions")
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .expect("server config");
    Arc::new(config)
}

struct Shared {
    tls: Option<Arc<rustls::ServerConfig>>,
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
        Receiver::start_with(answers, None)
    }

    /// A receiver over HTTPS, at `https://127.0.0.1:port`.
    pub fn start_tls(answers: Answers) -> Receiver {
        Receiver::start_with(answers, Some(tls_config()))
    }

    fn start_with(answers: Answers, tls: Option<Arc<rustls::ServerConfig>>) -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let scheme = if tls.is_some() { "https" } else { "http" };
        let base = format!("{scheme}://{}", listener.local_addr().expect("address"));
        let shared = Arc::new(Shared {
            tls,
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
    match &shared.tls {
        Some(config) => {
            let Ok(connection) = rustls::ServerConnection::new(config.clone()) else {
                return;
            };
            answer(rustls::StreamOwned::new(connection, stream), shared);
        }
        None => answer(stream, shared),
    }
}

fn answer<S: Read + Write>(mut stream: S, shared: &Shared) {
    let Some(request) = read_request(&mut stream) else {
        return;
    };
    let n = shared.seen.fetch_add(1, Ordering::SeqCst);
    let path = request.path.clone();
    shared.received.lock().unwrap().push(request);
    let status = match &shared.answers {
        Answers::Redirect(location) if path == "/moved/" => {
            let _ = write!(
                stream,
                "HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
            let _ = stream.flush();
            return;
        }
        Answers::Ok | Answers::Redirect(_) => "200 OK",
        Answers::FailFirst(failures) if n < *failures => "500 Internal Server Error",
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

fn read_request<S: Read>(stream: &mut S) -> Option<Received> {
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
