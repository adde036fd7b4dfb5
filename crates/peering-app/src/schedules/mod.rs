//! Work that runs by itself: a PeeringDB synchronisation, polling routers' sessions,
//! refreshing prefixes from the IRR, synchronising data sources and deleting old records, each every interval its
//! setting gives. Each due run is claimed in the database (`store.schedules()`), so that
//! with several instances on one database it happens once, and is one or more jobs, run
//! by whichever workers take them and listed with the others; a schedule's jobs have no
//! user and show it in their `data` (`"schedule": "retention, every 1h"`). The thread that
//! claims the runs is in `scheduler.rs`; the retention job in `retention.rs`.

mod interval;
mod retention;
mod scheduler;

pub use interval::Interval;
pub use retention::{purge, PURGE_RETENTION};
pub use scheduler::{start, Scheduler};

use peering_domain::resources::{DATA_SOURCE, ROUTER};
use peering_store::{NewJob, Store};

use crate::jobs::{
    POLL_SESSIONS, REFRESH_ALL_PREFIXES, SYNCHRONISE_DATA_SOURCE, SYNCHRONISE_PEERINGDB,
};

/// What a schedule runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheduled {
    /// One PeeringDB synchronisation (`PEERING_SCHEDULE_PEERINGDB_SYNC`).
    PeeringDbSync,
    /// A poll of each router that asks for it (`poll_bgp_sessions_state`), but those whose
    /// previous poll still waits or runs (`PEERING_SCHEDULE_POLL_SESSIONS`).
    PollSessions,
    /// A refresh of every autonomous system's prefixes (`PEERING_SCHEDULE_IRR_REFRESH`).
    IrrRefresh,
    /// A synchronisation of each enabled data source (`PEERING_SCHEDULE_DATA_SOURCES_SYNC`).
    DataSourcesSync,
    /// Change records and jobs past their retention deleted (`PEERING_SCHEDULE_RETENTION`).
    Retention,
}

impl Scheduled {
    /// Every kind, in the order they are looked at.
    pub const ALL: [Scheduled; 5] = [
        Scheduled::PeeringDbSync,
        Scheduled::PollSessions,
        Scheduled::IrrRefresh,
        Scheduled::DataSourcesSync,
        Scheduled::Retention,
    ];

    /// Its name in the `schedules` table (and the end of its setting's name).
    pub fn name(self) -> &'static str {
        match self {
            Scheduled::PeeringDbSync => "peeringdb_sync",
            Scheduled::PollSessions => "poll_sessions",
            Scheduled::IrrRefresh => "irr_refresh",
            Scheduled::DataSourcesSync => "data_sources_sync",
            Scheduled::Retention => "retention",
        }
    }

    /// The name of the jobs it enqueues.
    pub fn job_name(self) -> &'static str {
        match self {
            Scheduled::PeeringDbSync => SYNCHRONISE_PEERINGDB,
            Scheduled::PollSessions => POLL_SESSIONS,
            Scheduled::IrrRefresh => REFRESH_ALL_PREFIXES,
            Scheduled::DataSourcesSync => SYNCHRONISE_DATA_SOURCE,
            Scheduled::Retention => PURGE_RETENTION,
        }
    }
}

/// A schedule turned on: what runs, and how often.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    pub what: Scheduled,
    pub every: Interval,
}

impl Schedule {
    /// How its jobs show it: `"poll_sessions, every 15m"`.
    pub fn label(&self) -> String {
        format!("{}, every {}", self.what.name(), self.every)
    }
}

/// Days change records and jobs are kept (0 keeps them all), for the retention job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Retention {
    pub changes_days: u32,
    pub jobs_days: u32,
}

/// The schedules of an instance: those turned on, and what the retention keeps.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Settings {
    pub schedules: Vec<Schedule>,
    pub retention: Retention,
}

/// The jobs of one run of `schedule`, each carrying the schedule in its parameters.
fn jobs_of(
    store: &Store,
    schedule: &Schedule,
    retention: Retention,
) -> Result<Vec<NewJob>, peering_store::Error> {
    let label = schedule.label();
    let job = |object: Option<(String, i64)>, mut params: serde_json::Value| {
        params["schedule"] = label.clone().into();
        NewJob {
            name: schedule.what.job_name().into(),
            object,
            user_id: None,
            params,
        }
    };
    Ok(match schedule.what {
        Scheduled::PeeringDbSync | Scheduled::IrrRefresh => {
            vec![job(None, serde_json::json!({}))]
        }
        Scheduled::Retention => vec![job(None, retention::params(retention))],
        Scheduled::PollSessions => polled_routers(store)?
            .into_iter()
            .map(|id| {
                let params = crate::Viewer::default().to_params();
                job(Some(("peering.router".into(), id)), params)
            })
            .collect(),
        Scheduled::DataSourcesSync => enabled_sources(store)?
            .into_iter()
            .map(|id| {
                job(
                    Some((DATA_SOURCE.content_type(), id)),
                    serde_json::json!({}),
                )
            })
            .collect(),
    })
}

/// The data sources that are enabled, by id.
fn enabled_sources(store: &Store) -> Result<Vec<i64>, peering_store::Error> {
    Ok(store
        .everything(&DATA_SOURCE)?
        .into_iter()
        .filter(|source| source.get(&DATA_SOURCE, "enabled").as_bool() == Some(true))
        .map(|source| source.id)
        .collect())
}

/// The routers that ask for their sessions to be polled, by id.
fn polled_routers(store: &Store) -> Result<Vec<i64>, peering_store::Error> {
    Ok(store
        .everything(&ROUTER)?
        .into_iter()
        .filter(|router| {
            router
                .get(&ROUTER, "poll_bgp_sessions_state")
                .as_bool()
                .unwrap_or(false)
        })
        .map(|router| router.id)
        .collect())
}
