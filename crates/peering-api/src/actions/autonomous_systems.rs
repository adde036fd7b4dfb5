//! Autonomous system actions: stored prefixes, exchanges and facilities shared with the
//! caller's affiliated network, the synchronisation with PeeringDB, and the refresh of
//! the prefixes from the IRR.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use peering_app::autonomous_systems as peering;
use peering_domain::resources::{AUTONOMOUS_SYSTEM, INTERNET_EXCHANGE, PDB_FACILITY};
use peering_domain::Record;
use peering_peeringdb::follow::{synchronise_autonomous_system, SystemSync};
use peering_store::Related;

use super::{json_response, Call};
use crate::error::ApiError;
use crate::respond::{base_url, respond_text};
use peering_represent::{Renderer, SecretView};

/// `GET autonomous-systems/{id}/as-set-prefixes/`: `{"ipv6": […], "ipv4": […]}` as stored
/// (by `refresh-prefixes/`, `peeringd irr refresh` or an import; never asked of the IRR
/// while the caller waits).
pub async fn as_set_prefixes(call: Call) -> Result<HttpResponse, ApiError> {
    let Call { req, state, id, .. } = call;
    let store = state.store.clone();
    let prefixes = web::block(move || peering::stored_prefixes(&store, id))
        .await??
        .ok_or(ApiError::NotFound)?;
    Ok(json_response(&req, prefixes))
}

/// The caller's affiliated autonomous system, or the 503 the reference answers without
/// one.
async fn affiliated(call: &Call) -> Result<Record, ApiError> {
    let missing = || ApiError::Unavailable("User did not choose an affiliated AS.".into());
    let user = call.caller.user.as_ref().ok_or_else(missing)?.id;
    let store = call.state.store.clone();
    web::block(move || peering::affiliated(&store, user))
        .await??
        .ok_or_else(missing)
}

/// The AS number of an autonomous system, or a 404.
async fn asn_of(call: &Call) -> Result<i64, ApiError> {
    let store = call.state.store.clone();
    let id = call.id;
    web::block(move || peering::asn_of(&store, id))
        .await??
        .ok_or(ApiError::NotFound)
}

/// `GET autonomous-systems/{id}/shared-ixps/`: our exchanges (those of the caller's
/// affiliated network) on a LAN where PeeringDB lists both networks.
pub async fn shared_ixps(call: Call) -> Result<HttpResponse, ApiError> {
    let asn = asn_of(&call).await?;
    let ours = affiliated(&call).await?;
    let store = call.state.store.clone();
    let exchanges = web::block(move || peering::shared_exchanges(&store, asn, &ours)).await??;
    let related = Related::default();
    let base = base_url(&call.req);
    let renderer = Renderer {
        related: &related,
        base: &base,
        show_secrets: SecretView::Hidden,
        names: call.state.settings.field_names,
        layout: crate::respond::layout(&call.req),
    };
    let mut body = String::from("[");
    for (i, exchange) in exchanges.iter().enumerate() {
        if i > 0 {
            body.push(',');
        }
        renderer.subset(
            &mut body,
            &INTERNET_EXCHANGE,
            exchange,
            INTERNET_EXCHANGE.nested,
        );
    }
    body.push(']');
    Ok(respond_text(&call.req, StatusCode::OK, body))
}

/// `GET autonomous-systems/{id}/shared-facilities/`: the facilities where PeeringDB lists
/// both this network and the caller's affiliated one.
pub async fn shared_facilities(call: Call) -> Result<HttpResponse, ApiError> {
    let asn = asn_of(&call).await?;
    let ours = affiliated(&call).await?.int(&AUTONOMOUS_SYSTEM, "asn");
    let store = call.state.store.clone();
    let (facilities, related) =
        web::block(move || peering::shared_facilities(&store, asn, ours)).await??;
    Ok(super::exchanges::objects_response(
        &call.req,
        &PDB_FACILITY,
        &facilities,
        &related,
        true,
    ))
}

/// `POST autonomous-systems/{id}/sync-with-peeringdb/`: copies from the PeeringDB network
/// each field whose flag is set; the autonomous system as it now is (also for a private
/// number, left alone), or 204 when PeeringDB has no such network.
pub async fn sync_with_peeringdb(call: Call) -> Result<HttpResponse, ApiError> {
    let Call {
        req,
        state,
        caller,
        id,
        ..
    } = call;
    let ctx = crate::resource::change_context(&req, &caller);
    let store = state.store.clone();
    let outcome = web::block(move || {
        let Some((system, _)) = store.get(&AUTONOMOUS_SYSTEM, id)? else {
            return Ok(None);
        };
        let outcome = synchronise_autonomous_system(&store, &system, &ctx)?;
        Ok::<_, peering_store::Error>(Some((outcome, store.get(&AUTONOMOUS_SYSTEM, id)?)))
    })
    .await??;
    match outcome {
        None | Some((_, None)) => Err(ApiError::NotFound),
        Some((SystemSync::NotInPeeringDb, _)) => Ok(HttpResponse::NoContent().finish()),
        Some((_, Some((record, related)))) => Ok(super::exchanges::objects_response(
            &req,
            &AUTONOMOUS_SYSTEM,
            &[record],
            &related,
            false,
        )),
    }
}

/// `POST autonomous-systems/{id}/refresh-prefixes/`: a job asking the IRR for the system's
/// prefixes through bgpq4 and storing them.
pub async fn refresh_prefixes(call: Call) -> Result<HttpResponse, ApiError> {
    super::enqueue_on_object(
        call,
        &AUTONOMOUS_SYSTEM,
        peering_app::jobs::REFRESH_PREFIXES,
    )
    .await
}
