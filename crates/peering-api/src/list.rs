//! Lists: a page rendered whole (and cached), or an answer too large for one buffer
//! (`limit=0` with no maximum page size, or a page above [`STREAMED_ABOVE`]) written in
//! slices as the client reads it, so that memory stays flat whatever the number of objects.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;

use actix_web::error::BlockingError;
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};
use futures_util::stream::{self, Stream, StreamExt};
use peering_domain::resources::Layout;
use peering_domain::spec::Kind;
use peering_domain::Record;
use peering_domain::ResourceSpec;
use peering_filter::Filter;
use peering_store::{Error as StoreError, Related, Store, Window};
use serde_json::json;

use crate::cache::{DependsOn, Lookup};
use crate::error::ApiError;
use crate::resource::query_pairs;
use crate::respond::base_url;
use crate::AppState;
use peering_app::answers::counts::ListKey;
use peering_represent::page::PageRequest;
use peering_represent::{write_str, Renderer, SecretView};

/// Pages larger than this are streamed.
pub const STREAMED_ABOVE: i64 = 1000;

/// Pages of more objects than this are read and rendered a few at a time: each holds
/// megabytes while it is built, and with more of them at once than the machine has cores
/// to build them, memory grows without any answer coming sooner.
pub const LARGE_PAGE: i64 = 200;
/// Objects of a large page read and rendered at a time.
const PAGE_SLICE: usize = 250;
/// How many large pages are read and rendered at once.
pub const LARGE_PAGES_AT_ONCE: usize = 4;
/// Objects read and rendered per slice of a streamed answer.
const SLICE: usize = 500;
/// Slices read ahead of the one being written, each on its own connection: the database
/// (or, on SQLite, another core) works while the server renders and sends. Memory holds
/// one slice more than this.
const READ_AHEAD: usize = 2;

/// `brief=1` (or any value but an explicit false) asks for the brief form.
pub(crate) fn is_brief(pairs: &[(String, String)]) -> bool {
    pairs
        .iter()
        .rev()
        .find(|(k, _)| k == "brief")
        .is_some_and(|(_, v)| {
            !matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "" | "0" | "false" | "no" | "off"
            )
        })
}

/// Whether a field set includes related objects (so they must be loaded).
fn shows_relations(spec: &ResourceSpec, names: &[&str]) -> bool {
    names.iter().any(|n| {
        spec.field(n).is_some_and(|f| {
            matches!(
                f.kind,
                Kind::ForeignKey { .. } | Kind::ManyToMany { .. } | Kind::Tags
            )
        })
    })
}

/// What a list request asks for, validated.
#[derive(Clone)]
pub struct ListRequest {
    pairs: Vec<(String, String)>,
    filter: Filter,
    page: PageRequest,
    brief: bool,
    /// Whether the representation shows related objects (so they must be loaded).
    relations: bool,
    /// Whether the caller may see secret fields (they may change the objects).
    pub show_secrets: SecretView,
}

impl ListRequest {
    pub fn parse(
        req: &HttpRequest,
        state: &AppState,
        spec: &'static ResourceSpec,
        show_secrets: SecretView,
    ) -> Result<ListRequest, ApiError> {
        let pairs = query_pairs(req)?;
        let sees_secrets = show_secrets == SecretView::Shown;
        let filter = peering_filter::parse(&pairs, &Store::catalog_for(spec, sees_secrets))?;
        let page = PageRequest::from_query(&pairs, state.settings.page_limits());
        let brief = is_brief(&pairs);
        Ok(ListRequest {
            filter,
            page,
            brief,
            relations: !brief || spec.brief.is_empty() || shows_relations(spec, spec.brief),
            show_secrets,
            pairs,
        })
    }

    /// Whether the answer may hold more objects than a page rendered at once should.
    pub fn is_large(&self) -> bool {
        self.page.limit.is_none_or(|l| l > STREAMED_ABOVE)
    }

