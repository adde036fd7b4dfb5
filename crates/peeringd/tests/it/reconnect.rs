//! Connections to PostgreSQL ended under the server (a restart or a failover of the
//! database) are replaced without a request failing. PostgreSQL only: SQLite has no
//! connection to lose, and these tests return at once on it.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use crate::common::TestServer;
use serde_json::json;

const AS: &str = "/api/peering/autonomous-systems/";

/// The inodes of this process's sockets.
fn own_sockets() -> HashSet<u64> {
    let Ok(fds) = std::fs::read_dir("/proc/self/fd") else {
        return HashSet::new();
    };
    fds.flatten()
        .filter_map(|fd| std::fs::read_link(fd.path()).ok())
        .filter_map(|target| {
            let target = target.to_string_lossy().into_owned();
            target
                .strip_prefix("socket:[")?
                .strip_suffix(']')?
                .parse()
                .ok()
        })
        .collect()
}

/// How many of this process's TCP connections from the local `ports` to `port` are
/// established: not yet closed by the other end (Linux's socket tables; none elsewhere).
/// By local port, since other tests of this process hold connections to the same server.
fn established(ports: &[u16], port: u16) -> usize {
    let ours = own_sockets();
    let remote_port = format!(":{port:04X}");
    let local_ports: Vec<String> = ports.iter().map(|p| format!(":{p:04X}")).collect();
    let mut established = 0;
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let text = std::fs::read_to_string(table).unwrap_or_default();
        for line in text.lines().skip(1) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [_, local, remote, state, ..] = fields[..] else {
                continue;
            };
            let inode = fields.get(9).and_then(|i| i.parse::<u64>().ok());
            // State 01: established.
            if remote.ends_with(&remote_port)
                && local_ports.iter().any(|p| local.ends_with(p.as_str()))
                && state == "01"
                && inode.is_some_and(|i| ours.contains(&i))
            {
                established += 1;
            }
        }
    }
    established
}

/// Ends every connection to the server's database, as a restart of the database server
/// would, and waits (at most 10 s) until PostgreSQL has closed them all.
fn end_connections(url: &str) {
    let port = url
        .rsplit_once('@')
        .map_or(url, |(_, host)| host)
        .split(['/', '?'])
        .next()
        .and_then(|host| host.rsplit_once(':'))
        .and_then(|(_, port)| port.parse().ok())
        .unwrap_or(5432);
    let ended = peering_store::testing::end_connections(url).expect("connections ended");
    assert!(!ended.is_empty(), "the server held connections");
    let started = Instant::now();
    while established(&ended, port) > 0 {
        assert!(started.elapsed() < Duration::from_secs(10), "still open");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Reads and writes of several kinds, as a client would make them; their statuses.
fn requests(s: &TestServer, round: i64) -> Vec<(String, u16)> {
    let mut statuses = Vec::new();
    let created = s.post(
        AS,
        json!({"asn": 64_600 + round, "name": format!("AS {round}")}),
    );
    statuses.push((format!("POST {AS}"), created.status));
    let id = created.json()["id"].as_i64().unwrap_or(0);
    for path in [
        AS.to_string(),
        format!("{AS}{id}/"),
        format!("{AS}?asn={}", 64_600 + round),
        "/api/users/tokens/".to_string(),
        "/api/peering/direct-peering-sessions/?limit=5".to_string(),
    ] {
        let r = s.get(&path);
        statuses.push((format!("GET {path}"), r.status));
    }
    let patched = s.patch(&format!("{AS}{id}/"), json!({"comments": "changed"}));
    statuses.push(("PATCH".to_string(), patched.status));
    statuses
}

#[test]
fn requests_after_the_database_ended_every_connection_all_succeed() {
    if peering_store::testing::postgres_url().is_none() {
        return; // SQLite: no connection to lose
    }
    let s = TestServer::start();
    let url = s.database_url();
    for round in 0..3 {
        assert!(requests(&s, round).iter().all(|(_, st)| *st < 300));
    }
    for kill in 0..3 {
        end_connections(&url);
        let started = Instant::now();
        for round in 0..4 {
            let statuses = requests(&s, 10 * (kill + 1) + round);
            let failed: Vec<_> = statuses.iter().filter(|(_, st)| *st >= 300).collect();
            assert!(
                failed.is_empty(),
                "after kill {kill}, round {round}: {failed:?}"
            );
        }
        // Not a measure of speed: a bound far above the time these take (well under a
        // second), far below the 5 s a lost connection used to cost.
        let took = started.elapsed();
        assert!(took < Duration::from_secs(5), "after kill {kill}: {took:?}");
    }
}
