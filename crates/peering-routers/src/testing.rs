//! Real BGP daemons for the tests: BIRD 2 and FRR's bgpd, each started in a temporary
//! directory of its own (configuration, control socket, pid file, log), listening only on
//! the loopback address and port a test gives, and killed with their [`Daemon`] guard
//! (also when a test panics). A missing daemon binary fails the test: it never skips.
//! The command lines are the ones documented in the crate's README. Behind the `testing`
//! feature: for the crate's tests and the server's.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::{Daemon as Kind, Paths, Router, Target};

pub const BIRD: &str = "/usr/sbin/bird";
pub const BIRDC: &str = "/usr/sbin/birdc";
pub const BGPD: &str = "/usr/lib/frr/bgpd";
pub const VTYSH: &str = "/usr/bin/vtysh";
pub const RELOAD: &str = "/usr/lib/frr/frr-reload.py";

/// How long a daemon may take to open its control socket.
const START: Duration = Duration::from_secs(10);

/// A daemon started by a test, killed when dropped, its directory removed.
pub struct Daemon {
    child: Child,
    pub dir: tempfile::TempDir,
    pub socket: PathBuf,
    pub config_file: PathBuf,
    pub kind: Kind,
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn require(binary: &str) {
    assert!(
        Path::new(binary).exists(),
        "{binary} is not installed: these tests drive the real daemons (apt-get install bird2 frr)"
    );
}

impl Daemon {
    /// BIRD 2 in the foreground (`-f`), its configuration `config`.
    pub fn bird(config: &str) -> Daemon {
        require(BIRD);
        require(BIRDC);
        let dir = tempfile::tempdir().expect("a temporary directory");
        let config_file = dir.path().join("bird.conf");
        let socket = dir.path().join("bird.ctl");
        std::fs::write(&config_file, config).expect("bird.conf written");
        let child = Command::new(BIRD)
            .arg("-f")
            .arg("-c")
            .arg(&config_file)
            .arg("-s")
            .arg(&socket)
            .arg("-P")
            .arg(dir.path().join("bird.pid"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("bird starts");
        let daemon = Daemon {
            child,
            dir,
            socket,
            config_file,
            kind: Kind::Bird,
        };
        daemon.wait_for_socket();
        daemon
    }

    /// FRR's bgpd in the foreground without zebra (`-Z`, `-n`: it touches no kernel
    /// table), listening on `addresses` at `port` only, its vty socket in its directory, and
    /// no vty TCP port (`-P 0`). `-S` keeps it from changing user (FRR's packages want the
    /// `frr` user and `frrvty` group).
    pub fn frr(config: &str, addresses: &[&str], port: u16) -> Daemon {
        require(BGPD);
        require(VTYSH);
        require(RELOAD);
        let dir = tempfile::tempdir().expect("a temporary directory");
        let config_file = dir.path().join("frr.conf");
        std::fs::write(&config_file, config).expect("frr.conf written");
        // vtysh --config_dir reads vtysh.conf there; an empty one keeps it quiet.
        std::fs::write(dir.path().join("vtysh.conf"), "").expect("vtysh.conf written");
        let d = dir.path();
        let listen = addresses.iter().flat_map(|a| ["-l", a]);
        let child = Command::new(BGPD)
            .arg("-f")
            .arg(&config_file)
            .arg("--vty_socket")
            .arg(d)
            .arg("-i")
            .arg(d.join("bgpd.pid"))
            .arg("-z")
            .arg(d.join("zserv.api"))
            .args(["-S", "-Z", "-n", "-P", "0", "-p", &port.to_string()])
            .args(listen)
            .arg("--log")
            .arg(format!("file:{}", d.join("bgpd.log").display()))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("bgpd starts");
        let socket = d.to_path_buf();
        let daemon = Daemon {
            child,
            dir,
            socket,
            config_file,
            kind: Kind::Frr,
        };
        daemon.wait_for_socket();
        daemon
    }

    fn wait_for_socket(&self) {
        let socket = match self.kind {
            Kind::Bird => self.socket.clone(),
            Kind::Frr => self.socket.join("bgpd.vty"),
        };
        let deadline = Instant::now() + START;
        while !socket.exists() {
            assert!(
                Instant::now() < deadline,
                "{} did not open {}",
                self.name(),
                socket.display()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn name(&self) -> &'static str {
        match self.kind {
            Kind::Bird => "bird",
            Kind::Frr => "bgpd",
        }
    }

    /// The driver for this daemon, through the local transport.
    pub fn router(&self) -> Box<dyn Router> {
        let target = Target {
            daemon: self.kind,
            paths: Paths {
                socket: Some(self.socket.clone()),
                config_file: Some(self.config_file.clone()),
            },
            timeout: Duration::from_secs(20),
        };
        crate::connect(target, Box::new(peering_exec::Local))
    }

    /// The configuration file as it is on disk now.
    pub fn config_on_disk(&self) -> String {
        std::fs::read_to_string(&self.config_file).expect("the configuration file")
    }
}

/// Waits until `done` holds, for at most `within`; panics with `what` otherwise.
pub fn eventually<T>(within: Duration, what: &str, mut done: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + within;
    loop {
        if let Some(value) = done() {
            return value;
        }
        assert!(
            Instant::now() < deadline,
            "not within {} s: {what}",
            within.as_secs()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}