    /// `{"count":…,"next":…,"previous":…,"results":` (the array follows), with links on
    /// `list_url` (the list's address without its query).
    fn head(&self, list_url: &str, count: i64, capacity: usize) -> String {
        let (next, previous) = self.page.links(list_url, &self.pairs, count);
        let mut out = crate::page_texts::with_capacity(256 + capacity);
        out.push_str("{\"count\":");
        out.push_str(&count.to_string());
        for (name, link) in [("next", next), ("previous", previous)] {
            out.push_str(",\"");
            out.push_str(name);
            out.push_str("\":");
            match link {
                Some(l) => write_str(&mut out, &l),
                None => out.push_str("null"),
            }
        }
        out.push_str(",\"results\":");
        out
    }

    fn bytes_per_object(&self) -> usize {
        bytes_per_object(self.brief)
    }
}

/// The list's address without its query, which its page links extend.
fn list_url(req: &HttpRequest) -> String {
    format!("{}{}", crate::respond::origin(req), req.path())
}

/// A guess at an object's size in JSON, to size buffers.
fn bytes_per_object(brief: bool) -> usize {
    if brief {
        200
    } else {
        1500
    }
}

/// The 400 for a filter value naming no object, as the reference words it.
fn unknown_value((param, value): (String, String)) -> ApiError {
    ApiError::BadRequest(json!({param: [format!(
        "Select a valid choice. {value} is not one of the available choices."
    )]}))
}

/// Runs `read` on the blocking pool, then answers what it read if the filter's values all
/// name objects (else the 400 for the first that names none). `read` says whether the list
/// has rows, which prove some values name objects without looking them up: the read comes
/// first because it usually makes the check cost nothing.
async fn checked_read<T: Send + 'static>(
    state: &AppState,
    spec: &'static ResourceSpec,
    asked: &ListRequest,
    read: impl FnOnce(&Store, &Filter) -> Result<(T, bool), peering_store::Error> + Send + 'static,
) -> Result<T, ApiError> {
    let store = state.store.clone();
    let filter = asked.filter.clone();
    web::block(move || -> Result<_, peering_store::Error> {
        let (read, rows_found) = read(&store, &filter)?;
        match store.unknown_filter_value(spec, &filter, rows_found)? {
            Some(unknown) => Ok(Err(unknown)),
            None => Ok(Ok(read)),
        }
    })
    .await??
    .map_err(unknown_value)
}

/// One page, rendered whole, on the blocking pool with its read: rendering a page of
/// 1,000 objects takes milliseconds, which on the async worker would hold up every other
/// request it serves (writes among them).
pub async fn render(
    req: &HttpRequest,
    state: &AppState,
    spec: &'static ResourceSpec,
    asked: ListRequest,
) -> Result<String, ApiError> {
    let window = Window {
        limit: asked.page.limit,
        offset: asked.page.offset,
    };
    let list_url = list_url(req);
    let base = base_url(req);
    let layout = crate::respond::layout(req);
    let names = state.settings.field_names;
    let counted = counted_list(req, state, spec, (&asked.filter, window)).await?;
    let known = (counted.as_ref()).and_then(|(list, version)| state.counts.get(list, *version));
    if counted.is_some() {
        (state.responses).record_lookup(spec, Lookup::Count, known.is_some());
    }
    let shape = asked.clone();
    let large = window.limit.is_some_and(|limit| limit > LARGE_PAGE);
    let _turn = if large {
        Some(
            (state.large_pages.acquire().await)
                .map_err(|_| ApiError::Internal("page turns closed".into()))?,
        )
    } else {
        None
    };
    let (body, count) = checked_read(state, spec, &asked, move |store, filter| {
        let page = PageWriter {
            spec,
            shape: &shape,
            list_url: &list_url,
            base: &base,
            names,
            layout,
        };
        let (body, count) = if large {
            page.in_slices(store, (filter, window), known)?
        } else {
            page.whole(store, (filter, window), known)?
        };
        Ok(((body, count), count > 0))
    })
    .await?;
    if let (Some((list, version)), None) = (counted, known) {
        state.counts.put(list, version, count);
    }
    Ok(body)
}

