//! Details asked at the same time, read in one statement.
//!
//! A detail is one short statement, and most of its cost is the statement's own: on
//! PostgreSQL a round trip to another process, parsing the parameters, starting the
//! executor (eight objects by id in one statement cost it little more than one); on both
//! backends a trip to a thread that may block and a connection taken from the pool. So a
//! request for a detail leaves its id in its resource's queue, and a reader (at most
//! `READERS_PER_RESOURCE` of them, each on a thread that may block) reads everything
//! queued in one statement, hands each request its object, and is run again, after the
//! other work waiting for such a thread, while the queue holds more. A request that finds
//! a reader free is read at once, and no request joins a statement already started: it
//! sees every write that ended before it arrived. The requests wait without a thread (the
//! caller's `answer` is called), so that many can wait on a few threads.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use peering_domain::{Record, ResourceSpec};

use crate::error::Error;
use crate::query::Related;

/// Readers of one resource's details at once: two keep the database busy while the next
/// statement's ids gather, and leave the other connections of the pool to other reads.
const READERS_PER_RESOURCE: usize = 2;
/// At most this many objects in one statement.
const MOST_TOGETHER: usize = 32;

/// An object as a detail shows it, or none when it does not exist.
pub type Detail = Option<(Record, Related)>;

/// What is done with a detail once read (or its error), on the reader's thread.
pub type Answer = Box<dyn FnOnce(Result<Detail, Error>) + Send>;

/// Runs work on a thread that may block, after the work already waiting for one.
pub type Run = fn(Box<dyn FnOnce() + Send>);

/// Objects by id (those that exist, in any order) and the objects they show.
pub(crate) type Read<'a> = dyn Fn(&[i64]) -> Result<(Vec<Record>, Related), Error> + 'a;

/// The queue of each resource (by table) and its readers.
#[derive(Default)]
pub(crate) struct Together {
    lanes: Mutex<HashMap<&'static str, Lane>>,
}

impl std::fmt::Debug for Together {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Together").finish_non_exhaustive()
    }
}

#[derive(Default)]
struct Lane {
    readers: usize,
    waiting: Vec<Waiter>,
}

/// A request waiting for its object.
struct Waiter {
    id: i64,
    answer: Answer,
}

impl Together {
    /// Queues a request for object `id` of `spec`; returns a reader when the caller must
    /// run one ([`Reader::read_next`]) on a thread that may block.
    pub(crate) fn ask(
        self: &Arc<Self>,
        spec: &'static ResourceSpec,
        id: i64,
        answer: Answer,
    ) -> Option<Reader> {
        let mut lanes = lanes(self);
        let lane = lanes.entry(spec.table).or_default();
        lane.waiting.push(Waiter { id, answer });
        if lane.readers >= READERS_PER_RESOURCE {
            return None;
        }
        lane.readers += 1;
        Some(Reader {
            together: self.clone(),
            table: spec.table,
            done: false,
        })
    }
}

/// A reader of a lane. One that ends without emptying its queue (dropped before it ran,
/// or by a panic) counts one less, and, the last, drops the answers waiting, which tells
/// their requests: nobody else would read them.
pub(crate) struct Reader {
    together: Arc<Together>,
    table: &'static str,
    done: bool,
}

impl Reader {
    /// Reads the oldest requests queued in one statement; returns the reader when it
    /// read some, to be run again (after the other work waiting for a thread that may
    /// block: a reader never holds its thread while requests keep coming), or none when
    /// the queue was empty.
    pub(crate) fn read_next(mut self, read: &Read<'_>) -> Option<Reader> {
        let batch = self.next_batch()?;
        serve(batch, read);
        Some(self)
    }

    /// The oldest requests queued; none when the queue is empty, and the reader is then
    /// counted out at once, so that a request queued next starts another.
    fn next_batch(&mut self) -> Option<Vec<Waiter>> {
        let mut lanes = lanes(&self.together);
        let lane = lanes.get_mut(self.table)?;
        if lane.waiting.is_empty() {
            lane.readers -= 1;
            drop(lanes);
            self.done = true;
            return None;
        }
        let take = lane.waiting.len().min(MOST_TOGETHER);
        Some(lane.waiting.drain(..take).collect())
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let mut lanes = lanes(&self.together);
        if let Some(lane) = lanes.get_mut(self.table) {
            lane.readers -= 1;
            if lane.readers == 0 {
                lane.waiting.clear();
            }
        }
    }
}

fn lanes(together: &Together) -> MutexGuard<'_, HashMap<&'static str, Lane>> {
    together
        .lanes
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

/// Reads a batch's objects in one statement and gives each request its own, or the
/// statement's error: a detail's read fails for the database's reasons, not the object's.
fn serve(batch: Vec<Waiter>, read: &Read<'_>) {
    let mut ids: Vec<i64> = batch.iter().map(|w| w.id).collect();
    ids.sort_unstable();
    ids.dedup();
    match read(&ids) {
        Ok((records, related)) => hand_out(records, related, batch),
        Err(e) => {
            for waiter in batch {
                (waiter.answer)(Err(e.clone()));
            }
        }
    }
}

/// Gives each waiter its object and the objects it shows (copies: a record is small beside
/// the statement it saves).
fn hand_out(records: Vec<Record>, related: Related, batch: Vec<Waiter>) {
    let found: HashMap<i64, Record> = records.into_iter().map(|r| (r.id, r)).collect();
    for waiter in batch {
        let detail = found
            .get(&waiter.id)
            .map(|record| (record.clone(), related.clone()));
        (waiter.answer)(Ok(detail));
    }
}

#[cfg(test)]
mod tests;
