//! What each kind of job does, by the reference's job names.

use std::sync::Arc;

use peering_domain::grants::Authority;
use peering_domain::resources::USER;
use peering_jobs::{Outcome, Runner};
use peering_store::{ChangeContext, ClaimedJob, NewJob};

use super::router::Ask;
use super::schedules::PURGE_RETENTION;
use super::{Viewer, Work, WorkError};

pub const GENERATE_CONFIGURATION: &str = "peering.router.generate_configuration";
pub const RENDER_EXPORT: &str = "extras.exporttemplate.render";
pub const POLL_SESSIONS: &str = "peering.router.poll_bgp_sessions";
pub const CONFIGURE: &str = "peering.router.set_napalm_configuration";
pub const TEST_CONNECTION: &str = "peering.router.test_napalm_connection";
pub const IMPORT_SESSIONS: &str = "peering.internet_exchange.import_sessions";
pub const IMPORT_PEERINGDB_SESSIONS: &str = "peering.internet_exchange.import_peeringdb_sessions";
pub const SYNCHRONISE_PEERINGDB: &str = "peeringdb.synchronise";
pub const SEND_EMAIL: &str = "messaging.email.send";
/// Sends one change to one webhook's receiver (enqueued by `webhooks/enqueue.rs`).
pub const DELIVER_WEBHOOK: &str = "extras.webhook.deliver";
pub const REFRESH_PREFIXES: &str = "peering.autonomous_system.refresh_prefixes";
pub use super::data_sources::SYNCHRONISE_DATA_SOURCE;
/// Refreshes every autonomous system's prefixes (a schedule's job).
pub const REFRESH_ALL_PREFIXES: &str = "peering.autonomous_system.refresh_all_prefixes";

/// A job to run `name` on an object, for a user; what it renders shows what `viewer` may
/// see (nothing, for a job that renders nothing).
pub fn new_job(name: &str, object: (&str, i64), user_id: Option<i64>, viewer: &Viewer) -> NewJob {
    NewJob {
        name: name.into(),
        object: Some((object.0.into(), object.1)),
        user_id,
        params: viewer.to_params(),
    }
}

/// Runs jobs with the server's [`Work`].
pub struct JobRunner {
    pub work: Arc<Work>,
    /// The router command (`PEERING_ROUTER_COMMAND`); empty: jobs on routers peeringd
    /// does not drive err.
    pub router_command: Vec<String>,
    /// How a synchronisation reaches PeeringDB.
    pub peeringdb: peering_peeringdb::Settings,
    pub peeringdb_limits: peering_peeringdb::Limits,
    /// How much and how long a data source's synchronisation may take in.
    pub data_source_limits: super::data_sources::Limits,
    /// How e-mails reach their SMTP server.
    pub email: super::email::Settings,
    /// What jobs write (journal entries), under the write rules.
    pub edits: super::edits::Edits,
    /// How prefixes are asked of the IRR (written through `edits`).
    pub irr: super::irr::Settings,
    /// How webhooks are delivered.
    pub webhooks: super::webhooks::Settings,
}

fn ended(result: Result<String, WorkError>) -> Outcome {
    match result {
        Ok(text) => Outcome::completed(text),
        Err(e) => Outcome::errored(e.to_string()),
    }
}

impl Runner for JobRunner {
    /// Runs a job; one a schedule started shows the schedule in its data.
    fn run(&self, job: &ClaimedJob) -> Outcome {
        let mut outcome = self.run_named(job);
        if let (Some(schedule), Some(data)) =
            (job.params.get("schedule"), outcome.data.as_object_mut())
        {
            data.insert("schedule".into(), schedule.clone());
        }
        outcome
    }

