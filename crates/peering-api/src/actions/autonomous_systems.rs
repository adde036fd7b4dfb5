//! Autonomous system actions that read: stored prefixes, exchanges shared with us.

use actix_web::{web, HttpResponse};
use peering_domain::resources::AUTONOMOUS_SYSTEM;
use serde_json::{json, Value as Json};

use super::{json_response, Call};
use crate::error::ApiError;

/// `GET autonomous-systems/{id}/as-set-prefixes/`: `{"ipv6": […], "ipv4": […]}` as stored
/// (peeringd does not query IRR databases itself: stored prefixes come from an import).
pub async fn as_set_prefixes(call: Call) -> Result<HttpResponse, ApiError> {
    let Call {
        req,
        state,
        caller,
        id,
        ..
    } = call;
    caller.require_read(&state, Some(&AUTONOMOUS_SYSTEM))?;
    let store = state.store.clone();
    let (record, _) = web::block(move || store.get(&AUTONOMOUS_SYSTEM, id))
        .await??
        .ok_or(ApiError::NotFound)?;
    let stored = match record.get(&AUTONOMOUS_SYSTEM, "prefixes") {
        peering_domain::Value::Json(j) if j.is_object() => j.clone(),
        _ => Json::Null,
    };
    let family = |key: &str| stored.get(key).cloned().unwrap_or_else(|| json!([]));
    Ok(json_response(
        &req,
        json!({"ipv6": family("ipv6"), "ipv4": family("ipv4")}),
    ))
}

/// `GET autonomous-systems/{id}/shared-ixps/`: the exchanges, according to PeeringDB,
/// where this network and the caller's affiliated one (preference `context.as`) both are.
/// Without an affiliated network chosen: 503, as the reference answers.
pub async fn shared_ixps(call: Call) -> Result<HttpResponse, ApiError> {
    let Call {
        req,
        state,
        caller,
        id,
        ..
    } = call;
    caller.require_read(&state, Some(&AUTONOMOUS_SYSTEM))?;
    super::existing(&state, &AUTONOMOUS_SYSTEM, id).await?;
    let affiliated = match &caller.user {
        Some(user) => {
            let store = state.store.clone();
            let user = user.id;
            let preferences = web::block(move || store.preferences(user)).await??;
            preferences["context"]["as"].as_i64()
        }
        None => None,
    };
    if affiliated.is_none() {
        return Err(ApiError::Unavailable(
            "User did not choose an affiliated AS.".into(),
        ));
    }
    // peeringd holds no PeeringDB records yet: no exchange is known to be shared.
    Ok(json_response(&req, json!([])))
}
