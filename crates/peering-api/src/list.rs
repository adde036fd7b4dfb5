//! Lists: a page rendered whole (and cached), or an answer too large for one buffer
//! (`limit=0` with no maximum page size, or a page above [`STREAMED_ABOVE`]) written in
//! slices as the client reads it, so that memory stays flat whatever the number of objects.

use actix_web::web;
use actix_web::HttpRequest;
use peering_app::answers::page_parts::PageParts;
use peering_app::answers::texts::{Assembly, ObjectTexts, Shape};
use peering_domain::resources::Layout;
use peering_domain::spec::Kind;
use peering_domain::spec::RelatedLookup;
use peering_domain::Record;
use peering_domain::ResourceSpec;
use peering_filter::Filter;
use peering_store::{Error as StoreError, Related, Store, TableVersions, Window};
use serde_json::json;
use std::sync::Arc;

use crate::cache::{DependsOn, Lookup};
use crate::error::ApiError;
use crate::resource::query_pairs;
use crate::respond::base_url;
use crate::AppState;
use peering_app::answers::counts::ListKey;
use peering_represent::page::PageRequest;
use peering_represent::{write_str, Renderer, SecretView};

mod streamed;
pub use streamed::streamed;

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

/// A page as rendered: one text, or the parts of a page assembled from objects kept
/// rendered (`PageParts`: its texts are shared, not copied).
pub enum Rendered {
    Text(String),
    Parts(PageParts),
}

impl Rendered {
    pub fn into_text(self) -> String {
        match self {
            Rendered::Text(text) => text,
            Rendered::Parts(parts) => parts.into_text(),
        }
    }
}

/// One page, rendered or assembled on the blocking pool with its read: rendering a page of
/// 1,000 objects takes milliseconds, which on the async worker would hold up every other
/// request it serves (writes among them).
pub async fn render(
    req: &HttpRequest,
    state: &AppState,
    spec: &'static ResourceSpec,
    asked: ListRequest,
) -> Result<Rendered, ApiError> {
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
    let texts = texts_for(req, state, spec, &asked).await?;
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
        let assembly = texts.as_ref().and_then(|(texts, versions, shape)| {
            texts.begin(store.row_clock(), versions, spec, (shape, Lookup::Page))
        });
        let (body, count) = if let Some(assembly) = assembly {
            let (parts, count) = page.assembled(store, (filter, window), known, &assembly)?;
            (Rendered::Parts(parts), count)
        } else if large {
            let (text, count) = page.in_slices(store, (filter, window), known)?;
            (Rendered::Text(text), count)
        } else {
            let (text, count) = page.whole(store, (filter, window), known)?;
            (Rendered::Text(text), count)
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

    /// The page assembled from its objects' texts, those not kept rendered now (and kept).
    fn assembled(
        &self,
        store: &Store,
        asked: (&Filter, Window),
        known: Option<i64>,
        assembly: &Assembly<'_>,
    ) -> Result<(PageParts, i64), StoreError> {
        let render = |out: &mut String, record: &Record, related: &dyn RelatedLookup| {
            let renderer = Renderer {
                related,
                base: self.base,
                show_secrets: self.shape.show_secrets,
                names: self.names,
                layout: self.layout,
            };
            renderer.one(out, self.spec, record, self.shape.brief);
        };
        // The head alone: the objects' texts stay where they are kept.
        let head = |count: i64| {
            let mut head = self.shape.head(self.list_url, count, 0);
            head.push('[');
            head
        };
        let reads = (self.shape.relations, known);
        assembly.page(store, asked, reads, (PAGE_SLICE, &render, &head))
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

/// What a page of `spec` needs to be assembled from objects kept rendered: the texts, the
/// tables' versions read after the request arrived, and the shape of its objects; `None`
/// when no texts are kept for it, or lookups of its pages' texts have not been paying.
async fn texts_for(
    req: &HttpRequest,
    state: &AppState,
    spec: &'static ResourceSpec,
    asked: &ListRequest,
) -> Result<Option<KeptTexts>, ApiError> {
    if !state.texts.worth_consulting(spec, Lookup::Page) {
        return Ok(None);
    }
    let versions = crate::resource::table_versions(state).await?;
    let shape = Shape {
        brief: asked.brief,
        secrets: asked.show_secrets,
        names: state.settings.field_names,
        layout: crate::respond::layout(req),
        base: base_url(req),
    };
    Ok(Some((state.texts.clone(), versions, shape)))
}

/// The texts kept, the versions a request reconciles them with, and its objects' shape.
type KeptTexts = (Arc<ObjectTexts>, Arc<TableVersions>, Shape);

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
