//! A real server on a random port over a fresh database (SQLite, or PostgreSQL when
//! `PEERING_TEST_POSTGRES_URL` is set), and a small HTTP client to talk to it, which checks
//! every response against the server's OpenAPI document (`conformance.rs`).
#![allow(dead_code)]

pub mod builders;
pub mod client;
pub mod conformance;
pub mod network;

use std::sync::{mpsc, OnceLock};

use actix_web::{dev::ServerHandle, App, HttpServer};
use peering_api::{AppState, Settings};
use peering_auth::TokenKey;
use peering_store::testing::TestDatabase;
use peering_store::{NewToken, Store};
use serde_json::Value as Json;

use self::conformance::Conformance;

pub struct TestServer {
    pub base: String,
    /// A write-enabled token of the superuser `admin`.
    pub key: String,
    pub store: Store,
    /// The queue this server's workers take jobs from: jobs enqueued on it wake them.
    pub jobs: peering_jobs::Queue,
    handle: ServerHandle,
    /// The document responses are checked against, fetched on the first request.
    conformance: OnceLock<Conformance>,
    /// The objects this server keeps rendered.
    pub texts: std::sync::Arc<peering_app::answers::texts::ObjectTexts>,
    /// The job workers, stopped before the database goes.
    _workers: Vec<peering_jobs::Workers>,
    _db: TestDatabase,
}

/// A server started by [`TestServer::another_instance`].
pub struct Instance {
    pub base: String,
    handle: ServerHandle,
}

impl Drop for Instance {
    fn drop(&mut self) {
        let handle = self.handle.clone();
        actix_web::rt::System::new().block_on(handle.stop(false));
    }
}

/// Runs the API on a random port in a thread of its own; its address and handle.
fn serve(state: AppState) -> (String, ServerHandle) {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let server = HttpServer::new(move || {
                App::new().configure(|cfg| peering_api::configure(cfg, state.clone()))
            })
            .workers(1)
            .bind("127.0.0.1:0")
            .expect("bind");
            let addr = server.addrs()[0];
            let running = server.run();
            tx.send((addr, running.handle())).expect("send");
            let _ = running.await;
        });
    });
    let (addr, handle) = rx.recv().expect("server started");
    (format!("http://{addr}"), handle)
}

/// An answer's status, headers and bytes as they came.
#[allow(dead_code)]
pub struct RawResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

#[allow(dead_code)]
impl RawResponse {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub text: String,
}

