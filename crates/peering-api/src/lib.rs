//! The HTTP layer of peeringd: routes, authentication, representations, errors, headers,
//! the OpenAPI document.
#![doc = include_str!("../README.md")]

pub mod access;
pub mod actions;
mod api_path;
pub mod auth;
pub mod body;
pub mod cache;
pub mod client;
pub mod compression;
pub mod conditional;
pub mod error;
pub mod headers;
pub mod health;
pub mod inline_renders;
pub mod list;
pub mod metrics;
pub mod openapi;
mod page_texts;
pub mod pages;
pub mod resource;
pub mod respond;
pub mod root;
pub mod tokens;

pub mod write_lane;

use actix_web::http::{header, Method};
use actix_web::middleware::from_fn;
use actix_web::{web, HttpRequest, HttpResponse};
use peering_domain::resources::by_path;
use peering_domain::ResourceSpec;
use peering_store::Store;

use crate::api_path::ApiPath;
use crate::error::ApiError;

/// `major.minor` of the package version, which `Accept` may name.
pub use peering_openapi::api_version;

/// Settings of the HTTP layer.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Default page size (`PAGINATE_COUNT`).
    pub paginate_count: i64,
    /// Maximum page size; 0 removes it (`MAX_PAGE_SIZE`).
    pub max_page_size: i64,
    /// Whether reads need a token too (`LOGIN_REQUIRED`).
    pub login_required: bool,
    /// Largest request body accepted.
    pub max_body_bytes: usize,
    /// Resources any caller may read without a view permission (`EXEMPT_VIEW_PERMISSIONS`).
    pub exempt_view_permissions: ExemptViews,
    /// Memory for rendered list and detail answers, in bytes; 0 turns the cache off.
    pub response_cache_bytes: usize,
    /// Memory for objects kept rendered, which pages and details are assembled from; 0
    /// keeps none (`PEERING_RESPONSE_CACHE_MIB` gives it three quarters of its memory).
    pub object_texts_bytes: usize,
    /// Reverse proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// The longest a request body may take to arrive.
    pub body_timeout: std::time::Duration,
    /// The shortest password a user may be given.
    pub min_password_length: usize,
    /// The host names requests may name (`Host`); empty allows any. A name starting with
    /// a dot also allows its subdomains.
    pub allowed_hosts: Vec<String>,
    /// Origins whose scripts may call the API from a browser (`*` for any); empty turns
    /// cross-origin requests off.
    pub cors_origins: Vec<String>,
    /// The path every route is served under (`""`, or `/prefix` without a trailing slash),
    /// for a reverse proxy that passes a sub-path on.
    pub base_path: String,
    /// The program (and its arguments) that talks to routers for the API: polls sessions,
    /// pushes configurations, tests connections. Empty: those actions answer 503.
    pub router_command: Vec<String>,
    /// How a synchronisation asked through the API reaches PeeringDB.
    pub peeringdb: peering_peeringdb::Settings,
    /// How long a synchronisation may wait for PeeringDB and take in all.
    pub peeringdb_limits: peering_peeringdb::Limits,
    /// How much and how long a data source's synchronisation may take in.
    pub data_source_limits: peering_app::data_sources::Limits,
    /// Renders answered inline at once (`render-synchronous/`, `?export=`, previews);
    /// past it, a 503 that points to the job form.
    pub max_inline_renders: usize,
    /// Whether answers name the external database's fields as the spec does
    /// (`*_extdb_*`) or as the reference does (`*_peeringdb_*`).
    pub field_names: peering_domain::names::FieldNames,
    /// How e-mails sent to peers reach their SMTP server; without a server, `send-email/`
    /// answers 503.
    pub email: peering_app::email::Settings,
    /// How prefix refreshes ask the IRR (bgpq4, its server, sources and arguments).
    pub irr: peering_app::irr::Settings,
    /// How the jobs this server runs deliver webhooks.
    pub webhooks: peering_app::webhooks::Settings,
}

