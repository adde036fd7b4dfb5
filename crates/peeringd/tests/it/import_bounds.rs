//! `peeringd import peering-manager` against a source that misbehaves (issue 54, item 8):
//! a `next` link or a redirect to another origin is refused and gets no request, so never
//! the token; a page asked for twice stops the import instead of looping; a page past the
//! bound is refused as it arrives (or from its announced length), not read whole.
//!
//! The sources are crafted here: a tiny HTTP server on 127.0.0.1 that answers each request
//! as a test says and notes what it was asked (and with which `Authorization`).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Output, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::common::output_text;
use peering_store::testing::TestDatabase;
use serde_json::{json, Value as Json};

const TOKEN: &str = "0123456789abcdef0123456789abcdef01234567";
/// The import's bound on a page (peering-import's `MAX_PAGE_BYTES`).
const BOUND: u64 = 64 * 1024 * 1024;
/// What an endless page streams at most: eight times the bound.
const ENDLESS: u64 = 8 * BOUND;
/// Requests a crafted source answers at most (a looping import stops being answered).
const MOST_REQUESTS: usize = 200;
/// How long an import may take before it counts as hanging (and is killed).
const HANGING: Duration = Duration::from_secs(60);

/// What a crafted source answers.
enum Reply {
    Json(Json),
    Redirect(String),
    /// A page of objects that goes on for `ENDLESS` bytes, its length announced or not.
    Endless {
        announced: bool,
    },
}

/// A request a crafted source received.
#[derive(Debug, Clone)]
struct Seen {
    target: String,
    authorization: Option<String>,
}

/// What a crafted source saw, once it is stopped.
struct Log {
    seen: Vec<Seen>,
    /// Bytes of endless pages that the client took (the kernel's buffers included).
    streamed: u64,
}

/// A crafted source on 127.0.0.1, answering one request per connection, one at a time;
/// stopped (its thread joined) when finished or dropped.
struct Crafted {
    url: String,
    addr: SocketAddr,
    seen: Arc<Mutex<Vec<Seen>>>,
    streamed: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Crafted {
    fn start(answer: impl Fn(&str) -> Reply + Send + 'static) -> Crafted {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let streamed = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (log, bytes, stopping) = (seen.clone(), streamed.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming().take(MOST_REQUESTS) {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                // What is not HTTP (a TLS handshake, say) is noted too.
                let request = read_request(&stream).unwrap_or(Seen {
                    target: "(not an HTTP request)".into(),
                    authorization: None,
                });
                let reply = answer(&request.target);
                log.lock().unwrap().push(request);
                bytes.fetch_add(send(&stream, reply), Ordering::SeqCst);
            }
        });
        Crafted {
            url: format!("http://{addr}"),
            addr,
            seen,
            streamed,
            stop,
            thread: Some(thread),
        }
    }

    /// Stops the source and tells what it saw.
    fn finish(mut self) -> Log {
        self.stop_thread();
        Log {
            seen: self.seen.lock().unwrap().clone(),
            streamed: self.streamed.load(Ordering::SeqCst),
        }
    }

    fn stop_thread(&mut self) {
        if let Some(thread) = self.thread.take() {
            self.stop.store(true, Ordering::SeqCst);
            // Wakes the accepting thread (refused if it ended already).
            let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
            let _ = thread.join();
        }
    }
}

impl Drop for Crafted {
    fn drop(&mut self) {
        self.stop_thread();
    }
}

/// The request line's target and the `Authorization` header; none for a request that does
/// not come within a few seconds.
fn read_request(stream: &TcpStream) -> Option<Seen> {
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let mut reader = BufReader::new(stream).take(64 * 1024);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let target = line.split_whitespace().nth(1)?.to_string();
    let mut authorization = None;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).ok()? == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.trim().eq_ignore_ascii_case("authorization") {
                authorization = Some(value.trim().to_string());
            }
        }
    }
    Some(Seen {
        target,
        authorization,
    })
}

