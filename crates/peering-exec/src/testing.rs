//! A real OpenSSH server for one test: `sshd -D -e` on 127.0.0.1 and a free port, with a
//! host key, an authorized client key and its configuration in a temporary directory;
//! killed, and the directory removed, when dropped. A missing sshd fails the test. Behind
//! the `testing` feature: for the crate's tests and the server's.

use std::fs;
use std::net::{TcpListener, TcpStream};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::{HostKeyCheck, SshKey, SshTarget};
use tempfile::TempDir;

const SSHD: &str = "/usr/sbin/sshd";

/// The account the tests log in as where root would not do, when they run as root.
pub const UNPRIVILEGED: &str = "peering-exec-test";

pub struct Server {
    child: Child,
    pub dir: TempDir,
    pub port: u16,
    pub user: String,
}

impl Server {
    /// Starts a server that accepts the key `client` (made in its directory) for the user
    /// the tests run as.
    pub fn start() -> Server {
        let user = output(Command::new("id").arg("-un")).trim().to_string();
        Server::start_for(user)
    }

    /// Starts a server for an unprivileged user: the tests' own user, or, when the tests run
    /// as root, [`UNPRIVILEGED`], made here if missing. OpenSSH handles some requests
    /// (signals) only for sessions of users other than root.
    pub fn start_unprivileged() -> Server {
        let user = output(Command::new("id").arg("-un")).trim().to_string();
        if user != "root" {
            return Server::start_for(user);
        }
        ensure_user(UNPRIVILEGED);
        Server::start_for(UNPRIVILEGED.to_string())
    }

    fn start_for(user: String) -> Server {
        assert!(
            Path::new(SSHD).exists(),
            "{SSHD} is missing: the SSH tests need a real OpenSSH server \
             (apt-get install openssh-server)"
        );
        fs::create_dir_all("/run/sshd").expect("create sshd's privilege separation directory");
        let dir = tempfile::tempdir().expect("a temporary directory");
        keygen(&dir.path().join("host"), "");
        keygen(&dir.path().join("client"), "");
        fs::copy(
            dir.path().join("client.pub"),
            dir.path().join("authorized_keys"),
        )
        .expect("authorize the client key");
        // The account checks authorized_keys as the user: it must be able to read it.
        let readable = fs::Permissions::from_mode(0o755);
        fs::set_permissions(dir.path(), readable).expect("open the directory to the user");
        for _ in 0..5 {
            let port = free_port();
            if let Some(child) = try_start(dir.path(), port) {
                return Server {
                    child,
                    dir,
                    port,
                    user,
                };
            }
        }
        panic!("sshd did not start: {}", log(dir.path()));
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The server's public host key line.
    pub fn host_key(&self) -> String {
        read(&self.path("host.pub"))
    }

    /// The host key's SHA256 fingerprint, as ssh-keygen computes it.
    pub fn host_fingerprint(&self) -> String {
        let listing = output(
            Command::new("ssh-keygen")
                .arg("-lf")
                .arg(self.path("host.pub")),
        );
        listing
            .split_whitespace()
            .nth(1)
            .expect("ssh-keygen -l prints a fingerprint")
            .to_string()
    }

    /// A target for the authorized client key (as a file) with the host key pinned.
    pub fn target(&self) -> SshTarget {
        let mut target = SshTarget::new(
            "127.0.0.1",
            self.user.clone(),
            SshKey::File {
                path: self.path("client"),
                passphrase: None,
            },
        );
        target.port = self.port;
        target.host_key = HostKeyCheck::Pinned(self.host_key());
        target.connect_timeout = Duration::from_secs(5);
        target
    }

    /// sshd's log so far, for messages.
    pub fn log(&self) -> String {
        log(self.dir.path())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Adds the system account `name` (no password but not locked, since sshd refuses locked
/// accounts; no home; `/bin/sh`) unless it exists. Tests running at the same time may both
/// try: a failed `useradd` is retried while the account is still missing.
fn ensure_user(name: &str) {
    for _ in 0..20 {
        if Command::new("id")
            .arg(name)
            .output()
            .expect("id runs")
            .status
            .success()
        {
            return;
        }
        let _ = Command::new("useradd")
            .args(["--system", "--no-create-home", "--shell", "/bin/sh"])
            .args(["--password", "*", name])
            .status()
            .expect("useradd runs");
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("cannot add the test user {name} with useradd");
}

/// Makes an ed25519 key pair at `path` and `path.pub`.
pub fn keygen(path: &Path, passphrase: &str) {
    keygen_of("ed25519", path, passphrase);
}

/// Makes a key pair of type `kind` (`ssh-keygen -t`) at `path` and `path.pub`.
pub fn keygen_of(kind: &str, path: &Path, passphrase: &str) {
    let status = Command::new("ssh-keygen")
        .args([
            "-q",
            "-t",
            kind,
            "-N",
            passphrase,
            "-C",
            "peering-exec test",
            "-f",
        ])
        .arg(path)
        .stdin(Stdio::null())
        .status()
        .expect("ssh-keygen runs (openssh-client)");
    assert!(status.success(), "ssh-keygen failed for {}", path.display());
}

pub fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

fn output(command: &mut Command) -> String {
    let out = command.output().expect("the command runs");
    assert!(out.status.success(), "{command:?} failed");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    listener.local_addr().expect("its address").port()
}

fn log(dir: &Path) -> String {
    fs::read_to_string(dir.join("sshd.log")).unwrap_or_default()
}

/// Starts sshd on `port`; `None` if it exited (the port was taken meanwhile).
fn try_start(dir: &Path, port: u16) -> Option<Child> {
    let config = dir.join("sshd_config");
    let d = dir.display();
    fs::write(
        &config,
        format!(
            "Port {port}\nListenAddress 127.0.0.1\nHostKey {d}/host\n\
             AuthorizedKeysFile {d}/authorized_keys\nStrictModes no\n\
             PermitRootLogin prohibit-password\nPasswordAuthentication no\n\
             KbdInteractiveAuthentication no\nUsePAM no\nPidFile none\nLogLevel VERBOSE\n"
        ),
    )
    .expect("write sshd_config");
    let log = fs::File::create(dir.join("sshd.log")).expect("create sshd.log");
    let mut child = Command::new(SSHD)
        .args(["-D", "-e", "-f"])
        .arg(&config)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("start sshd");
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        if child.try_wait().ok().flatten().is_some() {
            return None;
        }
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Some(child);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}
