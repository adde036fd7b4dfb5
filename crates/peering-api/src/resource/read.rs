//! Reads: a list page or one object, from the answer cache or rendered on the blocking
//! pool, with their `ETag`, `Allow` and `Vary` headers.

use actix_web::http::header::{HeaderValue, ETAG, VARY};
use actix_web::web::Bytes;
use std::sync::Arc;
use std::time::Duration;

use actix_web::{web, HttpRequest, HttpResponse};
use peering_domain::ResourceSpec;
use peering_store::TableVersions;

use super::{query_pairs, set_allow};
use crate::auth::Caller;
use crate::cache::{self, Lookup};
use crate::compression;
use crate::conditional;
use crate::error::ApiError;
use crate::list::{ListRequest, Rendered};
use crate::respond::{self, base_url};
use crate::AppState;
use peering_app::answers::page_parts::PageParts;
use peering_app::answers::texts::Shape;
use peering_domain::spec::RelatedLookup;
use peering_domain::Record;
use peering_represent::{Renderer, SecretView};

/// One object, with its `ETag`; a 304 when the client holds that version.
pub(super) async fn read_one(
    req: &HttpRequest,
    state: &AppState,
    caller: &Caller,
    spec: &'static ResourceSpec,
    id: i64,
) -> Result<HttpResponse, ApiError> {
    caller.require_read(state, Some(spec))?;
    let secrets = crate::auth::secret_view(caller, spec);
    let render = async {
        render_detail(req, state, spec, id, secrets)
            .await
            .map(Rendered::Text)
    };
    let (body, key) = cached(req, state, (spec, Lookup::Detail), secrets, render).await?;
    let body = body.into_bytes();
    let etag = conditional::etag(&body);
    let mut res = if conditional::not_modified(req, &etag) {
        HttpResponse::NotModified().finish()
    } else {
        compression::respond_cached(req, state, key, body).await
    };
    if let Ok(value) = HeaderValue::from_str(&etag) {
        res.headers_mut().insert(ETAG, value);
    }
    Ok(res)
}

