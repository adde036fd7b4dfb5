//! The generic handlers every resource is served by: list, detail, create, update, delete,
//! their bulk forms, and OPTIONS. A resource only declares what differs (peering-domain).

use actix_web::http::{Method, StatusCode};
use actix_web::web::Bytes;
use actix_web::{web, HttpMessage, HttpRequest, HttpResponse};
use peering_domain::grants::Authority;
use peering_domain::input::{self, Draft, Mode};
use peering_domain::permission::Action;
use peering_domain::spec::{Kind, TextFormat};
use peering_domain::{FieldErrors, ResourceSpec, Value};
use peering_store::ChangeContext;
use serde_json::{json, Map, Value as Json};

use crate::auth::{authenticate, Caller};
use crate::body::{item, read_json, read_listed, Items};
use crate::cache;
use crate::compression;
use crate::conditional;
use crate::error::ApiError;
use crate::headers::RequestId;
use crate::list::ListRequest;
use crate::options;
use crate::render::{Renderer, SecretView};
use crate::respond::{self, base_url, respond, respond_text};
use crate::AppState;

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

fn expected_list(body: &Json) -> ApiError {
    ApiError::BadRequest(json!({"non_field_errors": [format!(
        "Expected a list of items but got type \"{}\".",
        input::json_type_name(body)
    )]}))
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

/// What a draft needs before it reaches the store: templates that parse, and passwords
/// checked against the minimum length and hashed (here, on the blocking pool: hashing is
/// slow on purpose).
fn prepare(
    spec: &ResourceSpec,
    draft: &mut Draft,
    min_length: usize,
) -> Result<(), peering_store::Error> {
    check_templates(spec, draft)?;
    for (field, input) in spec.fields.iter().zip(draft.inputs.iter_mut()) {
        let is_password = matches!(
            field.kind,
            Kind::Text {
                format: TextFormat::Password,
                ..
            }
        );
        if let (true, Some(input::Input::Value(Value::Text(plain)))) = (is_password, input) {
            if plain.chars().count() < min_length {
                return Err(peering_store::Error::invalid(FieldErrors::single(
                    field.name,
                    format!("This password is too short. It must contain at least {min_length} characters."),
                )));
            }
            *plain = peering_auth::password::hash(plain)
                .map_err(|e| peering_store::Error::Backend(e.to_string()))?;
        }
    }
    Ok(())
}

/// A template that does not parse is refused, naming its line and the problem (the
/// reference stores it and fails when it is rendered).
fn check_templates(spec: &ResourceSpec, draft: &Draft) -> Result<(), peering_store::Error> {
    let mut errors = FieldErrors::new();
    for (field, input) in spec.fields.iter().zip(&draft.inputs) {
        let Some(input::Input::Value(Value::Text(source))) = input else {
            continue;
        };
        if !field.template {
            continue;
        }
        if let Err(e) = peering_render::check(source) {
            let at = e.line.map(|l| format!(" at line {l}")).unwrap_or_default();
            errors.add(field.name, format!("Invalid template{at}: {}", e.message));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(peering_store::Error::invalid(errors))
    }
}

/// After a write to users or groups, permissions and statuses kept with tokens are stale.
fn forget_cached_principals(state: &AppState, spec: &ResourceSpec) {
    if spec.app == "users" {
        state.tokens.clear();
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
        Method::GET | Method::HEAD => list(&req, &state, &caller, spec).await,
        Method::OPTIONS => {
            caller.require_read(&state, Some(spec))?;
            let mut res = respond(
                &req,
                StatusCode::OK,
                &options::describe(spec, &caller, false, state.settings.field_names),
            );
            set_allow(&mut res, spec, &caller, false);
            Ok(res)
        }
        Method::POST => {
            caller.require(Action::Add, spec)?;
            let (body, _turn) =
                read_listed(&req, payload, &state, state.settings.max_body_bytes).await?;
            create(&req, &state, &caller, spec, body.items()?).await
        }
        Method::PUT | Method::PATCH => {
            caller.require(Action::Change, spec)?;
            let (body, _turn) =
                read_listed(&req, payload, &state, state.settings.max_body_bytes).await?;
            let mode = if method == Method::PUT {
                Mode::Replace
            } else {
                Mode::Partial
            };
            bulk_update(&req, &state, &caller, spec, body.items()?, mode).await
        }
        Method::DELETE => {
            caller.require(Action::Delete, spec)?;
            let (body, _turn) =
                read_listed(&req, payload, &state, state.settings.max_body_bytes).await?;
            let ids = item_ids(&listed(body.items()?)?)?;
            bulk_delete(&req, &state, &caller, spec, ids).await
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
        Method::OPTIONS => {
            caller.require_read(&state, Some(spec))?;
            let description = options::describe(spec, &caller, true, state.settings.field_names);
            let mut res = respond(&req, StatusCode::OK, &description);
            set_allow(&mut res, spec, &caller, true);
            Ok(res)
        }
        Method::GET | Method::HEAD => read_one(&req, &state, &caller, spec, id).await,
        Method::PUT | Method::PATCH => {
            caller.require(Action::Change, spec)?;
            unless_changed(&req, &state, spec, id).await?;
            let (body, _turn) =
                read_json(&req, payload, &state, state.settings.max_body_bytes).await?;
            let mode = if method == Method::PUT {
                Mode::Replace
            } else {
                Mode::Partial
            };
            update_one(&req, &state, &caller, spec, id, body, mode).await
        }
        Method::DELETE => {
            caller.require(Action::Delete, spec)?;
            unless_changed(&req, &state, spec, id).await?;
            let ctx = change_context(&req, &caller);
            let store = state.store.clone();
            state
                .writes
                .run(move || store.delete(spec, &[id], &ctx))
                .await??;
            forget_cached_principals(&state, spec);
            Ok(HttpResponse::NoContent().finish())
        }
        other => Err(ApiError::MethodNotAllowed(other.to_string())),
    }
}

/// One object, with its `ETag`; a 304 when the client holds that version.
async fn read_one(
    req: &HttpRequest,
    state: &AppState,
    caller: &Caller,
    spec: &'static ResourceSpec,
    id: i64,
) -> Result<HttpResponse, ApiError> {
    caller.require_read(state, Some(spec))?;
    let secrets = SecretView::for_caller(caller, spec);
    let render = render_detail(req, state, spec, id, secrets);
    let (body, key) = cached(req, state, secrets, render).await?;
    let etag = conditional::etag(&body);
    let mut res = if conditional::not_modified(req, &etag) {
        HttpResponse::NotModified().finish()
    } else {
        compression::respond_cached(req, state, key, body).await
    };
    if let Ok(value) = actix_web::http::header::HeaderValue::from_str(&etag) {
        res.headers_mut()
            .insert(actix_web::http::header::ETAG, value);
    }
    Ok(res)
}

/// A 404 for an unknown object, and a 412 when `If-Match` names another version of it.
async fn unless_changed(
    req: &HttpRequest,
    state: &AppState,
    spec: &'static ResourceSpec,
    id: i64,
) -> Result<(), ApiError> {
    let store = state.store.clone();
    if web::block(move || store.get(spec, id)).await??.is_none() {
        return Err(ApiError::NotFound);
    }
    if let Some(tags) = conditional::required(req) {
        // The caller may change the object, so the tag is that of the form with secrets,
        // which their reads received.
        let current = render_detail(req, state, spec, id, SecretView::Shown).await?;
        if !tags.contains(&conditional::etag(current.as_bytes())) {
            return Err(ApiError::PreconditionFailed);
        }
    }
    Ok(())
}

/// PUT or PATCH of one object: the updated object.
async fn update_one(
    req: &HttpRequest,
    state: &AppState,
    caller: &Caller,
    spec: &'static ResourceSpec,
    id: i64,
    body: Json,
    mode: Mode,
) -> Result<HttpResponse, ApiError> {
    let mut draft =
        input::parse(spec, &body, mode).map_err(|e| ApiError::BadRequest(e.into_json()))?;
    let ctx = change_context(req, caller);
    let store = state.store.clone();
    let min = state.settings.min_password_length;
    let (records, related) = state
        .writes
        .run(move || {
            prepare(spec, &mut draft, min)?;
            store.update(spec, vec![(id, draft)], &ctx)
        })
        .await??;
    forget_cached_principals(state, spec);
    let base = base_url(req);
    let r = Renderer {
        related: &related,
        base: &base,
        // The caller may change the object: they just did.
        show_secrets: SecretView::Shown,
        names: state.settings.field_names,
    };
    let record = records.first().ok_or(ApiError::NotFound)?;
    let mut body = String::with_capacity(1024);
    r.full(&mut body, spec, record);
    Ok(respond_text(req, StatusCode::OK, body))
}

/// The data version now: from the thread that reads it for everyone waiting, or read here
/// when there is none.
pub(crate) async fn data_version(state: &AppState) -> Result<i64, ApiError> {
    Ok(match &state.versions {
        Some(probe) => probe.current().await?,
        None => {
            let store = state.store.clone();
            web::block(move || store.data_version()).await??
        }
    })
}

/// The body of a read: the cached answer to the same URL at the current data version, or
/// one rendered now (and kept). The version is read before the data, so a kept answer is
/// never older than its key.
async fn cached(
    req: &HttpRequest,
    state: &AppState,
    secrets: SecretView,
    render: impl std::future::Future<Output = Result<String, ApiError>>,
) -> Result<(Bytes, Option<cache::Key>), ApiError> {
    if !state.responses.enabled() {
        return Ok((Bytes::from(render.await?), None));
    }
    let version = data_version(state).await?;
    let key = cache::Key::new(version, req, secrets);
    if let Some(body) = state.responses.get(&key) {
        state.metrics.cache_hit();
        return Ok((body, Some(key)));
    }
    state.metrics.cache_miss();
    let body = Bytes::from(render.await?);
    state.responses.put(key.clone(), body.clone());
    Ok((body, Some(key)))
}

/// One object, full or brief, read and rendered on the blocking pool (not on the async
/// worker, which serves other requests meanwhile).
async fn render_detail(
    req: &HttpRequest,
    state: &AppState,
    spec: &'static ResourceSpec,
    id: i64,
    show_secrets: SecretView,
) -> Result<String, ApiError> {
    let brief = crate::list::is_brief(&query_pairs(req)?);
    let store = state.store.clone();
    let base = base_url(req);
    let names = state.settings.field_names;
    let body = web::block(move || -> Result<Option<String>, peering_store::Error> {
        let Some((record, related)) = store.get(spec, id)? else {
            return Ok(None);
        };
        let r = Renderer {
            related: &related,
            base: &base,
            show_secrets,
            names,
        };
        let mut body = String::with_capacity(1024);
        if brief {
            r.brief(&mut body, spec, &record);
        } else {
            r.full(&mut body, spec, &record);
        }
        Ok(Some(body))
    })
    .await??;
    body.ok_or(ApiError::NotFound)
}

/// `?export=<name>`: the export template's name and the list's filter (without it).
fn export_asked(
    req: &HttpRequest,
    spec: &'static ResourceSpec,
) -> Result<Option<(String, peering_filter::Filter)>, ApiError> {
    // Most lists ask for no export: their query is not parsed twice.
    if !req.query_string().contains("export") {
        return Ok(None);
    }
    let mut pairs = query_pairs(req)?;
    let Some(at) = pairs.iter().position(|(k, _)| k == "export") else {
        return Ok(None);
    };
    let (_, name) = pairs.remove(at);
    let filter = peering_filter::parse(&pairs, &peering_store::Store::catalog(spec))?;
    Ok(Some((name, filter)))
}

async fn list(
    req: &HttpRequest,
    state: &AppState,
    caller: &Caller,
    spec: &'static ResourceSpec,
) -> Result<HttpResponse, ApiError> {
    caller.require_read(state, Some(spec))?;
    if let Some((name, filter)) = export_asked(req, spec)? {
        return crate::actions::export::list(state, caller, spec, name, filter).await;
    }
    let asked = ListRequest::parse(req, state, spec, SecretView::for_caller(caller, spec))?;
    let mut res = if asked.is_large() && !respond::indents(req) {
        crate::list::streamed(req, state, spec, asked).await?
    } else {
        let secrets = asked.show_secrets;
        let render = crate::list::render(req, state, spec, asked);
        let (body, key) = cached(req, state, secrets, render).await?;
        compression::respond_cached(req, state, key, body).await
    };
    set_allow(&mut res, spec, caller, false);
    res.headers_mut().insert(
        actix_web::http::header::VARY,
        actix_web::http::header::HeaderValue::from_static(
            "Accept, Accept-Encoding, Cookie, Origin",
        ),
    );
    Ok(res)
}

/// A field that defaults to the user making the write (a journal entry's `created_by`)
/// takes the caller when the body leaves it out.
fn default_to_caller(spec: &ResourceSpec, draft: &mut input::Draft, caller: &Caller) {
    let Some(user) = &caller.user else {
        return;
    };
    for (field, input) in spec.fields.iter().zip(draft.inputs.iter_mut()) {
        if matches!(field.default, peering_domain::spec::Default::CurrentUser) && input.is_none() {
            *input = Some(input::Input::Ref(Some(input::Ref::Id(user.id))));
        }
    }
}

async fn create(
    req: &HttpRequest,
    state: &AppState,
    caller: &Caller,
    spec: &'static ResourceSpec,
    body: Items<'_>,
) -> Result<HttpResponse, ApiError> {
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
                default_to_caller(spec, &mut d, caller);
                drafts.push(d)
            }
            Err(e) => {
                if errors.add(index, e.into_json()).is_break() {
                    break;
                }
            }
        }
    }
    if let Some(body) = errors.into_body(count, many) {
        return Err(ApiError::BadRequest(body));
    }
    let ctx = change_context(req, caller);
    let store = state.store.clone();
    let min = state.settings.min_password_length;
    let result = state
        .writes
        .run(move || {
            for (i, draft) in drafts.iter_mut().enumerate() {
                prepare(spec, draft, min).map_err(|e| e.at(i))?;
            }
            store.create(spec, drafts, &ctx)
        })
        .await?;
    let (records, related) = result.map_err(|e| match e {
        peering_store::Error::Invalid { index, errors } if many => {
            let mut list = vec![json!({}); count];
            list[index.unwrap_or(0).min(count.saturating_sub(1))] = errors.into_json();
            ApiError::BadRequest(Json::Array(list))
        }
        other => other.into(),
    })?;
    let base = base_url(req);
    let r = Renderer {
        related: &related,
        base: &base,
        // The caller wrote these objects and the secrets in them.
        show_secrets: SecretView::Shown,
        names: state.settings.field_names,
    };
    let mut body = String::new();
    if many {
        r.many(&mut body, spec, &records, false);
        return Ok(respond_text(req, StatusCode::CREATED, body));
    }
    let record = records.first().ok_or(ApiError::NotFound)?;
    r.full(&mut body, spec, record);
    let mut res = respond_text(req, StatusCode::CREATED, body);
    // As the reference: one object created, its URL in `Location`.
    let location = format!("{base}/api/{}/{}/{}/", spec.app, spec.path, record.id);
    if let Ok(value) = actix_web::http::header::HeaderValue::from_str(&location) {
        res.headers_mut()
            .insert(actix_web::http::header::LOCATION, value);
    }
    Ok(res)
}

