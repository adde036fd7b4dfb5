//! A list too large for one buffer (`limit=0` with no maximum page size, or a page above
//! [`STREAMED_ABOVE`](super::STREAMED_ABOVE)), written in slices as the client reads it.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;

use actix_web::error::BlockingError;
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};
use futures_util::stream::{self, Stream, StreamExt};
use peering_domain::resources::Layout;
use peering_domain::Record;
use peering_domain::ResourceSpec;
use peering_store::{Error as StoreError, Related, Store};

use super::{bytes_per_object, checked_read, list_url, ListRequest};
use crate::error::ApiError;
use crate::respond::base_url;
use crate::AppState;
use peering_represent::{Renderer, SecretView};

/// Objects read and rendered per slice of a streamed answer.
const SLICE: usize = 500;
/// Slices read ahead of the one being written, each on its own connection: the database
/// (or, on SQLite, another core) works while the server renders and sends. Memory holds
/// one slice more than this.
const READ_AHEAD: usize = 2;

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