    /// Jobs that only render, read routers, copy PeeringDB, refresh prefixes or delete old
    /// records do the same when run twice; pushing a configuration, importing sessions or
    /// sending an e-mail may have acted already, and ends interrupted when taken back from
    /// a worker that died. A webhook delivery runs again: deliveries are at least once
    /// anyway (an attempt that timed out may have arrived and is tried again), and a
    /// receiver tells a repeat by its request id.
    fn resumable(&self, job_name: &str) -> bool {
        matches!(
            job_name,
            GENERATE_CONFIGURATION
                | RENDER_EXPORT
                | POLL_SESSIONS
                | TEST_CONNECTION
                | SYNCHRONISE_PEERINGDB
                | REFRESH_PREFIXES
                | REFRESH_ALL_PREFIXES
                | DELIVER_WEBHOOK
                | PURGE_RETENTION
                | SYNCHRONISE_DATA_SOURCE
        )
    }
}

impl JobRunner {
    /// What the job of this name does.
    fn run_named(&self, job: &ClaimedJob) -> Outcome {
        if job.name == PURGE_RETENTION {
            return super::schedules::purge(&self.work.store, &job.params);
        }
        if job.name == DELIVER_WEBHOOK {
            let bounds = self.work.bounds();
            return super::webhooks::deliver(&self.work.store, &self.webhooks, &bounds, job);
        }
        if job.name == SYNCHRONISE_PEERINGDB {
            return super::peeringdb::synchronise(
                &self.work.store,
                &self.peeringdb,
                self.peeringdb_limits,
                &self.context(job),
            );
        }
        if job.name == REFRESH_ALL_PREFIXES {
            return self.refresh_all_prefixes(job);
        }
        let Some(object) = job.object_id else {
            return Outcome::failed(format!("job {} names no object", job.name));
        };
        let viewer = Viewer::from_params(&job.params, job.user_id);
        let command = &self.router_command;
        match job.name.as_str() {
            GENERATE_CONFIGURATION => ended(self.work.router_configuration(object, &viewer, None)),
            RENDER_EXPORT => ended(self.work.export(object, None, &viewer)),
            POLL_SESSIONS => ended(self.work.poll_router(command, object, &self.context(job))),
            TEST_CONNECTION => ended(
                self.work
                    .ask_router(command, object, &Ask::Test)
                    .map(|answer| answer.to_string()),
            ),
            CONFIGURE => ended(self.configure(job, object, &viewer)),
            IMPORT_SESSIONS => ended(
                self.work
                    .import_router_sessions(command, object, &self.context(job))
                    .map(|imported| super::peeringdb::import_report(&imported)),
            ),
            SEND_EMAIL => ended(super::email::send(
                &self.work,
                &self.edits,
                &self.email,
                job,
                &self.context(job),
            )),
            IMPORT_PEERINGDB_SESSIONS => {
                super::peeringdb::import_sessions(&self.work.store, object, &self.context(job))
            }
            SYNCHRONISE_DATA_SOURCE => self.synchronise_data_source(job, object),
            REFRESH_PREFIXES => {
                match super::irr::refresh(&self.edits, &self.irr, object, &self.context(job)) {
                    Ok(done) => Outcome::completed(done.line()),
                    Err(e) => Outcome::errored(e.to_string()),
                }
            }
            other => Outcome::failed(format!("unknown kind of job: {other}")),
        }
    }

    /// Synchronises a data source within the server's bounds.
    fn synchronise_data_source(&self, job: &ClaimedJob, source: i64) -> Outcome {
        let limits = &self.data_source_limits;
        super::data_sources::synchronise(&self.work.store, limits, source, &self.context(job))
    }

    /// The change context of what a job writes: in the name of the user who asked.
    fn context(&self, job: &ClaimedJob) -> ChangeContext {
        let user_name = job
            .user_id
            .and_then(|id| self.work.store.get(&USER, id).ok().flatten())
            .map(|(user, _)| user.text(&USER, "username").to_string())
            .unwrap_or_default();
        ChangeContext {
            request_id: uuid::Uuid::new_v4().to_string(),
            user_id: job.user_id,
            user_name,
            authority: Authority::operator(),
        }
    }

