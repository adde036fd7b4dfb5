//! Writes bodies as the HTTP API does: each body is parsed and validated like a POST, goes
//! through the write rules (`peering_app::edits`), gets its change record, and each batch
//! is one transaction.

use std::time::{Duration, Instant};

use peering_app::edits::Edits;
use peering_domain::input::{parse, Mode};
use peering_domain::ResourceSpec;
use peering_store::{ChangeContext, Store};
use serde_json::Value as Json;

/// Objects per `Store::create` call (one transaction each).
const BATCH: usize = 1000;

/// What was written, per resource, in order of first write.
pub struct Tally {
    pub spec: &'static ResourceSpec,
    pub count: usize,
    pub time: Duration,
    /// SQL statements run, reads back included.
    pub queries: u64,
}

pub struct Writer {
    edits: Edits,
    /// Counts the statements each batch runs.
    store: Store,
    ctx: ChangeContext,
    pub tallies: Vec<Tally>,
}

impl Writer {
    pub fn new(edits: Edits, store: Store, ctx: ChangeContext) -> Writer {
        Writer {
            edits,
            store,
            ctx,
            tallies: Vec::new(),
        }
    }

    /// Creates the objects of `bodies` in batches; returns their ids in order.
    pub fn create(
        &mut self,
        spec: &'static ResourceSpec,
        bodies: impl IntoIterator<Item = Json>,
    ) -> Result<Vec<i64>, String> {
        let mut ids = Vec::new();
        let mut bodies = bodies.into_iter().peekable();
        while bodies.peek().is_some() {
            let batch: Vec<Json> = bodies.by_ref().take(BATCH).collect();
            ids.extend(self.create_batch(spec, &batch)?);
            if ids.len() % (50 * BATCH) == 0 {
                log::info!("demo-data: {} {} written", ids.len(), spec.path);
            }
        }
        Ok(ids)
    }

    /// Creates one object; returns its id.
    pub fn create_one(&mut self, spec: &'static ResourceSpec, body: Json) -> Result<i64, String> {
        Ok(self.create(spec, [body])?[0])
    }

    fn create_batch(
        &mut self,
        spec: &'static ResourceSpec,
        bodies: &[Json],
    ) -> Result<Vec<i64>, String> {
        let started = Instant::now();
        let queries = self.store.queries_executed();
        let drafts = bodies
            .iter()
            .map(|body| {
                parse(spec, body, Mode::Create).map_err(|e| rejected(spec, body, e.into_json()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let (records, _) = self
            .edits
            .create(spec, drafts, &self.ctx)
            .map_err(|e| match e {
                peering_store::Error::Invalid { index, errors } => {
                    rejected(spec, &bodies[index.unwrap_or(0)], errors.into_json())
                }
                other => format!("{}: {other}", spec.path),
            })?;
        let elapsed = started.elapsed();
        let queries = self.store.queries_executed() - queries;
        match self.tallies.iter_mut().find(|t| std::ptr::eq(t.spec, spec)) {
            Some(t) => {
                t.count += records.len();
                t.time += elapsed;
                t.queries += queries;
            }
            None => self.tallies.push(Tally {
                spec,
                count: records.len(),
                time: elapsed,
                queries,
            }),
        }
        Ok(records.iter().map(|r| r.id).collect())
    }
}

/// A body the store refused: a bug in the generator, reported with the body and the errors.
fn rejected(spec: &ResourceSpec, body: &Json, errors: Json) -> String {
    format!("{} refused {body}: {errors}", spec.path)
}
