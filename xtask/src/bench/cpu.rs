//! The CPU time a measurement cost: the server's process and, on PostgreSQL, every process
//! of the database's (named `postgres`), read from `/proc/<pid>/stat` before and after.
//! On a shared machine whose speed varies from run to run, the CPU a request costs tells
//! two builds apart where their rates, bounded by the same two cores, move together.
//!
//! The figures include the writer's PATCHes (a few dozen a second beside thousands of
//! reads), and on PostgreSQL its background processes (autovacuum among them).

use std::fs;

/// Clock ticks a second in `/proc`'s times (`USER_HZ`: 100 on every Linux architecture
/// the project builds for).
const TICKS_PER_S: f64 = 100.0;

/// The CPU time of the processes watched, at one moment, in clock ticks.
#[derive(Debug, Clone, Copy)]
pub struct CpuSample {
    server: u64,
    database: Option<u64>,
}

/// CPU time a measurement cost, per request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CpuPerRequest {
    pub server_ms: f64,
    pub database_ms: Option<f64>,
}

/// Reads the CPU of the server `pid`, and of PostgreSQL's processes when `database`.
pub fn sample(pid: u32, database: bool) -> CpuSample {
    CpuSample {
        server: process_ticks(pid).unwrap_or(0),
        database: database.then(postgres_ticks),
    }
}

impl CpuSample {
    /// The CPU used since `self`, per request of `requests`.
    pub fn per_request(&self, later: &CpuSample, requests: u64) -> CpuPerRequest {
        let ms = |before: u64, after: u64| {
            after.saturating_sub(before) as f64 * 1000.0 / TICKS_PER_S / requests.max(1) as f64
        };
        CpuPerRequest {
            server_ms: ms(self.server, later.server),
            database_ms: self.database.zip(later.database).map(|(a, b)| ms(a, b)),
        }
    }
}

/// User and system time of one process, all its threads, from `/proc/<pid>/stat`.
fn process_ticks(pid: u32) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(&stat).map(|(_, ticks)| ticks)
}

/// The processes named `postgres` (the server and its backends), their times summed.
fn postgres_ticks() -> u64 {
    let Ok(entries) = fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(is_pid))
        .filter_map(|e| fs::read_to_string(e.path().join("stat")).ok())
        .filter_map(|stat| parse_stat(&stat))
        .filter(|(name, _)| name == "postgres")
        .map(|(_, ticks)| ticks)
        .sum()
}

fn is_pid(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit())
}

/// A stat line's command name and its user plus system time: `pid (name) state ...`,
/// utime and stime the 14th and 15th fields. The name may hold spaces and parentheses,
/// so the fields are counted from the last `)`.
fn parse_stat(stat: &str) -> Option<(String, u64)> {
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let name = stat.get(open + 1..close)?.to_owned();
    let mut after = stat.get(close + 1..)?.split_whitespace();
    // Fields 3 to 13 come before utime.
    let utime: u64 = after.nth(11)?.parse().ok()?;
    let stime: u64 = after.next()?.parse().ok()?;
    Some((name, utime + stime))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_gives_its_name_and_times() {
        let line = "4242 (post gres) S 1 4242 4242 0 -1 4194560 1003 0 0 0 37 12 0 0 20 0 1 0 \
                    100 1000 10 18446744073709551615";
        assert_eq!(parse_stat(line), Some(("post gres".to_owned(), 49)));
        let odd = "7 (a) b) R 1 7 7 0 -1 0 0 0 0 0 5 6 0 0";
        assert_eq!(parse_stat(odd), Some(("a) b".to_owned(), 11)));
        assert_eq!(parse_stat("7 (cut) R 1 2"), None);
        assert_eq!(parse_stat("no name"), None);
    }

    #[test]
    fn a_busy_process_is_seen_using_cpu() {
        let pid = std::process::id();
        let started = std::time::Instant::now();
        let mut spins = 0u64;
        while process_ticks(pid) == Some(0) && started.elapsed().as_secs() < 5 {
            spins = std::hint::black_box(spins + 1);
        }
        let ticks = process_ticks(pid);
        assert!(ticks.is_some_and(|t| t > 0), "{ticks:?}");
    }

    #[test]
    fn cpu_is_divided_among_requests() {
        let before = CpuSample {
            server: 100,
            database: Some(50),
        };
        let after = CpuSample {
            server: 300,
            database: Some(150),
        };
        let used = before.per_request(&after, 1000);
        assert_eq!(used.server_ms, 2.0);
        assert_eq!(used.database_ms, Some(1.0));
        let no_database = CpuSample {
            server: 300,
            database: None,
        };
        assert_eq!(before.per_request(&no_database, 0).database_ms, None);
    }
}
