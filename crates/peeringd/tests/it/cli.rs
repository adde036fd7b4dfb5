//! The command line as a user runs it: first-start bootstrap, users, tokens, migrations.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use crate::binary::{first_start as first_start_of, free_port};
use peering_store::testing::TestDatabase;

fn peeringd(db: &TestDatabase) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_peeringd"));
    cmd.env("PEERING_DATABASE_URL", &db.url)
        .env("RUST_LOG", "warn");
    cmd
}

/// Starts `peeringd serve` on a new database: the server, its port and the admin token it
/// printed on its first start.
fn first_start(db: &TestDatabase) -> (std::process::Child, u16, String) {
    let port = free_port();
    let mut cmd = peeringd(db);
    cmd.arg("serve")
        .env("PEERING_LISTEN", format!("127.0.0.1:{port}"))
        .stderr(Stdio::null());
    let (child, key) = first_start_of(cmd);
    (child, port, key)
}

/// POSTs `body` to the autonomous systems once the server listens; the answer's status.
fn post_autonomous_systems(port: u16, key: &str, body: &serde_json::Value) -> u16 {
    let url = format!("http://127.0.0.1:{port}/api/peering/autonomous-systems/");
    for _ in 0..100 {
        match ureq::post(&url)
            .set("Authorization", &format!("Token {key}"))
            .send_json(body)
        {
            Ok(r) => return r.status(),
            Err(ureq::Error::Status(code, _)) => return code,
            Err(_) => std::thread::sleep(std::time::Duration::from_millis(50)),
        }
    }
    panic!("the server never answered");
}

#[test]
fn first_start_prints_a_working_admin_token() {
    let db = TestDatabase::empty();
    let (mut child, port, key) = first_start(&db);
    assert_eq!(key.len(), 40);
    let status = post_autonomous_systems(
        port,
        &key,
        &serde_json::json!({"asn": 65001, "name": "Bootstrap"}),
    );
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(status, 201);
}

