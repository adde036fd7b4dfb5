//! A smart-HTTP Git server on 127.0.0.1 (port 0) for the data source tests: Git's own
//! `git http-backend` run as a CGI program for each request, behind a small HTTP/1.1
//! adapter on std's sockets (one thread per connection, each answer closing its
//! connection). It may ask for a Basic account, send every request elsewhere once
//! authenticated, or never answer; it records each request's method, path and
//! `Authorization`. Dropping it stops the listener and every connection's thread.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// How the server answers.
#[derive(Debug, Clone)]
pub enum Behaviour {
    /// Serves the repositories under its root to anyone.
    Serve,
    /// Serves them to this account (user, password) only: 401 asking for Basic otherwise.
    Account(String, String),
    /// Asks for this account as `Account` does, then answers a request that gives it with
    /// a redirect to the same path under this base (`http://127.0.0.1:port`).
    RedirectTo(String, String, String),
    /// Reads each request and never answers, holding the connection until dropped.
    Never,
}

/// A request as it arrived.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub path: String,
    pub authorization: Option<String>,
}

struct Shared {
    root: PathBuf,
    behaviour: Behaviour,
    seen: Mutex<Vec<Seen>>,
    stop: AtomicBool,
    connections: Mutex<Vec<JoinHandle<()>>>,
}

pub struct GitServer {
    /// `http://127.0.0.1:port`.
    pub base: String,
    shared: Arc<Shared>,
    accepting: Option<JoinHandle<()>>,
}

impl GitServer {
    /// A server of the repositories under `root` (each at `/<its directory name>`).
    pub fn start(root: PathBuf, behaviour: Behaviour) -> GitServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("address"));
        let shared = Arc::new(Shared {
            root,
            behaviour,
            seen: Mutex::new(Vec::new()),
            stop: AtomicBool::new(false),
            connections: Mutex::new(Vec::new()),
        });
        let accepting = {
            let shared = shared.clone();
            std::thread::spawn(move || accept(&listener, &shared))
        };
        GitServer {
            base,
            shared,
            accepting: Some(accepting),
        }
    }

    /// The requests received so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.shared.seen.lock().expect("requests").clone()
    }
}

impl Drop for GitServer {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // Wakes the blocking accept so that its thread sees the stop.
        let _ = TcpStream::connect(self.base.trim_start_matches("http://"));
        if let Some(accepting) = self.accepting.take() {
            let _ = accepting.join();
        }
        let connections = std::mem::take(&mut *self.shared.connections.lock().expect("threads"));
        for connection in connections {
            let _ = connection.join();
        }
    }
}

fn accept(listener: &TcpListener, shared: &Arc<Shared>) {
    for stream in listener.incoming() {
        if shared.stop.load(Ordering::SeqCst) {
            return;
        }
        let Ok(stream) = stream else { continue };
        let shared_for_connection = shared.clone();
        let thread = std::thread::spawn(move || {
            // A client that went away is not the test's failure; the test sees the job.
            let _ = serve(stream, &shared_for_connection);
        });
        shared.connections.lock().expect("threads").push(thread);
    }
}

/// An answer's status, headers and body.
type Answer = (String, Vec<(String, String)>, Vec<u8>);

/// A request line, its headers and its body (a chunked one decoded).
struct Request {
    method: String,
    target: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn serve(stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let request = read_request(&mut reader)?;
    shared.seen.lock().expect("requests").push(Seen {
        method: request.method.clone(),
        path: request.target.clone(),
        authorization: request.header("Authorization").map(str::to_string),
    });
    let mut out = stream;
    let authorized = |user: &str, password: &str| {
        request.header("Authorization")
            == Some(&format!("Basic {}", base64(&format!("{user}:{password}"))))
    };
    match &shared.behaviour {
        Behaviour::Never => {
            while !shared.stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(20));
            }
            Ok(())
        }
        Behaviour::Account(user, password) | Behaviour::RedirectTo(user, password, _)
            if !authorized(user, password) =>
        {
            write_answer(
                &mut out,
                "401 Unauthorized",
                &[("WWW-Authenticate".into(), "Basic realm=\"git\"".into())],
                b"",
            )
        }
        Behaviour::RedirectTo(_, _, elsewhere) => {
            let location = format!("{elsewhere}{}", request.target);
            write_answer(&mut out, "302 Found", &[("Location".into(), location)], b"")
        }
        Behaviour::Serve | Behaviour::Account(..) => {
            let (status, headers, body) = http_backend(&shared.root, &request)?;
            write_answer(&mut out, &status, &headers, &body)
        }
    }
}

