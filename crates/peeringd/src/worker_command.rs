//! `peeringd worker`: runs the jobs waiting in the database (renders, router commands,
//! PeeringDB synchronisations) and starts the schedules' runs, with no HTTP listener,
//! beside servers that enqueue them (`PEERING_JOB_WORKERS=0` keeps a server's own workers
//! off). Each job runs once, whichever process takes it. It stops on SIGINT or SIGTERM,
//! once its running jobs end.

use std::sync::Arc;

use peering_app::jobs::{start_workers, JobRunner, Queue, WorkerSettings};
use peering_app::Work;
use peering_store::Store;

use crate::config::Settings;

pub fn run(settings: Settings) -> Result<(), String> {
    if settings.job_workers == 0 {
        return Err("PEERING_JOB_WORKERS is 0: a worker without job workers runs nothing".into());
    }
    // A connection for each worker (the routers' and webhooks' too), one for renewing
    // leases, one for the schedules and one for the rest.
    let workers = settings.job_workers
        + peering_app::jobs::ROUTER_WORKERS
        + peering_app::jobs::WEBHOOK_WORKERS;
    let connections = u32::try_from(workers + 3).unwrap_or(u32::MAX);
    let store = Store::open(&settings.database_url, connections).map_err(|e| e.to_string())?;
    crate::server::remove_abandoned_downloads();
    let runner = JobRunner {
        work: Arc::new(Work::new(store.clone(), Default::default())),
        router_command: settings.router_command.clone(),
        peeringdb: settings.peeringdb.clone(),
        peeringdb_limits: settings.peeringdb_limits,
        data_source_limits: settings.data_source_limits,
        email: settings.email.clone(),
        edits: peering_app::edits::Edits::new(store.clone(), settings.write_rules()),
        irr: settings.irr.clone(),
        webhooks: settings.webhooks.clone(),
    };
    let queue = Queue::new(store.clone());
    crate::follow_writes(&settings, &store, Some(&queue));
    let workers = start_workers(
        &queue,
        runner,
        WorkerSettings {
            workers: settings.job_workers,
            ..Default::default()
        },
    )
    .map_err(|e| format!("cannot start the job workers: {e}"))?;
    let schedules = crate::server::start_schedules(&store, &queue, &settings)
        .map_err(|e| format!("cannot start the schedules: {e}"))?;
    log::info!(
        "running {} job worker(s), {} for routers and {} for webhooks, no HTTP listener",
        settings.job_workers,
        peering_app::jobs::ROUTER_WORKERS,
        peering_app::jobs::WEBHOOK_WORKERS
    );
    let stopped = until_stopped();
    log::info!("stopping: the running jobs end first");
    drop(schedules);
    drop(workers);
    stopped
}

/// Waits for SIGINT or SIGTERM.
fn until_stopped() -> Result<(), String> {
    use tokio::signal::unix::{signal, SignalKind};
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let mut terminate = signal(SignalKind::terminate()).map_err(|e| e.to_string())?;
        let mut interrupt = signal(SignalKind::interrupt()).map_err(|e| e.to_string())?;
        tokio::select! {
            _ = terminate.recv() => {}
            _ = interrupt.recv() => {}
        }
        Ok(())
    })
}
