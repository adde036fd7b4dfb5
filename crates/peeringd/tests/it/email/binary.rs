//! The binary with the settings by their environment variables (`PEERING_EMAIL_*`): a
//! server enqueues, a `peeringd worker` sends with a login, and neither writes the
//! password in its log, even at the debug level.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::smtp::{Behaviour, SmtpServer};
use crate::binary::{call, first_start, free_port};
use peering_store::testing::TestDatabase;
use serde_json::{json, Value as Json};

const PASSWORD: &str = "pw-never-shown-7f3a";

fn peeringd(db: &TestDatabase, command: &str, smtp: &SmtpServer) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_peeringd"));
    cmd.arg(command)
        .env("PEERING_DATABASE_URL", &db.url)
        .env("RUST_LOG", "debug")
        .env("PEERING_EMAIL_SERVER", "127.0.0.1")
        .env("PEERING_EMAIL_PORT", smtp.addr.port().to_string())
        .env("PEERING_EMAIL_USERNAME", "peering")
        .env("PEERING_EMAIL_PASSWORD", PASSWORD)
        .env("PEERING_EMAIL_FROM", "peering@example.net")
        .env("PEERING_EMAIL_TLS", "none")
        .env("PEERING_EMAIL_TIMEOUT_SECS", "5");
    cmd
}

/// Keeps what `reader` writes, line by line, on a thread of its own.
fn collect(reader: impl Read + Send + 'static) -> Arc<Mutex<String>> {
    let kept = Arc::new(Mutex::new(String::new()));
    let sink = kept.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(reader).lines().map_while(Result::ok) {
            let mut all = sink.lock().unwrap();
            all.push_str(&line);
            all.push('\n');
        }
    });
    kept
}

fn stop(mut child: Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if child.try_wait().ok().flatten().is_some() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Creates what the e-mail needs through the API: its template and the system's id.
fn fixtures(port: u16, key: &str) -> (i64, i64) {
    let (status, system) = call(
        port,
        key,
        "POST",
        "/api/peering/autonomous-systems/",
        Some(json!({"asn": 64501, "name": "Peer One"})),
    );
    assert_eq!(status, 201, "{system}");
    let (status, template) = call(
        port,
        key,
        "POST",
        "/api/messaging/emails/",
        Some(
            json!({"name": "Hi", "subject": "AS{{ autonomous_system.asn }}",
                    "template": "Hello {{ autonomous_system.name }}"}),
        ),
    );
    assert_eq!(status, 201, "{template}");
    (
        system["id"].as_i64().unwrap(),
        template["id"].as_i64().unwrap(),
    )
}

fn wait_for(port: u16, key: &str, job: &Json) -> Json {
    let path = format!("/api/core/jobs/{}/", job["id"]);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, current) = call(port, key, "GET", &path, None);
        let status = current["status"]["value"].as_str().unwrap_or_default();
        if status != "pending" && status != "running" {
            return current;
        }
        assert!(Instant::now() < deadline, "job still {status}: {current}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_worker_sends_with_the_environments_settings_and_logs_no_password() {
    let smtp = SmtpServer::start(Behaviour {
        login: Some(("peering".into(), PASSWORD.into())),
        ..Behaviour::default()
    });
    let db = TestDatabase::new();
    let port = free_port();
    let mut server = peeringd(&db, "serve", &smtp);
    server
        .env("PEERING_LISTEN", format!("127.0.0.1:{port}"))
        .env("PEERING_JOB_WORKERS", "0")
        .stderr(Stdio::piped());
    let (mut server, key) = first_start(server);
    let server_log = collect(server.stderr.take().unwrap());
    let mut worker = peeringd(&db, "worker", &smtp)
        .env("PEERING_JOB_WORKERS", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let worker_log = collect(worker.stderr.take().unwrap());

    let (system, template) = fixtures(port, &key);
    let body = json!({"email": template, "recipients": ["noc@peer-one.example"]});
    let path = format!("/api/peering/autonomous-systems/{system}/send-email/");
    let (status, job) = call(port, &key, "POST", &path, Some(body));
    assert_eq!(status, 202, "{job}");
    let done = wait_for(port, &key, &job);
    assert_eq!(done["status"]["value"], "completed", "{done}");
    assert_eq!(smtp.received()[0].to, ["noc@peer-one.example"]);

    stop(worker);
    stop(server);
    let logs = format!(
        "{}{}",
        server_log.lock().unwrap(),
        worker_log.lock().unwrap()
    );
    assert!(logs.contains("job"), "the logs were read: {logs}");
    assert!(!logs.contains(PASSWORD), "{logs}");
    assert!(!done.to_string().contains(PASSWORD), "{done}");
}