/// Before a delete or a conditional update: a 404 for an unknown object, and a 412 when
/// `If-Match` names another version of it.
pub(super) async fn unless_changed(
    req: &HttpRequest,
    state: &AppState,
    spec: &'static ResourceSpec,
    id: i64,
) -> Result<(), ApiError> {
    if !object_exists(state, spec, id).await? {
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

/// `error`, or a 404 if object `id` does not exist: the answer a write that failed would
/// have had if it had looked the object up first.
pub(super) async fn unless_missing(
    state: &AppState,
    spec: &'static ResourceSpec,
    id: i64,
    error: ApiError,
) -> ApiError {
    match object_exists(state, spec, id).await {
        Ok(false) => ApiError::NotFound,
        _ => error,
    }
}

/// Whether object `id` exists, looked up for a write: on the write threads with the
/// writers' connections, so that under a flood of reads the write waits for none of them.
async fn object_exists(
    state: &AppState,
    spec: &'static ResourceSpec,
    id: i64,
) -> Result<bool, ApiError> {
    let store = state.store.on_write_connections();
    Ok(state.writes.run(move || store.exists(spec, id)).await??)
}

/// The tables' versions now: told at once where the store can (SQLite), else from the
/// thread that reads them for everyone waiting, or read here when there is none.
pub(crate) async fn table_versions(state: &AppState) -> Result<Arc<TableVersions>, ApiError> {
    if let Some(versions) = state.store.table_versions_at_once() {
        return Ok(versions);
    }
    Ok(match &state.versions {
        Some(probe) => probe.current().await?,
        None => {
            let store = state.store.clone();
            Arc::new(web::block(move || store.table_versions()).await??)
        }
    })
}

/// The version of the whole database now (for caches of what reads every table).
pub(crate) async fn data_version(state: &AppState) -> Result<i64, ApiError> {
    Ok(table_versions(state).await?.whole())
}

/// How old the last-read versions may be to key an answer rendered without waiting for a
/// new read. Older, the request waits for a new round, which keeps them this fresh under
/// load.
const RECENT_VERSIONS: Duration = Duration::from_millis(20);

/// The body of a read: the cached answer to the same URL at the current versions of the
/// tables `spec` reads, or one rendered now and kept; rendered at once, as without a cache,
/// while lookups of its kind of answer do not pay (`cache_payoff.rs`).
///
/// A kept answer was rendered after the versions of its key were read, so it is never older
/// than its key, and it is served only when a round of reads that started after the request
/// arrived finds the same versions. When nothing is kept under the recent versions, the
/// answer is rendered at once (most requests of varied traffic) and kept under them, unless
/// a write to its tables has landed meanwhile: it could never be served.
async fn cached(
    req: &HttpRequest,
    state: &AppState,
    (spec, lookup): (&'static ResourceSpec, Lookup),
    secrets: SecretView,
    render: impl std::future::Future<Output = Result<Rendered, ApiError>>,
) -> Result<(Body, Option<cache::Key>), ApiError> {
    if !state.responses.worth_consulting(spec, lookup) {
        return Ok((Body::of(render.await?, |_| false), None));
    }
    let depends_on = cache::DependsOn::answer(spec, req.query_string());
    let version_at = |versions: &TableVersions| depends_on.version(versions);
    let recent = || (state.versions.as_ref()).and_then(|probe| probe.recent(RECENT_VERSIONS));
    let recent_key = recent().map(|v| cache::Key::new((depends_on, version_at(&v)), req, secrets));
    let key = match recent_key {
        Some(key) if !state.responses.holds(&key) => key,
        recent_key => {
            let version = version_at(&*table_versions(state).await?);
            let key = match recent_key {
                Some(recent) => recent.at(version),
                None => cache::Key::new((depends_on, version), req, secrets),
            };
            if let Some(body) = state.responses.get(&key) {
                state.metrics.cache_hit();
                state.responses.record_lookup(spec, lookup, true);
                return Ok((Body::Bytes(body), Some(key)));
            }
            key
        }
    };
    state.metrics.cache_miss();
    state.responses.record_lookup(spec, lookup, false);
    // A page left as parts is not kept whole, but its key is still good for the page
    // compressed, which is smaller.
    let body = Body::of(render.await?, |len| state.responses.keeps_answers_of(len));
    let now = recent();
    if now
        .as_ref()
        .is_some_and(|now| version_at(now) != key.version())
    {
        return Ok((body, None));
    }
    if let Body::Bytes(bytes) = &body {
        state.responses.put(key.clone(), bytes.clone());
    }
    if let Some(now) = now {
        state.responses.sweep_now_and_then(&now);
    }
    Ok((body, Some(key)))
}

/// Whether a page of `len` bytes is sent from its parts: larger than an answer sent whole,
/// and not kept by the answer cache.
fn sent_from_parts(len: usize, kept: impl Fn(usize) -> bool) -> bool {
    len > respond::SENT_WHOLE_UP_TO && !kept(len)
}

/// What a read answers with: its bytes, or a large page as its parts (`PageParts`), sent
/// from the texts they share with the objects kept rendered.
enum Body {
    Bytes(Bytes),
    Parts(PageParts),
}

impl Body {
    /// A page kept as parts stays so when it is larger than an answer sent whole and
    /// `kept` says the answer cache would not keep it; anything else becomes bytes.
    fn of(rendered: Rendered, kept: impl Fn(usize) -> bool) -> Body {
        match rendered {
            Rendered::Parts(parts) if sent_from_parts(parts.len(), kept) => Body::Parts(parts),
            rendered => Body::Bytes(crate::page_texts::into_bytes(rendered.into_text())),
        }
    }

    /// Only a detail's body is turned into bytes this way: it is never parts.
    fn into_bytes(self) -> Bytes {
        match self {
            Body::Bytes(bytes) => bytes,
            Body::Parts(parts) => Bytes::from(parts.into_text()),
        }
    }
}

/// The tables' versions, read after the request arrived, when a detail of `spec` may be
/// kept rendered and lookups of its texts pay (`ObjectTexts::begin` says when it is not).
async fn versions_for_texts(
    state: &AppState,
    spec: &'static ResourceSpec,
) -> Result<Option<Arc<TableVersions>>, ApiError> {
    if !state.texts.worth_consulting(spec, Lookup::Detail) {
        return Ok(None);
    }
    Ok(Some(table_versions(state).await?))
}

/// One object, full or brief: read on the blocking pool, with the others asked meanwhile
/// where the store reads details together, while this request waits without a thread;
/// then rendered here (a detail is small).
async fn render_detail(
    req: &HttpRequest,
    state: &AppState,
    spec: &'static ResourceSpec,
    id: i64,
    show_secrets: SecretView,
) -> Result<String, ApiError> {
    let brief = crate::list::is_brief(&query_pairs(req)?);
    let base = base_url(req);
    let layout = crate::respond::layout(req);
    let names = state.settings.field_names;
    let versions = versions_for_texts(state, spec).await?;
    let shape = Shape {
        brief,
        secrets: show_secrets,
        names,
        layout,
        base: base.clone(),
    };
    let (clock, lookup) = (state.store.row_clock(), (&shape, Lookup::Detail));
    let assembly = (versions.as_ref()).and_then(|v| state.texts.begin(clock, v, spec, lookup));
    if let Some(kept) = assembly
        .as_ref()
        .and_then(|a| a.kept(&[id]).pop().flatten())
    {
        return Ok(kept.text.to_string());
    }
    let (told, detail) = tokio::sync::oneshot::channel();
    let answer: peering_store::Answer = Box::new(move |detail| {
        // A request that is gone has nobody to tell.
        let _ = told.send(detail);
    });
    // The reading runs whether or not its handle is awaited.
    state
        .store
        .get_together(spec, id, answer, |read| drop(web::block(read)));
    let (record, related) = detail
        .await
        // Its reader was stopped (the server is stopping) or failed.
        .map_err(|_| ApiError::Unavailable("The read was stopped; try again.".into()))??
        .ok_or(ApiError::NotFound)?;
    let render = |out: &mut String, record: &Record, related: &dyn RelatedLookup| {
        let renderer = Renderer {
            related,
            base: &base,
            show_secrets,
            names,
            layout,
        };
        renderer.one(out, spec, record, brief);
    };
    Ok(match assembly {
        Some(assembly) => assembly.render(&record, &related, &render).text.to_string(),
        None => {
            let mut body = String::with_capacity(1024);
            render(&mut body, &record, &related);
            body
        }
    })
}

/// `?export=<name>`: the export template's name and the list's filter (without it).
fn export_asked(
    req: &HttpRequest,
    spec: &'static ResourceSpec,
    view: SecretView,
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
    let catalog = peering_store::Store::catalog_for(spec, view == SecretView::Shown);
    let filter = peering_filter::parse(&pairs, &catalog)?;
    Ok(Some((name, filter)))
}

/// A list page (or an export of the list), cached, or streamed when it may be large.
pub(super) async fn list(
    req: &HttpRequest,
    state: &AppState,
    caller: &Caller,
    spec: &'static ResourceSpec,
) -> Result<HttpResponse, ApiError> {
    caller.require_read(state, Some(spec))?;
    let view = crate::auth::secret_view(caller, spec);
    if let Some((name, filter)) = export_asked(req, spec, view)? {
        return crate::actions::export::list(state, caller, spec, name, filter).await;
    }
    let asked = ListRequest::parse(req, state, spec, view)?;
    let mut res = if asked.is_large() && !respond::indents(req) {
        crate::list::streamed(req, state, spec, asked).await?
    } else {
        let secrets = asked.show_secrets;
        let render = crate::list::render(req, state, spec, asked);
        match cached(req, state, (spec, Lookup::Page), secrets, render).await? {
            (Body::Bytes(body), key) => compression::respond_cached(req, state, key, body).await,
            (Body::Parts(parts), key) => {
                compression::respond_assembled(req, state, key, parts).await
            }
        }
    };
    set_allow(&mut res, spec, caller, false);
    res.headers_mut().insert(
        VARY,
        HeaderValue::from_static("Accept, Accept-Encoding, Cookie, Origin"),
    );
    Ok(res)
}