#[test]
fn users_and_tokens_from_the_command_line() {
    let db = TestDatabase::empty();
    let out = peeringd(&db).arg("migrate").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let mut child = peeringd(&db)
        .args([
            "user",
            "create",
            "--username",
            "alice",
            "--superuser",
            "--password-stdin",
        ])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"correct horse\n")
        .unwrap();
    assert!(child.wait().unwrap().success());

    let out = peeringd(&db)
        .args([
            "token",
            "create",
            "--user",
            "alice",
            "--read-only",
            "--description",
            "ci",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let key = String::from_utf8(out.stdout).unwrap();
    assert_eq!(key.trim_end().len(), 40, "only the key on stdout: {key:?}");
    assert!(key.trim_end().bytes().all(|b| b.is_ascii_hexdigit()));

    // A key chosen by the operator is taken, unless it is easy to guess.
    let weak = peeringd(&db)
        .args([
            "token",
            "create",
            "--user",
            "alice",
            "--key",
            &"ab".repeat(20),
        ])
        .output()
        .unwrap();
    assert!(!weak.status.success());
    assert!(String::from_utf8_lossy(&weak.stderr).contains("too easy to guess"));
    let explicit = "3f1c9a07d2e85b46c0917fe2a38d5b6c4e1f0a92";
    let out = peeringd(&db)
        .args([
            "token",
            "create",
            "--user",
            "alice",
            "--key",
            explicit,
            "--expires",
            "2099-01-01T00:00:00Z",
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), explicit);
    let again = peeringd(&db)
        .args(["token", "create", "--user", "alice", "--key", explicit])
        .output()
        .unwrap();
    assert!(!again.status.success());

    let bad = peeringd(&db)
        .args(["token", "create", "--user", "nobody"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("nobody"));
    let bad_key = peeringd(&db)
        .args(["token", "create", "--user", "alice", "--key", "xyz"])
        .output()
        .unwrap();
    assert!(!bad_key.status.success());

    // The stored token works and is read-only.
    let store = peering_store::Store::open(&db.url, 1).unwrap();
    let token = store
        .users()
        .token_by_hash(&peering_auth::TokenKey::parse(explicit).unwrap().hash())
        .unwrap()
        .expect("stored by hash");
    assert_eq!(token.principal.username, "alice");
    assert!(token.principal.is_superuser);
}

#[test]
fn bad_settings_are_refused() {
    let db = TestDatabase::new();
    let out = peeringd(&db)
        .args(["migrate"])
        .env("PEERING_DATABASE_URL", "mysql://nope")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("sqlite://"));
}

#[test]
fn tokens_are_listed_and_revoked_and_passwords_set_from_the_command_line() {
    let db = TestDatabase::new();
    let run = |args: &[&str], stdin: Option<&str>| {
        let mut child = peeringd(&db)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        if let Some(text) = stdin {
            child
                .stdin
                .take()
                .unwrap()
                .write_all(text.as_bytes())
                .unwrap();
        }
        let out = child.wait_with_output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    assert!(run(&["user", "create", "--username", "kim"], None).0);
    let (ok, key, _) = run(
        &[
            "token",
            "create",
            "--user",
            "kim",
            "--read-only",
            "--description",
            "backup job",
        ],
        None,
    );
    assert!(ok);
    let key = key.trim();
    let (ok, listing, _) = run(&["token", "list", "--user", "kim"], None);
    assert!(ok);
    let line = listing.lines().next().expect("one token");
    assert!(line.contains("kim") && line.contains("read-only") && line.contains("backup job"));
    assert!(
        line.contains(&key[34..]) && !line.contains(key),
        "only the key's end: {line}"
    );
    let id = line.split('\t').next().unwrap();
    assert!(run(&["token", "revoke", "--id", id], None).0);
    assert_eq!(run(&["token", "list", "--user", "kim"], None).1, "");
    let (ok, _, err) = run(&["token", "revoke", "--id", id], None);
    assert!(!ok && err.contains("no token"), "{err}");

    // A password set from stdin logs in.
    assert!(
        run(
            &["user", "set-password", "--username", "kim"],
            Some("new secret\n")
        )
        .0
    );
    let store = peering_store::Store::open(&db.url, 1).unwrap();
    let login = store.users().login_record("kim").unwrap().unwrap();
    assert!(peering_auth::password::verify(
        "new secret",
        &login.password_hash
    ));
    let (ok, _, err) = run(
        &["user", "set-password", "--username", "nobody"],
        Some("long enough password\n"),
    );
    assert!(!ok && err.contains("no user"), "{err}");
}

#[test]
fn a_stopped_server_leaves_no_write_ahead_log_to_read_back() {
    let db = TestDatabase::sqlite();
    let path = db.url.trim_start_matches("sqlite://").to_string();
    let log_size = || std::fs::metadata(format!("{path}-wal")).map_or(0, |m| m.len());
    let (mut child, port, key) = first_start(&db);
    let objects: Vec<_> = (0..200)
        .map(|i| serde_json::json!({"asn": 64512 + i, "name": format!("Peer {i}")}))
        .collect();
    let status = post_autonomous_systems(port, &key, &serde_json::Value::Array(objects));
    assert_eq!(status, 201);
    assert!(
        log_size() > 0,
        "the writes are in the log while the server runs"
    );
    // Stopped as a service manager stops it.
    let stopped = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(stopped.success());
    let exit = child.wait().unwrap();
    assert!(exit.success(), "peeringd exited with {exit}");
    assert_eq!(log_size(), 0, "the log was copied back and emptied");
}

/// Waits (up to 5 s) for `url` to answer; its status and body.
fn get_when_up(url: &str, key: Option<&str>) -> (u16, String) {
    for _ in 0..100 {
        let mut req = ureq::get(url);
        if let Some(k) = key {
            req = req.set("Authorization", &format!("Token {k}"));
        }
        match req.call() {
            Ok(r) => return (r.status(), r.into_string().unwrap_or_default()),
            Err(ureq::Error::Status(code, r)) => {
                return (code, r.into_string().unwrap_or_default())
            }
            Err(_) => std::thread::sleep(std::time::Duration::from_millis(50)),
        }
    }
    panic!("{url} never answered");
}

#[test]
fn the_access_log_in_json_and_metrics_on_their_own_address() {
    let db = TestDatabase::new();
    let (port, metrics_port) = (free_port(), free_port());
    let mut cmd = peeringd(&db);
    cmd.arg("serve")
        .env("PEERING_LISTEN", format!("127.0.0.1:{port}"))
        .env(
            "PEERING_METRICS_LISTEN",
            format!("127.0.0.1:{metrics_port}"),
        )
        .env("PEERING_LOG_FORMAT", "json")
        .env("RUST_LOG", "info")
        .stderr(Stdio::piped());
    let (mut child, key) = first_start_of(cmd);
    let url = format!("http://127.0.0.1:{port}/api/peering/autonomous-systems/?limit=7");
    assert_eq!(get_when_up(&url, Some(&key)).0, 200);
    // The metrics address answers anyone; the main one only staff.
    let (status, text) = get_when_up(&format!("http://127.0.0.1:{metrics_port}/metrics"), None);
    assert_eq!(status, 200);
    assert!(text.contains("peeringd_http_requests_total{method=\"GET\",route=\"/api/peering/autonomous-systems/\",status=\"200\"} 1"), "{text}");
    assert_eq!(
        get_when_up(&format!("http://127.0.0.1:{port}/metrics"), None).0,
        403
    );
    // A graceful stop, as a service manager's: log lines still queued are written.
    let stopped = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(stopped.success());
    let _ = child.wait();
    let mut log = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    let access: Vec<serde_json::Value> = log
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["target"] == "peeringd::access")
        .collect();
    let line = access
        .iter()
        .find(|v| v["path"] == "/api/peering/autonomous-systems/?limit=7")
        .unwrap_or_else(|| panic!("no access line in {log}"));
    assert_eq!(line["method"], "GET");
    assert_eq!(line["status"], 200);
    assert_eq!(line["user"], "admin");
    assert!(line["bytes"].as_str().unwrap().parse::<u64>().unwrap() > 0);
    assert!(line["duration_ms"].as_f64().unwrap() >= 0.0);
    assert_eq!(line["request_id"].as_str().unwrap().len(), 36);
    assert_eq!(line["level"], "INFO");
}

#[test]
fn backup_copies_a_sqlite_database_while_it_is_in_use() {
    let db = TestDatabase::new();
    let (mut child, port, key) = first_start(&db);
    let body = serde_json::json!({"asn": 65001, "name": "Kept"});
    assert_eq!(post_autonomous_systems(port, &key, &body), 201);
    let copy = std::env::temp_dir().join(format!("peeringd-backup-{}.sqlite3", uuid_like()));
    let (ok, _, err) = {
        let out = peeringd(&db).arg("backup").arg(&copy).output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let _ = child.kill();
    let _ = child.wait();
    if db.url.starts_with("postgres") {
        assert!(!ok && err.contains("pg_dump"), "{err}");
        return;
    }
    assert!(ok, "{err}");
    let restored = peering_store::Store::open(&format!("sqlite://{}", copy.display()), 1).unwrap();
    let (found, _) = restored
        .list(
            &peering_domain::resources::AUTONOMOUS_SYSTEM,
            &peering_filter::Filter::default(),
            peering_store::Window {
                limit: Some(10),
                offset: 0,
            },
            false,
            None,
        )
        .map(|p| (p.count, ()))
        .unwrap();
    assert_eq!(found, 1);
    // A second backup to the same file is refused rather than overwriting it.
    let again = peeringd(&db).arg("backup").arg(&copy).output().unwrap();
    assert!(!again.status.success());
    drop(restored);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", copy.display()));
    }
}

fn uuid_like() -> String {
    format!(
        "{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    )
}