impl Settings {
    /// The bounds on a list's pages.
    pub fn page_limits(&self) -> peering_represent::page::PageLimits {
        peering_represent::page::PageLimits {
            max_page_size: self.max_page_size,
            paginate_count: self.paginate_count,
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            paginate_count: 50,
            max_page_size: 1000,
            login_required: false,
            max_body_bytes: 10 * 1024 * 1024,
            exempt_view_permissions: ExemptViews::All,
            response_cache_bytes: 8 * 1024 * 1024,
            object_texts_bytes: 24 * 1024 * 1024,
            trusted_proxies: Vec::new(),
            body_timeout: std::time::Duration::from_secs(30),
            min_password_length: 10,
            allowed_hosts: Vec::new(),
            cors_origins: Vec::new(),
            base_path: String::new(),
            router_command: Vec::new(),
            peeringdb: peering_peeringdb::Settings::default(),
            peeringdb_limits: peering_peeringdb::Limits::default(),
            data_source_limits: peering_app::data_sources::Limits::default(),
            max_inline_renders: inline_renders::InlineRenders::default_limit(),
            field_names: peering_domain::names::FieldNames::Spec,
            email: peering_app::email::Settings::default(),
            irr: peering_app::irr::Settings::default(),
            webhooks: peering_app::webhooks::Settings::default(),
        }
    }
}

/// Which resources are read without a view permission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExemptViews {
    /// `*`: every resource, as in the reference system.
    All,
    /// A list of `app.model` (empty: view permissions are enforced everywhere).
    Only(Vec<String>),
}

impl ExemptViews {
    /// Users and groups are never exempt: their permissions say who can do what.
    pub fn exempts(&self, spec: &ResourceSpec) -> bool {
        if spec.app == "users" {
            return false;
        }
        match self {
            ExemptViews::All => true,
            ExemptViews::Only(list) => list.iter().any(|c| *c == spec.content_type()),
        }
    }
}

impl std::str::FromStr for ExemptViews {
    type Err = String;

    /// `*`, or a comma-separated list of `app.model`, or an empty string.
    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text == "*" {
            return Ok(ExemptViews::All);
        }
        let mut list = Vec::new();
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            if peering_domain::resources::by_content_type(item).is_none() {
                return Err(format!(
                    "unknown resource {item:?} in EXEMPT_VIEW_PERMISSIONS: expected `*` or app.model names such as peering.autonomoussystem"
                ));
            }
            list.push(item.to_string());
        }
        Ok(ExemptViews::Only(list))
    }
}

/// What every handler shares.
#[derive(Debug, Clone)]
pub struct AppState {
    pub store: Store,
    pub settings: Settings,
    pub tokens: std::sync::Arc<auth::TokenCache>,
    pub login_limiter: std::sync::Arc<peering_app::logins::LoginLimiter>,
    pub responses: std::sync::Arc<cache::ResponseCache>,
    /// Objects kept rendered, which pages and details are assembled from (`texts.rs`).
    pub texts: std::sync::Arc<peering_app::answers::texts::ObjectTexts>,
    /// List counts, kept with the answers (`counts.rs`).
    pub counts: std::sync::Arc<peering_app::answers::counts::Counts>,
    pub metrics: std::sync::Arc<metrics::Metrics>,
    /// Turns to read and parse large bodies (`body.rs`).
    pub large_bodies: std::sync::Arc<tokio::sync::Semaphore>,
    /// Turns to read and render large pages (`list.rs`).
    pub large_pages: std::sync::Arc<tokio::sync::Semaphore>,
    /// Reads the tables' data versions for the answer cache; `None` when the cache is off (or its
    /// thread could not start: each request then reads the version itself).
    pub versions: Option<std::sync::Arc<cache::VersionsProbe>>,
    /// Objects written under the write rules (`peering_app::edits`).
    pub edits: peering_app::edits::Edits,
    /// Renders from templates, for requests and jobs.
    pub work: std::sync::Arc<peering_app::Work>,
    /// The job queue; workers are started by the server (`peering_jobs::start`).
    pub jobs: peering_jobs::Queue,
    /// Places for renders answered inline (`Settings::max_inline_renders`).
    pub inline_renders: inline_renders::InlineRenders,
    /// The threads writes run on (`write_lane.rs`).
    pub writes: std::sync::Arc<write_lane::WriteLane>,
}

impl AppState {
    /// What runs this server's jobs: its work, router command and PeeringDB settings.
    pub fn job_runner(&self) -> peering_app::jobs::JobRunner {
        peering_app::jobs::JobRunner {
            work: self.work.clone(),
            router_command: self.settings.router_command.clone(),
            peeringdb: self.settings.peeringdb.clone(),
            peeringdb_limits: self.settings.peeringdb_limits,
            data_source_limits: self.settings.data_source_limits,
            email: self.settings.email.clone(),
            edits: self.edits.clone(),
            irr: self.settings.irr.clone(),
            webhooks: self.settings.webhooks.clone(),
        }
    }
}

/// Threads for writes: as many as the store has connections for them.
const WRITE_THREADS: usize = 2;

