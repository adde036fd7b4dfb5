//! The fake PeeringDB on 127.0.0.1: a thread per connection, one request per connection,
//! answers written as they are generated (ended by closing the connection).

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::data::Dataset;

/// A fault the fake answers with, once per request it applies to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// Answers requests for `namespace` with `status` (and `Retry-After: 0` for a 429),
    /// `times` times.
    Status {
        namespace: String,
        status: u16,
        times: usize,
    },
    /// Answers `namespace` with JSON cut off after its first objects.
    Malformed { namespace: String },
    /// Answers `namespace` with its headers at once, then its body one byte every `every`:
    /// a server that stalls (`every` long) or crawls (`every` short) without ever closing.
    /// It stops when the client goes away, or after `TRICKLE_LONGEST` in all.
    Trickle { namespace: String, every: Duration },
}

/// The longest a trickled answer goes on, so that a test's fake never outlives it by much.
const TRICKLE_LONGEST: Duration = Duration::from_secs(120);

#[derive(Default)]
struct Shared {
    faults: Vec<Fault>,
    /// Each request's path and query, and its `Authorization` header.
    requests: Vec<(String, Option<String>)>,
}

/// A running fake PeeringDB; it stops accepting when dropped.
pub struct FakePeeringDb {
    pub url: String,
    data: Arc<Mutex<Dataset>>,
    shared: Arc<Mutex<Shared>>,
    _stop: Stop,
}

struct Stop(std::net::SocketAddr, Arc<std::sync::atomic::AtomicBool>);

impl Drop for Stop {
    fn drop(&mut self) {
        self.1.store(true, std::sync::atomic::Ordering::SeqCst);
        // Wakes the accepting thread so that it sees the flag.
        let _ = TcpStream::connect_timeout(&self.0, Duration::from_secs(1));
    }
}

impl FakePeeringDb {
    /// Serves `data` on a free port of 127.0.0.1; `url` is the API's base (`…/api`).
    pub fn start(data: Dataset) -> FakePeeringDb {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port on 127.0.0.1");
        let address = listener.local_addr().expect("bound");
        let data = Arc::new(Mutex::new(data));
        let shared = Arc::new(Mutex::new(Shared::default()));
        let stopped = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (d, s, flag) = (data.clone(), shared.clone(), stopped.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if flag.load(std::sync::atomic::Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let (d, s) = (d.clone(), s.clone());
                std::thread::spawn(move || {
                    let _ = serve(stream, &d, &s);
                });
            }
        });
        FakePeeringDb {
            url: format!("http://{address}/api"),
            data,
            shared,
            _stop: Stop(address, stopped),
        }
    }

    /// Changes the data served from now on.
    pub fn edit(&self, f: impl FnOnce(&mut Dataset)) {
        f(&mut self.data.lock().expect("data"));
    }

    pub fn fault(&self, fault: Fault) {
        self.shared.lock().expect("shared").faults.push(fault);
    }

    /// The requests served so far: path with query, and `Authorization`.
    pub fn requests(&self) -> Vec<(String, Option<String>)> {
        self.shared.lock().expect("shared").requests.clone()
    }
}

fn serve(stream: TcpStream, data: &Mutex<Dataset>, shared: &Mutex<Shared>) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let (target, authorization) = read_request(&stream)?;
    let (namespace, since) = asked(&target);
    let fault = {
        let mut s = shared.lock().expect("shared");
        s.requests.push((target.clone(), authorization));
        take_fault(&mut s.faults, &namespace)
    };
    let mut out = BufWriter::with_capacity(1 << 16, stream);
    if let Some(Fault::Status { status, .. }) = fault {
        write!(
            out,
            "HTTP/1.1 {status} Fault\r\nContent-Type: application/json\r\nRetry-After: 0\r\nConnection: close\r\n\r\n{{\"meta\": {{\"error\": \"fault {status}\"}}}}"
        )?;
        return out.flush();
    }
    if !crate::NAMESPACES.contains(&namespace.as_str()) {
        write!(out, "HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n")?;
        return out.flush();
    }
    if let Some(Fault::Trickle { every, .. }) = fault {
        return trickle(out.into_inner().map_err(|e| e.into_error())?, every);
    }
    let cut = matches!(fault, Some(Fault::Malformed { .. }));
    let data = data.lock().expect("data").clone();
    write_objects(&mut out, &data, &namespace, since, cut)?;
    out.flush()
}

/// The request's target (path and query) and its `Authorization`, if any.
fn read_request(stream: &TcpStream) -> std::io::Result<(String, Option<String>)> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let target = line.split_whitespace().nth(1).unwrap_or("/").to_string();
    let mut authorization = None;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("authorization") {
                authorization = Some(value.trim().to_string());
            }
        }
    }
    Ok((target, authorization))
}

/// The object type a target asks for (its last path segment), and its `since` (0 if none).
fn asked(target: &str) -> (String, i64) {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let namespace = path
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("")
        .to_string();
    let since = query
        .split('&')
        .find_map(|p| p.strip_prefix("since="))
        .and_then(|v| v.parse::<i64>().ok())
        .unwrap_or(0);
    (namespace, since)
}

/// A 200 with the objects changed since `since`; `cut` ends it after three objects, not
/// valid JSON.
fn write_objects(
    out: &mut impl Write,
    data: &Dataset,
    namespace: &str,
    since: i64,
    cut: bool,
) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{{\"data\": ["
    )?;
    let mut n = 0;
    let mut failed = None;
    data.for_each(namespace, since, |object| {
        if failed.is_some() || (cut && n == 3) {
            return;
        }
        let separator = if n == 0 { "" } else { ", " };
        if let Err(e) = write!(out, "{separator}{object}") {
            failed = Some(e);
        }
        n += 1;
    });
    if let Some(e) = failed {
        return Err(e);
    }
    if !cut {
        write!(out, "], \"meta\": {{}}}}")?;
    }
    Ok(())
}

/// A 200 whose body comes a byte at a time, `every` apart, until the client hangs up or
/// `TRICKLE_LONGEST` has passed; the body is never complete.
fn trickle(mut out: TcpStream, every: Duration) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
    )?;
    let started = std::time::Instant::now();
    let body = b"{\"data\": [{\"id\": 1}, ";
    for byte in body.iter().cycle() {
        if started.elapsed() > TRICKLE_LONGEST {
            break;
        }
        std::thread::sleep(every);
        // A write fails once the client has closed its end.
        out.write_all(&[*byte])?;
        out.flush()?;
    }
    Ok(())
}

fn take_fault(faults: &mut Vec<Fault>, namespace: &str) -> Option<Fault> {
    let i = faults.iter().position(|f| match f {
        Fault::Status { namespace: n, .. }
        | Fault::Malformed { namespace: n }
        | Fault::Trickle { namespace: n, .. } => n == namespace,
    })?;
    match &mut faults[i] {
        Fault::Status { times, .. } if *times > 1 => {
            *times -= 1;
            Some(faults[i].clone())
        }
        _ => Some(faults.remove(i)),
    }
}
