//! `POST autonomous-systems/{id}/generate-email/` `{"email": id}`: an e-mail template
//! rendered for a peer, with the reference's context.

use actix_web::{web, HttpResponse};
use peering_domain::resources::AUTONOMOUS_SYSTEM;
use serde_json::{json, Value as Json};

use super::routers::SMALL_BODY;
use super::{existing, json_response, Call};
use crate::body::read_json;
use crate::error::ApiError;
use crate::work::secrets_for;

pub async fn generate_email(call: Call) -> Result<HttpResponse, ApiError> {
    let Call {
        req,
        payload,
        state,
        caller,
        id,
        ..
    } = call;
    caller.require_read(&state, Some(&AUTONOMOUS_SYSTEM))?;
    existing(&state, &AUTONOMOUS_SYSTEM, id).await?;
    let (body, _turn) = read_json(payload, &state, SMALL_BODY).await?;
    let email = match body.get("email") {
        None | Some(Json::Null) => {
            return Err(ApiError::BadRequest(
                json!({"email": ["This field is required."]}),
            ))
        }
        Some(value) => value.as_i64().ok_or_else(|| {
            ApiError::BadRequest(json!({"email": ["A valid integer is required."]}))
        })?,
    };
    let secrets = secrets_for(&caller);
    let work = state.work.clone();
    let (subject, body) = web::block(move || work.email(id, email, &secrets)).await??;
    Ok(json_response(
        &req,
        json!({"subject": subject, "body": body}),
    ))
}
