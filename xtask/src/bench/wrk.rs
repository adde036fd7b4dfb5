//! Runs one load scenario with `wrk` (installing it with apt-get if missing) and parses
//! the one-line JSON summary its Lua `done` hook prints.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::Value;

use super::database::random_u64;

/// wrk calls `done` once at the end; errors sum every kind wrk counts, and its `status`
/// counter is responses with a status above 399.
pub const DONE: &str = r#"done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests":%d,"duration_us":%d,"errors":%d,"non2xx":%d,"p50_us":%d,"p99_us":%d}\n',
    summary.requests, summary.duration,
    e.connect + e.read + e.write + e.status + e.timeout, e.status,
    math.floor(latency:percentile(50)), math.floor(latency:percentile(99))))
end
"#;

/// Seeds each wrk thread's random numbers apart (wrk numbers its threads in `setup`), so
/// that two threads do not draw the same requests.
pub const SEEDED: &str = r#"local threads = 0
setup = function(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end
init = function(args)
  math.randomseed(os.time() * 1000 + (thread_number or 0) * 7919)
end
"#;

/// The script of a scenario that repeats its URL: the summary only.
const HEADER: &str = "-- Written by cargo xtask bench: prints wrk's summary as one JSON line.\n";

#[derive(Debug, PartialEq)]
pub struct WrkResult {
    pub requests: u64,
    pub duration_us: u64,
    pub errors: u64,
    pub non2xx: u64,
    pub p50_us: u64,
    pub p99_us: u64,
}

impl WrkResult {
    pub fn requests_per_s(&self) -> f64 {
        self.requests as f64 / (self.duration_us.max(1) as f64 / 1e6)
    }

    /// The report's measurement of this run, with the server's peak memory if watched.
    pub fn measurement(&self, peak_rss_mib: Option<f64>) -> super::report::Measurement {
        super::report::Measurement {
            requests: self.requests,
            requests_per_s: self.requests_per_s(),
            objects_per_s: None,
            p50_ms: self.p50_us as f64 / 1000.0,
            p99_ms: self.p99_us as f64 / 1000.0,
            errors: self.errors,
            non2xx: self.non2xx,
            peak_rss_mib,
        }
    }
}

/// wrk, from Debian's package if missing.
pub fn ensure_installed() -> Result<(), String> {
    super::install::ensure("wrk", &[], "wrk")
}

/// The Lua script in a temp file, removed on drop.
pub struct Script(PathBuf);

impl Script {
    pub fn write() -> Result<Self, String> {
        Script::with_text(&format!("{HEADER}{DONE}"))
    }

    /// A script of one's own (which should print the summary with [`DONE`]).
    pub fn with_text(text: &str) -> Result<Self, String> {
        let path = std::env::temp_dir().join(format!("xtask-bench-{:016x}.lua", random_u64()));
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(Script(path))
    }
}

impl Drop for Script {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

pub struct Load<'a> {
    pub url: &'a str,
    pub token: &'a str,
    pub duration_s: u64,
    pub connections: u32,
    /// Above wrk's 2 s default so that slow pages count in the latencies rather than
    /// vanish as timeouts.
    pub timeout_s: u64,
}

pub fn run(script: &Script, load: &Load) -> Result<WrkResult, String> {
    // wrk refuses fewer connections than threads.
    let threads = load.connections.min(2);
    let output = Command::new("wrk")
        .arg(format!("-t{threads}"))
        .arg(format!("-c{}", load.connections))
        .arg(format!("-d{}s", load.duration_s))
        .arg("--timeout")
        .arg(format!("{}s", load.timeout_s))
        .arg("-s")
        .arg(&script.0)
        .arg("-H")
        .arg(format!("Authorization: Token {}", load.token))
        .arg(load.url)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run wrk: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "wrk {} failed ({}): {}{}",
            load.url,
            output.status,
            stdout.trim(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    parse_result(&stdout)
}

/// Finds and parses the `RESULT {…}` line among wrk's output.
pub fn parse_result(stdout: &str) -> Result<WrkResult, String> {
    let json = stdout
        .lines()
        .find_map(|line| line.trim().strip_prefix("RESULT "))
        .ok_or_else(|| format!("no RESULT line in wrk's output:\n{stdout}"))?;
    let value: Value =
        serde_json::from_str(json).map_err(|e| format!("bad RESULT line {json:?}: {e}"))?;
    let field = |name: &str| -> Result<u64, String> {
        // as_f64 accepts both 12 and 12.0, whichever the Lua runtime formats.
        value[name]
            .as_f64()
            .filter(|v| *v >= 0.0)
            .map(|v| v.round() as u64)
            .ok_or_else(|| format!("RESULT line without a numeric {name:?}: {json}"))
    };
    Ok(WrkResult {
        requests: field("requests")?,
        duration_us: field("duration_us")?,
        errors: field("errors")?,
        non2xx: field("non2xx")?,
        p50_us: field("p50_us")?,
        p99_us: field("p99_us")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_line_among_wrk_output() {
        let stdout = "Running 3s test @ http://127.0.0.1:1/\n  2 threads and 32 connections\n\
            Requests/sec:   1234.56\n\
            RESULT {\"requests\":3704,\"duration_us\":3000512,\"errors\":2,\"non2xx\":1,\"p50_us\":2500,\"p99_us\":9100.0}\n";
        let result = parse_result(stdout).unwrap();
        assert_eq!(
            result,
            WrkResult {
                requests: 3704,
                duration_us: 3_000_512,
                errors: 2,
                non2xx: 1,
                p50_us: 2500,
                p99_us: 9100,
            }
        );
        assert!((result.requests_per_s() - 1234.456).abs() < 0.01);
    }

    #[test]
    fn missing_or_bad_result_line() {
        assert!(parse_result("Requests/sec: 10\n").is_err());
        assert!(parse_result("RESULT {\"requests\":1}\n").is_err());
        assert!(parse_result("RESULT not json\n").is_err());
    }
}
