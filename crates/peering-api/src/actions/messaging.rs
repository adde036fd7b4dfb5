//! `POST autonomous-systems/{id}/generate-email/` `{"email": id}`: an e-mail template
//! rendered for a peer, with the reference's context.

use actix_web::{web, HttpResponse};
use peering_domain::bodies::{EmailToRender, RenderedEmail};

use super::routers::SMALL_BODY;
use super::viewer_of;
use super::{typed_response, Call};
use crate::body::read_json;
use crate::error::ApiError;

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
