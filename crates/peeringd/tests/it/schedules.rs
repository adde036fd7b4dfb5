//! Schedules (`PEERING_SCHEDULE_*`) run by themselves: two instances on one database (a
//! server and `peeringd worker`) start each due run once, polling enqueues a job for each
//! router that asks for it and none while its last still waits, a scheduled PeeringDB
//! synchronisation copies the fake PeeringDB, schedules left off enqueue nothing, and a bad
//! interval stops the start.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::binary::{call, first_start, free_port};
use peering_store::testing::TestDatabase;
use peeringdb_fake::{Dataset, FakePeeringDb, Sizes};
use serde_json::{json, Value as Json};

/// `peeringd COMMAND` on `db`, logging at info level, with no schedule on but those given.
fn peeringd(db: &TestDatabase, command: &str, schedules: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_peeringd"));
    cmd.arg(command)
        .env("PEERING_DATABASE_URL", &db.url)
        .env("PEERING_JOB_WORKERS", "1")
        .env("RUST_LOG", "info")
        .env("PEERING_SCHEDULE_RETENTION", "")
        .stderr(Stdio::piped());
    for (name, value) in schedules {
        cmd.env(name, value);
    }
    cmd
}

/// Keeps the lines a process logs.
fn logged(child: &mut Child) -> Arc<Mutex<Vec<String>>> {
    let log = Arc::new(Mutex::new(Vec::new()));
    let lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let kept = log.clone();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            kept.lock().unwrap().push(line);
        }
    });
    log
}

/// The jobs of a list query, oldest first.
fn jobs(port: u16, key: &str, query: &str) -> Vec<Json> {
    let mut path = "/api/core/jobs/?limit=1000&ordering=created".to_string();
    if !query.is_empty() {
        path = format!("{path}&{query}");
    }
    let (status, page) = call(port, key, "GET", &path, None);
    assert_eq!(status, 200, "{page}");
    page["results"].as_array().unwrap().clone()
}

/// The jobs the schedules' runs logged they started (`…: started 1 job(s) NAME [ID]`).
fn started_jobs(log: &Mutex<Vec<String>>) -> Vec<i64> {
    let log = log.lock().unwrap();
    log.iter()
        .filter(|line| line.contains("schedule retention, every 2s: started"))
        .filter_map(|line| {
            line.rsplit_once('[')?
                .1
                .strip_suffix(']')
                .map(str::to_string)
        })
        .flat_map(|ids| {
            ids.split(", ")
                .filter_map(|id| id.trim().parse().ok())
                .collect::<Vec<i64>>()
        })
        .collect()
}

