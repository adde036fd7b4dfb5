//! `peeringd worker` runs the jobs a server enqueues, with no HTTP listener of its own: one
//! server without job workers and two worker processes on one database share the queue,
//! each job runs once, and the workers stop on SIGTERM.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::binary::{call, first_start, free_port};
use peering_store::testing::TestDatabase;
use serde_json::json;

/// About a second of a debug build's time: workers overlap.
const SLOW: &str =
    "{% for i in range(100000) %}{% for j in range(10) %}{% endfor %}{% endfor %}done";
const JOBS: usize = 4;

fn peeringd(db: &TestDatabase, command: &str, workers: usize) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_peeringd"));
    cmd.arg(command)
        .env("PEERING_DATABASE_URL", &db.url)
        .env("PEERING_JOB_WORKERS", workers.to_string());
    cmd
}

/// A worker process and the lines it logs. It is given the server's address to listen on:
/// were it to listen, it would fail to start.
fn worker(db: &TestDatabase, port: u16) -> (Child, Arc<Mutex<Vec<String>>>) {
    let mut child = peeringd(db, "worker", 1)
        .env("RUST_LOG", "info")
        .env("PEERING_LISTEN", format!("127.0.0.1:{port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    let lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let kept = log.clone();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            kept.lock().unwrap().push(line);
        }
    });
    (child, log)
}

/// The jobs that ended, as the workers logged them (`job N (…) ended …`).
fn ended_in(log: &Mutex<Vec<String>>) -> Vec<i64> {
    log.lock()
        .unwrap()
        .iter()
        .filter_map(|line| {
            let rest = &line[line.find("job ")? + 4..];
            rest.contains(") ended")
                .then(|| rest.split(' ').next()?.parse().ok())?
        })
        .collect()
}

#[test]
fn two_workers_and_a_server_without_workers_share_the_queue() {
    let db = TestDatabase::new();
    let port = free_port();
    let mut server = peeringd(&db, "serve", 0);
    server
        .env("PEERING_LISTEN", format!("127.0.0.1:{port}"))
        .env("RUST_LOG", "warn")
        .stderr(Stdio::null());
    let (mut server, key) = first_start(server);
    let template =
        json!({"name": "slow", "content_type": "peering.autonomoussystem", "template": SLOW});
    let (status, export) = call(
        port,
        &key,
        "POST",
        "/api/extras/export-templates/",
        Some(template),
    );
    assert_eq!(status, 201, "{export}");
    let (mut first, first_log) = worker(&db, port);
    let (mut second, second_log) = worker(&db, port);
    let render = format!("/api/extras/export-templates/{}/render/", export["id"]);
    let jobs: Vec<i64> = (0..JOBS)
        .map(|_| {
            call(port, &key, "GET", &render, None).1["id"]
                .as_i64()
                .unwrap()
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(120);
    for job in &jobs {
        loop {
            let (_, current) = call(port, &key, "GET", &format!("/api/core/jobs/{job}/"), None);
            if current["status"]["value"] == "completed" {
                assert_eq!(current["output"], "done", "{current}");
                break;
            }
            assert!(Instant::now() < deadline, "job {job} still {current}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let (by_first, by_second) = (ended_in(&first_log), ended_in(&second_log));
    let mut all: Vec<i64> = by_first.iter().chain(&by_second).copied().collect();
    all.sort_unstable();
    assert_eq!(
        all, jobs,
        "each job ran once, in a worker: {by_first:?} {by_second:?}"
    );
    assert!(
        !by_first.is_empty() && !by_second.is_empty(),
        "both took jobs: {by_first:?} {by_second:?}"
    );
    for child in [&mut first, &mut second] {
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(child.id().to_string())
            .status();
    }
    let stopped = Instant::now();
    for child in [&mut first, &mut second] {
        while child.try_wait().unwrap().is_none() {
            assert!(
                stopped.elapsed() < Duration::from_secs(30),
                "a worker ignored SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(child.wait().unwrap().success());
    }
    let _ = server.kill();
    let _ = server.wait();
}
