//! `peeringd serve` logs each migration it applies, by name, so that an operator sees what
//! an upgrade changed in the database.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use peering_store::testing::TestDatabase;

/// Starts `peeringd serve` on `db` and reads its log until it serves; the lines read. The
/// server is stopped before this returns.
fn log_until_serving(db: &TestDatabase) -> Vec<String> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_peeringd"))
        .env("PEERING_DATABASE_URL", &db.url)
        .env("PEERING_LISTEN", format!("127.0.0.1:{port}"))
        .env("RUST_LOG", "info")
        .arg("serve")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("peeringd runs");
    let (lines, arriving) = mpsc::channel();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let started = Instant::now();
    let mut log = Vec::new();
    let served = loop {
        let left = Duration::from_secs(60).saturating_sub(started.elapsed());
        match arriving.recv_timeout(left) {
            Ok(line) => {
                let serving = line.contains("serving on http://");
                log.push(line);
                if serving {
                    break true;
                }
            }
            Err(_) => break false,
        }
    };
    let _ = child.kill();
    child.wait().expect("stopped");
    assert!(served, "never served: {log:#?}");
    log
}

/// The migrations of the database's backend, oldest first.
fn migrations(db: &TestDatabase) -> Vec<String> {
    let (sqlite, postgres) = peering_store::migration_names();
    if db.url.starts_with("sqlite://") {
        sqlite
    } else {
        postgres
    }
}

#[test]
fn serve_logs_each_migration_it_applies_and_none_on_a_current_database() {
    let db = TestDatabase::empty();
    let known = migrations(&db);
    assert!(known.len() > 20, "{known:?}");
    let log = log_until_serving(&db);
    let applied: Vec<&str> = log
        .iter()
        .filter_map(|line| {
            let rest = &line[line.find("applied migration ")? + "applied migration ".len()..];
            rest.split_whitespace().next()
        })
        .collect();
    assert_eq!(applied, known, "{log:#?}");
    assert!(
        log.iter()
            .any(|l| l.contains(&format!("applying {} database migration(s)", known.len()))),
        "{log:#?}"
    );

    let again = log_until_serving(&db);
    assert!(
        !again.iter().any(|l| l.contains("migration")),
        "nothing to apply: {again:#?}"
    );
}