/// The scheduled retention runs, once the last one started has ended (a run may have
/// started just before this looks: its job ends within moments).
fn ended_runs(port: u16, key: &str) -> Vec<Json> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let runs = jobs(port, key, "name=core.retention.purge");
        let ended = runs
            .iter()
            .all(|run| !matches!(run["status"]["value"].as_str(), Some("pending" | "running")));
        if ended || Instant::now() > deadline {
            return runs;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn created(job: &Json) -> chrono::DateTime<chrono::FixedOffset> {
    chrono::DateTime::parse_from_rfc3339(job["created"].as_str().unwrap()).unwrap()
}

fn stop(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn two_instances_start_a_two_second_schedule_once_per_period() {
    let db = TestDatabase::new();
    let port = free_port();
    let every_2s = [("PEERING_SCHEDULE_RETENTION", "2s")];
    let mut server = peeringd(&db, "serve", &every_2s);
    server.env("PEERING_LISTEN", format!("127.0.0.1:{port}"));
    let (mut server, key) = first_start(server);
    let server_log = logged(&mut server);
    let mut worker = peeringd(&db, "worker", &every_2s)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let worker_log = logged(&mut worker);
    let watched = Instant::now();
    std::thread::sleep(Duration::from_secs(20));
    let runs = ended_runs(port, &key);
    let span = watched.elapsed().as_secs_f64() + 1.0;
    let _ = Command::new("kill")
        .arg("-TERM")
        .arg(worker.id().to_string())
        .status();
    let worker_ended = worker.wait().unwrap();
    stop(&mut server);
    assert!(worker_ended.success(), "the worker stopped on SIGTERM");
    // Both have stopped: their logs are whole once the pipes are read to their end.
    std::thread::sleep(Duration::from_millis(300));
    let mut started = started_jobs(&server_log);
    started.extend(started_jobs(&worker_log));
    let mut unique = started.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(
        unique.len(),
        started.len(),
        "a job started twice: {started:?}"
    );
    for run in &runs {
        let id = run["id"].as_i64().unwrap();
        assert!(started.contains(&id), "job {id} not logged: {started:?}");
    }
    // A run every two seconds from two seconds after the start, at most one per period.
    let most = (span / 2.0).floor() as usize;
    assert!(
        (most.saturating_sub(3)..=most).contains(&runs.len()),
        "{} runs in {span:.1} s: {runs:#?}",
        runs.len()
    );
    for pair in runs.windows(2) {
        let gap = (created(&pair[1]) - created(&pair[0])).num_milliseconds();
        assert!(
            gap >= 1_999,
            "two runs {gap} ms apart: {:#?}",
            (&pair[0], &pair[1])
        );
    }
    for run in &runs {
        assert!(run["user"].is_null(), "{run}");
        assert_eq!(run["status"]["value"], "completed", "{run}");
        assert_eq!(run["data"]["schedule"], "retention, every 2s", "{run}");
        let output = run["output"].as_str().unwrap_or_default();
        assert!(
            output.starts_with("deleted 0 change records older than 90 days"),
            "{run}"
        );
    }
}

/// A router that asks to be polled or not; its id.
fn router(port: u16, key: &str, name: &str, (us, platform): (&Json, &Json), polled: bool) -> i64 {
    let body = json!({
        "name": name, "hostname": format!("{name}.example.net"), "platform": platform["id"],
        "local_autonomous_system": us["id"], "poll_bgp_sessions_state": polled,
    });
    let (status, router) = call(port, key, "POST", "/api/peering/routers/", Some(body));
    assert_eq!(status, 201, "{router}");
    router["id"].as_i64().unwrap()
}

/// Waits (10 s at most) for the pending poll jobs of `router` to be `count`; them.
fn polls_of(port: u16, key: &str, router: i64, count: usize) -> Vec<Json> {
    let query = format!("name=peering.router.poll_bgp_sessions&object_id={router}");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let polls = jobs(port, key, &query);
        if polls.len() == count || Instant::now() > deadline {
            return polls;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn polling_enqueues_for_the_routers_that_ask_and_not_while_their_poll_waits() {
    let db = TestDatabase::new();
    let port = free_port();
    // No workers: the polls stay pending.
    let mut server = peeringd(&db, "serve", &[("PEERING_SCHEDULE_POLL_SESSIONS", "1s")]);
    server
        .env("PEERING_LISTEN", format!("127.0.0.1:{port}"))
        .env("PEERING_JOB_WORKERS", "0");
    let (mut server, key) = first_start(server);
    let _log = logged(&mut server);
    let as_body = json!({"asn": 64500, "name": "Us"});
    let (_, us) = call(
        port,
        &key,
        "POST",
        "/api/peering/autonomous-systems/",
        Some(as_body),
    );
    let platform = json!({"name": "Junos", "slug": "junos"});
    let (_, platform) = call(
        port,
        &key,
        "POST",
        "/api/devices/platforms/",
        Some(platform),
    );
    let polled = router(port, &key, "edge1", (&us, &platform), true);
    let quiet = router(port, &key, "edge2", (&us, &platform), false);
    let first = polls_of(port, &key, polled, 1);
    assert_eq!(first.len(), 1, "{first:#?}");
    assert_eq!(first[0]["status"]["value"], "pending");
    assert!(first[0]["user"].is_null(), "{}", first[0]);
    assert_eq!(first[0]["data"]["schedule"], "poll_sessions, every 1s");
    // Three more periods: the first poll still waits, so none is added.
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(polls_of(port, &key, polled, 1).len(), 1);
    assert_eq!(polls_of(port, &key, quiet, 0).len(), 0);
    let every = jobs(port, &key, "status=pending");
    assert_eq!(every.len(), 1, "only the poll: {every:#?}");
    // Once it is gone, the next period polls again.
    let path = format!("/api/core/jobs/{}/", first[0]["id"]);
    assert_eq!(call(port, &key, "DELETE", &path, None).0, 204);
    let second = polls_of(port, &key, polled, 1);
    assert_eq!(second.len(), 1);
    assert_ne!(second[0]["id"], first[0]["id"]);
    stop(&mut server);
}

#[test]
fn schedules_off_enqueue_nothing() {
    let db = TestDatabase::new();
    let port = free_port();
    // The defaults: only the retention's schedule is on, first due in an hour.
    let mut server = peeringd(&db, "serve", &[]);
    server
        .env_remove("PEERING_SCHEDULE_RETENTION")
        .env("PEERING_LISTEN", format!("127.0.0.1:{port}"));
    let (mut server, key) = first_start(server);
    let log = logged(&mut server);
    std::thread::sleep(Duration::from_secs(3));
    let every = jobs(port, &key, "");
    stop(&mut server);
    assert_eq!(every, Vec::<Json>::new());
    let log = log.lock().unwrap();
    assert!(
        log.iter()
            .any(|l| l.contains("schedule retention: armed, first run in 1h")),
        "{log:#?}"
    );
    assert!(!log.iter().any(|l| l.contains("schedule poll_sessions")));
}

#[test]
fn a_bad_interval_stops_the_start_naming_its_setting() {
    let db = TestDatabase::new();
    let out = peeringd(&db, "serve", &[("PEERING_SCHEDULE_IRR_REFRESH", "15 min")])
        .env("PEERING_LISTEN", format!("127.0.0.1:{}", free_port()))
        .stdout(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("PEERING_SCHEDULE_IRR_REFRESH"), "{said}");
}

#[test]
fn a_scheduled_synchronisation_copies_peeringdb_once_per_period() {
    let fake = FakePeeringDb::start(Dataset::new(Sizes::scaled(0.001)));
    let db = TestDatabase::new();
    let port = free_port();
    let mut server = peeringd(&db, "serve", &[("PEERING_SCHEDULE_PEERINGDB_SYNC", "1s")]);
    server
        .env("PEERING_LISTEN", format!("127.0.0.1:{port}"))
        .env("PEERING_PEERINGDB_URL", &fake.url);
    let (mut server, key) = first_start(server);
    let _log = logged(&mut server);
    let deadline = Instant::now() + Duration::from_secs(30);
    let synced = loop {
        let done = jobs(port, &key, "name=peeringdb.synchronise&status=completed");
        if let Some(first) = done.first() {
            break first.clone();
        }
        assert!(Instant::now() < deadline, "no synchronisation completed");
        std::thread::sleep(Duration::from_millis(200));
    };
    let (_, networks) = call(port, &key, "GET", "/api/peeringdb/networks/?limit=1", None);
    let all = jobs(port, &key, "name=peeringdb.synchronise");
    stop(&mut server);
    assert!(synced["user"].is_null(), "{synced}");
    assert_eq!(synced["data"]["schedule"], "peeringdb_sync, every 1s");
    assert!(networks["count"].as_i64().unwrap() > 0, "{networks}");
    for pair in all.windows(2) {
        let gap = (created(&pair[1]) - created(&pair[0])).num_milliseconds();
        assert!(gap >= 999, "two synchronisations {gap} ms apart: {all:#?}");
    }
}