/// Writes the reply; the bytes of an endless page the client took.
fn send(mut stream: &TcpStream, reply: Reply) -> u64 {
    let _ = stream.set_write_timeout(Some(Duration::from_secs(30)));
    let head = |status: &str, extra: &str| {
        format!("HTTP/1.1 {status}\r\n{extra}Connection: close\r\n\r\n").into_bytes()
    };
    match reply {
        Reply::Json(body) => {
            let body = body.to_string();
            let extra = format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                body.len()
            );
            let _ = stream.write_all(&head("200 OK", &extra));
            let _ = stream.write_all(body.as_bytes());
            0
        }
        Reply::Redirect(location) => {
            let extra = format!("Location: {location}\r\nContent-Length: 0\r\n");
            let _ = stream.write_all(&head("302 Found", &extra));
            0
        }
        Reply::Endless { announced } => {
            let extra = match announced {
                true => format!("Content-Type: application/json\r\nContent-Length: {ENDLESS}\r\n"),
                false => "Content-Type: application/json\r\n".to_string(),
            };
            if stream.write_all(&head("200 OK", &extra)).is_err() {
                return 0;
            }
            stream_objects(stream)
        }
    }
}

/// A page's start, then objects until `ENDLESS` bytes or the client stops taking them.
fn stream_objects(mut stream: &TcpStream) -> u64 {
    let start = br#"{"count": 1, "next": null, "previous": null, "results": ["#;
    let object = format!(r#"{{"id": 1, "name": "{}"}},"#, "x".repeat(1000));
    let chunk = object.repeat(64);
    let mut written = 0;
    if stream.write_all(start).is_err() {
        return 0;
    }
    while written < ENDLESS {
        match stream.write(chunk.as_bytes()) {
            Ok(0) | Err(_) => break,
            Ok(n) => written += n as u64,
        }
    }
    written
}

/// A page of no objects, with its `next` link.
fn page(next: Option<String>) -> Reply {
    Reply::Json(json!({"count": 0, "next": next, "previous": null, "results": []}))
}

fn is_status(target: &str) -> bool {
    target.starts_with("/api/status/")
}

fn version() -> Reply {
    Reply::Json(json!({"peering-manager-version": "1.10.4"}))
}

/// The path of a request target, without its query.
fn path_of(target: &str) -> &str {
    target.split('?').next().unwrap_or(target)
}

/// Runs the import from `url` into `db`, killed if it takes longer than `HANGING` (then the
/// test fails: it hung).
fn import(db: &TestDatabase, url: &str) -> Output {
    let mut child = crate::common::import_command(&db.url, url, TOKEN)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("peeringd runs");
    let (stdout, stderr) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let (out, err) = (drain(Box::new(stdout)), drain(Box::new(stderr)));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > HANGING {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the import from {url} still ran after {HANGING:?}: it hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// The import failed, saying `why`, and wrote nothing.
fn assert_failed(out: &Output, db: &TestDatabase, why: &str) {
    let text = output_text(out);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("import failed, nothing was written"),
        "{text}"
    );
    assert!(text.contains(why), "expected {why:?} in: {text}");
    // No warning on loopback (the one off loopback is tested in peering-import).
    assert!(!text.contains("over plain HTTP"), "{text}");
    let store = peering_store::Store::open(&db.url, 1).unwrap();
    assert!(store.holds_no_peering_data().unwrap(), "{text}");
}

/// The source was asked with the token: what the other tests see not happen elsewhere does
/// happen here.
fn assert_token_sent(log: &Log) {
    assert!(!log.seen.is_empty());
    for request in &log.seen {
        let expected = format!("Token {TOKEN}");
        assert_eq!(request.authorization.as_deref(), Some(expected.as_str()));
    }
}

/// `elsewhere` got no request at all, so none with the token.
fn assert_untouched(elsewhere: Log) {
    let with_token: Vec<_> = elsewhere
        .seen
        .iter()
        .filter(|r| {
            r.authorization
                .as_deref()
                .is_some_and(|a| a.contains(TOKEN))
        })
        .collect();
    assert!(
        with_token.is_empty(),
        "the token went elsewhere: {with_token:?}"
    );
    assert!(
        elsewhere.seen.is_empty(),
        "asked elsewhere: {:?}",
        elsewhere.seen
    );
}

#[test]
fn a_next_link_to_another_origin_is_refused_and_the_token_stays_home() {
    let elsewhere = Crafted::start(|_| page(None));
    let port = elsewhere.addr.port();
    // Another port, and another scheme on that port: both another origin.
    for foreign in [
        format!("http://127.0.0.1:{port}"),
        format!("https://127.0.0.1:{port}"),
    ] {
        let next = foreign.clone();
        let source = Crafted::start(move |target| match is_status(target) {
            true => version(),
            false => page(Some(format!(
                "{next}{}?limit=1000&offset=1000",
                path_of(target)
            ))),
        });
        let db = TestDatabase::new();
        let out = import(&db, &source.url);
        assert_failed(&out, &db, "another origin");
        assert!(
            output_text(&out).contains(&foreign),
            "{}",
            output_text(&out)
        );
        let log = source.finish();
        assert_token_sent(&log);
        assert_eq!(
            log.seen.len(),
            2,
            "the version and the first page: {:?}",
            log.seen
        );
    }
    assert_untouched(elsewhere.finish());
}

#[test]
fn a_redirect_to_another_origin_is_refused_and_not_followed() {
    let elsewhere = Crafted::start(|_| page(None));
    let foreign = elsewhere.url.clone();
    let source = Crafted::start(move |target| match is_status(target) {
        true => version(),
        false => Reply::Redirect(format!("{foreign}{target}")),
    });
    let db = TestDatabase::new();
    let out = import(&db, &source.url);
    assert_failed(&out, &db, "redirect");
    assert!(
        output_text(&out).contains(&elsewhere.url),
        "{}",
        output_text(&out)
    );
    assert_token_sent(&source.finish());
    assert_untouched(elsewhere.finish());
}

#[test]
fn a_page_asked_for_again_stops_the_import() {
    // A page whose `next` is itself; two pages whose `next` links lead to each other.
    let links: [fn(&str, &str) -> String; 2] = [
        |url, target| format!("{url}{target}"),
        |url, target| match target.contains("offset=0") {
            true => format!("{url}{}?limit=1000&offset=1000", path_of(target)),
            false => format!("{url}{}?limit=1000&offset=0", path_of(target)),
        },
    ];
    for (loop_length, link) in [1, 2].into_iter().zip(links) {
        let own = Arc::new(Mutex::new(String::new()));
        let url = own.clone();
        let source = Crafted::start(move |target| match is_status(target) {
            true => version(),
            false => page(Some(link(&url.lock().unwrap(), target))),
        });
        *own.lock().unwrap() = source.url.clone();
        let db = TestDatabase::new();
        let out = import(&db, &source.url);
        assert_failed(&out, &db, "read already");
        let log = source.finish();
        assert_token_sent(&log);
        // The version, then each page of the loop once.
        assert_eq!(log.seen.len(), 1 + loop_length, "{:?}", log.seen);
    }
}

#[test]
fn a_page_past_the_bound_is_refused_as_it_arrives() {
    let source = Crafted::start(|target| match is_status(target) {
        true => version(),
        false => Reply::Endless { announced: false },
    });
    let db = TestDatabase::new();
    let out = import(&db, &source.url);
    assert_failed(&out, &db, "larger than 64 MiB");
    let log = source.finish();
    // The import stopped reading near the bound: past it, only what the kernel's buffers
    // on both sides took (at most 32 MiB to receive and 4 MiB to send, here).
    assert!(log.streamed > BOUND, "streamed {} bytes", log.streamed);
    assert!(
        log.streamed < BOUND + 48 * 1024 * 1024,
        "streamed {} bytes",
        log.streamed
    );
    assert!(log.streamed < ENDLESS);
}

#[test]
fn a_page_announced_past_the_bound_is_refused_before_its_body() {
    let source = Crafted::start(|target| match is_status(target) {
        true => version(),
        false => Reply::Endless { announced: true },
    });
    let db = TestDatabase::new();
    let out = import(&db, &source.url);
    assert_failed(&out, &db, &format!("announces {ENDLESS} bytes"));
    let log = source.finish();
    // Only what the buffers took before the import hung up: far from the bound.
    assert!(log.streamed < BOUND / 4, "streamed {} bytes", log.streamed);
}
