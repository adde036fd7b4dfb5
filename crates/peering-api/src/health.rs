//! Probes for process managers and load balancers: `/healthz` (the process answers) and
//! `/readyz` (the database answers and is migrated). Neither needs a token, even with
//! `LOGIN_REQUIRED`, and neither says more than that.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use serde_json::json;

use crate::AppState;

pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(json!({"status": "ok"}))
}

pub async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    let store = state.store.clone();
    let ready = web::block(move || store.upkeep().ready()).await;
    let (status, body) = match ready {
        Ok(Ok(true)) => (StatusCode::OK, json!({"status": "ready"})),
        Ok(Ok(false)) => (
            StatusCode::SERVICE_UNAVAILABLE,
            json!({"status": "unavailable", "detail": "Migrations are pending."}),
        ),
        Ok(Err(e)) => {
            log::warn!("readiness: {e}");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                json!({"status": "unavailable", "detail": "The database is unavailable."}),
            )
        }
        Err(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            json!({"status": "unavailable", "detail": "The server is overloaded."}),
        ),
    };
    HttpResponse::build(status).json(body)
}
