//! `peeringd peeringdb sync` against a fake PeeringDB on 127.0.0.1 that stalls or trickles
//! its answers: the synchronisation ends with an error naming the bound it passed, soon
//! after that bound, and leaves no download folder behind; folders left by killed
//! synchronisations are removed by the next one, those of running ones are not.

use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::output_text;
use peering_store::testing::TestDatabase;
use peeringdb_fake::{Dataset, FakePeeringDb, Fault, Sizes};

/// The start of the download folders' names.
const PREFIX: &str = peering_peeringdb::downloads::PREFIX;
/// How long a synchronisation under test may run before the test gives up on it: far past
/// every bound the tests set, far short of the fake's trickles.
const GIVE_UP: Duration = Duration::from_secs(60);

/// A temporary directory of the test's own, given to the synchronisations as theirs.
struct Temporary(PathBuf);

impl Temporary {
    fn new() -> Temporary {
        let dir = std::env::temp_dir().join(format!(
            "peeringd-sync-bounds-{}",
            uuid::Uuid::new_v4().simple()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        Temporary(dir)
    }

    /// The download folders in it.
    fn download_folders(&self) -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = std::fs::read_dir(&self.0)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(PREFIX))
            .map(|e| e.path())
            .collect();
        found.sort();
        found
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A synchronisation from `fake` with the settings `env`, its temporary directory `tmp`.
fn command(
    db: &TestDatabase,
    fake: &FakePeeringDb,
    tmp: &Temporary,
    env: &[(&str, &str)],
) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_peeringd"));
    command
        .env("PEERING_DATABASE_URL", &db.url)
        .env("PEERING_PEERINGDB_URL", &fake.url)
        .env("TMPDIR", &tmp.0)
        .env("RUST_LOG", "info")
        .envs(env.iter().copied())
        .args(["peeringdb", "sync"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Runs `command` to its end, or kills it after `GIVE_UP` and fails the test; its output
/// and how long it ran.
fn run_bounded(mut command: Command) -> (Output, Duration) {
    let started = Instant::now();
    let mut child = command.spawn().expect("peeringd runs");
    while child.try_wait().expect("waits").is_none() {
        if started.elapsed() > GIVE_UP {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "still running after {GIVE_UP:?}, killed: {}",
                output_text(&out)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    (out, started.elapsed())
}

/// A small PeeringDB (0.1% of the real one) whose networks come a byte every `every`.
fn trickling(every: Duration) -> FakePeeringDb {
    let fake = FakePeeringDb::start(Dataset::new(Sizes::scaled(0.001)));
    fake.fault(Fault::Trickle {
        namespace: "net".into(),
        every,
    });
    fake
}

fn assert_failed_with(out: &Output, text: &str) {
    let said = output_text(out);
    assert!(!out.status.success(), "{said}");
    assert!(said.contains(text), "expected {text:?} in: {said}");
}

#[test]
fn a_trickling_answer_ends_the_sync_at_its_deadline() {
    let fake = trickling(Duration::from_millis(200));
    let (db, tmp) = (TestDatabase::new(), Temporary::new());
    let settings = [
        ("PEERING_PEERINGDB_IDLE_TIMEOUT_SECS", "30"),
        ("PEERING_PEERINGDB_DEADLINE_SECS", "3"),
    ];
    let (out, took) = run_bounded(command(&db, &fake, &tmp, &settings));
    assert_failed_with(&out, "took more than its deadline of 3 s (downloading net)");
    // The deadline, plus starting the process and the database.
    assert!(took < Duration::from_secs(20), "ended after {took:?}");
    assert!(took >= Duration::from_secs(3), "ended after {took:?}");
    assert_eq!(tmp.download_folders(), Vec::<PathBuf>::new());
}

#[test]
fn a_trickling_answer_ends_the_sync_at_its_read_timeout() {
    let fake = trickling(Duration::from_millis(200));
    let (db, tmp) = (TestDatabase::new(), Temporary::new());
    let settings = [
        ("PEERING_PEERINGDB_IDLE_TIMEOUT_SECS", "30"),
        ("PEERING_PEERINGDB_READ_TIMEOUT_SECS", "2"),
    ];
    let (out, took) = run_bounded(command(&db, &fake, &tmp, &settings));
    assert_failed_with(
        &out,
        "PeeringDB's answer for net took more than 2 s (the read timeout)",
    );
    assert!(took < Duration::from_secs(20), "ended after {took:?}");
    assert_eq!(tmp.download_folders(), Vec::<PathBuf>::new());
}

#[test]
fn a_stalled_answer_ends_the_sync_at_its_idle_timeout() {
    // Headers, then nothing for longer than the test waits.
    let fake = trickling(GIVE_UP * 2);
    let (db, tmp) = (TestDatabase::new(), Temporary::new());
    let settings = [("PEERING_PEERINGDB_IDLE_TIMEOUT_SECS", "1")];
    let (out, took) = run_bounded(command(&db, &fake, &tmp, &settings));
    assert_failed_with(
        &out,
        "PeeringDB sent nothing for 1 s while answering for net (the idle timeout)",
    );
    assert!(took < Duration::from_secs(20), "ended after {took:?}");
    assert_eq!(tmp.download_folders(), Vec::<PathBuf>::new());
}

#[test]
fn bounds_of_zero_or_past_a_week_are_refused() {
    let fake = FakePeeringDb::start(Dataset::new(Sizes::scaled(0.001)));
    let (db, tmp) = (TestDatabase::new(), Temporary::new());
    for (name, value) in [
        ("PEERING_PEERINGDB_DEADLINE_SECS", "0"),
        (
            "PEERING_PEERINGDB_IDLE_TIMEOUT_SECS",
            "18446744073709551615",
        ),
    ] {
        let (out, _) = run_bounded(command(&db, &fake, &tmp, &[(name, value)]));
        assert_failed_with(
            &out,
            "PEERING_PEERINGDB_DEADLINE_SECS must be between 1 and 604800",
        );
    }
    assert!(fake.requests().is_empty());
}

/// A synchronisation running in the background, killed (if still running) when dropped,
/// as an operator or the system would kill it: it cannot clean up after itself.
struct Running(Child);

impl Running {
    fn start(mut command: Command) -> Running {
        Running(command.spawn().expect("peeringd runs"))
    }

    /// Waits until it is downloading networks (the trickled answer) into a folder of `tmp`
    /// other than `known`; that folder.
    fn downloading_into(&mut self, tmp: &Temporary, known: &[PathBuf]) -> PathBuf {
        let started = Instant::now();
        loop {
            let folders = tmp.download_folders();
            let new = folders.iter().find(|f| !known.contains(f));
            if let Some(folder) = new.filter(|f| f.join("net.json").exists()) {
                return folder.clone();
            }
            assert!(self.0.try_wait().unwrap().is_none(), "ended too soon");
            assert!(started.elapsed() < GIVE_UP, "not downloading: {folders:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_killed_syncs_folder_is_removed_by_the_next_sync_and_a_running_ones_kept() {
    let fake = trickling(Duration::from_millis(100));
    let (db, tmp) = (TestDatabase::new(), Temporary::new());
    // Killed while it downloads networks, after three object types.
    let mut killed = Running::start(command(&db, &fake, &tmp, &[]));
    let left = killed.downloading_into(&tmp, &[]);
    drop(killed);
    assert!(left.join("org.json").exists());
    assert_eq!(tmp.download_folders(), vec![left.clone()], "left behind");

    // The next one removes it, and runs (stuck on the trickle) while a third completes.
    fake.fault(Fault::Trickle {
        namespace: "net".into(),
        every: Duration::from_millis(100),
    });
    let mut running = Running::start(command(&db, &fake, &tmp, &[]));
    let in_use = running.downloading_into(&tmp, std::slice::from_ref(&left));
    assert!(!left.exists(), "removed by the next sync");
    let (out, _) = run_bounded(command(&db, &fake, &tmp, &[]));
    assert!(out.status.success(), "{}", output_text(&out));
    assert_eq!(tmp.download_folders(), vec![in_use.clone()], "in use: kept");
    assert!(in_use.join("org.json").exists(), "kept whole");
    drop(running);
}

#[test]
fn a_failing_sync_leaves_no_folder() {
    let fake = FakePeeringDb::start(Dataset::new(Sizes::scaled(0.001)));
    fake.fault(Fault::Status {
        namespace: "netixlan".into(),
        status: 500,
        times: 1,
    });
    let (db, tmp) = (TestDatabase::new(), Temporary::new());
    let (out, _) = run_bounded(command(&db, &fake, &tmp, &[]));
    assert_failed_with(&out, "PeeringDB answered 500 for netixlan");
    assert_eq!(tmp.download_folders(), Vec::<PathBuf>::new());
    let (out, _) = run_bounded(command(&db, &fake, &tmp, &[]));
    assert!(out.status.success(), "{}", output_text(&out));
    assert_eq!(tmp.download_folders(), Vec::<PathBuf>::new());
}

#[test]
fn the_servers_synchronisation_job_keeps_the_bounds_set() {
    let fake = trickling(Duration::from_millis(200));
    let s = crate::common::TestServer::start_with(peering_api::Settings {
        peeringdb: peering_peeringdb::Settings {
            url: fake.url.clone(),
            ..Default::default()
        },
        peeringdb_limits: peering_peeringdb::Limits {
            deadline: Duration::from_secs(3),
            ..Default::default()
        },
        ..Default::default()
    });
    let job = s.post("/api/peeringdb/cache/update-local/", serde_json::json!({}));
    assert_eq!(job.status, 202, "{}", job.text);
    let done = crate::common::network::finished(&s, &job.json());
    assert_eq!(done["status"]["value"], "errored", "{done}");
    let output = done["output"].as_str().unwrap_or_default();
    assert!(output.contains("deadline of 3 s"), "{output}");
}
