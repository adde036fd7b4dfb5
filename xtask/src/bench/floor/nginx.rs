//! nginx serving a directory of files on a free loopback port: the lean static server the
//! floor is measured on. The guard stops it (and its workers) when dropped.

use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Nginx {
    child: Child,
    prefix: PathBuf,
    pub addr: SocketAddr,
}

/// nginx, from Debian's package if missing.
pub fn ensure_installed() -> Result<(), String> {
    crate::bench::install::ensure("nginx", &["-v"], "nginx")
}

/// The configuration: as many workers as cores (peeringd's own default), no access log,
/// `sendfile`, and keep-alive without a request limit, as wrk's connections stay open.
fn configuration(prefix: &Path, root: &Path, addr: SocketAddr) -> String {
    format!(
        "worker_processes auto;
daemon off;
user root;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_timeout 75s;
  keepalive_requests 100000000;
  default_type application/json;
  types {{ }}
  server {{
    listen {addr};
    root {root};
  }}
}}
",
        prefix = prefix.display(),
        root = root.display(),
    )
}

impl Nginx {
    /// Serves `root` (files named as the URL paths) with its configuration and logs in
    /// `prefix`; waits until it accepts connections.
    pub fn start(prefix: &Path, root: &Path) -> Result<Nginx, String> {
        let addr = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .map_err(|e| format!("cannot find a free port: {e}"))?;
        let conf = prefix.join("nginx.conf");
        std::fs::write(&conf, configuration(prefix, root, addr))
            .map_err(|e| format!("cannot write {}: {e}", conf.display()))?;
        let child = Command::new("nginx")
            .arg("-p")
            .arg(prefix)
            .arg("-e")
            .arg(prefix.join("error.log"))
            .arg("-c")
            .arg(&conf)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run nginx: {e}"))?;
        let mut nginx = Nginx {
            child,
            prefix: prefix.to_path_buf(),
            addr,
        };
        nginx.wait_ready()?;
        Ok(nginx)
    }

    fn wait_ready(&mut self) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                let log =
                    std::fs::read_to_string(self.prefix.join("error.log")).unwrap_or_default();
                return Err(format!("nginx exited ({status}): {}", log.trim()));
            }
            if TcpStream::connect_timeout(&self.addr, Duration::from_millis(200)).is_ok() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Err(format!("nginx did not listen on {} within 10 s", self.addr))
    }
}

impl Drop for Nginx {
    /// SIGTERM lets the master stop its workers (a SIGKILL would orphan them).
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configuration_serves_the_root_on_the_address_without_logging_requests() {
        let addr: SocketAddr = "127.0.0.1:4321".parse().unwrap();
        let text = configuration(Path::new("/tmp/p"), Path::new("/tmp/p/files"), addr);
        assert!(text.contains("listen 127.0.0.1:4321;"));
        assert!(text.contains("root /tmp/p/files;"));
        assert!(text.contains("access_log off;"));
        assert!(
            text.contains("daemon off;"),
            "the guard owns the master process"
        );
    }
}