/// The errors of a list body's items, in the reference's shape (one object per item, `{}`
/// for a valid one) but bounded: after `MAX_ITEM_ERRORS` invalid items the rest is not
/// checked, and the list ends with an object saying how many items were left unchecked.
/// A body of a million bad items then costs a short answer, not a huge one.
#[derive(Debug, Default)]
struct ItemErrors {
    /// `(index, errors)` of the invalid items seen, in order.
    found: Vec<(usize, Json)>,
}

const MAX_ITEM_ERRORS: usize = 100;

impl ItemErrors {
    /// Notes item `index`'s errors; `Break` when no more items should be checked.
    fn add(&mut self, index: usize, errors: Json) -> std::ops::ControlFlow<()> {
        self.found.push((index, errors));
        if self.found.len() >= MAX_ITEM_ERRORS {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    }

    /// The 400 body, if any item was invalid: a list for a list body (`many`), else the one
    /// item's errors.
    fn into_body(self, count: usize, many: bool) -> Option<Json> {
        let last = self.found.last()?.0;
        if !many {
            return self.found.into_iter().next().map(|(_, e)| e);
        }
        let mut list = vec![json!({}); last + 1];
        for (index, errors) in self.found {
            list[index] = errors;
        }
        let unchecked = count - (last + 1);
        if unchecked > 0 {
            list.push(json!({"non_field_errors": [format!(
                "{unchecked} more items were not checked: at most {MAX_ITEM_ERRORS} invalid items are reported."
            )]}));
        }
        Some(Json::Array(list))
    }
}

/// The items of a bulk update or delete, which must be a list.
fn listed(body: Items<'_>) -> Result<Vec<&serde_json::value::RawValue>, ApiError> {
    match body {
        Items::List(raw) => Ok(raw),
        Items::One(value) => Err(expected_list(&value)),
    }
}

/// The `id` of each item of a bulk body, with the reference's error shapes.
fn item_ids(items: &[&serde_json::value::RawValue]) -> Result<Vec<i64>, ApiError> {
    let mut ids = Vec::new();
    let mut errors = ItemErrors::default();
    let count = items.len();
    for (index, item) in items.iter().map(|raw| item(raw)).enumerate() {
        let id = item.get("id").and_then(|v| match v {
            Json::Number(n) => n.as_i64(),
            Json::String(s) => s.trim().parse().ok(),
            _ => None,
        });
        let error = match (item.is_object(), id) {
            (true, Some(id)) => {
                ids.push(id);
                continue;
            }
            (true, None) if item.get("id").is_some() => {
                json!({"id": ["A valid integer is required."]})
            }
            _ => json!({"id": ["This field is required."]}),
        };
        if errors.add(index, error).is_break() {
            break;
        }
    }
    match errors.into_body(count, true) {
        Some(body) => Err(ApiError::BadRequest(body)),
        None => Ok(ids),
    }
}

async fn bulk_update(
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
    let ctx = change_context(req, caller);
    let store = state.store.clone();
    let min = state.settings.min_password_length;
    let (records, related) = state
        .writes
        .run(move || {
            for (_, draft) in &mut work {
                prepare(spec, draft, min)?;
            }
            store.update(spec, work, &ctx)
        })
        .await??;
    forget_cached_principals(state, spec);
    let base = base_url(req);
    let r = Renderer {
        related: &related,
        base: &base,
        // The caller wrote these objects and the secrets in them.
        show_secrets: SecretView::Shown,
        names: state.settings.field_names,
    };
    let mut body = String::new();
    r.many(&mut body, spec, &records, false);
    Ok(respond_text(req, StatusCode::OK, body))
}

async fn bulk_delete(
    req: &HttpRequest,
    state: &AppState,
    caller: &Caller,
    spec: &'static ResourceSpec,
    ids: Vec<i64>,
) -> Result<HttpResponse, ApiError> {
    let ctx = change_context(req, caller);
    let store = state.store.clone();
    state
        .writes
        .run(move || store.delete(spec, &ids, &ctx))
        .await??;
    forget_cached_principals(state, spec);
    Ok(HttpResponse::NoContent().finish())
}
