//! FRR, driven through `vtysh --vty_socket DIR` and `frr-reload.py`. A candidate
//! configuration is written beside the configuration file, checked by vtysh's own parser
//! (`vtysh -C -f FILE`, which needs no daemon), applied by `frr-reload.py --reload` (which
//! sends only the differences, then has vtysh write the running configuration to
//! `frr.conf` in the configuration's directory), and then installed as the configuration
//! file. When bgpd refuses part of it while applying it (vtysh's parser checks only the
//! syntax), the configuration file's previous text is applied again the same way and put
//! back. FRR has no commit that rolls back by itself.
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
    /// configuration. `Ok(Err(…))` is a reload that failed: what FRR said of it.
    fn reload(&self, file: &str) -> Result<Result<(), String>, RouterError> {
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
            return Ok(Ok(()));
        }
        Ok(Err(reload_complaints(&[ran.stdout, ran.stderr].concat())))
    }

    /// Runs the candidate; when FRR refuses part of it, runs `running` (the configuration
    /// file's text before) again and puts it back as the configuration file.
    fn commit(&self, candidate: &str, running: &str) -> Result<(), RouterError> {
        let t = self.transport.as_ref();
        let refused = match self.reload(candidate) {
            Ok(Ok(())) => return files::install(t, self.timeout, candidate, &self.config_file),
            Ok(Err(refused)) => refused,
            Err(error) => {
                files::remove(t, self.timeout, candidate)?;
                return Err(error);
            }
        };
        files::remove(t, self.timeout, candidate)?;
        let restore = format!("{}.peeringd-restore", self.config_file);
        files::write(t, self.timeout, &restore, &self.config_file, running)?;
        let restored = self.reload(&restore);
        files::install(t, self.timeout, &restore, &self.config_file)?;
        match restored? {
            Ok(()) => Err(RouterError::Refused(refused)),
            Err(again) => Err(RouterError::Daemon(format!(
                "FRR refused part of the configuration ({refused}), and the previous one \
                 could not be run again ({again}): FRR may run part of the new one"
            ))),
        }
    }
}

/// What vtysh said while frr-reload.py applied a configuration: its `% …` answers and
/// `line N: …` notes; the last lines of the output when there are none.
fn reload_complaints(output: &[u8]) -> String {
    let text = String::from_utf8_lossy(output);
    let mut said: Vec<&str> = Vec::new();
    for line in text.lines().map(str::trim) {
        let complaint = line.starts_with("% ") || line.starts_with("line ");
        if complaint && !said.contains(&line) {
            said.push(line);
        }
    }
    if said.is_empty() {
        return peering_exec::last_lines(output, 10).trim().to_string();
    }
    said.join("\n")
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
        let staged = files::stage(
            t,
            self.timeout,
            &self.config_file,
            configuration,
            commit,
            |candidate| self.check(candidate),
        )?;
        let diff = staged.diff;
        if !commit {
            return Ok(Configured {
                diff,
                committed: false,
                confirm_within: None,
            });
        }
        self.commit(&staged.candidate, &staged.running)?;
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
