//! The generic handlers every resource is served by: list, detail, create, update, delete,
//! their bulk forms, and OPTIONS. A resource only declares what differs (peering-domain).
//! This module routes a request by method; `read.rs` and `write.rs` answer it.

mod items;
mod read;
mod write;

use actix_web::http::{Method, StatusCode};
use actix_web::{web, HttpMessage, HttpRequest, HttpResponse};
use peering_domain::grants::Authority;
use peering_domain::input::Mode;
use peering_domain::permission::Action;
use peering_domain::ResourceSpec;
use peering_store::ChangeContext;

use crate::auth::{authenticate, Caller};
use crate::body::{read_json, read_listed, Items};
use crate::error::ApiError;
use crate::headers::RequestId;
use crate::respond::respond;
use crate::AppState;
use peering_represent::options;

pub(crate) use read::{data_version, table_versions};

/// The query's pairs; a filter named as the reference names it (`exists_in_peeringdb`)
/// is taken by its spec name.
pub fn query_pairs(req: &HttpRequest) -> Result<Vec<(String, String)>, ApiError> {
    let pairs = serde_urlencoded::from_str::<Vec<(String, String)>>(req.query_string())
        .map_err(|_| ApiError::Detail400("Malformed query string.".into()))?;
    Ok(pairs
        .into_iter()
        .map(|(k, v)| {
            (
                peering_domain::names::filter_from_reference(&k).into_owned(),
                v,
            )
        })
        .collect())
}

pub(crate) fn change_context(req: &HttpRequest, caller: &Caller) -> ChangeContext {
    let user = caller.user.as_ref();
    ChangeContext {
        request_id: req
            .extensions()
            .get::<RequestId>()
            .map(|r| r.0.clone())
            .unwrap_or_default(),
        user_id: user.map(|u| u.id),
        user_name: user.map(|u| u.username.clone()).unwrap_or_default(),
        // Writes always have a caller (they need a permission); without one nothing is
        // held.
        authority: match user {
            Some(u) => Authority::user(u.id, u.superuser, u.permissions.clone()),
            None => Authority::user(0, false, Default::default()),
        },
    }
}

/// A write a resource does not take (any write to change records; anything but deleting
/// one job) is answered with a 405.
fn refuse_writes_to_read_only(
    method: &Method,
    spec: &ResourceSpec,
    detail: bool,
) -> Result<(), ApiError> {
    let read = matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
    let delete = *method == Method::DELETE && detail && spec.writes.deletes();
    if read || delete || spec.writes.edits() {
        Ok(())
    } else {
        Err(ApiError::MethodNotAllowed(method.to_string()))
    }
}

/// `Allow`: the methods this caller may use here.
fn set_allow(res: &mut HttpResponse, spec: &ResourceSpec, caller: &Caller, detail: bool) {
    let mut methods = vec!["GET"];
    if spec.writes.edits() {
        if !detail && caller.may(Action::Add, spec) {
            methods.push("POST");
        }
        if caller.may(Action::Change, spec) {
            methods.extend(["PUT", "PATCH"]);
        }
    }
    let deletes = spec.writes.edits() || (detail && spec.writes.deletes());
    if deletes && caller.may(Action::Delete, spec) {
        methods.push("DELETE");
    }
    methods.extend(["HEAD", "OPTIONS"]);
    if let Ok(value) = actix_web::http::header::HeaderValue::from_str(&methods.join(", ")) {
        res.headers_mut()
            .insert(actix_web::http::header::ALLOW, value);
    }
}

/// `/api/<app>/<resource>/`
pub async fn collection(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
    spec: &'static ResourceSpec,
) -> Result<HttpResponse, ApiError> {
    let caller = authenticate(&req, &state).await?;
    let method = req.method().clone();
    refuse_writes_to_read_only(&method, spec, false)?;
    match method {
        Method::GET | Method::HEAD => read::list(&req, &state, &caller, spec).await,
        Method::OPTIONS => options_answer(&req, &state, &caller, spec, false),
        Method::POST => {
            caller.require(Action::Add, spec)?;
            let (body, _turn) =
                read_listed(&req, payload, &state, state.settings.max_body_bytes).await?;
            write::create(&req, &state, &caller, spec, body.items()?).await
        }
        Method::PUT | Method::PATCH => {
            caller.require(Action::Change, spec)?;
            let (body, _turn) =
                read_listed(&req, payload, &state, state.settings.max_body_bytes).await?;
            let mode = update_mode(&method);
            write::bulk_update(&req, &state, &caller, spec, body.items()?, mode).await
        }
        Method::DELETE => {
            caller.require(Action::Delete, spec)?;
            let (body, _turn) =
                read_listed(&req, payload, &state, state.settings.max_body_bytes).await?;
            // Without a body, the reference's parser gives `{}`, which is not a list.
            let items = if body.is_blank() {
                Items::One(serde_json::json!({}))
            } else {
                body.items()?
            };
            let ids = items::item_ids(&items::listed(items)?)?;
            write::delete(&req, &state, &caller, spec, ids).await
        }
        other => Err(ApiError::MethodNotAllowed(other.to_string())),
    }
}

/// `/api/<app>/<resource>/<id>/`
pub async fn detail(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
    spec: &'static ResourceSpec,
    id: &str,
) -> Result<HttpResponse, ApiError> {
    let caller = authenticate(&req, &state).await?;
    let id: i64 = id.parse().map_err(|_| ApiError::NotFound)?;
    let method = req.method().clone();
    refuse_writes_to_read_only(&method, spec, true)?;
    match method {
        Method::OPTIONS => options_answer(&req, &state, &caller, spec, true),
        Method::GET | Method::HEAD => read::read_one(&req, &state, &caller, spec, id).await,
        Method::PUT | Method::PATCH => {
            caller.require(Action::Change, spec)?;
            let conditional = crate::conditional::required(&req).is_some();
            if conditional {
                read::unless_changed(&req, &state, spec, id).await?;
            }
            let updated = async {
                let (body, _turn) =
                    read_json(&req, payload, &state, state.settings.max_body_bytes).await?;
                let mode = update_mode(&method);
                write::update_one(&req, &state, &caller, spec, id, body, mode).await
            };
            match updated.await {
                // An update finds the object itself (the write answers 404 without it), so
                // the lookup that makes an unknown object's 404 come before any other
                // answer is made only when there is another answer to give.
                Err(e) if !conditional && !matches!(e, ApiError::NotFound) => {
                    Err(read::unless_missing(&state, spec, id, e).await)
                }
                answer => answer,
            }
        }
        Method::DELETE => {
            caller.require(Action::Delete, spec)?;
            read::unless_changed(&req, &state, spec, id).await?;
            write::delete(&req, &state, &caller, spec, vec![id]).await
        }
        other => Err(ApiError::MethodNotAllowed(other.to_string())),
    }
}

/// PUT replaces an object's fields, PATCH changes those given.
fn update_mode(method: &Method) -> Mode {
    if *method == Method::PUT {
        Mode::Replace
    } else {
        Mode::Partial
    }
}

/// OPTIONS: the resource's description, and the methods this caller may use.
fn options_answer(
    req: &HttpRequest,
    state: &AppState,
    caller: &Caller,
    spec: &'static ResourceSpec,
    detail: bool,
) -> Result<HttpResponse, ApiError> {
    caller.require_read(state, Some(spec))?;
    let description = options::describe(
        spec,
        |action| caller.may(action, spec),
        detail,
        state.settings.field_names,
    );
    let mut res = respond(req, StatusCode::OK, &description);
    set_allow(&mut res, spec, caller, detail);
    Ok(res)
}
