//! Routers peeringd drives itself (`peering_routers`): BIRD 2 and FRR, chosen by the
//! platform's `napalm_driver`. The router's `napalm_args` (over its platform's) say where
//! the daemon is: with `socket`, its control socket on this host; otherwise the router's
//! `hostname`, over SSH (the socket there is `remote_socket`, or the daemon's default). Answers take the router command's shape (docs/router-command.md).

use std::path::PathBuf;
use std::time::Duration;

use peering_domain::resources::{PLATFORM, ROUTER};
use peering_domain::Record;
use peering_exec::{HostKeyCheck, Local, Ssh, SshKey, SshTarget, Transport};
use peering_routers::{Configured, Daemon, Identity, NeighbourState, Paths, Target};
use serde_json::{json, Map, Value as Json};

use super::command::json_of;
use super::Ask;

/// The daemon a platform names, when peeringd drives it.
pub(super) fn daemon_of(platform: Option<&Record>) -> Option<Daemon> {
    let driver = platform?.text(&PLATFORM, "napalm_driver").to_string();
    Daemon::of_driver(&driver)
}

/// The platform's `napalm_args`, overridden key by key by the router's.
fn merged_args(router: &Record, platform: Option<&Record>) -> Map<String, Json> {
    let mut args = Map::new();
    let platform_args = platform.map(|p| json_of(p.get(&PLATFORM, "napalm_args")));
    let router_args = json_of(router.get(&ROUTER, "napalm_args"));
    for layer in [platform_args.unwrap_or(Json::Null), router_args] {
        if let Json::Object(map) = layer {
            args.extend(map);
        }
    }
    args
}

/// A stored router, as the drivers see it.
pub(super) struct Driven {
    target: Target,
    /// Over SSH, when it names no control socket on this host.
    ssh: Option<SshTarget>,
}

impl Driven {
    pub(super) fn new(
        daemon: Daemon,
        router: &Record,
        platform: Option<&Record>,
        timeout: Duration,
    ) -> Driven {
        let args = merged_args(router, platform);
        let path = |key: &str| args.get(key).and_then(Json::as_str).map(PathBuf::from);
        let ssh = path("socket")
            .is_none()
            .then(|| ssh_target(router, &args, timeout));
        // Over SSH, the socket is the one on the router (the daemon's default when unset).
        let socket = match ssh {
            None => path("socket"),
            Some(_) => path("remote_socket"),
        };
        let paths = Paths {
            socket,
            config_file: path("config_file"),
        };
        Driven {
            target: Target {
                daemon,
                paths,
                timeout,
            },
            ssh,
        }
    }

    /// Where the daemon's client runs: on this host when the router names a socket, on
    /// the router over SSH otherwise.
    fn transport(&self) -> Result<Box<dyn Transport>, String> {
        match &self.ssh {
            None => Ok(Box::new(Local)),
            Some(target) => Ok(Box::new(
                Ssh::new(target.clone()).map_err(|e| e.to_string())?,
            )),
        }
    }

    /// Asks the daemon; its answer in the router command's shape.
    pub(super) fn ask(&self, ask: &Ask) -> Result<Json, String> {
        let router = peering_routers::connect(self.target.clone(), self.transport()?);
        let answer = match ask {
            Ask::Test => router.identify().map(identity_answer),
            Ask::Poll => router.neighbours().map(|n| poll_answer(&n)),
            Ask::Configure {
                configuration,
                commit,
                confirm_within,
            } => router
                .configure(
                    configuration,
                    *commit,
                    confirm_within.map(Duration::from_secs),
                )
                .map(configure_answer),
            Ask::Confirm => router.confirm().map(|()| json!({"confirmed": true})),
        };
        answer.map_err(|e| e.to_string())
    }
}

/// How to reach a router over SSH: `hostname`, `napalm_args.port` (22), the user
/// `napalm_username`, the key in `napalm_password` (a private key's text) or in the file
/// `napalm_args.ssh_key` (`napalm_password` its passphrase, if any), and the host key
/// pinned in `napalm_args.host_key`, listed in `napalm_args.known_hosts`, or in the
/// server user's `~/.ssh/known_hosts`.
fn ssh_target(router: &Record, args: &Map<String, Json>, timeout: Duration) -> SshTarget {
    let text = |key: &str| args.get(key).and_then(Json::as_str).map(str::to_string);
    let secret = router
        .get(&ROUTER, "napalm_password")
        .as_text()
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    let key = match (text("ssh_key"), secret) {
        (Some(path), passphrase) => SshKey::File {
            path: PathBuf::from(path),
            passphrase,
        },
        (None, text) => SshKey::Text {
            text: text.unwrap_or_default(),
            passphrase: None,
        },
    };
    let user = router.text(&ROUTER, "napalm_username").to_string();
    let mut target = SshTarget::new(router.text(&ROUTER, "hostname"), user, key);
    if let Some(port) = args.get("port").and_then(Json::as_u64) {
        target.port = u16::try_from(port).unwrap_or(peering_exec::ssh::DEFAULT_PORT);
    }
    target.host_key = match (text("host_key"), text("known_hosts")) {
        (Some(pinned), _) => HostKeyCheck::Pinned(pinned),
        (None, Some(file)) => HostKeyCheck::KnownHostsFile(PathBuf::from(file)),
        (None, None) => HostKeyCheck::UserKnownHosts,
    };
    target.connect_timeout = target.connect_timeout.min(timeout);
    target
}

fn identity_answer(identity: Identity) -> Json {
    json!({
        "ok": true,
        "daemon": identity.daemon,
        "version": identity.version,
        "name": identity.name,
    })
}

fn poll_answer(neighbours: &[NeighbourState]) -> Json {
    let sessions: Vec<Json> = neighbours
        .iter()
        .map(|n| {
            json!({
                "ip_address": n.address.to_string(),
                "remote_asn": n.remote_asn,
                "state": n.state.as_str(),
                "received_prefix_count": n.received_prefix_count,
                "accepted_prefix_count": n.accepted_prefix_count,
                "advertised_prefix_count": n.advertised_prefix_count,
                "established_for": n.established_for.map(|d| d.as_secs()),
            })
        })
        .collect();
    json!({ "sessions": sessions })
}

fn configure_answer(configured: Configured) -> Json {
    json!({
        "changed": !configured.diff.is_empty(),
        "committed": configured.committed,
        "diff": configured.diff,
        "confirm_within": configured.confirm_within.map(|d| d.as_secs()),
    })
}