/// Renders a page of a list, read on the blocking pool.
struct PageWriter<'a> {
    spec: &'static ResourceSpec,
    shape: &'a ListRequest,
    list_url: &'a str,
    base: &'a str,
    names: peering_domain::names::FieldNames,
    layout: Layout,
}

impl PageWriter<'_> {
    fn renderer<'r>(&'r self, related: &'r Related) -> Renderer<'r> {
        Renderer {
            related,
            base: self.base,
            show_secrets: self.shape.show_secrets,
            names: self.names,
            layout: self.layout,
        }
    }

    /// The page read whole, in the fewest statements: its objects, then their relations.
    fn whole(
        &self,
        store: &Store,
        (filter, window): (&Filter, Window),
        known: Option<i64>,
    ) -> Result<(String, i64), StoreError> {
        let page = store.list(self.spec, filter, window, self.shape.relations, known)?;
        let capacity = page.records.len() * self.shape.bytes_per_object();
        let mut body = self.shape.head(self.list_url, page.count, capacity);
        self.renderer(&page.related)
            .many(&mut body, self.spec, &page.records, self.shape.brief);
        body.push('}');
        Ok((body, page.count))
    }

    /// A large page read and rendered [`PAGE_SLICE`] objects at a time, so that it holds
    /// one slice's objects while its text grows, not all of them (docs/performance.md,
    /// seventeenth round).
    fn in_slices(
        &self,
        store: &Store,
        asked: (&Filter, Window),
        known: Option<i64>,
    ) -> Result<(String, i64), StoreError> {
        let mut body = String::new();
        let mut written = false;
        let mut each = |count: i64, records: &[Record], related: &Related| {
            if body.is_empty() {
                // Sized for the objects the page holds (none past the list's end).
                let (limit, offset) = (asked.1.limit.unwrap_or(0), asked.1.offset);
                let objects = usize::try_from((count - offset).min(limit)).unwrap_or(0);
                let capacity = objects * self.shape.bytes_per_object();
                body = self.shape.head(self.list_url, count, capacity);
                body.push('[');
            }
            if written && !records.is_empty() {
                body.push(',');
            }
            written |= !records.is_empty();
            (self.renderer(related)).items(&mut body, self.spec, records, self.shape.brief);
        };
        let relations = self.shape.relations;
        let count =
            store.page_in_slices(self.spec, asked, (relations, known), PAGE_SLICE, &mut each)?;
        body.push_str("]}");
        Ok((body, count))
    }
}

/// The list `filter` selects and the version of its data, read after the request arrived
/// (so that a count kept under it is never older than a write the client saw finish);
/// `None` when counts are not kept, when the page's read tells the count (through a kept
/// order: a lookup would be a hit that saves nothing), or when lookups have not been paying
/// (a lookup waits for a read of the tables' versions, which pays only when a list is
/// asked for again before a write; scored with the answer cache's lookups,
/// `cache_payoff.rs`).
async fn counted_list(
    req: &HttpRequest,
    state: &AppState,
    spec: &'static ResourceSpec,
    (filter, window): (&Filter, Window),
) -> Result<Option<(ListKey, i64)>, ApiError> {
    if !state.counts.enabled()
        || state.store.counts_with_page(spec, (filter, window))
        || !state.responses.worth_consulting(spec, Lookup::Count)
    {
        return Ok(None);
    }
    let versions = crate::resource::table_versions(state).await?;
    // The whole list counts its table's rows, which updates leave as they are; a filtered
    // list may gain or lose rows with any write to what it reads.
    let version = if filter.selects_all() {
        versions.rows_of(spec.table)
    } else {
        DependsOn::answer(spec, req.query_string()).version(&versions)
    };
    Ok(Some((ListKey::new(spec, filter), version)))
}

