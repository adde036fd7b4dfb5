//! Actions beyond reading and writing objects: rendering a router's configuration, an
//! e-mail or an export, jobs, talking to routers. Each is declared once here, on its
//! resource, and served wherever that resource is routed.

mod autonomous_systems;
mod declared;
mod exchanges;
pub mod export;
mod messaging;
pub mod needs;
mod peeringdb_cache;
mod peeringdb_networks;
mod routers;
mod sessions;

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use futures_util::future::LocalBoxFuture;
use peering_domain::resources::JOB;
use peering_domain::ResourceSpec;
use serde_json::json;

use crate::auth::Caller;
use crate::error::ApiError;
use crate::render::{Renderer, SecretView};
use crate::respond::{base_url, respond, respond_text};
use crate::AppState;
use peering_app::WorkError;

pub use declared::ACTIONS;
pub use needs::{Grant, Needs};

/// Whether an action is on one object (`…/{id}/name/`) or on the collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Object,
    Collection,
    /// Served under another name of the resource's application, as the reference's
    /// viewsets without a model (`/api/peeringdb/cache/statistics/`).
    Under(&'static str),
}

/// What a handler is given.
pub struct Call {
    pub req: HttpRequest,
    pub payload: web::Payload,
    pub state: web::Data<AppState>,
    pub caller: Caller,
    /// The resource the action was reached through.
    pub spec: &'static ResourceSpec,
    /// The object's id, for actions on one object.
    pub id: i64,
}

pub type Handler = fn(Call) -> LocalBoxFuture<'static, Result<HttpResponse, ApiError>>;

/// What an action answers with, for its OpenAPI description.
#[derive(Debug, Clone, Copy)]
pub enum Answer {
    /// The job enqueued (`Job`).
    Job,
    /// The jobs enqueued.
    Jobs,
    /// Plain text.
    Text,
    /// A component of the document.
    Schema(&'static str),
    /// A list of a component.
    ListOf(&'static str),
    /// A resource's object, in its complete form.
    Object(fn() -> &'static ResourceSpec),
    /// A list of a resource's objects, in their complete form (not paginated).
    Objects(fn() -> &'static ResourceSpec),
    /// No body.
    Empty,
}

/// One action, declared once: where it is, what it takes and answers, and its handler.
pub struct Action {
    pub spec: &'static ResourceSpec,
    pub name: &'static str,
    pub scope: Scope,
    /// `GET` or `POST`.
    pub method: &'static str,
    pub summary: &'static str,
    /// The component of its JSON body, if it takes one.
    pub body: Option<&'static str>,
    /// Its query parameters: name and description.
    pub query: &'static [(&'static str, &'static str)],
    /// Its answers besides the errors every action may give (403, 404, 503).
    pub answers: &'static [(u16, &'static str, Answer)],
    /// What its caller must be or hold, checked before anything else.
    pub needs: Needs,
    pub handler: Handler,
}

/// The members of `cache/statistics/`, as the reference names them.
pub const CACHE_COUNTS: &[&str] = &[
    "campus-count",
    "carrier-count",
    "carrierfac-count",
    "fac-count",
    "ix-count",
    "ixfac-count",
    "ixlan-count",
    "ixpfx-count",
    "net-count",
    "poc-count",
    "netfac-count",
    "netixlan-count",
    "org-count",
    "sync-count",
];

/// The action of a resource by name and scope.
pub fn find(spec: &ResourceSpec, name: &str, scope: Scope) -> Option<&'static Action> {
    ACTIONS
        .iter()
        .find(|a| a.spec.table == spec.table && a.name == name && a.scope == scope)
}

/// The action served at `/api/{app}/{segment}/{name}/` (`Scope::Under`).
pub fn find_under(app: &str, segment: &str, name: &str) -> Option<&'static Action> {
    ACTIONS.iter().find(|a| {
        a.spec.app == app && matches!(a.scope, Scope::Under(s) if s == segment) && a.name == name
    })
}

/// Runs an action: the method must be the action's, and the caller must qualify before the
/// handler runs (so a refusal comes before a 404, a 400 or a missing setting's 503).
pub async fn dispatch(
    action: &'static Action,
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
    id: i64,
) -> Result<HttpResponse, ApiError> {
    let method = req.method().as_str();
    let allowed = method == action.method || (action.method == "GET" && method == "HEAD");
    if !allowed {
        return Err(ApiError::MethodNotAllowed(method.to_string()));
    }
    let caller = crate::auth::authenticate(&req, &state).await?;
    action.needs.check(&caller, &state, action.spec)?;
    let call = Call {
        req,
        payload,
        state,
        caller,
        spec: action.spec,
        id,
    };
    (action.handler)(call).await
}

/// 202 with the job just enqueued, as `/api/core/jobs/{id}/` shows it to its owner.
pub(crate) async fn accepted(
    req: &HttpRequest,
    state: &AppState,
    job: i64,
) -> Result<HttpResponse, ApiError> {
    let body = job_json(req, state, job).await?;
    Ok(respond_text(req, StatusCode::ACCEPTED, body))
}

pub(crate) async fn job_json(
    req: &HttpRequest,
    state: &AppState,
    job: i64,
) -> Result<String, ApiError> {
    let store = state.store.clone();
    let (record, related) = web::block(move || store.get(&JOB, job))
        .await??
        .ok_or(ApiError::NotFound)?;
    let base = base_url(req);
    let renderer = Renderer {
        related: &related,
        base: &base,
        show_secrets: SecretView::Shown,
        names: state.settings.field_names,
    };
    let mut body = String::new();
    renderer.full(&mut body, &JOB, &record);
    Ok(body)
}

/// How failed work is answered: a missing object 404, a template that fails 400 with what
/// went wrong and where.
impl From<WorkError> for ApiError {
    fn from(e: WorkError) -> ApiError {
        match e {
            WorkError::NotFound(_) => ApiError::NotFound,
            WorkError::Render(e) => {
                let at = e.line.map(|l| format!(" (line {l})")).unwrap_or_default();
                ApiError::BadRequest(
                    json!({"detail": format!("The template failed{at}: {}", e.message)}),
                )
            }
            WorkError::Store(e) => e.into(),
            WorkError::Router(message) => ApiError::Unavailable(message),
        }
    }
}

/// Whom a render is for: what the caller may read through the API, as lists and objects
/// apply view permissions, and the secrets of what they may change.
pub(crate) fn viewer_of(caller: &Caller, state: &AppState) -> peering_app::Viewer {
    let names = |keep: &dyn Fn(&ResourceSpec) -> bool| {
        peering_domain::resources::ALL
            .iter()
            .filter(|spec| keep(spec))
            .map(|spec| spec.content_type())
            .collect()
    };
    peering_app::Viewer {
        readable: names(&|spec| caller.may_view(state, spec)),
        secrets: names(&|spec| caller.may(peering_domain::permission::Action::Change, spec)),
        user: caller.user.as_ref().map(|u| u.id),
    }
}

/// The id of an object of `spec` if it exists, else a 404.
pub(crate) async fn existing(
    state: &AppState,
    spec: &'static ResourceSpec,
    id: i64,
) -> Result<(), ApiError> {
    let store = state.store.clone();
    match web::block(move || store.get(spec, id)).await?? {
        Some(_) => Ok(()),
        None => Err(ApiError::NotFound),
    }
}

pub(crate) fn json_response(req: &HttpRequest, body: serde_json::Value) -> HttpResponse {
    respond(req, StatusCode::OK, &body)
}