impl AppState {
    pub fn new(store: Store, settings: Settings) -> AppState {
        let responses = cache::ResponseCache::for_settings(&settings);
        let versions = responses
            .enabled()
            .then(|| {
                let store = store.clone();
                // The last versions read, given again while no write lands.
                let last = std::sync::Mutex::new(None);
                peering_app::answers::versions::VersionProbe::spawn(move || {
                    let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
                    let versions = store.table_versions_since(last.as_ref())?;
                    *last = Some(std::sync::Arc::clone(&versions));
                    Ok(versions)
                })
                .inspect_err(|e| log::warn!("data version thread: {e}"))
                .ok()
            })
            .flatten()
            .map(std::sync::Arc::new);
        // Reads give way to the API's writes while they run (`Store::writing`).
        let writes = write_lane::WriteLane::new(WRITE_THREADS, Some(store.clone()));
        let rules = peering_app::edits::WriteRules {
            min_password_length: settings.min_password_length,
        };
        let jobs = peering_jobs::Queue::new(store.clone());
        peering_app::webhooks::follow_writes(
            &store,
            peering_app::webhooks::Deliveries {
                base: settings.base_path.trim_end_matches('/').to_string(),
                names: settings.field_names,
                wake: Some(jobs.clone()),
            },
        );
        AppState {
            edits: peering_app::edits::Edits::new(store.clone(), rules),
            work: std::sync::Arc::new(peering_app::Work::new(store.clone(), Default::default())),
            jobs,
            inline_renders: inline_renders::InlineRenders::new(settings.max_inline_renders),
            counts: std::sync::Arc::new(peering_app::answers::counts::Counts::new(
                responses.enabled(),
            )),
            responses: std::sync::Arc::new(responses),
            texts: std::sync::Arc::new(peering_app::answers::texts::ObjectTexts::new(
                settings.object_texts_bytes,
            )),
            versions,
            store,
            settings,
            tokens: Default::default(),
            login_limiter: Default::default(),
            metrics: Default::default(),
            large_bodies: std::sync::Arc::new(tokio::sync::Semaphore::new(
                body::LARGE_BODIES_AT_ONCE,
            )),
            large_pages: std::sync::Arc::new(tokio::sync::Semaphore::new(
                list::LARGE_PAGES_AT_ONCE,
            )),
            writes: std::sync::Arc::new(writes),
        }
    }
}

/// Every declared resource is served by the generic handlers.
fn routed(app: &str, path: &str) -> Result<&'static ResourceSpec, ApiError> {
    by_path(app, path).ok_or(ApiError::NotFound)
}

/// The generic routes (`api_path.rs`), and the fallback for every other path.
async fn dispatch(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let Some(path) = ApiPath::of(&req) else {
        return fallback(req).await;
    };
    let owned = |segment: Option<&str>| segment.map(str::to_owned);
    let (app, model, id, action) = (
        path.app.to_owned(),
        owned(path.model),
        owned(path.id),
        owned(path.action),
    );
    match (model, id, action) {
        (None, _, _) => app_root(req, &app).await,
        (Some(model), None, _) => {
            resource::collection(req, payload, state, routed(&app, &model)?).await
        }
        (Some(model), Some(id), None) => detail(req, payload, state, &app, &model, &id).await,
        (Some(model), Some(id), Some(name)) => {
            object_action(req, payload, state, &app, &model, &id, &name).await
        }
    }
}

/// `/api/{app}/`: answers GET and HEAD, like the other read-only routes.
async fn app_root(req: HttpRequest, app: &str) -> Result<HttpResponse, ApiError> {
    match *req.method() {
        Method::GET | Method::HEAD => root::app_root(req, app).await,
        _ => method_not_allowed(req).await,
    }
}

/// `/api/{app}/{model}/{id}/`: one object, or an action on the collection.
async fn detail(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
    app: &str,
    model: &str,
    id: &str,
) -> Result<HttpResponse, ApiError> {
    // An object's id is a number and an action's name never is: a detail, the most
    // frequent request, does not look through the actions.
    let names_an_object = !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit());
    if !names_an_object {
        if let Some(action) = actions::find_under(app, model, id) {
            return actions::dispatch(action, req, payload, state, 0).await;
        }
    }
    let spec = routed(app, model)?;
    if !names_an_object {
        if let Some(action) = actions::find(spec, id, actions::Scope::Collection) {
            return actions::dispatch(action, req, payload, state, 0).await;
        }
    }
    resource::detail(req, payload, state, spec, id).await
}

