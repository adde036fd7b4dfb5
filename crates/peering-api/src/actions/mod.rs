//! Actions beyond reading and writing objects: rendering a router's configuration, an
//! e-mail or an export, jobs, talking to routers. Each is declared once in
//! `peering_openapi::actions`, on its resource, with what its caller needs; here is its
//! handler (`handlers.rs`), served wherever that resource is routed after the caller is
//! checked (`check`).

mod autonomous_systems;
mod data_sources;
mod exchanges;
pub mod export;
mod handlers;
mod messaging;
mod peeringdb_cache;
mod peeringdb_networks;
mod routers;
mod sessions;

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use peering_domain::resources::JOB;
use peering_domain::ResourceSpec;
use serde_json::json;

use peering_auth::Access;

use crate::auth::{Caller, NOT_PROVIDED, NO_PERMISSION};
use crate::error::ApiError;
use crate::respond::{base_url, respond, respond_text};
use crate::AppState;
use peering_app::WorkError;
use peering_represent::{Renderer, SecretView};

pub use handlers::{handler, Handler, Served, HANDLERS};
pub use peering_openapi::actions::{
    find, find_under, Action, Answer, Grant, Needs, Scope, ACTIONS,
};

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
    // Every declared action has a handler (`handlers.rs`'s test); were one missing, the
    // action would not be served rather than the server fail.
    let handler = handler(action).ok_or(ApiError::NotFound)?;
    let caller = crate::auth::authenticate(&req, &state).await?;
    check(action.needs, &caller, &state, action.spec)?;
    let call = Call {
        req,
        payload,
        state,
        caller,
        spec: action.spec,
        id,
    };
    handler(call).await
}

/// The 403 for a caller who does not qualify for what an action needs.
pub fn check(
    needs: Needs,
    caller: &Caller,
    state: &AppState,
    reached: &ResourceSpec,
) -> Result<(), ApiError> {
    match needs {
        Needs::Read(specs) => specs
            .iter()
            .try_for_each(|spec| caller.require_read(state, Some(spec))),
        Needs::Hold(grants) => {
            let user = caller.require_user()?;
            let writes = needs.writes();
            let held =
                |grant: &Grant| user.superuser || user.permissions.contains(&grant.name(reached));
            if !grants.iter().all(held) || (writes && user.access != Access::ReadWrite) {
                return Err(ApiError::Forbidden(NO_PERMISSION.into()));
            }
            Ok(())
        }
        Needs::Staff { write } => match &caller.user {
            None => Err(ApiError::Forbidden(NOT_PROVIDED.into())),
            Some(user)
                if (user.staff || user.superuser)
                    && (!write || user.access == Access::ReadWrite) =>
            {
                Ok(())
            }
            Some(_) => Err(ApiError::Forbidden(NO_PERMISSION.into())),
        },
    }
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
        layout: crate::respond::layout(req),
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
            WorkError::Router(message) | WorkError::Email(message) => {
                ApiError::Unavailable(message)
            }
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

/// 202 with a job named `job_name` on the object of `spec` the call names (404 if there is
/// none), in the caller's name, rendering nothing.
pub(crate) async fn enqueue_on_object(
    call: Call,
    spec: &'static ResourceSpec,
    job_name: &str,
) -> Result<HttpResponse, ApiError> {
    let Call {
        req,
        state,
        caller,
        id,
        ..
    } = call;
    let user = caller.require_user()?;
    existing(&state, spec, id).await?;
    let job = peering_app::jobs::new_job(
        job_name,
        (&spec.content_type(), id),
        Some(user.id),
        &peering_app::Viewer::default(),
    );
    routers::enqueue(&req, &state, job).await
}

pub(crate) fn json_response(req: &HttpRequest, body: serde_json::Value) -> HttpResponse {
    respond(req, StatusCode::OK, &body)
}

/// 200 with a typed body (`peering_domain::bodies`), written as `json_response` writes a
/// value: members in the type's order, no spaces.
pub(crate) fn typed_response(
    req: &HttpRequest,
    body: &impl serde::Serialize,
) -> Result<HttpResponse, ApiError> {
    let text = serde_json::to_string(body)
        .map_err(|e| ApiError::Internal(format!("an action's answer: {e}")))?;
    Ok(respond_text(req, StatusCode::OK, text))
}
