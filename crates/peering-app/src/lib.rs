//! The application layer: the peering work apart from HTTP. Writes under their rules
//! (`edits.rs`, `accounts.rs`, `imports.rs`: every path that writes objects goes through
//! them), the actions' rules (`autonomous_systems.rs`, `exchanges.rs`, `sessions.rs`),
//! router configurations, e-mails and exports rendered from stored templates for a
//! [`Viewer`] (`renders.rs`), the jobs that run them and the workers that run jobs
//! (`jobs.rs`), the routers, driven or through the router command (`router/`), the
//! PeeringDB jobs, the e-mails sent to peers (`email/`), webhook deliveries (`webhooks/`),
//! and the schedules that start jobs by themselves (`schedules/`). The API calls it for
//! requests; `peeringd worker` runs its jobs with no HTTP at all.

pub mod accounts;
pub mod answers;
pub mod autonomous_systems;
pub mod data_sources;
pub mod edits;
pub mod email;
pub mod exchanges;
pub mod imports;
pub mod irr;
pub mod jobs;
pub mod logins;
mod peeringdb;
mod renders;
pub mod router;
pub mod schedules;
pub mod sessions;
pub mod source;
pub mod webhooks;

use peering_render::{Audience, RenderError, Secrets};

pub use renders::Work;

/// Why some work could not be done.
#[derive(Debug, thiserror::Error)]
pub enum WorkError {
    /// The object named does not exist.
    #[error("{0} not found")]
    NotFound(&'static str),
    /// The template failed: it does not parse, ran past a bound, or failed while running.
    #[error("{0}")]
    Render(#[from] RenderError),
    #[error(transparent)]
    Store(#[from] peering_store::Error),
    /// The router command failed, or gave an answer that is not one.
    #[error("{0}")]
    Router(String),
    /// An e-mail was not sent (or not recorded): the SMTP server refused it, was not there
    /// or did not answer in time.
    #[error("{0}")]
    Email(String),
}

/// Whom a render is for, as a job keeps it: what the caller may read through the API
/// (`app.model` of each resource), the resources whose secrets they may see (those they may
/// change), and who they are. A render shows nothing else.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Viewer {
    pub readable: Vec<String>,
    pub secrets: Vec<String>,
    pub user: Option<i64>,
}

impl Viewer {
    /// As kept in a job's parameters.
    pub fn to_params(&self) -> serde_json::Value {
        serde_json::json!({"readable": self.readable, "secrets": self.secrets})
    }

    /// From a job's parameters, for the user who asked; a job that names no readable
    /// resources sees none.
    pub fn from_params(params: &serde_json::Value, user: Option<i64>) -> Viewer {
        let names = |key: &str| {
            params[key]
                .as_array()
                .map(|list| {
                    list.iter()
                        .filter_map(|s| s.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default()
        };
        Viewer {
            readable: names("readable"),
            secrets: names("secrets"),
            user,
        }
    }

    /// Whether the viewer may read `spec`'s objects.
    pub fn may_read(&self, spec: &peering_domain::ResourceSpec) -> bool {
        self.readable.contains(&spec.content_type())
    }

    pub(crate) fn audience(&self) -> Audience {
        Audience::reading(
            self.readable.iter().cloned(),
            Secrets::of(self.secrets.iter().cloned()),
            self.user,
        )
    }
}