/// A list written in slices: the ids of the whole list are read first (one query, which
/// also gives the count), then each slice of objects is read and rendered only when the
/// client has taken the previous one, the next slice being read meanwhile. Objects
/// deleted meanwhile are left out.
pub async fn streamed(
    req: &HttpRequest,
    state: &AppState,
    spec: &'static ResourceSpec,
    asked: ListRequest,
) -> Result<HttpResponse, ApiError> {
    let ids = checked_read(state, spec, &asked, move |store, filter| {
        let ids = store.list_ids(spec, filter)?;
        let rows_found = !ids.is_empty();
        Ok((ids, rows_found))
    })
    .await?;
    let count = ids.len() as i64;
    let skip = usize::try_from(asked.page.offset).unwrap_or(usize::MAX);
    let take = asked
        .page
        .limit
        .map_or(usize::MAX, |l| usize::try_from(l).unwrap_or(usize::MAX));
    let window: Vec<i64> = ids.into_iter().skip(skip).take(take).collect();
    let base = base_url(req);
    let mut head = asked.head(&list_url(req), count, 0);
    head.push('[');
    let slices = Slices {
        store: state.store.clone(),
        spec,
        ids: window,
        next: 0,
        written: false,
        brief: asked.brief,
        relations: asked.relations,
        show_secrets: asked.show_secrets,
        names: state.settings.field_names,
        base,
        layout: crate::respond::layout(req),
        reading: VecDeque::new(),
    };
    let body = stream::once(async move { Ok(Bytes::from(head)) })
        .chain(slices.into_stream())
        .chain(stream::once(async { Ok(Bytes::from_static(b"]}")) }));
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .streaming(body))
}

/// A slice's objects being read on the blocking pool.
type SliceRead = Pin<
    Box<dyn Future<Output = Result<Result<(Vec<Record>, Related), StoreError>, BlockingError>>>,
>;

/// The objects of a streamed list still to be written.
struct Slices {
    store: Store,
    spec: &'static ResourceSpec,
    ids: Vec<i64>,
    next: usize,
    /// Whether an object has been written (the next one needs a comma).
    written: bool,
    brief: bool,
    relations: bool,
    show_secrets: SecretView,
    names: peering_domain::names::FieldNames,
    base: String,
    layout: Layout,
    /// The reads of the next slices, in order, started before the previous one was
    /// written so that the database works while the server renders and sends.
    reading: VecDeque<SliceRead>,
}

impl Slices {
    /// Starts reading the next slices, if any are left, up to `READ_AHEAD` in flight.
    fn read_next(&mut self) {
        while self.reading.len() < READ_AHEAD && self.next < self.ids.len() {
            self.read_one();
        }
    }

    fn read_one(&mut self) {
        let end = (self.next + SLICE).min(self.ids.len());
        let ids = self.ids[self.next..end].to_vec();
        self.next = end;
        let (store, spec, relations) = (self.store.clone(), self.spec, self.relations);
        // `web::block` starts the work at once; awaiting only collects it.
        self.reading.push_back(Box::pin(web::block(move || {
            store.objects(spec, &ids, relations)
        })));
    }

    fn into_stream(mut self) -> impl Stream<Item = Result<Bytes, actix_web::Error>> {
        self.read_next();
        stream::unfold(self, |mut slices| async move {
            let read = slices.reading.pop_front()?.await;
            let (records, related) = match read {
                Ok(Ok(found)) => found,
                // The status is sent already: the answer is cut short, which a client
                // sees as a truncated body.
                Ok(Err(e)) => {
                    return Some((
                        Err(actix_web::error::ErrorInternalServerError(e)),
                        slices.stopped(),
                    ))
                }
                Err(e) => return Some((Err(e.into()), slices.stopped())),
            };
            slices.read_next();
            let mut out = String::with_capacity(records.len() * bytes_per_object(slices.brief) + 1);
            if slices.written && !records.is_empty() {
                out.push(',');
            }
            slices.written |= !records.is_empty();
            Renderer {
                related: &related,
                base: &slices.base,
                show_secrets: slices.show_secrets,
                names: slices.names,
                layout: slices.layout,
            }
            .items(&mut out, slices.spec, &records, slices.brief);
            Some((Ok(Bytes::from(out)), slices))
        })
    }

    /// No more slices after a failure.
    fn stopped(mut self) -> Self {
        self.next = self.ids.len();
        self.reading.clear();
        self
    }
}
