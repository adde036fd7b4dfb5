//! Serving HTTP: open the store, create the first admin on an empty database, run actix.

use std::io::Write;

use actix_web::{App, HttpServer};
use peering_api::AppState;
use peering_auth::TokenKey;
use peering_store::{NewToken, Store};

use crate::config::Settings;

/// Read connections per core; the connections are also the threads that run queries, so
/// that a burst of requests queues for a connection instead of spawning threads (and their
/// malloc arenas). Two per core keep a core busy while another request waits on the
/// database; more only added threads and PostgreSQL backends competing for the same cores,
/// with writes waiting behind them (docs/performance.md, thirteenth round: 8 on 2 cores
/// against 4).
const READ_CONNECTIONS_PER_CORE: usize = 2;

fn read_pool_size() -> u32 {
    u32::try_from(READ_CONNECTIONS_PER_CORE * workers()).unwrap_or(u32::MAX)
}

/// How `PEERING_RESPONSE_CACHE_MIB` is shared, in bytes.
struct CacheMemory {
    answers: usize,
    objects: usize,
}

/// Three quarters of the cache's memory for objects kept rendered, a quarter for whole
/// answers. In varied traffic the objects are what requests share, and pages and details
/// are assembled from them; a whole answer pays only when its very address is asked for
/// again. And objects that fit stay put: when a list's objects do not all fit, each page
/// renders the missing ones and lets others go, and the memory so churned stays resident
/// besides the texts' (docs/performance.md, 2026-12-07: 16 MiB of texts held 15,000
/// sessions' pages at 86 MiB, 24 MiB at 69).
fn cache_memory(mib: usize) -> CacheMemory {
    let bytes = mib << 20;
    CacheMemory {
        answers: bytes / 4,
        objects: bytes - bytes / 4,
    }
}

fn api_settings(s: &Settings) -> peering_api::Settings {
    let cache = cache_memory(s.response_cache_mib);
    peering_api::Settings {
        paginate_count: s.paginate_count,
        max_page_size: s.max_page_size,
        login_required: s.login_required,
        max_body_bytes: s.max_body_bytes,
        exempt_view_permissions: s.exempt_view_permissions.clone(),
        response_cache_bytes: cache.answers,
        object_texts_bytes: cache.objects,
        trusted_proxies: s.trusted_proxies.clone(),
        body_timeout: std::time::Duration::from_secs(s.body_timeout_secs),
        min_password_length: s.min_password_length,
        allowed_hosts: s.allowed_hosts.clone(),
        cors_origins: s.cors_origins.clone(),
        base_path: s.base_path.clone(),
        router_command: s.router_command.clone(),
        peeringdb: s.peeringdb.clone(),
        peeringdb_limits: s.peeringdb_limits,
        data_source_limits: s.data_source_limits,
        max_inline_renders: s.max_inline_renders,
        field_names: s.field_names,
        email: s.email.clone(),
        irr: s.irr.clone(),
        webhooks: s.webhooks.clone(),
    }
}

/// On an empty database, creates an `admin` superuser and a write-enabled token, and
/// prints the key once so that a new user can call the API at once.
fn bootstrap(store: &Store) -> Result<(), peering_store::Error> {
    if store.users().count_users()? > 0 {
        return Ok(());
    }
    let user_id = store.users().create_user("admin", "", true)?;
    let key = TokenKey::generate();
    store.users().create_token(&NewToken {
        user_id,
        key_hash: key.hash(),
        key_suffix: key.suffix().to_string(),
        expires: None,
        write_enabled: true,
        description: "created at first start".into(),
    })?;
    // Printing must not fail the server when nobody reads its output any more.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "Created superuser 'admin' with API token: {}",
        key.as_str()
    );
    let _ = writeln!(out, "Use it as: Authorization: Token {}", key.as_str());
    let _ = out.flush();
    Ok(())
}

fn workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Every client connection holds a file: the soft limit (often 1,024) would let a few
/// hundred slow clients lock everyone else out, so it is raised to the hard limit.
fn raise_open_file_limit() {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => log::debug!("open files: up to {limit}"),
        Err(e) => log::warn!("open-file limit left as it is: {e}"),
    }
}

/// The download folders that synchronisations killed with the server left behind.
pub(crate) fn remove_abandoned_downloads() {
    for folder in peering_peeringdb::downloads::remove_abandoned(&std::env::temp_dir()) {
        log::info!(
            "removed {}, left by an interrupted synchronisation",
            folder.display()
        );
    }
}

/// Starts the schedules turned on (`PEERING_SCHEDULE_*`), the retention's among them;
/// they stop with the process.
pub(crate) fn start_schedules(
    store: &Store,
    queue: &peering_app::jobs::Queue,
    settings: &Settings,
) -> std::io::Result<Option<peering_app::schedules::Scheduler>> {
    peering_app::schedules::start(store.clone(), queue.clone(), settings.scheduling())
}

pub fn serve(settings: Settings) -> std::io::Result<()> {
    raise_open_file_limit();
    // The API's state has its writes enqueue webhook deliveries, waking its workers.
    let store = Store::open(&settings.database_url, read_pool_size())
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    bootstrap(&store).map_err(|e| std::io::Error::other(e.to_string()))?;
    remove_abandoned_downloads();
    let state = AppState::new(store.clone(), api_settings(&settings));
    let _schedules = start_schedules(&store, &state.jobs, &settings)?;
    let _workers = peering_app::jobs::start_workers(
        &state.jobs,
        state.job_runner(),
        peering_app::jobs::WorkerSettings {
            workers: settings.job_workers,
            ..Default::default()
        },
    )?;
    log::info!(
        "serving on http://{} ({})",
        settings.listen,
        state.store.backend().name()
    );
    let metrics_state = state.clone();
    let metrics_listen = settings.metrics_listen.clone();
    actix_web::rt::System::new().block_on(async move {
        if let Some(address) = metrics_listen {
            let metrics = HttpServer::new(move || {
                App::new().configure(|cfg| {
                    peering_api::metrics::configure_listener(cfg, metrics_state.clone())
                })
            })
            .workers(1)
            .bind(&address)?
            .run();
            log::info!("metrics on http://{address}/metrics");
            actix_web::rt::spawn(metrics);
        }
        HttpServer::new(move || {
            App::new().configure(|cfg| peering_api::configure(cfg, state.clone()))
        })
        .worker_max_blocking_threads(READ_CONNECTIONS_PER_CORE)
        // A client that is slow to send its headers is dropped (its body has its own limit,
        // `PEERING_BODY_TIMEOUT_SECS`), so slow clients cannot hold connections open.
        .client_request_timeout(std::time::Duration::from_secs(
            settings.request_timeout_secs,
        ))
        .client_disconnect_timeout(std::time::Duration::from_secs(1))
        .bind(&settings.listen)?
        .run()
        .await
    })?;
    // Stopped (SIGTERM, SIGINT): requests have finished; leave no log for the next start.
    if let Err(e) = store.upkeep().checkpoint_on_exit() {
        log::warn!("final checkpoint: {e}");
    }
    Ok(())
}