/// `/api/{app}/{model}/{id}/{action}/`: an action on one object.
async fn object_action(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
    app: &str,
    model: &str,
    id: &str,
    name: &str,
) -> Result<HttpResponse, ApiError> {
    let spec = routed(app, model)?;
    let action = actions::find(spec, name, actions::Scope::Object).ok_or(ApiError::NotFound)?;
    let id: i64 = id.parse().map_err(|_| ApiError::NotFound)?;
    actions::dispatch(action, req, payload, state, id).await
}

/// A path without its trailing slash is redirected (302) to the slashed one, query kept;
/// anything else is a JSON 404.
async fn fallback(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let path = req.path();
    if respond::path_below_base(&req).starts_with("/api") && !path.ends_with('/') {
        let mut location = format!("{path}/");
        if !req.query_string().is_empty() {
            location.push('?');
            location.push_str(req.query_string());
        }
        return Ok(HttpResponse::Found()
            .insert_header((header::LOCATION, location))
            .finish());
    }
    Err(ApiError::NotFound)
}

/// A route answering GET and HEAD (as GET, without the body), and other methods with a 405.
fn read_only<F, Args>(path: &str, handler: F) -> actix_web::Resource
where
    F: actix_web::Handler<Args> + Clone,
    Args: actix_web::FromRequest + 'static,
    F::Output: actix_web::Responder + 'static,
{
    web::resource(path)
        .route(web::get().to(handler.clone()))
        .route(web::head().to(handler))
        .default_service(web::to(method_not_allowed))
}

async fn method_not_allowed(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::MethodNotAllowed(req.method().to_string()))
}

/// Cross-origin requests for the origins of `PEERING_CORS_ORIGINS`; `None` when there
/// are none. Tokens travel in a header, so no cookie is ever sent across origins.
fn cors(settings: &Settings) -> Option<actix_cors::Cors> {
    if settings.cors_origins.is_empty() {
        return None;
    }
    let mut cors = actix_cors::Cors::default()
        .allowed_methods(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"])
        // What the API reads, and what browsers' and the reference's clients send with
        // it: a preflight naming a header not listed is refused whole (400).
        .allowed_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::ACCEPT,
            header::ACCEPT_LANGUAGE,
            header::CONTENT_LANGUAGE,
            header::IF_MATCH,
            header::IF_NONE_MATCH,
            header::HeaderName::from_static("x-csrftoken"),
            header::HeaderName::from_static("x-requested-with"),
            header::HeaderName::from_static("x-request-id"),
        ])
        .expose_headers(["API-Version", "X-Request-ID", "ETag"])
        .max_age(3600);
    for origin in &settings.cors_origins {
        cors = if origin == "*" {
            cors.allow_any_origin()
        } else {
            cors.allowed_origin(origin)
        };
    }
    Some(cors)
}

/// A scope for routes below `prefix` (fixed, without a trailing slash) whose patterns have
/// variables: actix matches such a pattern with a regular expression, run over the path of
/// every request that reaches it, where a scope's fixed prefix is compared first (the three
/// patterns with a variable took 4% of a cached list page's time in front of a scope). What
/// the scope's routes do not take goes on to the generic routes, as it did without it.
pub(crate) fn routes_below(prefix: &str) -> actix_web::Scope {
    web::scope(prefix).default_service(web::to(dispatch))
}

/// Registers every route of the API on an actix app.
pub fn configure(cfg: &mut web::ServiceConfig, state: AppState) {
    let cors = cors(&state.settings);
    let base_path = state.settings.base_path.clone();
    cfg.app_data(web::Data::new(state)).service(
        web::scope(&base_path)
            .wrap(from_fn(pages::browsable::middleware))
            .wrap(from_fn(headers::request_limits))
            .wrap(from_fn(headers::request_headers))
            .wrap(from_fn(access::observe))
            .wrap(actix_web::middleware::Condition::new(
                cors.is_some(),
                cors.unwrap_or_default(),
            ))
            .service(read_only("/healthz", health::healthz))
            .service(read_only("/readyz", health::readyz))
            .service(read_only("/metrics", metrics::guarded))
            .configure(pages::configure)
            .service(read_only("/api/", root::api_root))
            .service(read_only("/api/status/", root::status))
            // Before the generic routes, which would take `schema` and `docs` for apps.
            .configure(openapi::configure)
            .service(
                routes_below("/api/users/tokens")
                    .route("/", web::route().to(tokens::collection))
                    .route("/provision/", web::route().to(tokens::provision))
                    .route("/{id}/", web::route().to(tokens::detail)),
            )
            .route("/api/users/userpref/", web::route().to(tokens::preferences))
            // `/api/{app}/…`, then the fallback (`api_path.rs`).
            .default_service(web::to(dispatch)),
    );
}
