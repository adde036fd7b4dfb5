//! BIRD 2, driven through `birdc -v -s SOCKET`: every answer is read by its reply codes
//! (`bird_parse`), so that an error is recognised by its code (`8xxx`, `9xxx`),
//! never by its wording. A candidate configuration is written beside the configuration
//! file, checked by BIRD (`configure check`), run (`configure`, with `timeout` for an
//! automatic roll-back), and only then installed as the configuration file: on a plain
//! commit at once, on a commit with a roll-back time when it is confirmed.

use std::time::Duration;

use peering_exec::Transport;

use crate::bird_parse::{self, Line, Protocol};
use crate::files;
use crate::{
    BgpState, Configured, ConfiguredNeighbour, Identity, NeighbourState, Router, RouterError,
    Target,
};

/// BIRD's control socket when the router names none.
pub const DEFAULT_SOCKET: &str = "/run/bird/bird.ctl";
/// BIRD's configuration file when the router names none.
pub const DEFAULT_CONFIG_FILE: &str = "/etc/bird/bird.conf";

/// A BIRD 2 daemon.
pub struct Bird {
    transport: Box<dyn Transport>,
    socket: String,
    config_file: String,
    timeout: Duration,
}

/// Why `birdc` gave no answer.
enum Failure {
    /// BIRD answered with an error reply: its code and message.
    Reply(u16, String),
    /// Something else went wrong (no connection, no answer).
    Other(RouterError),
}

impl From<Failure> for RouterError {
    fn from(failure: Failure) -> RouterError {
        match failure {
            Failure::Reply(code, message) => RouterError::Daemon(format!("BIRD: {code} {message}")),
            Failure::Other(error) => error,
        }
    }
}

impl Bird {
    pub fn new(target: Target, transport: Box<dyn Transport>) -> Bird {
        let path = |p: Option<std::path::PathBuf>, default: &str| {
            p.map_or_else(|| default.to_string(), |p| p.to_string_lossy().into_owned())
        };
        Bird {
            transport,
            socket: path(target.paths.socket, DEFAULT_SOCKET),
            config_file: path(target.paths.config_file, DEFAULT_CONFIG_FILE),
            timeout: target.timeout,
        }
    }

    /// Runs one `birdc` command and gives its answer's lines, or BIRD's error.
    fn birdc(&self, command: &[&str]) -> Result<Vec<Line>, Failure> {
        let mut args = vec!["-v", "-s", self.socket.as_str()];
        args.extend_from_slice(command);
        let ran = self
            .transport
            .run("birdc", &args, b"", self.timeout)
            .map_err(|e| Failure::Other(e.into()))?;
        let lines = bird_parse::lines(&ran.stdout_text());
        // `0001 BIRD x.y ready.` greets every connection: without it, birdc never got in.
        if !lines.iter().any(|l| l.code == 1) {
            let said = format!("{}\n{}", ran.stdout_text(), ran.stderr_tail(5));
            return Err(Failure::Other(RouterError::Daemon(format!(
                "birdc on {} reached no BIRD at {}: {}",
                self.transport.place(),
                self.socket,
                said.trim()
            ))));
        }
        if let Some((code, message)) = bird_parse::error(&lines) {
            return Err(Failure::Reply(code, message));
        }
        if !ran.success() {
            let said = format!("{}\n{}", ran.stdout_text(), ran.stderr_tail(5));
            return Err(Failure::Other(RouterError::Daemon(format!(
                "birdc {}: {}",
                command.join(" "),
                said.trim()
            ))));
        }
        Ok(lines)
    }

    fn protocols(&self) -> Result<Vec<Protocol>, RouterError> {
        let lines = self.birdc(&["show", "protocols", "all"])?;
        Ok(bird_parse::protocols(&lines)
            .into_iter()
            .filter(|p| p.proto == "BGP")
            .collect())
    }

    fn status(&self) -> Result<(Identity, Option<chrono::NaiveDateTime>), RouterError> {
        let lines = self.birdc(&["show", "status"])?;
        bird_parse::status(&lines)
            .ok_or_else(|| RouterError::Daemon("BIRD's `show status` gave no version".into()))
    }

    /// `configure check "FILE"`: BIRD's refusal is [`RouterError::Refused`].
    fn check(&self, file: &str) -> Result<(), RouterError> {
        let quoted = quote(file);
        match self.birdc(&["configure", "check", &quoted]) {
            Ok(_) => Ok(()),
            Err(Failure::Reply(_, message)) => Err(RouterError::Refused(message)),
            Err(Failure::Other(error)) => Err(error),
        }
    }

