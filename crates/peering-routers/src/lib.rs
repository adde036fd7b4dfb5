//! Routers driven by peeringd itself. A [`Router`] is a BGP daemon ([`Daemon`]: BIRD 2 or
//! FRR) reached through a [`peering_exec::Transport`]: its own command-line client
//! (`birdc`, `vtysh`) run on this host against the daemon's control socket, or run on the
//! router's host over SSH. Nothing here knows the database or HTTP: the application layer
//! builds a [`Target`] from a stored router and records what the router answers.

pub mod bird;
mod bird_parse;
mod files;
pub mod frr;
mod frr_parse;
#[cfg(feature = "testing")]
pub mod testing;

use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

/// The daemons driven here, by the platform's `napalm_driver`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Daemon {
    /// BIRD 2 (`napalm_driver` `bird`), through `birdc`.
    Bird,
    /// FRR (`napalm_driver` `frr`), through `vtysh` and `frr-reload.py`.
    Frr,
}

impl Daemon {
    /// The daemon a platform's `napalm_driver` names, if it is driven here.
    pub fn of_driver(napalm_driver: &str) -> Option<Daemon> {
        match napalm_driver.trim().to_ascii_lowercase().as_str() {
            "bird" => Some(Daemon::Bird),
            "frr" => Some(Daemon::Frr),
            _ => None,
        }
    }
}

pub use bird::Bird;
pub use frr::Frr;

/// The driver of `target`'s daemon, reaching it through `transport`.
pub fn connect(target: Target, transport: Box<dyn peering_exec::Transport>) -> Box<dyn Router> {
    match target.daemon {
        Daemon::Bird => Box::new(Bird::new(target, transport)),
        Daemon::Frr => Box::new(Frr::new(target, transport)),
    }
}

/// Where a router's daemon keeps what the drivers need, from the router's and its
/// platform's `napalm_args`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Paths {
    /// BIRD's control socket, or FRR's vty socket directory (`napalm_args.socket`). On
    /// this host, its presence selects the local transport.
    pub socket: Option<PathBuf>,
    /// The daemon's configuration file (`napalm_args.config_file`); the daemon's
    /// packaged default when absent (`/etc/bird/bird.conf`, `/etc/frr/frr.conf`).
    pub config_file: Option<PathBuf>,
}

/// A router as the drivers see it.
#[derive(Debug, Clone)]
pub struct Target {
    pub daemon: Daemon,
    pub paths: Paths,
    /// How long any one exchange with the router may take (`napalm_timeout`).
    pub timeout: Duration,
}

/// What a router says it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// `BIRD`, `FRRouting`.
    pub daemon: String,
    pub version: String,
    /// The router's own name for itself, when it gives one (router id or hostname).
    pub name: Option<String>,
}

/// A BGP state, as peeringd stores it (`peering_domain::choices::BGP_STATE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BgpState {
    Idle,
    Connect,
    Active,
    OpenSent,
    OpenConfirm,
    Established,
}

impl BgpState {
    /// The stored spelling: `idle`, `connect`, `active`, `opensent`, `openconfirm`,
    /// `established`.
    pub fn as_str(self) -> &'static str {
        match self {
            BgpState::Idle => "idle",
            BgpState::Connect => "connect",
            BgpState::Active => "active",
            BgpState::OpenSent => "opensent",
            BgpState::OpenConfirm => "openconfirm",
            BgpState::Established => "established",
        }
    }
}

/// One BGP neighbour as the running daemon reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NeighbourState {
    pub address: IpAddr,
    pub remote_asn: Option<u32>,
    pub state: BgpState,
    pub received_prefix_count: Option<i64>,
    pub accepted_prefix_count: Option<i64>,
    pub advertised_prefix_count: Option<i64>,
    /// How long ago the session was established, when it is.
    pub established_for: Option<Duration>,
}

/// One BGP neighbour of the running configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfiguredNeighbour {
    pub address: IpAddr,
    pub remote_asn: u32,
    /// The protocol's or neighbour's name or description, when it has one.
    pub description: Option<String>,
}

/// What a configuration push did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Configured {
    /// A unified diff from the daemon's configuration file (what it was started with, or
    /// what peeringd last committed) to the new configuration; empty when equal.
    pub diff: String,
    /// Whether the router now runs the new configuration.
    pub committed: bool,
    /// When the commit rolls back by itself unless confirmed.
    pub confirm_within: Option<Duration>,
}

/// Why a router did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum RouterError {
    /// The router could not be reached, or its client failed to run.
    #[error(transparent)]
    Exec(#[from] peering_exec::ExecError),
    /// The daemon refused a configuration: its message. Nothing changed on the router.
    #[error("the router refused the configuration: {0}")]
    Refused(String),
    /// The daemon answered with an error, or with something not understood.
    #[error("{0}")]
    Daemon(String),
    /// What was asked is not something this daemon offers.
    #[error("{0}")]
    Unsupported(String),
}

/// A BGP daemon driven by peeringd.
pub trait Router: Send + Sync {
    /// The daemon's name and version.
    fn identify(&self) -> Result<Identity, RouterError>;

    /// Every BGP neighbour's state and prefix counts.
    fn neighbours(&self) -> Result<Vec<NeighbourState>, RouterError>;

    /// The BGP neighbours of the running configuration.
    fn configured_neighbours(&self) -> Result<Vec<ConfiguredNeighbour>, RouterError>;

    /// Validates `configuration` with the daemon, answers its diff against the running
    /// one, and, when `commit`, makes the router run it: with an automatic roll-back after
    /// `confirm_within` unless [`Router::confirm`] is called, where the daemon offers it
    /// ([`RouterError::Unsupported`] otherwise). A configuration the daemon refuses changes
    /// nothing ([`RouterError::Refused`]).
    fn configure(
        &self,
        configuration: &str,
        commit: bool,
        confirm_within: Option<Duration>,
    ) -> Result<Configured, RouterError>;

    /// Keeps a configuration committed with a roll-back time.
    fn confirm(&self) -> Result<(), RouterError>;
}