fn read_request(reader: &mut BufReader<TcpStream>) -> std::io::Result<Request> {
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_string();
    let target = parts.next().unwrap_or_default().to_string();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line.trim_end().is_empty() {
            break;
        }
        if let Some((name, value)) = line.trim_end().split_once(':') {
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    let mut request = Request {
        method,
        target,
        headers,
        body: Vec::new(),
    };
    if request
        .header("Transfer-Encoding")
        .is_some_and(|v| v.eq_ignore_ascii_case("chunked"))
    {
        request.body = read_chunked(reader)?;
    } else if let Some(length) = request.header("Content-Length") {
        let length: usize = length.parse().unwrap_or(0);
        request.body = vec![0; length];
        reader.read_exact(&mut request.body)?;
    }
    Ok(request)
}

fn read_chunked(reader: &mut BufReader<TcpStream>) -> std::io::Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let mut size = String::new();
        reader.read_line(&mut size)?;
        let size = size.trim().split(';').next().unwrap_or_default();
        let size = usize::from_str_radix(size, 16)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        if size == 0 {
            // The trailer ends with an empty line.
            let mut rest = String::new();
            while reader.read_line(&mut rest)? > 0 && !rest.trim().is_empty() {
                rest.clear();
            }
            return Ok(body);
        }
        let start = body.len();
        body.resize(start + size, 0);
        reader.read_exact(&mut body[start..])?;
        let mut end = [0; 2];
        reader.read_exact(&mut end)?;
    }
}

/// Runs `git http-backend` for the request: the CGI variables, the body on its standard
/// input; its status, headers and body.
fn http_backend(root: &std::path::Path, request: &Request) -> std::io::Result<Answer> {
    let (path, query) = request
        .target
        .split_once('?')
        .unwrap_or((&request.target, ""));
    let mut command = Command::new("git");
    command
        .arg("http-backend")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", root)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_PROJECT_ROOT", root)
        .env("GIT_HTTP_EXPORT_ALL", "1")
        .env("GATEWAY_INTERFACE", "CGI/1.1")
        .env("SERVER_PROTOCOL", "HTTP/1.1")
        .env("REMOTE_ADDR", "127.0.0.1")
        .env("REQUEST_METHOD", &request.method)
        .env("PATH_INFO", path)
        .env("QUERY_STRING", query)
        .env("CONTENT_TYPE", request.header("Content-Type").unwrap_or(""))
        .env("CONTENT_LENGTH", request.body.len().to_string());
    // Every header as the CGI passes it on (`Git-Protocol` chooses the protocol's version).
    for (name, value) in &request.headers {
        let name = name.to_ascii_uppercase().replace('-', "_");
        command.env(format!("HTTP_{name}"), value);
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut stdin = child.stdin.take().expect("stdin");
    let body = request.body.clone();
    let feeding = std::thread::spawn(move || stdin.write_all(&body));
    let mut output = Vec::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_end(&mut output)?;
    child.wait()?;
    let _ = feeding.join();
    Ok(cgi_answer(&output))
}

/// A CGI program's output as status, headers and body (`Status:` gives the status, 200
/// without it).
fn cgi_answer(output: &[u8]) -> Answer {
    let split = output
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|at| (at, at + 4))
        .or_else(|| {
            output
                .windows(2)
                .position(|w| w == b"\n\n")
                .map(|at| (at, at + 2))
        });
    let (head, body) = match split {
        Some((end, start)) => (&output[..end], output[start..].to_vec()),
        None => (output, Vec::new()),
    };
    let mut status = "200 OK".to_string();
    let mut headers = Vec::new();
    for line in String::from_utf8_lossy(head).lines() {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        if name.eq_ignore_ascii_case("Status") {
            status = value.trim().to_string();
        } else {
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    (status, headers, body)
}

fn write_answer(
    out: &mut TcpStream,
    status: &str,
    headers: &[(String, String)],
    body: &[u8],
) -> std::io::Result<()> {
    let mut head = format!("HTTP/1.1 {status}\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    out.write_all(head.as_bytes())?;
    out.write_all(body)?;
    out.flush()
}

/// Standard base64 with padding, for the expected `Authorization`.
fn base64(text: &str) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in text.as_bytes().chunks(3) {
        let bytes = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(bytes[0]) << 16) | (u32::from(bytes[1]) << 8) | u32::from(bytes[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[test]
fn base64_is_the_standard_one() {
    assert_eq!(base64("robot:hunter2"), "cm9ib3Q6aHVudGVyMg==");
    assert_eq!(base64("ab"), "YWI=");
    assert_eq!(base64("abc"), "YWJj");
}