impl Response {
    pub fn json(&self) -> Json {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

impl TestServer {
    pub fn start() -> TestServer {
        Self::start_with(Settings::default())
    }

    pub fn start_with(settings: Settings) -> TestServer {
        Self::start_on(TestDatabase::new(), settings)
    }

    /// A server over an existing test database (e.g. one `peeringd demo-data` filled).
    pub fn start_on(db: TestDatabase, settings: Settings) -> TestServer {
        let store = Store::open(&db.url, 4).expect("open store");
        let user = store.users().create_user("admin", "", true).expect("user");
        let key = TokenKey::generate();
        store
            .users()
            .create_token(&NewToken {
                user_id: user,
                key_hash: key.hash(),
                key_suffix: key.suffix().into(),
                expires: None,
                write_enabled: true,
                description: String::new(),
            })
            .expect("token");
        let state = AppState::new(store.clone(), settings);
        // Jobs are enqueued through this instance, which wakes its workers: they need not
        // look for other instances' jobs, and their looking would count in the store's
        // query tally that tests measure.
        let workers = peering_app::jobs::start_workers(
            &state.jobs,
            state.job_runner(),
            peering_jobs::Settings {
                workers: 2,
                poll: std::time::Duration::from_secs(3600),
                ..Default::default()
            },
        )
        .expect("job workers");
        let jobs = state.jobs.clone();
        let texts = state.texts.clone();
        let (base, handle) = serve(state);
        TestServer {
            base,
            key: key.as_str().to_string(),
            store,
            jobs,
            texts,
            handle,
            conformance: OnceLock::new(),
            _workers: workers,
            _db: db,
        }
    }

    /// The URL of the server's database.
    #[allow(dead_code)]
    pub fn database_url(&self) -> String {
        self._db.url.clone()
    }

    /// A second server (its own store, pool and caches) over the same database, as another
    /// instance of a deployment would be; stopped when dropped.
    pub fn another_instance(&self, settings: Settings) -> Instance {
        let store = Store::open(&self._db.url, 4).expect("open store");
        let (base, handle) = serve(AppState::new(store, settings));
        Instance { base, handle }
    }

    /// Waits (up to 2 s) for the background write of the admin token's last use, which
    /// lands once a minute and would otherwise fall in the middle of a measurement; whether
    /// it was seen.
    pub fn await_token_last_use(&self) -> bool {
        for _ in 0..100 {
            if !self.get("/api/users/tokens/").json()["results"][0]["last_used"].is_null() {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        false
    }

    /// Creates another token for `admin` (or a new user) with the given options.
    pub fn token(
        &self,
        username: &str,
        superuser: bool,
        write: bool,
        expires: Option<chrono::DateTime<chrono::Utc>>,
    ) -> String {
        let user = match self.store.users().user_id(username).unwrap() {
            Some(id) => id,
            None => self
                .store
                .users()
                .create_user(username, "", superuser)
                .unwrap(),
        };
        let key = TokenKey::generate();
        self.store
            .users()
            .create_token(&NewToken {
                user_id: user,
                key_hash: key.hash(),
                key_suffix: key.suffix().into(),
                expires,
                write_enabled: write,
                description: String::new(),
            })
            .unwrap();
        key.as_str().to_string()
    }

    /// A token of a user holding `permissions` (granted by the superuser through the API).
    pub fn user_with(&self, username: &str, permissions: &[&str], write: bool) -> String {
        let key = self.token(username, false, write, None);
        let id = self.store.users().user_id(username).unwrap().unwrap();
        let body = serde_json::json!({ "permissions": permissions });
        let r = self.patch(&format!("/api/users/users/{id}/"), body);
        assert_eq!(r.status, 200, "{}", r.text);
        key
    }

    /// Sends a request and checks the response against the OpenAPI document (see
    /// `conformance.rs`): a response the document does not allow is a panic.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<&Json>,
        key: Option<&str>,
        extra: &[(&str, &str)],
    ) -> Response {
        let response = self.send(method, path, body, key, extra);
        let target = path.strip_prefix(&self.base).unwrap_or(path);
        let content_type = response.header("Content-Type");
        let checked = self.conformance().check(
            method,
            target,
            response.status,
            content_type,
            &response.text,
        );
        if let Err(why) = checked {
            let mut text: String = response.text.chars().take(2000).collect();
            if text.len() < response.text.len() {
                text.push('…');
            }
            panic!(
                "{method} {target} answered {}, which the OpenAPI document does not allow: \
                 {why}\nbody: {text}",
                response.status
            );
        }
        response
    }

    /// The document this server's responses are checked against: `/api/schema/`, fetched
    /// once (unchecked) and kept.
    pub fn conformance(&self) -> &Conformance {
        self.conformance.get_or_init(|| {
            let r = self.send("GET", "/api/schema/", None, None, &[]);
            assert_eq!(r.status, 200, "GET /api/schema/: {}", r.text);
            Conformance::new(r.json())
        })
    }

    /// Checks this server's responses against `doc` instead of its own document; before any
    /// request (to prove that the check fails when it should).
    pub fn check_against(&self, doc: Json) {
        if self.conformance.set(Conformance::new(doc)).is_err() {
            panic!("check_against after the first request");
        }
    }

    /// Sends a body-less request and returns the answer's bytes as they came (compressed
    /// ones are not decoded), unchecked.
    #[allow(dead_code)]
    pub fn send_raw(
        &self,
        method: &str,
        path: &str,
        key: Option<&str>,
        extra: &[(&str, &str)],
    ) -> RawResponse {
        let resp = answer(self.prepare(method, path, key, extra).call(), method, path);
        let (status, headers) = (resp.status(), headers_of(&resp));
        let mut body = Vec::new();
        let _ = std::io::Read::read_to_end(&mut resp.into_reader(), &mut body);
        RawResponse {
            status,
            headers,
            body,
        }
    }

    /// A request to `path` (or a full URL) with the token and headers given.
    fn prepare(
        &self,
        method: &str,
        path: &str,
        key: Option<&str>,
        extra: &[(&str, &str)],
    ) -> ureq::Request {
        let agent = ureq::AgentBuilder::new().redirects(0).build();
        let url = if path.starts_with("http") {
            path.to_string()
        } else {
            format!("{}{path}", self.base)
        };
        let mut req = agent.request(method, &url);
        if let Some(k) = key {
            req = req.set("Authorization", &format!("Token {k}"));
        }
        for (k, v) in extra {
            req = req.set(k, v);
        }
        req
    }

    /// Sends a request as the admin to `instance`, another server on this database, and
    /// asserts that it succeeded.
    #[allow(dead_code)]
    pub fn send_to(
        &self,
        instance: &Instance,
        method: &str,
        path: &str,
        body: Option<Json>,
    ) -> Response {
        let url = format!("{}{path}", instance.base);
        let r = self.send(method, &url, body.as_ref(), Some(&self.key), &[]);
        assert!(r.status < 300, "{method} {path}: {} {}", r.status, r.text);
        r
    }

    /// Sends a request, unchecked.
    pub fn send(
        &self,
        method: &str,
        path: &str,
        body: Option<&Json>,
        key: Option<&str>,
        extra: &[(&str, &str)],
    ) -> Response {
        let req = self.prepare(method, path, key, extra);
        let typed = extra
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("Content-Type"));
        let result = match body {
            Some(b) if typed => req.send_string(&b.to_string()),
            Some(b) => req
                .set("Content-Type", "application/json")
                .send_string(&b.to_string()),
            None => req.call(),
        };
        let resp = answer(result, method, path);
        let (status, headers) = (resp.status(), headers_of(&resp));
        let text = resp.into_string().unwrap_or_default();
        Response {
            status,
            headers,
            text,
        }
    }

    pub fn get(&self, path: &str) -> Response {
        self.request("GET", path, None, Some(&self.key), &[])
    }

    pub fn post(&self, path: &str, body: Json) -> Response {
        self.request("POST", path, Some(&body), Some(&self.key), &[])
    }

    pub fn patch(&self, path: &str, body: Json) -> Response {
        self.request("PATCH", path, Some(&body), Some(&self.key), &[])
    }

    pub fn put(&self, path: &str, body: Json) -> Response {
        self.request("PUT", path, Some(&body), Some(&self.key), &[])
    }

    pub fn delete(&self, path: &str, body: Option<Json>) -> Response {
        self.request("DELETE", path, body.as_ref(), Some(&self.key), &[])
    }

    /// Creates objects and returns them, asserting success.
    pub fn create(&self, path: &str, body: Json) -> Json {
        let r = self.post(path, body);
        assert_eq!(r.status, 201, "create {path}: {}", r.text);
        r.json()
    }

    /// The change records of the request that gave `response`, oldest first.
    pub fn changes_of(&self, response: &Response) -> Vec<Json> {
        let request_id = response
            .header("X-Request-ID")
            .expect("every answer has one");
        let page = self
            .get(&format!(
                "/api/extras/object-changes/?request_id={request_id}&ordering=id&limit=1000"
            ))
            .json();
        page["results"].as_array().expect("a list").clone()
    }
}

/// The answer of a request, whatever its status.
fn answer(result: Result<ureq::Response, ureq::Error>, method: &str, path: &str) -> ureq::Response {
    match result {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{method} {path}: {e}"),
    }
}

fn headers_of(resp: &ureq::Response) -> Vec<(String, String)> {
    resp.headers_names()
        .into_iter()
        .filter_map(|n| resp.header(&n).map(|v| (n.clone(), v.to_string())))
        .collect()
}

impl Drop for TestServer {
    fn drop(&mut self) {
        let handle = self.handle.clone();
        actix_web::rt::System::new().block_on(handle.stop(false));
    }
}

pub const AS: &str = "/api/peering/autonomous-systems/";

/// The `field` of every result of a list response.
pub fn column(list: &Json, field: &str) -> Vec<Json> {
    list["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o[field].clone())
        .collect()
}

/// The names of an object's fields, in the order it shows them.
pub fn field_names(object: &Json) -> Vec<&str> {
    let fields = object
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {object}"));
    fields.keys().map(String::as_str).collect()
}

/// The names of an object's fields, sorted.
pub fn sorted_field_names(object: &Json) -> Vec<&str> {
    let mut names = field_names(object);
    names.sort_unstable();
    names
}

/// A fresh database holding `peeringd demo-data --scale 1`.
#[allow(dead_code)]
pub fn demo_network() -> TestDatabase {
    let db = TestDatabase::new();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_peeringd"))
        .env("PEERING_DATABASE_URL", &db.url)
        .env("RUST_LOG", "warn")
        .args(["demo-data", "--scale", "1"])
        .output()
        .expect("peeringd runs");
    assert!(out.status.success(), "demo-data: {}", output_text(&out));
    db
}

/// Fills `db`'s PeeringDB copy from the PeeringDB at `url` with `peeringd peeringdb sync`.
#[allow(dead_code)]
pub fn peeringdb_sync(db: &TestDatabase, url: &str) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_peeringd"))
        .env("PEERING_DATABASE_URL", &db.url)
        .env("PEERING_PEERINGDB_URL", url)
        .env("RUST_LOG", "warn")
        .args(["peeringdb", "sync"])
        .output()
        .expect("peeringd runs");
    assert!(
        out.status.success(),
        "peeringdb sync: {}",
        output_text(&out)
    );
}

/// `peeringd import peering-manager` from the server at `url`, with `token`, into the
/// database at `target`: ready to run, for the caller to add arguments, pipes or a wait.
pub fn import_command(target: &str, url: &str, token: &str) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_peeringd"));
    command
        .env("PEERING_DATABASE_URL", target)
        .env("RUST_LOG", "warn")
        .args(["import", "peering-manager", "--url", url, "--token", token]);
    command
}

/// What a command printed, standard output then standard error.
#[allow(dead_code)]
pub fn output_text(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
