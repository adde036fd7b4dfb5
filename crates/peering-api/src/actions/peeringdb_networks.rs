//! `POST /api/peeringdb/networks/render-email/` `{"email", "autonomous_system",
//! "network"}`: an e-mail template rendered for a PeeringDB network from one of our
//! autonomous systems, with the reference's context (`autonomous_systems`: ours, then the
//! network).

use actix_web::{web, HttpResponse};
use peering_domain::bodies::{NetworkEmailToRender, RenderedEmail};
use peering_domain::resources::{AUTONOMOUS_SYSTEM, PDB_NETWORK};
use serde_json::Value as Json;

use super::routers::SMALL_BODY;
use super::viewer_of;
use super::{typed_response, Call};
use crate::body::read_json;
use crate::error::ApiError;
use crate::respond::base_url;
use peering_represent::{Renderer, SecretView};

pub async fn render_email(call: Call) -> Result<HttpResponse, ApiError> {
    let Call {
        req,
        payload,
        state,
        caller,
        ..
    } = call;
    let (body, _turn) = read_json(&req, payload, &state, SMALL_BODY).await?;
    let NetworkEmailToRender {
        email,
        autonomous_system: system,
        network,
    } = NetworkEmailToRender::from_json(&body).map_err(ApiError::BadRequest)?;
    let store = state.store.clone();
    let (record, related) = web::block(move || store.get(&PDB_NETWORK, network))
        .await??
        .ok_or(ApiError::NotFound)?;
    let base = base_url(&req);
    let renderer = Renderer {
        related: &related,
        base: &base,
        show_secrets: SecretView::Hidden,
        names: state.settings.field_names,
        layout: crate::respond::layout(&req),
    };
    let mut text = String::new();
    renderer.full(&mut text, &PDB_NETWORK, &record);
    let network: Json = serde_json::from_str(&text)
        .map_err(|e| ApiError::Internal(format!("a network's representation: {e}")))?;
    super::existing(&state, &AUTONOMOUS_SYSTEM, system).await?;
    let version = crate::resource::data_version(&state).await?;
    let (work, place) = (state.work.clone(), state.inline_renders.enter().await?);
    let viewer = viewer_of(&caller, &state);
    let (subject, body) = web::block(move || {
        let _place = place;
        work.network_email(system, &network, email, &viewer, Some(version))
    })
    .await??;
    typed_response(&req, &RenderedEmail { subject, body })
}
