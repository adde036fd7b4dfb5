//! The writer that runs alongside the realistic read scenarios: PATCHes at a set rate, one
//! autonomous system then one session, each a random one, on its own thread, timing each
//! answer. Every write changes the data version, as a client's automation does.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::json;

use super::database::random_u64;
use super::discover::{AUTONOMOUS_SYSTEMS, SESSIONS};
use super::target::Target;
use super::writes::percentile;

/// What the writer may touch.
#[derive(Debug, Clone)]
pub struct Writable {
    pub peer_ids: Vec<i64>,
    /// The sessions' ids, one run from the first to the last (empty when there are none):
    /// a range rather than a list, which would take megabytes at the largest scales.
    pub session_ids: std::ops::RangeInclusive<i64>,
}

/// How the writes went during one scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct WriterStats {
    /// Writes due at the set rate over the scenario.
    pub planned: u64,
    /// Writes answered 200.
    pub done: u64,
    /// Writes that failed or answered something else.
    pub failed: u64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    /// How long the writer ran.
    pub seconds: f64,
}

impl WriterStats {
    /// Writes answered 200 a second.
    pub fn done_per_s(&self) -> f64 {
        self.done as f64 / self.seconds.max(1e-9)
    }
}

pub struct Writer {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<WriterStats>,
}

impl Writer {
    /// Starts writing `rate` times a second (0: not at all) until [`Writer::stop`].
    pub fn start(target: &Target, writable: &Writable, rate: u32) -> Writer {
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (stop, writable) = (stop.clone(), writable.clone());
            let target = Target::local(target.addr, &target.token);
            std::thread::spawn(move || write_until(&target, &writable, rate, &stop))
        };
        Writer { stop, thread }
    }

    pub fn stop(self) -> WriterStats {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().unwrap_or(WriterStats {
            planned: 0,
            done: 0,
            failed: 1,
            p50_ms: 0.0,
            p99_ms: 0.0,
            seconds: 0.0,
        })
    }
}

fn write_until(target: &Target, writable: &Writable, rate: u32, stop: &AtomicBool) -> WriterStats {
    let started = Instant::now();
    let mut latencies = Vec::new();
    let (mut done, mut failed) = (0, 0);
    let interval = Duration::from_secs_f64(1.0 / f64::from(rate.max(1)));
    let mut next = started;
    let mut n: u64 = 0;
    while rate > 0 && !writable.peer_ids.is_empty() && !stop.load(Ordering::Relaxed) {
        let now = Instant::now();
        if now < next {
            std::thread::sleep((next - now).min(Duration::from_millis(50)));
            continue;
        }
        // A slow answer delays the next write rather than bunching them up afterwards: the
        // shortfall shows as `done` below `planned`.
        next = next.max(now - interval) + interval;
        n += 1;
        let path = write_path(writable, n);
        let body = json!({"comments": format!("bench write {n}")}).to_string();
        let sent = Instant::now();
        match target.send("PATCH", &path, Some(&body)) {
            Ok(r) if r.status == 200 => {
                done += 1;
                latencies.push(sent.elapsed().as_secs_f64() * 1000.0);
            }
            _ => failed += 1,
        }
    }
    latencies.sort_by(f64::total_cmp);
    WriterStats {
        // Due at the rate over the time it ran; the first one is due at once.
        planned: ((started.elapsed().as_secs_f64() * f64::from(rate)) as u64).max(done + failed),
        done,
        failed,
        p50_ms: percentile(&latencies, 50.0),
        p99_ms: percentile(&latencies, 99.0),
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// Odd writes go to an autonomous system, even ones to a session, each drawn at random.
fn write_path(writable: &Writable, n: u64) -> String {
    let pick = |ids: &[i64]| ids[(random_u64() % ids.len().max(1) as u64) as usize];
    let sessions = &writable.session_ids;
    if n % 2 == 1 || sessions.is_empty() {
        format!("{AUTONOMOUS_SYSTEMS}{}/", pick(&writable.peer_ids))
    } else {
        let span = (sessions.end() - sessions.start()) as u64 + 1;
        format!(
            "{SESSIONS}{}/",
            sessions.start() + (random_u64() % span) as i64
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_alternate_between_systems_and_sessions() {
        let writable = Writable {
            peer_ids: vec![7],
            session_ids: 9..=9,
        };
        assert_eq!(write_path(&writable, 1), format!("{AUTONOMOUS_SYSTEMS}7/"));
        assert_eq!(write_path(&writable, 2), format!("{SESSIONS}9/"));
        let no_sessions = Writable {
            peer_ids: vec![7],
            #[allow(clippy::reversed_empty_ranges)]
            session_ids: 1..=0,
        };
        assert_eq!(
            write_path(&no_sessions, 2),
            format!("{AUTONOMOUS_SYSTEMS}7/")
        );
    }
}
