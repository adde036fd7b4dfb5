//! FRR, driven through `vtysh --vty_socket DIR` and `frr-reload.py`. A candidate
//! configuration is written beside the configuration file, checked by vtysh's own parser
//! (`vtysh -C -f FILE`, which needs no daemon), applied by `frr-reload.py --reload` (which
//! sends only the differences, then has vtysh write the running configuration to
//! `frr.conf` in the configuration's directory), and then installed as the configuration
//! file. FRR has no commit that rolls back by itself.

use std::path::Path;
use std::time::Duration;

use peering_exec::Transport;

use crate::files;
use crate::frr_parse;
use crate::{
    Configured, ConfiguredNeighbour, Identity, NeighbourState, Router, RouterError, Target,
};

/// FRR's vty socket directory when the router names none.
pub const DEFAULT_SOCKET: &str = "/var/run/frr";
/// FRR's integrated configuration file when the router names none.
pub const DEFAULT_CONFIG_FILE: &str = "/etc/frr/frr.conf";
/// FRR's reload script, as the Debian and Red Hat packages install it.
pub const RELOAD: &str = "/usr/lib/frr/frr-reload.py";
/// Where `frr-reload.py` finds `vtysh`.
const BINDIR: &str = "/usr/bin";

/// An FRR daemon (bgpd, with or without zebra).
pub struct Frr {
    transport: Box<dyn Transport>,
    socket: String,
    config_file: String,
    timeout: Duration,
}

impl Frr {
    pub fn new(target: Target, transport: Box<dyn Transport>) -> Frr {
        let path = |p: Option<std::path::PathBuf>, default: &str| {
            p.map_or_else(|| default.to_string(), |p| p.to_string_lossy().into_owned())
        };
        Frr {
            transport,
            socket: path(target.paths.socket, DEFAULT_SOCKET),
            config_file: path(target.paths.config_file, DEFAULT_CONFIG_FILE),
            timeout: target.timeout,
        }
    }

    /// The configuration's directory: `--config_dir` of vtysh, `--confdir` of the reload.
    fn config_dir(&self) -> String {
        Path::new(&self.config_file)
            .parent()
            .map(|d| d.to_string_lossy().into_owned())
            .filter(|d| !d.is_empty())
            .unwrap_or_else(|| ".".into())
    }

    /// Runs `vtysh -c COMMAND` and gives its output, or what it said when it failed.
    fn vtysh(&self, command: &str) -> Result<String, RouterError> {
        let args = ["--vty_socket", self.socket.as_str(), "-c", command];
        let ran = self.transport.run("vtysh", &args, b"", self.timeout)?;
        if !ran.success() {
            let said = format!("{}\n{}", ran.stdout_text(), ran.stderr_tail(5));
            return Err(RouterError::Daemon(format!(
                "vtysh on {} ({command}): {}",
                self.transport.place(),
                said.trim()
            )));
        }
        Ok(ran.stdout_text())
    }

    fn neighbours_json(&self) -> Result<Vec<frr_parse::Neighbour>, RouterError> {
        let json = self.vtysh("show bgp neighbors json")?;
        frr_parse::neighbours(&json)
            .map_err(|e| RouterError::Daemon(format!("FRR's neighbours, not understood: {e}")))
    }

    /// `vtysh -C -f FILE`: vtysh's parser refuses what no daemon would take.
    fn check(&self, file: &str) -> Result<(), RouterError> {
        let dir = self.config_dir();
        let args = ["--config_dir", dir.as_str(), "-C", "-f", file];
        let ran = self.transport.run("vtysh", &args, b"", self.timeout)?;
        if ran.success() {
            return Ok(());
        }
        let said = format!(
            "{}\n{}",
            ran.stdout_text(),
            String::from_utf8_lossy(&ran.stderr)
        );
        Err(RouterError::Refused(vtysh_complaints(&said)))
    }

    /// `frr-reload.py --reload FILE`: applies the differences from the running
    /// configuration.
    fn reload(&self, file: &str) -> Result<(), RouterError> {
        let dir = self.config_dir();
        let args = [
            "--reload",
            "--stdout",
            "--bindir",
            BINDIR,
            "--confdir",
            &dir,
            "--rundir",
            &dir,
            "--vty_socket",
            &self.socket,
            file,
        ];
        let ran = self.transport.run(RELOAD, &args, b"", self.timeout)?;
        if ran.success() {
            return Ok(());
        }
        Err(RouterError::Daemon(format!(
            "frr-reload.py failed; FRR may run part of the new configuration: {}",
            peering_exec::last_lines(&[ran.stdout, ran.stderr].concat(), 10).trim()
        )))
    }
}

/// What vtysh said about a configuration, without its notes about its own missing
/// `vtysh.conf`.
fn vtysh_complaints(said: &str) -> String {
    said.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("% Can't open configuration file"))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Router for Frr {
    fn identify(&self) -> Result<Identity, RouterError> {
        let output = self.vtysh("show version")?;
        frr_parse::version(&output)
            .ok_or_else(|| RouterError::Daemon("FRR's `show version` gave no version".into()))
    }

    fn neighbours(&self) -> Result<Vec<NeighbourState>, RouterError> {
        let all = self.neighbours_json()?;
        Ok(all
            .iter()
            .map(|(address, fields)| frr_parse::neighbour_state(*address, fields))
            .collect())
    }

    fn configured_neighbours(&self) -> Result<Vec<ConfiguredNeighbour>, RouterError> {
        let all = self.neighbours_json()?;
        Ok(all
            .iter()
            .filter_map(|(address, fields)| frr_parse::configured(*address, fields))
            .collect())
    }

    fn configure(
        &self,
        configuration: &str,
        commit: bool,
        confirm_within: Option<Duration>,
    ) -> Result<Configured, RouterError> {
        if commit && confirm_within.is_some() {
            return Err(unsupported());
        }
        let t = self.transport.as_ref();
        let running = files::read(t, self.timeout, &self.config_file)?;
        let candidate = files::candidate_path(&self.config_file);
        files::write(
            t,
            self.timeout,
            &candidate,
            &self.config_file,
            configuration,
        )?;
        let checked = self.check(&candidate);
        if checked.is_err() || !commit {
            files::remove(t, self.timeout, &candidate)?;
        }
        checked?;
        let diff = files::unified_diff(&running, configuration, &self.config_file);
        if !commit {
            return Ok(Configured {
                diff,
                committed: false,
                confirm_within: None,
            });
        }
        let reloaded = self.reload(&candidate);
        if reloaded.is_err() {
            files::remove(t, self.timeout, &candidate)?;
        }
        reloaded?;
        files::install(t, self.timeout, &candidate, &self.config_file)?;
        Ok(Configured {
            diff,
            committed: true,
            confirm_within: None,
        })
    }

    fn confirm(&self) -> Result<(), RouterError> {
        Err(unsupported())
    }
}

fn unsupported() -> RouterError {
    RouterError::Unsupported(
        "FRR has no commit with automatic roll-back: commit without confirm_within".into(),
    )
}
