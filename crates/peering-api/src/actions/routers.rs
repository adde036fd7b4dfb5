//! Router actions: the configuration (a job, or the text at once), and what goes through
//! the router command (polling sessions, testing the connection, pushing configurations).

use actix_web::http::header::{self, ContentType};
use actix_web::{web, HttpRequest, HttpResponse};
use peering_domain::bodies::{Detail, RoutersToConfigure};
use peering_domain::resources::ROUTER;
use serde_json::json;

use super::{accepted, existing, Call};
use crate::body::read_json;

/// The largest body an action takes: a few ids or fields.
pub(super) const SMALL_BODY: usize = 64 * 1024;
use super::viewer_of;
use crate::error::ApiError;
use crate::AppState;
use peering_app::jobs::{self, new_job};
use peering_app::router::{Ask, Reach, NO_COMMAND};

/// Whether the client wants the text itself: `?format=text` or `Accept: text/plain`.
fn wants_text(req: &HttpRequest) -> bool {
    let query = req.query_string();
    let format_text = query
        .split('&')
        .any(|pair| pair == "format=text" || pair == "format=txt");
    let accept = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/plain"));
    format_text || accept
}

/// `GET routers/{id}/configuration/`: 202 with a job rendering it, or 200 with the text.
pub async fn configuration(call: Call) -> Result<HttpResponse, ApiError> {
    let Call {
        req,
        state,
        caller,
        id,
        ..
    } = call;
    let user = caller.require_user()?;
    let viewer = viewer_of(&caller, &state);
    if wants_text(&req) {
        let version = crate::resource::data_version(&state).await?;
        let (work, place) = (state.work.clone(), state.inline_renders.enter().await?);
        let text = web::block(move || {
            let _place = place;
            work.router_configuration(id, &viewer, Some(version))
        })
        .await??;
        return Ok(HttpResponse::Ok()
            .content_type(ContentType::plaintext())
            .body(text));
    }
    existing(&state, &ROUTER, id).await?;
    let job = new_job(
        jobs::GENERATE_CONFIGURATION,
        ("peering.router", id),
        Some(user.id),
        &viewer,
    );
    enqueue(&req, &state, job).await
}

pub(super) async fn enqueue(
    req: &HttpRequest,
    state: &AppState,
    job: peering_store::NewJob,
) -> Result<HttpResponse, ApiError> {
    let queue = state.jobs.clone();
    let id = web::block(move || queue.enqueue(&job)).await??;
    accepted(req, state, id).await
}

/// 202 with the jobs enqueued, in order (maybe none: `[]`).
async fn enqueue_all(
    req: &HttpRequest,
    state: &AppState,
    jobs: Vec<peering_store::NewJob>,
) -> Result<HttpResponse, ApiError> {
    let mut bodies = Vec::new();
    for job in jobs {
        let queue = state.jobs.clone();
        let id = web::block(move || queue.enqueue(&job)).await??;
        bodies.push(super::job_json(req, state, id).await?);
    }
    let body = format!("[{}]", bodies.join(","));
    Ok(crate::respond::respond_text(
        req,
        actix_web::http::StatusCode::ACCEPTED,
        body,
    ))
}

/// 503 saying what to configure unless one of `routers` can be reached: driven by
/// peeringd, or through the router command. Nothing pretends to have talked to a router.
async fn reachable(state: &AppState, routers: Vec<i64>) -> Result<(), ApiError> {
    let (work, command) = (state.work.clone(), state.settings.router_command.clone());
    let reaches = web::block(move || {
        routers
            .into_iter()
            .map(|router| work.reach(router, &command))
            .collect::<Result<Vec<_>, _>>()
    })
    .await??;
    if reaches.iter().all(|reach| *reach == Reach::Nowhere) {
        return Err(ApiError::Unavailable(NO_COMMAND.into()));
    }
    Ok(())
}

/// `POST routers/{id}/poll-bgp-sessions/`: a job polling the router's sessions.
pub async fn poll_sessions(call: Call) -> Result<HttpResponse, ApiError> {
    let Call {
        req,
        state,
        caller,
        id,
        ..
    } = call;
    let user = caller.require_user()?;
    existing(&state, &ROUTER, id).await?;
    reachable(&state, vec![id]).await?;
    let job = new_job(
        jobs::POLL_SESSIONS,
        ("peering.router", id),
        Some(user.id),
        &peering_app::Viewer::default(),
    );
    enqueue(&req, &state, job).await
}

