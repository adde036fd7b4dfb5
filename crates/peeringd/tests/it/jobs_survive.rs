//! Jobs wait in the database: killed with `kill -9` while jobs are pending, the server
//! runs each of them exactly once after a restart. Killed while the router command runs,
//! it takes the command with it; and the command sees none of the server's secrets in its
//! environment.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::binary::{alive, call, first_start, free_port};
use peering_store::testing::TestDatabase;

use serde_json::{json, Value as Json};

const FAKE_ROUTER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/fake_router.py");

fn serve(db: &TestDatabase, port: u16, workers: usize) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_peeringd"));
    cmd.arg("serve")
        .env("PEERING_DATABASE_URL", &db.url)
        .env("PEERING_LISTEN", format!("127.0.0.1:{port}"))
        .env("PEERING_JOB_WORKERS", workers.to_string())
        .env("PEERING_ROUTER_COMMAND", format!("python3 {FAKE_ROUTER}"))
        .env("RUST_LOG", "warn")
        .stderr(Stdio::null());
    cmd
}

#[test]
fn pending_jobs_run_exactly_once_after_a_kill_9() {
    let db = TestDatabase::new();
    let log = std::env::temp_dir().join(format!("peeringd-jobs-{}.log", uuid::Uuid::new_v4()));
    let port = free_port();
    // No workers: the jobs stay pending.
    let (mut first, key) = first_start(serve(&db, port, 0));
    let (_, us) = call(
        port,
        &key,
        "POST",
        "/api/peering/autonomous-systems/",
        Some(json!({"asn": 64500, "name": "Us"})),
    );
    let (_, platform) = call(
        port,
        &key,
        "POST",
        "/api/devices/platforms/",
        Some(json!({"name": "Junos", "slug": "junos"})),
    );
    let router = json!({"name": "edge1", "hostname": "edge1.example.net", "platform": platform["id"], "local_autonomous_system": us["id"], "napalm_args": {"log": log}});
    let (status, router) = call(port, &key, "POST", "/api/peering/routers/", Some(router));
    assert_eq!(status, 201, "{router}");
    let path = format!(
        "/api/peering/routers/{}/test-napalm-connection/",
        router["id"]
    );
    for _ in 0..20 {
        let (status, job) = call(port, &key, "GET", &path, None);
        assert_eq!(
            (status, job["status"]["value"].clone()),
            (202, json!("pending")),
            "{job}"
        );
    }
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(!log.exists(), "no job ran before the kill");
    // After a restart with workers, each job runs once.
    let mut second = serve(&db, port, 2).stdout(Stdio::null()).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (_, done) = call(
            port,
            &key,
            "GET",
            "/api/core/jobs/?status=completed&limit=0",
            None,
        );
        if done["count"] == 20 {
            break;
        }
        assert!(Instant::now() < deadline, "jobs still pending: {done}");
        std::thread::sleep(Duration::from_millis(100));
    }
    second.kill().unwrap();
    second.wait().unwrap();
    let runs = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    assert_eq!(runs.lines().count(), 20, "{runs}");
    assert!(
        runs.lines().all(|l| l == format!("test {}", router["id"])),
        "{runs}"
    );
}

/// The server `cmd` starts on `port`, and a router whose `napalm_args` tell the fake
/// router what to do; (server, key, the router's test-connection path).
fn server_with_router(cmd: Command, port: u16, napalm_args: Json) -> (Child, String, String) {
    let (server, key) = first_start(cmd);
    let (_, us) = call(
        port,
        &key,
        "POST",
        "/api/peering/autonomous-systems/",
        Some(json!({"asn": 64500, "name": "Us"})),
    );
    let (_, platform) = call(
        port,
        &key,
        "POST",
        "/api/devices/platforms/",
        Some(json!({"name": "Junos", "slug": "junos"})),
    );
    let router = json!({"name": "edge1", "hostname": "edge1.example.net", "platform": platform["id"], "local_autonomous_system": us["id"], "napalm_timeout": 60, "napalm_args": napalm_args});
    let (status, router) = call(port, &key, "POST", "/api/peering/routers/", Some(router));
    assert_eq!(status, 201, "{router}");
    let path = format!(
        "/api/peering/routers/{}/test-napalm-connection/",
        router["id"]
    );
    (server, key, path)
}

#[test]
fn the_router_command_dies_with_a_server_killed_while_it_runs() {
    let db = TestDatabase::new();
    let pids = std::env::temp_dir().join(format!("peeringd-pids-{}.txt", uuid::Uuid::new_v4()));
    let args = json!({"pidfile": pids, "sleep": 1000});
    let port = free_port();
    let (mut server, key, path) = server_with_router(serve(&db, port, 1), port, args);
    let (status, job) = call(port, &key, "GET", &path, None);
    assert_eq!(status, 202, "{job}");
    // The command has started once it wrote its pid.
    let deadline = Instant::now() + Duration::from_secs(30);
    let command: u32 = loop {
        let text = std::fs::read_to_string(&pids).unwrap_or_default();
        if let Some(pid) = text.lines().next().and_then(|l| l.parse().ok()) {
            break pid;
        }
        assert!(Instant::now() < deadline, "the command never started");
        std::thread::sleep(Duration::from_millis(20));
    };
    server.kill().unwrap();
    server.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while alive(command) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let survived = alive(command);
    if survived {
        let _ = Command::new("kill")
            .args(["-KILL", &command.to_string()])
            .status();
    }
    let _ = std::fs::remove_file(&pids);
    assert!(!survived, "the router command outlived the server");
}

#[test]
fn the_router_command_sees_none_of_the_servers_secrets() {
    let db = TestDatabase::new();
    let seen = std::env::temp_dir().join(format!("peeringd-env-{}.json", uuid::Uuid::new_v4()));
    let api_key = format!("peeringdb-key-{}", uuid::Uuid::new_v4());
    let port = free_port();
    let mut cmd = serve(&db, port, 1);
    cmd.env("PEERING_PEERINGDB_API_KEY", &api_key)
        .env("TZ", "Europe/Paris");
    let args = json!({"environment": seen});
    let (mut server, key, path) = server_with_router(cmd, port, args);
    let (_, job) = call(port, &key, "GET", &path, None);
    let deadline = Instant::now() + Duration::from_secs(30);
    let job_path = format!("/api/core/jobs/{}/", job["id"]);
    let done = loop {
        let (_, current) = call(port, &key, "GET", &job_path, None);
        if !matches!(
            current["status"]["value"].as_str(),
            Some("pending" | "running")
        ) {
            break current;
        }
        assert!(Instant::now() < deadline, "job still waiting: {current}");
        std::thread::sleep(Duration::from_millis(50));
    };
    server.kill().unwrap();
    server.wait().unwrap();
    assert_eq!(done["status"]["value"], "completed", "{done}");
    let text = std::fs::read_to_string(&seen).unwrap();
    let _ = std::fs::remove_file(&seen);
    let environment: std::collections::BTreeMap<String, String> =
        serde_json::from_str(&text).unwrap();
    for (name, value) in &environment {
        assert!(
            !name.starts_with("PEERING_") && name != "RUST_LOG",
            "{name} passed"
        );
        assert!(
            !value.contains(&api_key) && !value.contains(&db.url),
            "{name}={value}"
        );
    }
    // What the contract passes on.
    assert_eq!(environment.get("HOME"), std::env::var("HOME").ok().as_ref());
    assert_eq!(environment["TZ"], "Europe/Paris");
    assert!(environment.contains_key("PATH"), "{environment:?}");
}
