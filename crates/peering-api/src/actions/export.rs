//! Export templates: rendered as a job, at once, or over a list (`?export=<name>`).

use actix_web::http::header::{self, ContentType};
use actix_web::{web, HttpResponse};
use peering_domain::bodies::RenderedExport;
use peering_domain::resources::EXPORT_TEMPLATE;
use peering_domain::ResourceSpec;
use peering_filter::Filter;
use serde_json::json;

use super::routers::enqueue;
use super::viewer_of;
use super::{existing, typed_response, Call};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::AppState;
use peering_app::jobs::{self, new_job};

/// `GET export-templates/{id}/render/`: a job rendering it over all its objects.
pub async fn render_job(call: Call) -> Result<HttpResponse, ApiError> {
    let Call {
        req,
        state,
        caller,
        id,
        ..
    } = call;
    let user = caller.require_user()?;
    existing(&state, &EXPORT_TEMPLATE, id).await?;
    let job = new_job(
        jobs::RENDER_EXPORT,
        ("extras.exporttemplate", id),
        Some(user.id),
        &viewer_of(&caller, &state),
    );
    enqueue(&req, &state, job).await
}

/// `GET export-templates/{id}/render-synchronous/`: `{"rendered": text}`.
pub async fn render_now(call: Call) -> Result<HttpResponse, ApiError> {
    let Call {
        req,
        state,
        caller,
        id,
        ..
    } = call;
    let viewer = viewer_of(&caller, &state);
    let work = state.work.clone();
    let place = state.inline_renders.enter().await?;
    let rendered = web::block(move || {
        let _place = place;
        work.export(id, None, &viewer)
    })
    .await??;
    typed_response(&req, &RenderedExport { rendered })
}

/// The export template of this resource named `name`, by id; a 400 naming what exists
/// when there is none.
fn template_named(
    store: &peering_store::Store,
    spec: &'static ResourceSpec,
    name: &str,
) -> Result<i64, ApiError> {
    let content_type = spec.content_type();
    let templates = store.everything(&EXPORT_TEMPLATE)?;
    let mine: Vec<_> = templates
        .iter()
        .filter(|t| t.text(&EXPORT_TEMPLATE, "content_type") == content_type)
        .collect();
    if let Some(found) = mine
        .iter()
        .find(|t| t.text(&EXPORT_TEMPLATE, "name") == name)
    {
        return Ok(found.id);
    }
    let known: Vec<&str> = mine
        .iter()
        .map(|t| t.text(&EXPORT_TEMPLATE, "name"))
        .collect();
    Err(ApiError::BadRequest(json!({"export": [format!(
        "No export template named {name:?} for {}; known: {known:?}.",
        spec.verbose_name
    )]})))
}

/// `?export=<name>` on a list: that export template over the filtered list, as an
/// attachment.
pub async fn list(
    state: &AppState,
    caller: &Caller,
    spec: &'static ResourceSpec,
    name: String,
    filter: Filter,
) -> Result<HttpResponse, ApiError> {
    caller.require_read(state, Some(&EXPORT_TEMPLATE))?;
    let viewer = viewer_of(caller, state);
    let (store, work) = (state.store.clone(), state.work.clone());
    let place = state.inline_renders.enter().await?;
    let rendered = web::block(move || {
        let _place = place;
        let template = template_named(&store, spec, &name)?;
        let ids = store.list_ids(spec, &filter)?;
        let text = work.export(template, Some(&ids), &viewer)?;
        Ok::<_, ApiError>((name, text))
    })
    .await??;
    let (name, text) = rendered;
    let file: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    Ok(HttpResponse::Ok()
        .content_type(ContentType::plaintext())
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{file}.txt\""),
        ))
        .body(text))
}
