//! Builds the release server and runs it for a benchmark; the guard kills it when dropped,
//! including when the benchmark fails half-way.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::http;
use crate::{cargo, project_root};

const TOKEN_PREFIX: &str = "Created superuser 'admin' with API token: ";
/// Stderr lines kept to explain a failed start.
const TAIL_LINES: usize = 30;

/// Runs `cargo build --release -p peeringd` and returns the binary cargo reports, which
/// honours CARGO_TARGET_DIR and any configured target directory.
pub fn build_release() -> Result<PathBuf, String> {
    eprintln!("building peeringd in release mode…");
    let output = Command::new(cargo())
        .args([
            "build",
            "--release",
            "-p",
            "peeringd",
            "--message-format=json-render-diagnostics",
        ])
        .current_dir(project_root())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !output.status.success() {
        return Err("cargo build --release -p peeringd failed".into());
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|msg| msg["reason"] == "compiler-artifact" && msg["target"]["name"] == "peeringd")
        .find_map(|msg| msg["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| "cargo did not report a peeringd executable".into())
}

pub struct Server {
    child: Child,
    pub addr: SocketAddr,
    pub token: String,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    stderr_thread: Option<JoinHandle<()>>,
}

/// When a restarted server first answered, counted from just before it was spawned.
pub struct Startup {
    pub first_status: Duration,
    pub first_list: Duration,
}

/// How often the restart measurement asks; a refused connection costs microseconds.
const STARTUP_POLL: Duration = Duration::from_millis(1);

impl Server {
    /// Starts `peeringd serve` on a fresh database, waits until it answers and keeps the
    /// admin token it printed on its first start.
    pub fn start(binary: &Path, database_url: &str) -> Result<Server, String> {
        Server::start_with(binary, database_url, &[])
    }

    /// [`Server::start`] with these environment variables set for the server as well.
    pub fn start_with(
        binary: &Path,
        database_url: &str,
        env: &[(&str, &str)],
    ) -> Result<Server, String> {
        let (mut server, token_rx) = Server::spawn(binary, database_url, env)?;
        // First start runs the migrations, which may take a while on PostgreSQL.
        server.token = match token_rx.recv_timeout(Duration::from_secs(120)) {
            Ok(token) => token,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(server.failure("peeringd exited before printing the admin token"))
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                return Err(server.failure("peeringd printed no admin token within 120 s"))
            }
        };
        server.wait_ready(Duration::from_millis(100))?;
        Ok(server)
    }

    /// Starts the server again on a database it has already set up, with the token from
    /// its first start, and measures how soon it answers.
    pub fn restart(
        binary: &Path,
        database_url: &str,
        token: &str,
    ) -> Result<(Server, Startup), String> {
        let spawned = Instant::now();
        let (mut server, _) = Server::spawn(binary, database_url, &[])?;
        server.token = token.into();
        server.wait_ready(STARTUP_POLL)?;
        let first_status = spawned.elapsed();
        let list = "/api/peering/autonomous-systems/?limit=1";
        match http::request(server.addr, "GET", list, Some(token), None) {
            Ok(r) if r.status == 200 => {}
            Ok(r) => return Err(format!("GET {list} answered {}: {}", r.status, r.body)),
            Err(e) => return Err(e),
        }
        let first_list = spawned.elapsed();
        Ok((
            server,
            Startup {
                first_status,
                first_list,
            },
        ))
    }

    /// Starts the server again on a database it has already set up, with the token from
    /// its first start and these environment variables, once it answers (not timed).
    pub fn resume(
        binary: &Path,
        database_url: &str,
        token: &str,
        env: &[(&str, &str)],
    ) -> Result<Server, String> {
        let (mut server, _) = Server::spawn(binary, database_url, env)?;
        server.token = token.into();
        server.wait_ready(Duration::from_millis(20))?;
        Ok(server)
    }

    /// Spawns `peeringd serve` on a free loopback port with no maximum page size (so that
    /// `limit=0` returns everything) and `env` added to its environment, and the receiver
    /// of the token it may print.
    fn spawn(
        binary: &Path,
        database_url: &str,
        env: &[(&str, &str)],
    ) -> Result<(Server, mpsc::Receiver<String>), String> {
        let addr = free_port()?;
        let mut child = Command::new(binary)
            .args(["serve", "--max-page-size", "0", "--listen"])
            .arg(addr.to_string())
            .env("PEERING_DATABASE_URL", database_url)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");

        // Both pipes are drained for the server's whole life so that it never blocks on a
        // full pipe; stdout hands the token over, stderr keeps a tail for error messages.
        let (token_tx, token_rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(token) = parse_token_line(&line) {
                    let _ = token_tx.send(token.to_string());
                }
            }
        });
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let stderr_thread = {
            let tail = stderr_tail.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                    let mut tail = tail.lock().expect("tail lock");
                    if tail.len() == TAIL_LINES {
                        tail.pop_front();
                    }
                    tail.push_back(line);
                }
            })
        };
        let server = Server {
            child,
            addr,
            token: String::new(),
            stderr_tail,
            stderr_thread: Some(stderr_thread),
        };
        Ok((server, token_rx))
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Stops the server as an operator would (SIGTERM, so that SQLite closes its files
    /// cleanly before the restart), killing it if it lingers.
    pub fn stop(mut self) {
        let terminated = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .is_ok_and(|s| s.success());
        let deadline = Instant::now() + Duration::from_secs(10);
        while terminated && Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        // Drop kills and reaps it.
    }

    fn wait_ready(&mut self, poll: Duration) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(self.failure(&format!("peeringd exited ({status})")));
            }
            match http::request(self.addr, "GET", "/api/status/", None, None) {
                Ok(response) if response.status == 200 => return Ok(()),
                Ok(_) | Err(_) if Instant::now() < deadline => std::thread::sleep(poll),
                Ok(response) => {
                    return Err(self.failure(&format!(
                        "GET /api/status/ answers {}: {}",
                        response.status, response.body
                    )))
                }
                Err(e) => return Err(self.failure(&format!("server not ready after 30 s: {e}"))),
            }
        }
    }

    /// The server's last stderr lines (at most the tail it keeps), which are then forgotten.
    pub fn take_stderr(&self) -> Vec<String> {
        let mut tail = self.stderr_tail.lock().expect("tail lock");
        tail.drain(..).collect()
    }

    /// `message` followed by the end of the server's stderr, after stopping it.
    fn failure(&mut self, message: &str) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(thread) = self.stderr_thread.take() {
            let _ = thread.join();
        }
        let tail = self.stderr_tail.lock().expect("tail lock");
        let tail: Vec<&str> = tail.iter().map(String::as_str).collect();
        format!("{message}; its stderr ended with:\n{}", tail.join("\n"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port the OS considers free now; it could be taken before the server binds it, which
/// is unlikely enough for a benchmark.
fn free_port() -> Result<SocketAddr, String> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map_err(|e| format!("cannot find a free port: {e}"))
}

/// A copy of `binary`, written now, that the benchmark runs instead; removed when dropped.
///
/// A process's resident memory counts the pages of its file mapped around each one it
/// touches, when they are in the page cache: the same build showed 2-3 MiB more started
/// from a file just written than from one written an hour before (docs/performance.md,
/// 2026-12-07). Measured from a fresh copy, every build starts from the same state.
pub struct FreshCopy {
    dir: PathBuf,
    pub path: PathBuf,
}

impl FreshCopy {
    pub fn of(binary: &Path) -> Result<FreshCopy, String> {
        let dir = std::env::temp_dir().join(format!("peeringd-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = dir.join("peeringd");
        // `fs::copy` keeps the permissions, so the copy runs.
        std::fs::copy(binary, &path).map_err(|e| format!("copying {}: {e}", binary.display()))?;
        Ok(FreshCopy { dir, path })
    }
}

impl Drop for FreshCopy {
    fn drop(&mut self) {
        // Best effort: a copy left behind is in the system's temporary directory.
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn parse_token_line(line: &str) -> Option<&str> {
    let token = line.strip_prefix(TOKEN_PREFIX)?.trim();
    (token.len() == 40 && token.bytes().all(|b| b.is_ascii_hexdigit())).then_some(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_copy_runs_and_goes_when_dropped() {
        let copy = FreshCopy::of(Path::new("/bin/true")).unwrap();
        assert!(Command::new(&copy.path).status().unwrap().success());
        let dir = copy.dir.clone();
        drop(copy);
        assert!(!dir.exists());
    }

    #[test]
    fn token_line() {
        let key = "0123456789abcdef0123456789abcdef01234567";
        assert_eq!(parse_token_line(&format!("{TOKEN_PREFIX}{key}")), Some(key));
        assert_eq!(
            parse_token_line(&format!("Use it as: Authorization: Token {key}")),
            None
        );
        assert_eq!(parse_token_line(&format!("{TOKEN_PREFIX}not-hex")), None);
    }
}
