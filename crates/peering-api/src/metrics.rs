//! `/metrics` in the Prometheus text format: requests and their latency by route and
//! status, database connections, the answer cache. Served to staff and superusers on the
//! API's address, or to anyone on a separate address (`PEERING_METRICS_LISTEN`), which is
//! meant to be private.

use std::sync::atomic::{AtomicU64, Ordering};

use actix_web::http::header::ContentType;
use actix_web::{web, HttpRequest, HttpResponse};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

use crate::auth::{authenticate, NO_PERMISSION};
use crate::error::ApiError;
use crate::AppState;

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    pub method: String,
    pub route: String,
    pub status: u16,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    pub method: String,
    pub route: String,
}

type Durations = Family<RouteLabels, Histogram, fn() -> Histogram>;

fn durations() -> Histogram {
    // 0.25 ms to about 4 s.
    Histogram::new(exponential_buckets(0.000_25, 2.0, 15))
}

/// The server's metrics, registered once.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    durations: Durations,
    connections: Gauge,
    idle_connections: Gauge,
    cache_entries: Gauge,
    cache_bytes: Gauge,
    cache_hits: Counter<u64, AtomicU64>,
    cache_misses: Counter<u64, AtomicU64>,
    texts_entries: Gauge,
    texts_bytes: Gauge,
    texts_served: Counter<u64, AtomicU64>,
    texts_rendered: Counter<u64, AtomicU64>,
    texts_kept: Counter<u64, AtomicU64>,
    jobs_waiting: Gauge,
    reads_gave_way: Counter<u64, AtomicU64>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Metrics")
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            registry: Registry::with_prefix("peeringd"),
            requests: Family::default(),
            durations: Durations::new_with_constructor(durations),
            connections: Gauge::default(),
            idle_connections: Gauge::default(),
            cache_entries: Gauge::default(),
            cache_bytes: Gauge::default(),
            cache_hits: Counter::default(),
            cache_misses: Counter::default(),
            texts_entries: Gauge::default(),
            texts_bytes: Gauge::default(),
            texts_served: Counter::default(),
            texts_rendered: Counter::default(),
            texts_kept: Counter::default(),
            jobs_waiting: Gauge::default(),
            reads_gave_way: Counter::default(),
        }
        .registered()
    }
}

impl Metrics {
    /// Every metric in the registry, in the order `/metrics` lists them.
    fn registered(mut self) -> Self {
        let r = &mut self.registry;
        r.register(
            "jobs_waiting",
            "Jobs waiting for a worker (every instance's)",
            self.jobs_waiting.clone(),
        );
        r.register(
            "http_requests",
            "HTTP requests answered, by method, route and status",
            self.requests.clone(),
        );
        r.register(
            "http_request_duration_seconds",
            "Time to answer HTTP requests, by method and route",
            self.durations.clone(),
        );
        r.register(
            "db_connections",
            "Database connections open in the pool",
            self.connections.clone(),
        );
        r.register(
            "db_idle_connections",
            "Database connections open and unused",
            self.idle_connections.clone(),
        );
        r.register(
            "db_reads_gave_way",
            "Reads that waited for a write of the API to end before they started",
            self.reads_gave_way.clone(),
        );
        self.registered_caches()
    }

    /// The answer cache's and the kept objects' metrics.
    fn registered_caches(mut self) -> Self {
        let r = &mut self.registry;
        r.register(
            "answer_cache_entries",
            "Rendered answers kept",
            self.cache_entries.clone(),
        );
        r.register(
            "answer_cache_bytes",
            "Bytes of rendered answers kept",
            self.cache_bytes.clone(),
        );
        r.register(
            "answer_cache_hits",
            "Reads answered from the answer cache",
            self.cache_hits.clone(),
        );
        r.register(
            "answer_cache_misses",
            "Reads rendered anew",
            self.cache_misses.clone(),
        );
        r.register(
            "object_texts_entries",
            "Objects kept rendered, which pages and details are assembled from",
            self.texts_entries.clone(),
        );
        r.register(
            "object_texts_bytes",
            "Bytes of objects kept rendered",
            self.texts_bytes.clone(),
        );
        r.register(
            "object_texts_served",
            "Objects of pages and details taken from those kept rendered",
            self.texts_served.clone(),
        );
        r.register(
            "object_texts_rendered",
            "Objects of pages and details rendered",
            self.texts_rendered.clone(),
        );
        r.register(
            "object_texts_kept",
            "Objects rendered and kept: each while they fit, one in 8 once their memory is full",
            self.texts_kept.clone(),
        );
        self
    }
}

