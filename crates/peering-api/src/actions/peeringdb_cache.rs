//! `/api/peeringdb/cache/…`: the local PeeringDB copy's statistics, a synchronisation
//! (a job) and emptying it, for staff, as the reference's cache management.

use actix_web::{web, HttpResponse};
use serde_json::json;

use super::{typed_response, Call};
use crate::error::ApiError;
use peering_app::jobs::SYNCHRONISE_PEERINGDB;
use peering_domain::bodies::{CacheCleared, CacheStatistics};

/// `GET cache/statistics/`: how many objects of each type the copy holds (`net-count`, …)
/// and how many synchronisations it has had (`sync-count`). Types the copy does not keep
/// (carriers) count 0.
pub async fn statistics(call: Call) -> Result<HttpResponse, ApiError> {
    let store = call.state.store.clone();
    let counts = web::block(move || store.peeringdb().counts()).await??;
    typed_response(&call.req, &CacheStatistics::from_counts(&counts))
}

/// `POST cache/update-local/`: a job that synchronises the copy, then updates the peering
/// data from it (links, autonomous systems).
pub async fn update_local(call: Call) -> Result<HttpResponse, ApiError> {
    let user = call.caller.require_user()?.id;
    let job = peering_store::NewJob {
        name: SYNCHRONISE_PEERINGDB.into(),
        object: None,
        user_id: Some(user),
        params: json!({}),
    };
    super::routers::enqueue(&call.req, &call.state, job).await
}

/// `POST cache/clear-local/`: empties the copy (exchanges and connections unlinked first).
pub async fn clear_local(call: Call) -> Result<HttpResponse, ApiError> {
    let store = call.state.store.clone();
    web::block(move || store.peeringdb().clear()).await??;
    let cleared = CacheCleared {
        status: "success".into(),
    };
    typed_response(&call.req, &cleared)
}
