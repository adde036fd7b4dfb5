//! Internet exchange actions that use the local PeeringDB copy: linking the exchange to
//! its PeeringDB LAN, the networks there not yet peered with, importing sessions for them
//! (a job), and the LAN's prefixes.

use actix_web::{web, HttpRequest, HttpResponse};
use peering_app::exchanges;
use peering_domain::bodies::ExchangePrefixes;
use peering_domain::resources::{INTERNET_EXCHANGE, PDB_NETWORK_IXLAN};
use peering_domain::{Record, ResourceSpec};
use peering_store::Related;

use super::{typed_response, Call};
use crate::error::ApiError;
use crate::respond::{base_url, respond_text};
use peering_app::jobs::{IMPORT_PEERINGDB_SESSIONS, IMPORT_SESSIONS};
use peering_represent::{Renderer, SecretView};

/// `POST internet-exchanges/{id}/link-to-peeringdb/`: links the exchange's connections to
/// the PeeringDB records listing their addresses, then the exchange to their LAN; the
/// exchange as it now is, or 503 when PeeringDB lists none of its connections.
pub async fn link_to_peeringdb(call: Call) -> Result<HttpResponse, ApiError> {
    let Call {
        req,
        state,
        caller,
        id,
        ..
    } = call;
    super::existing(&state, &INTERNET_EXCHANGE, id).await?;
    let ctx = crate::resource::change_context(&req, &caller);
    let store = state.store.clone();
    let lan =
        web::block(move || peering_peeringdb::follow::link_exchange(&store, id, &ctx)).await??;
    if lan.is_none() {
        return Err(ApiError::Unavailable(
            "PeeringDB lists none of the exchange's connections (by their addresses): nothing to link to.".into(),
        ));
    }
    let store = state.store.clone();
    let (record, related) = web::block(move || store.get(&INTERNET_EXCHANGE, id))
        .await??
        .ok_or(ApiError::NotFound)?;
    Ok(objects_response(
        &req,
        &INTERNET_EXCHANGE,
        &[record],
        &related,
        false,
    ))
}

/// `GET internet-exchanges/{id}/available-peers/`: PeeringDB's records of networks on
/// the exchange's LAN with an address no session uses yet, by AS number (`[]` when the
/// exchange is not linked). Not paginated, as the reference.
pub async fn available_peers(call: Call) -> Result<HttpResponse, ApiError> {
    let Call { req, state, id, .. } = call;
    let store = state.store.clone();
    let (records, related) = web::block(move || exchanges::available_peers(&store, id))
        .await??
        .ok_or(ApiError::NotFound)?;
    Ok(objects_response(
        &req,
        &PDB_NETWORK_IXLAN,
        &records,
        &related,
        true,
    ))
}

/// `POST internet-exchanges/{id}/import-sessions/`: a job creating the sessions the
/// connected routers run at the exchange.
pub async fn import_sessions(call: Call) -> Result<HttpResponse, ApiError> {
    import(call, IMPORT_SESSIONS).await
}

/// `POST internet-exchanges/{id}/import-peeringdb-sessions/`: a job creating the sessions
/// of the available peers PeeringDB lists.
pub async fn import_peeringdb_sessions(call: Call) -> Result<HttpResponse, ApiError> {
    import(call, IMPORT_PEERINGDB_SESSIONS).await
}

async fn import(call: Call, job_name: &str) -> Result<HttpResponse, ApiError> {
    super::enqueue_on_object(call, &INTERNET_EXCHANGE, job_name).await
}

/// `GET internet-exchanges/{id}/prefixes/`: the LAN's prefixes by family, a key only for a
/// family that has some (`{}` when the exchange is not linked).
pub async fn prefixes(call: Call) -> Result<HttpResponse, ApiError> {
    let Call { req, state, id, .. } = call;
    let store = state.store.clone();
    let prefixes = web::block(move || exchanges::lan_prefixes(&store, id))
        .await??
        .ok_or(ApiError::NotFound)?;
    typed_response(&req, &ExchangePrefixes::of(&prefixes))
}

/// Objects in their complete form: a list, or the first alone.
pub(super) fn objects_response(
    req: &HttpRequest,
    spec: &'static ResourceSpec,
    records: &[Record],
    related: &Related,
    list: bool,
) -> HttpResponse {
    let base = base_url(req);
    let renderer = Renderer {
        related,
        base: &base,
        show_secrets: SecretView::Hidden,
        names: crate::respond::field_names(req),
        layout: crate::respond::layout(req),
    };
    let mut body = String::new();
    match records {
        [one] if !list => renderer.full(&mut body, spec, one),
        _ => renderer.many(&mut body, spec, records, false),
    }
    respond_text(req, actix_web::http::StatusCode::OK, body)
}