impl Metrics {
    /// Counts one answered request.
    pub fn observe(&self, method: &str, route: &str, status: u16, seconds: f64) {
        self.requests
            .get_or_create(&RequestLabels {
                method: method.to_string(),
                route: route.to_string(),
                status,
            })
            .inc();
        self.durations
            .get_or_create(&RouteLabels {
                method: method.to_string(),
                route: route.to_string(),
            })
            .observe(seconds);
    }

    pub fn cache_hit(&self) {
        self.cache_hits.inc();
    }

    pub fn cache_miss(&self) {
        self.cache_misses.inc();
    }

    /// The text exposition, with the gauges read now (`jobs_waiting` read by the caller,
    /// off the async threads).
    pub fn render(&self, state: &AppState, jobs_waiting: Option<i64>) -> String {
        if let Some(waiting) = jobs_waiting {
            self.jobs_waiting.set(waiting);
        }
        let pool = state.store.upkeep().pool_state();
        self.connections.set(i64::from(pool.connections));
        self.idle_connections.set(i64::from(pool.idle));
        // The store counts; the counter follows (never backwards, whoever renders first).
        (self.reads_gave_way.inner()).fetch_max(pool.reads_gave_way, Ordering::Relaxed);
        let (entries, bytes) = state.responses.usage();
        self.cache_entries.set(entries as i64);
        self.cache_bytes.set(bytes as i64);
        let (entries, bytes) = state.texts.usage();
        self.texts_entries.set(entries as i64);
        self.texts_bytes.set(bytes as i64);
        // The texts count; the counters follow (never backwards).
        let (served, rendered, kept) = state.texts.tally();
        (self.texts_served.inner()).fetch_max(served, Ordering::Relaxed);
        (self.texts_rendered.inner()).fetch_max(rendered, Ordering::Relaxed);
        (self.texts_kept.inner()).fetch_max(kept, Ordering::Relaxed);
        let mut out = String::new();
        if prometheus_client::encoding::text::encode(&mut out, &self.registry).is_err() {
            out.clear();
        }
        out
    }
}

async fn exposition(state: &AppState) -> HttpResponse {
    let store = state.store.clone();
    let waiting = web::block(move || store.jobs().waiting())
        .await
        .ok()
        .and_then(Result::ok);
    HttpResponse::Ok()
        .insert_header(ContentType(
            "text/plain; version=0.0.4; charset=utf-8"
                .parse()
                .expect("a media type"),
        ))
        .body(state.metrics.render(state, waiting))
}

/// `/metrics` on the API's address: staff and superusers only.
pub async fn guarded(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let caller = authenticate(&req, &state).await?;
    let user = caller.require_user()?;
    if !(user.staff || user.superuser) {
        return Err(ApiError::Forbidden(NO_PERMISSION.into()));
    }
    Ok(exposition(&state).await)
}

/// `/metrics` on the separate metrics address: anyone who can reach it.
pub async fn open(state: web::Data<AppState>) -> HttpResponse {
    exposition(&state).await
}

/// The app served on `PEERING_METRICS_LISTEN`: `/metrics` alone.
pub fn configure_listener(cfg: &mut web::ServiceConfig, state: AppState) {
    cfg.app_data(web::Data::new(state))
        .route("/metrics", web::get().to(open));
}
