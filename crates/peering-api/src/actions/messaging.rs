//! `POST autonomous-systems/{id}/generate-email/` `{"email": id}`: an e-mail template
//! rendered for a peer, with the reference's context; `send-email/` sends it (a job).

use actix_web::{web, HttpResponse};
use peering_app::jobs::{self, new_job};
use peering_domain::bodies::{EmailToRender, EmailToSend, RenderedEmail};
use serde_json::json;

use super::routers::{enqueue, SMALL_BODY};
use super::viewer_of;
use super::{existing, typed_response, Call};
use crate::body::read_json;
use crate::error::ApiError;

/// What the 503 says when no SMTP server is set.
const NO_SERVER: &str =
    "E-mails cannot be sent: no SMTP server is set (PEERING_EMAIL_SERVER, see README \"E-mail\").";

pub async fn generate_email(call: Call) -> Result<HttpResponse, ApiError> {
    let Call {
        req,
        payload,
        state,
        caller,
        id,
        ..
    } = call;
    let (body, _turn) = read_json(&req, payload, &state, SMALL_BODY).await?;
    let EmailToRender { email } = EmailToRender::from_json(&body).map_err(ApiError::BadRequest)?;
    let viewer = viewer_of(&caller, &state);
    let version = crate::resource::data_version(&state).await?;
    let (work, place) = (state.work.clone(), state.inline_renders.enter().await?);
    let (subject, body) = web::block(move || {
        let _place = place;
        work.email(id, email, &viewer, Some(version))
    })
    .await??;
    typed_response(&req, &RenderedEmail { subject, body })
}

/// `POST autonomous-systems/{id}/send-email/` `{"email": id, "recipients": […], "cc": […]}`:
/// 202 with a job that renders the template for the caller, sends it and records it in
/// the autonomous system's journal. 404 for no such system, 503 without an SMTP server,
/// then 400 for a body that cannot be sent (checked here, before the job).
pub async fn send_email(call: Call) -> Result<HttpResponse, ApiError> {
    let Call {
        req,
        payload,
        state,
        caller,
        id,
        spec,
    } = call;
    let user = caller.require_user()?.id;
    existing(&state, spec, id).await?;
    if !state.settings.email.configured() {
        return Err(ApiError::Unavailable(NO_SERVER.into()));
    }
    let (body, _turn) = read_json(&req, payload, &state, SMALL_BODY).await?;
    let request = EmailToSend::from_json(&body).map_err(ApiError::BadRequest)?;
    let viewer = viewer_of(&caller, &state);
    let store = state.store.clone();
    let checked_viewer = viewer.clone();
    let request =
        web::block(move || peering_app::email::check(&store, id, request, &checked_viewer))
            .await??;
    let mut job = new_job(
        jobs::SEND_EMAIL,
        (spec.content_type().as_str(), id),
        Some(user),
        &viewer,
    );
    job.params["email"] = json!(request.email);
    job.params["recipients"] = json!(request.recipients);
    job.params["cc"] = json!(request.cc);
    enqueue(&req, &state, job).await
}
