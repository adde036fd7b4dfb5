//! Samples a process's resident memory (`VmRSS` in `/proc/<pid>/status`) every 200 ms in
//! a background thread, keeping the peak per measurement window and overall.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

const PERIOD: Duration = Duration::from_millis(200);

pub struct RssMonitor {
    pid: u32,
    stop: Arc<AtomicBool>,
    window_kib: Arc<AtomicU64>,
    overall_kib: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
}

impl RssMonitor {
    pub fn start(pid: u32) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let window_kib = Arc::new(AtomicU64::new(0));
        let overall_kib = Arc::new(AtomicU64::new(0));
        let thread = {
            let (stop, window_kib, overall_kib) =
                (stop.clone(), window_kib.clone(), overall_kib.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    if let Some(kib) = read_rss_kib(pid) {
                        window_kib.fetch_max(kib, Ordering::Relaxed);
                        overall_kib.fetch_max(kib, Ordering::Relaxed);
                    }
                    std::thread::sleep(PERIOD);
                }
            })
        };
        RssMonitor {
            pid,
            stop,
            window_kib,
            overall_kib,
            thread: Some(thread),
        }
    }

    /// The peak since the previous call, in MiB, and starts a new window.
    pub fn take_window_peak_mib(&self) -> f64 {
        // Sample now too, so that a window shorter than the period still sees a value.
        let now = read_rss_kib(self.pid).unwrap_or(0);
        self.overall_kib.fetch_max(now, Ordering::Relaxed);
        kib_to_mib(self.window_kib.swap(0, Ordering::Relaxed).max(now))
    }

    pub fn overall_peak_mib(&self) -> f64 {
        kib_to_mib(self.overall_kib.load(Ordering::Relaxed))
    }
}

impl Drop for RssMonitor {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn kib_to_mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn read_rss_kib(pid: u32) -> Option<u64> {
    parse_vm_rss(&std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?)
}

/// The `VmRSS:   12345 kB` line of a `/proc/<pid>/status` text, in KiB.
fn parse_vm_rss(status: &str) -> Option<u64> {
    let line = status.lines().find_map(|l| l.strip_prefix("VmRSS:"))?;
    line.split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vm_rss_line() {
        let status = "Name:\tpeeringd\nVmPeak:\t  900000 kB\nVmRSS:\t   20480 kB\nThreads:\t5\n";
        assert_eq!(parse_vm_rss(status), Some(20480));
        assert_eq!(parse_vm_rss("Name:\tkthreadd\n"), None);
    }

    #[test]
    fn samples_this_process() {
        let monitor = RssMonitor::start(std::process::id());
        assert!(monitor.take_window_peak_mib() > 0.0);
        assert!(monitor.overall_peak_mib() > 0.0);
    }
}
