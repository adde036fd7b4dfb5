//! Talking to routers. BIRD 2 and FRR, by their platform's `napalm_driver` (`bird`,
//! `frr`), are driven by peeringd itself (`driven.rs`, over `peering_routers`); every
//! other platform goes through the operator's router command (`command.rs`,
//! `PEERING_ROUTER_COMMAND`). Both answer in the command's shape (docs/router-command.md),
//! so that polls are recorded alike (`poll.rs`); `placement.rs` finds which router holds
//! which sessions.

mod command;
mod driven;
mod import;
mod placement;
mod poll;

use std::time::Duration;

use peering_domain::resources::{PLATFORM, ROUTER};
use peering_domain::Record;
use serde_json::{json, Value as Json};

pub use command::run_command;

use super::{Work, WorkError};

/// What is asked of a router.
#[derive(Debug, Clone)]
pub enum Ask {
    Poll,
    Configure {
        configuration: String,
        commit: bool,
        /// Roll the commit back unless confirmed within this many seconds.
        confirm_within: Option<u64>,
    },
    /// Keep a configuration committed with `confirm_within`.
    Confirm,
    Test,
}

impl Ask {
    fn action(&self) -> &'static str {
        match self {
            Ask::Poll => "poll",
            Ask::Configure { .. } => "configure",
            Ask::Confirm => "confirm",
            Ask::Test => "test",
        }
    }
}

/// What the answer says when a router can be reached neither way.
pub const NO_COMMAND: &str = "No router command is configured: set PEERING_ROUTER_COMMAND to \
     a program that talks to routers (see docs/router-command.md), or give the router a \
     platform whose NAPALM driver is `bird` or `frr`, which peeringd drives itself.";

/// How a stored router is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Driven by peeringd itself.
    Driven,
    /// Through the router command.
    Command,
    /// Neither: no command is configured, and peeringd does not drive its platform.
    Nowhere,
}

impl Work {
    /// The router and its platform.
    fn router_and_platform(&self, router: i64) -> Result<(Record, Option<Record>), WorkError> {
        let record = self.record(&ROUTER, router, "router")?;
        let platform = match record.get(&ROUTER, "platform").as_int() {
            Some(id) => self.store.get(&PLATFORM, id)?.map(|(p, _)| p),
            None => None,
        };
        Ok((record, platform))
    }

    /// How a router is reached, with `command` as the router command.
    pub fn reach(&self, router: i64, command: &[String]) -> Result<Reach, WorkError> {
        let (_, platform) = self.router_and_platform(router)?;
        Ok(if driven::daemon_of(platform.as_ref()).is_some() {
            Reach::Driven
        } else if command.is_empty() {
            Reach::Nowhere
        } else {
            Reach::Command
        })
    }

    /// Asks a router something, driven or through the command; the answer, in the
    /// command's shape.
    pub fn ask_router(
        &self,
        command: &[String],
        router: i64,
        ask: &Ask,
    ) -> Result<Json, WorkError> {
        let (record, platform) = self.router_and_platform(router)?;
        let timeout = match record.int(&ROUTER, "napalm_timeout") {
            0 => Duration::from_secs(60),
            secs => Duration::from_secs(secs.unsigned_abs()),
        };
        if let Some(daemon) = driven::daemon_of(platform.as_ref()) {
            let router = driven::Driven::new(daemon, &record, platform.as_ref(), timeout);
            return router.ask(ask).map_err(WorkError::Router);
        }
        if command.is_empty() {
            return Err(WorkError::Router(NO_COMMAND.into()));
        }
        let mut input = json!({
            "action": ask.action(),
            "router": command::router_document(&record, platform.as_ref()),
        });
        if let Ask::Configure {
            configuration,
            commit,
            confirm_within,
        } = ask
        {
            input["configuration"] = json!(configuration);
            input["commit"] = json!(commit);
            if let Some(seconds) = confirm_within {
                input["confirm_within"] = json!(seconds);
            }
        }
        run_command(command, ask.action(), &input, timeout).map_err(WorkError::Router)
    }
}