    /// Makes BIRD run `file`, rolled back after `confirm_within` unless confirmed.
    fn run_file(&self, file: &str, confirm_within: Option<Duration>) -> Result<(), RouterError> {
        let quoted = quote(file);
        let mut command = vec!["configure", quoted.as_str()];
        let seconds;
        if let Some(within) = confirm_within {
            seconds = within.as_secs().max(1).to_string();
            command.extend(["timeout", seconds.as_str()]);
        }
        self.birdc(&command)?;
        Ok(())
    }
}

/// A file name as BIRD's command language quotes it.
fn quote(file: &str) -> String {
    format!("\"{}\"", file.replace('\\', "\\\\").replace('"', "\\\""))
}

fn neighbour(protocol: &Protocol, now: Option<chrono::NaiveDateTime>) -> Option<NeighbourState> {
    let state = bird_parse::bgp_state(protocol);
    let established_for = match (state, protocol.since, now) {
        (BgpState::Established, Some(since), Some(now)) => since.before(now),
        _ => None,
    };
    let routes = protocol.routes;
    Some(NeighbourState {
        address: protocol.neighbour?,
        remote_asn: protocol.neighbour_as,
        state,
        received_prefix_count: routes.map(|r| r.imported + r.filtered),
        accepted_prefix_count: routes.map(|r| r.imported),
        advertised_prefix_count: routes.map(|r| r.exported),
        established_for,
    })
}

impl Router for Bird {
    fn identify(&self) -> Result<Identity, RouterError> {
        Ok(self.status()?.0)
    }

    fn neighbours(&self) -> Result<Vec<NeighbourState>, RouterError> {
        let now = self.status()?.1;
        let protocols = self.protocols()?;
        Ok(protocols.iter().filter_map(|p| neighbour(p, now)).collect())
    }

    fn configured_neighbours(&self) -> Result<Vec<ConfiguredNeighbour>, RouterError> {
        let protocols = self.protocols()?;
        Ok(protocols
            .iter()
            .filter_map(|p| {
                Some(ConfiguredNeighbour {
                    address: p.neighbour?,
                    remote_asn: p.neighbour_as?,
                    description: Some(p.description.clone().unwrap_or_else(|| p.name.clone())),
                })
            })
            .collect())
    }

    fn configure(
        &self,
        configuration: &str,
        commit: bool,
        confirm_within: Option<Duration>,
    ) -> Result<Configured, RouterError> {
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
        self.run_file(&staged.candidate, confirm_within)?;
        if confirm_within.is_none() {
            files::install(t, self.timeout, &staged.candidate, &self.config_file)?;
        }
        Ok(Configured {
            diff,
            committed: true,
            confirm_within,
        })
    }

    fn confirm(&self) -> Result<(), RouterError> {
        let lines = self.birdc(&["configure", "confirm"])?;
        // 0018 `Reconfiguration confirmed`; 0019 `Nothing to do` when no roll-back was
        // waiting (it already happened, or the last commit had none).
        if !lines.iter().any(|l| l.code == 18) {
            return Err(RouterError::Daemon(
                "BIRD had no configuration waiting for confirmation: it was rolled back, \
                 or committed without a roll-back time"
                    .into(),
            ));
        }
        let candidate = files::candidate_path(&self.config_file);
        files::install(
            self.transport.as_ref(),
            self.timeout,
            &candidate,
            &self.config_file,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn received_counts_the_filtered_routes_kept_and_accepted_does_not() {
        let lines = bird_parse::lines(include_str!("../tests/data/bird-protocols-all.txt"));
        let protocols = bird_parse::protocols(&lines);
        let frr = protocols
            .iter()
            .find(|p| p.name == "peer_frr")
            .expect("peer_frr");
        let now = chrono::NaiveDateTime::parse_from_str(
            "2026-12-06 18:07:54.510",
            "%Y-%m-%d %H:%M:%S%.f",
        )
        .ok();
        let state = neighbour(frr, now).expect("a neighbour");
        assert_eq!(state.received_prefix_count, Some(2));
        assert_eq!(state.accepted_prefix_count, Some(1));
        assert_eq!(state.advertised_prefix_count, Some(3));
        assert_eq!(state.established_for, Some(Duration::from_millis(273_409)));
    }

    #[test]
    fn file_names_are_quoted_for_birds_command_language() {
        assert_eq!(quote("/etc/bird/bird.conf"), "\"/etc/bird/bird.conf\"");
        assert_eq!(quote("/a \"b\".conf"), "\"/a \\\"b\\\".conf\"");
    }
}