    /// Refreshes every autonomous system's prefixes; errored when one failed (the others
    /// are written all the same).
    fn refresh_all_prefixes(&self, job: &ClaimedJob) -> Outcome {
        let ctx = self.context(job);
        let report = super::irr::systems(self.edits.store(), None).and_then(|ids| {
            super::irr::refresh_each(&self.edits, &self.irr, &ids, &ctx, &mut |_| {})
        });
        match report {
            Ok(report) if report.failed == 0 => Outcome::completed(report.text()),
            Ok(report) => Outcome::errored(report.text()),
            Err(e) => Outcome::errored(format!("Refreshing prefixes failed: {e}")),
        }
    }

    /// Renders the router's configuration and gives it to the router to apply (or, without
    /// `commit`, to compare); the router's answer.
    fn configure(
        &self,
        job: &ClaimedJob,
        router: i64,
        viewer: &Viewer,
    ) -> Result<String, WorkError> {
        let configuration = self.work.router_configuration(router, viewer, None)?;
        let commit = job.params["commit"].as_bool().unwrap_or(false);
        let ask = Ask::Configure {
            configuration,
            commit,
            confirm_within: job.params["confirm_within"].as_u64(),
        };
        let answer = self.work.ask_router(&self.router_command, router, &ask)?;
        Ok(answer.to_string())
    }
}

/// The queue jobs are enqueued on and taken from.
pub use peering_jobs::Queue;
/// How the workers run (how many, their lease, how often idle ones look for jobs).
pub use peering_jobs::Settings as WorkerSettings;

/// The jobs that talk to routers: they run on workers of their own, so that routers
/// that answer slowly, or not at all until their deadline, hold up no other job.
pub const ROUTER_JOBS: &[&str] = &[POLL_SESSIONS, CONFIGURE, TEST_CONNECTION, IMPORT_SESSIONS];

/// How many router jobs a process runs at once (when it runs jobs at all): each waits on
/// a router, not on this machine.
pub const ROUTER_WORKERS: usize = 4;

/// Webhook deliveries run on workers of their own too ([`WEBHOOK_WORKERS`]): receivers
/// that never answer hold up neither routers nor renders.
pub const WEBHOOK_JOBS: &[&str] = &[DELIVER_WEBHOOK];

pub use super::webhooks::WEBHOOK_WORKERS;

/// The jobs of the lanes above, which the general workers leave to them.
const LANED_JOBS: &[&str] = &[
    POLL_SESSIONS,
    CONFIGURE,
    TEST_CONNECTION,
    IMPORT_SESSIONS,
    DELIVER_WEBHOOK,
];

/// Starts this process's job workers on `queue`, running jobs with `runner`: `settings`'
/// workers for every job but the routers' and webhooks', [`ROUTER_WORKERS`] more for the
/// routers' and [`WEBHOOK_WORKERS`] for the webhooks' (none when `settings.workers` is 0).
/// They stop when dropped. The server starts them beside its HTTP listener, `peeringd
/// worker` alone.
pub fn start_workers(
    queue: &peering_jobs::Queue,
    runner: JobRunner,
    settings: peering_jobs::Settings,
) -> std::io::Result<Vec<peering_jobs::Workers>> {
    let runner: Arc<dyn peering_jobs::Runner> = Arc::new(runner);
    let others = peering_jobs::Settings {
        claims: peering_jobs::Claims::Others(LANED_JOBS),
        ..settings
    };
    let lane = |workers: usize, jobs| peering_jobs::Settings {
        workers: if settings.workers == 0 { 0 } else { workers },
        claims: peering_jobs::Claims::Named(jobs),
        ..settings
    };
    Ok(vec![
        peering_jobs::start(queue, runner.clone(), others)?,
        peering_jobs::start(queue, runner.clone(), lane(ROUTER_WORKERS, ROUTER_JOBS))?,
        peering_jobs::start(queue, runner, lane(WEBHOOK_WORKERS, WEBHOOK_JOBS))?,
    ])
}
