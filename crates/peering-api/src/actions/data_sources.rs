//! `POST data-sources/{id}/synchronise/` (and `sync/`): 202 with the synchronisation's job.

use actix_web::HttpResponse;
use peering_domain::resources::DATA_SOURCE;

use super::Call;
use crate::error::ApiError;

/// A job synchronising the source (404 if there is none), in the caller's name.
pub async fn synchronise(call: Call) -> Result<HttpResponse, ApiError> {
    super::enqueue_on_object(
        call,
        &DATA_SOURCE,
        peering_app::jobs::SYNCHRONISE_DATA_SOURCE,
    )
    .await
}