/// `POST {autonomous-systems,bgp-groups,internet-exchanges}/{id}/poll-bgp-sessions/`: a
/// job polling each router that holds sessions of the object (maybe none: `[]`).
pub async fn poll_routers_of(call: Call) -> Result<HttpResponse, ApiError> {
    let Call {
        req,
        state,
        caller,
        id,
        spec,
        ..
    } = call;
    let user = caller.require_user()?.id;
    existing(&state, spec, id).await?;
    let work = state.work.clone();
    let routers = web::block(move || work.routers_of(spec, id)).await??;
    if state.settings.router_command.is_empty() {
        reachable(&state, routers.clone()).await?;
    }
    let jobs = routers
        .into_iter()
        .map(|router| {
            new_job(
                jobs::POLL_SESSIONS,
                ("peering.router", router),
                Some(user),
                &peering_app::Viewer::default(),
            )
        })
        .collect();
    enqueue_all(&req, &state, jobs).await
}

/// `POST …-peering-sessions/{id}/poll/`: polls the session's router now, and records what
/// it reports.
pub async fn poll_session(call: Call) -> Result<HttpResponse, ApiError> {
    let Call {
        req,
        state,
        caller,
        id,
        spec,
        ..
    } = call;
    existing(&state, spec, id).await?;
    let ctx = crate::resource::change_context(&req, &caller);
    let (work, command) = (state.work.clone(), state.settings.router_command.clone());
    let summary = web::block(move || {
        let router = work.router_of_session(spec, id)?.ok_or_else(|| {
            peering_app::WorkError::Router("the session has no router to poll".into())
        })?;
        work.poll_router(&command, router, &ctx)
    })
    .await??;
    super::typed_response(&req, &Detail { detail: summary })
}

/// `GET routers/{id}/test-napalm-connection/`: a job testing the connection.
pub async fn test_connection(call: Call) -> Result<HttpResponse, ApiError> {
    let Call {
        req,
        state,
        caller,
        id,
        ..
    } = call;
    let user = caller.require_user()?.id;
    existing(&state, &ROUTER, id).await?;
    reachable(&state, vec![id]).await?;
    let job = new_job(
        jobs::TEST_CONNECTION,
        ("peering.router", id),
        Some(user),
        &peering_app::Viewer::default(),
    );
    enqueue(&req, &state, job).await
}

/// `POST routers/configure/` `{"routers": [ids], "commit": bool}`: a job per router.
pub async fn configure(call: Call) -> Result<HttpResponse, ApiError> {
    let Call {
        req,
        payload,
        state,
        caller,
        ..
    } = call;
    let user = caller.require_user()?.id;
    let (body, _turn) = read_json(&req, payload, &state, SMALL_BODY).await?;
    let RoutersToConfigure {
        routers,
        commit,
        confirm_within,
    } = RoutersToConfigure::from_json(&body).map_err(ApiError::BadRequest)?;
    let store = state.store.clone();
    // The routers that exist, in one query.
    let (known, _) = web::block(move || store.objects(&ROUTER, &routers, false)).await??;
    if known.is_empty() {
        return Err(ApiError::NotFound);
    }
    reachable(&state, known.iter().map(|router| router.id).collect()).await?;
    let viewer = viewer_of(&caller, &state);
    let jobs = known
        .iter()
        .map(|router| {
            let mut job = new_job(
                jobs::CONFIGURE,
                ("peering.router", router.id),
                Some(user),
                &viewer,
            );
            job.params["commit"] = json!(commit);
            if let Some(seconds) = confirm_within {
                job.params["confirm_within"] = json!(seconds);
            }
            job
        })
        .collect();
    enqueue_all(&req, &state, jobs).await
}

/// `POST routers/{id}/confirm-configuration/`: keeps the configuration committed with
/// `confirm_within`, at once: a job could come after the router rolled it back.
pub async fn confirm_configuration(call: Call) -> Result<HttpResponse, ApiError> {
    let Call { req, state, id, .. } = call;
    existing(&state, &ROUTER, id).await?;
    reachable(&state, vec![id]).await?;
    let (work, command) = (state.work.clone(), state.settings.router_command.clone());
    web::block(move || work.ask_router(&command, id, &Ask::Confirm)).await??;
    let detail = "The router keeps its new configuration.".to_string();
    super::typed_response(&req, &Detail { detail })
}
