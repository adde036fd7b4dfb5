//! Samples a process's resident memory (`VmRSS` in `/proc/<pid>/status`) every 200 ms in
//! a background thread, keeping the peak per measurement window and overall; and watches a
//! short-lived process's own high-water mark (`VmHWM`) until it ends.

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

    /// The process watched.
    pub fn pid(&self) -> u32 {
        self.pid
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

/// How often `PeakWatch` reads the high-water mark: it only misses a new peak reached in
/// the last interval before the process ends, and a read costs microseconds.
const HWM_PERIOD: Duration = Duration::from_millis(10);

/// The peak resident memory of a child process over its whole life, from `VmHWM`, the
/// highest `VmRSS` the kernel has seen for it (so a sample between two reads is not lost,
/// unlike sampling `VmRSS`). Not `getrusage(RUSAGE_CHILDREN)`: that is the largest of all
/// the children this process ever waited for, the release build's compilers included;
/// `wait4` would give this child's alone but needs `libc` and `unsafe`.
pub struct PeakWatch {
    stop: Arc<AtomicBool>,
    peak_kib: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
}

impl PeakWatch {
    pub fn start(pid: u32) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let peak_kib = Arc::new(AtomicU64::new(0));
        let thread = {
            let (stop, peak_kib) = (stop.clone(), peak_kib.clone());
            std::thread::spawn(move || {
                // Once the process has exited, its status has no `VmHWM` line any more.
                while !stop.load(Ordering::Relaxed) {
                    if let Some(kib) = read_status_kib(pid, "VmHWM:") {
                        peak_kib.fetch_max(kib, Ordering::Relaxed);
                    }
                    std::thread::sleep(HWM_PERIOD);
                }
            })
        };
        PeakWatch {
            stop,
            peak_kib,
            thread: Some(thread),
        }
    }

    /// Stops watching (call it once the process has been waited for); the peak in MiB.
    pub fn finish(mut self) -> f64 {
        self.stop_thread();
        kib_to_mib(self.peak_kib.load(Ordering::Relaxed))
    }

    fn stop_thread(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for PeakWatch {
    fn drop(&mut self) {
        self.stop_thread();
    }
}

fn read_rss_kib(pid: u32) -> Option<u64> {
    read_status_kib(pid, "VmRSS:")
}

fn read_status_kib(pid: u32, field: &str) -> Option<u64> {
    parse_status_kib(
        &std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?,
        field,
    )
}

/// A `Field:   12345 kB` line (`field` with its colon) of a `/proc/<pid>/status` text, in KiB.
fn parse_status_kib(status: &str, field: &str) -> Option<u64> {
    let line = status.lines().find_map(|l| l.strip_prefix(field))?;
    line.split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vm_rss_line() {
        let status = "Name:\tpeeringd\nVmPeak:\t  900000 kB\nVmHWM:\t   30720 kB\nVmRSS:\t   20480 kB\nThreads:\t5\n";
        assert_eq!(parse_status_kib(status, "VmRSS:"), Some(20480));
        assert_eq!(parse_status_kib(status, "VmHWM:"), Some(30720));
        assert_eq!(parse_status_kib("Name:\tkthreadd\n", "VmRSS:"), None);
    }

    #[test]
    fn samples_this_process() {
        let monitor = RssMonitor::start(std::process::id());
        assert!(monitor.take_window_peak_mib() > 0.0);
        assert!(monitor.overall_peak_mib() > 0.0);
    }

    #[test]
    fn watches_a_childs_high_water_mark() {
        let mut child = std::process::Command::new("sleep")
            .arg("0.2")
            .spawn()
            .unwrap();
        let watch = PeakWatch::start(child.id());
        child.wait().unwrap();
        assert!(watch.finish() > 0.0);
    }
}
