//! Writes: create, update and delete, one object or a list, parsed from the body and run
//! on the write lane through `peering_app::edits` (which applies the write rules); the
//! objects written, as the answer.

use actix_web::http::header::{HeaderValue, LOCATION};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};
use peering_app::edits::default_to_user;
use peering_domain::input::{self, Draft, Mode};
use peering_domain::{FieldErrors, Record, ResourceSpec};
use peering_store::Related;
use serde_json::{json, Map, Value as Json};

use super::change_context;
use super::items::{item_ids, listed, ItemErrors};
use crate::auth::Caller;
use crate::body::{item, Items};
use crate::error::ApiError;
use crate::respond::{base_url, respond_text};
use crate::AppState;
use peering_represent::{Renderer, SecretView};

/// After a write to users or groups, permissions and statuses kept with tokens are stale.
fn forget_cached_principals(state: &AppState, spec: &ResourceSpec) {
    if spec.app == "users" {
        state.tokens.clear();
    }
}

/// PUT or PATCH of one object: the updated object.
pub(super) async fn update_one(
    req: &HttpRequest,
    state: &AppState,
    caller: &Caller,
    spec: &'static ResourceSpec,
    id: i64,
    body: Json,
    mode: Mode,
) -> Result<HttpResponse, ApiError> {
    let draft = input::parse(spec, &body, mode).map_err(|e| ApiError::BadRequest(e.into_json()))?;
    let (records, related) = update(req, state, caller, spec, vec![(id, draft)]).await?;
    let record = records.first().ok_or(ApiError::NotFound)?;
    let body = written(req, state, &related, |r, out| r.full(out, spec, record));
    Ok(respond_text(req, StatusCode::OK, body))
}

/// PUT or PATCH of a list of objects, each naming its `id`: the updated objects.
pub(super) async fn bulk_update(
    req: &HttpRequest,
    state: &AppState,
    caller: &Caller,
    spec: &'static ResourceSpec,
    body: Items<'_>,
    mode: Mode,
) -> Result<HttpResponse, ApiError> {
    let items = listed(body)?;
    let ids = item_ids(&items)?;
    let mut work: Vec<(i64, Draft)> = Vec::with_capacity(ids.len());
    // Each item is parsed again here rather than kept from the id pass: only one item's
    // tree is held at a time.
    for (id, raw) in ids.into_iter().zip(items) {
        let mut fields: Map<String, Json> = match item(raw) {
            Json::Object(fields) => fields,
            _ => Map::new(),
        };
        fields.remove("id");
        let draft = input::parse(spec, &Json::Object(fields), mode)
            .map_err(|e: FieldErrors| ApiError::BadRequest(e.into_json()))?;
        work.push((id, draft));
    }
    let (records, related) = update(req, state, caller, spec, work).await?;
    let body = written(req, state, &related, |r, out| {
        r.many(out, spec, &records, false)
    });
    Ok(respond_text(req, StatusCode::OK, body))
}

/// The drafts prepared and written as updates, on the write lane.
async fn update(
    req: &HttpRequest,
    state: &AppState,
    caller: &Caller,
    spec: &'static ResourceSpec,
    work: Vec<(i64, Draft)>,
) -> Result<(Vec<Record>, Related), ApiError> {
    let ctx = change_context(req, caller);
    let edits = state.edits.clone();
    let written = state
        .writes
        .run(move || edits.update(spec, work, &ctx))
        .await??;
    forget_cached_principals(state, spec);
    Ok(written)
}

/// DELETE of one object or of a list: 204.
pub(super) async fn delete(
    req: &HttpRequest,
    state: &AppState,
    caller: &Caller,
    spec: &'static ResourceSpec,
    ids: Vec<i64>,
) -> Result<HttpResponse, ApiError> {
    let ctx = change_context(req, caller);
    let edits = state.edits.clone();
    state
        .writes
        .run(move || edits.delete(spec, &ids, &ctx))
        .await??;
    forget_cached_principals(state, spec);
    Ok(HttpResponse::NoContent().finish())
}

/// POST of one object or a list: 201 with the objects created.
pub(super) async fn create(
    req: &HttpRequest,
    state: &AppState,
    caller: &Caller,
    spec: &'static ResourceSpec,
    body: Items<'_>,
) -> Result<HttpResponse, ApiError> {
    let many = matches!(body, Items::List(_));
    let (drafts, count) = creations(spec, caller, body)?;
    let ctx = change_context(req, caller);
    let edits = state.edits.clone();
    let result = state
        .writes
        .run(move || edits.create(spec, drafts, &ctx))
        .await?;
    let (records, related) = result.map_err(|e| creation_error(e, many, count))?;
    if many {
        let body = written(req, state, &related, |r, out| {
            r.many(out, spec, &records, false)
        });
        return Ok(respond_text(req, StatusCode::CREATED, body));
    }
    let record = records.first().ok_or(ApiError::NotFound)?;
    let body = written(req, state, &related, |r, out| r.full(out, spec, record));
    let mut res = respond_text(req, StatusCode::CREATED, body);
    // As the reference: one object created, its URL in `Location`.
    let (app, path) = crate::respond::layout(req).place(spec);
    let location = format!("{}/api/{app}/{path}/{}/", base_url(req), record.id);
    if let Ok(value) = HeaderValue::from_str(&location) {
        res.headers_mut().insert(LOCATION, value);
    }
    Ok(res)
}

/// The drafts of a creation's items, and how many items there are; a 400 with each
/// invalid item's errors (at most `MAX_ITEM_ERRORS`) when any is invalid.
fn creations(
    spec: &'static ResourceSpec,
    caller: &Caller,
    body: Items<'_>,
) -> Result<(Vec<Draft>, usize), ApiError> {
    let many = matches!(body, Items::List(_));
    let (raw, one) = match body {
        Items::List(raw) => (raw, None),
        Items::One(value) => (Vec::new(), Some(value)),
    };
    let count = if many { raw.len() } else { 1 };
    let items = raw.iter().map(|r| item(r)).chain(one);
    let mut drafts = Vec::new();
    let mut errors = ItemErrors::default();
    for (index, item) in items.enumerate() {
        match input::parse(spec, &item, Mode::Create) {
            Ok(mut d) => {
                default_to_user(spec, &mut d, caller.user.as_ref().map(|u| u.id));
                drafts.push(d)
            }
            Err(e) => {
                if errors.add(index, e.into_json()).is_break() {
                    break;
                }
            }
        }
    }
    match errors.into_body(count, many) {
        Some(body) => Err(ApiError::BadRequest(body)),
        None => Ok((drafts, count)),
    }
}

/// A store's refusal of a list: the errors at the item they concern, `{}` for the others.
fn creation_error(e: peering_store::Error, many: bool, count: usize) -> ApiError {
    match e {
        peering_store::Error::Invalid { index, errors } if many => {
            let mut list = vec![json!({}); count];
            list[index.unwrap_or(0).min(count.saturating_sub(1))] = errors.into_json();
            ApiError::BadRequest(Json::Array(list))
        }
        other => other.into(),
    }
}

/// The body answering a write, as `render` writes it. Secrets are shown: the caller wrote
/// these objects and the secrets in them.
fn written(
    req: &HttpRequest,
    state: &AppState,
    related: &Related,
    render: impl FnOnce(&Renderer, &mut String),
) -> String {
    let base = base_url(req);
    let r = Renderer {
        related,
        base: &base,
        show_secrets: SecretView::Shown,
        names: state.settings.field_names,
        layout: crate::respond::layout(req),
    };
    let mut body = String::with_capacity(1024);
    render(&r, &mut body);
    body
}
