//! The objects a render sees, loaded a resource at a time on first use and indexed by id
//! and by the foreign keys that filters follow backwards (an exchange's connections, a
//! group's sessions).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use peering_domain::resources::ALL;
use peering_domain::spec::RelatedLookup;
use peering_domain::{Record, ResourceSpec};

use crate::source::DataSource;

/// Positions of records by the id a foreign key holds.
type ByKey = HashMap<i64, Vec<usize>>;

/// Every object of one resource.
pub struct Table {
    pub spec: &'static ResourceSpec,
    pub records: Vec<Record>,
    by_id: HashMap<i64, usize>,
    /// Positions of the records by the value of a foreign key, built on first use.
    referring: Mutex<HashMap<&'static str, Arc<ByKey>>>,
}

impl Table {
    fn new(spec: &'static ResourceSpec, records: Vec<Record>) -> Table {
        let by_id = records.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
        Table {
            spec,
            records,
            by_id,
            referring: Mutex::new(HashMap::new()),
        }
    }

    pub fn position(&self, id: i64) -> Option<usize> {
        self.by_id.get(&id).copied()
    }

    /// Positions of the records whose foreign key `field` holds `id`, in list order.
    pub fn referring(&self, field: &'static str, id: i64) -> Vec<usize> {
        let index = {
            let mut indexes = self.referring.lock().unwrap_or_else(|e| e.into_inner());
            indexes
                .entry(field)
                .or_insert_with(|| Arc::new(self.index_by(field)))
                .clone()
        };
        index.get(&id).cloned().unwrap_or_default()
    }

    fn index_by(&self, field: &str) -> ByKey {
        let mut index = ByKey::new();
        if let Some(column) = self.spec.index_of(field) {
            for (i, record) in self.records.iter().enumerate() {
                if let Some(id) = record.values[column].as_int() {
                    index.entry(id).or_default().push(i);
                }
            }
        }
        index
    }
}

/// Which secret fields a render may show: those of resources the caller may change.
#[derive(Debug, Clone, Default)]
pub struct Secrets {
    visible: Vec<&'static str>,
}

impl Secrets {
    /// Secrets of these resources (`app.model`) are shown; others render as none.
    pub fn of(content_types: impl IntoIterator<Item = String>) -> Secrets {
        let visible = content_types
            .into_iter()
            .filter_map(|c| peering_domain::resources::by_content_type(&c))
            .map(|spec| spec.table)
            .collect();
        Secrets { visible }
    }

    /// Every secret shown (a tool rendering its own data).
    pub fn all() -> Secrets {
        Secrets {
            visible: ALL.iter().map(|spec| spec.table).collect(),
        }
    }

    pub fn shown(&self, spec: &ResourceSpec) -> bool {
        self.visible.contains(&spec.table)
    }
}

/// Every resource's objects, each loaded on first use and then kept: renders over the
/// same data (the same data version) can share one.
pub struct Tables {
    source: Box<dyn DataSource>,
    tables: Vec<OnceLock<Result<Table, String>>>,
}

impl Tables {
    pub fn new(source: Box<dyn DataSource>) -> Arc<Tables> {
        Arc::new(Tables {
            source,
            tables: ALL.iter().map(|_| OnceLock::new()).collect(),
        })
    }

    fn table(&self, spec: &'static ResourceSpec) -> Result<&Table, String> {
        let Some(slot) = ALL.iter().position(|s| s.table == spec.table) else {
            return Err(format!("{} is not a resource", spec.verbose_name));
        };
        self.tables[slot]
            .get_or_init(|| {
                self.source
                    .all(spec)
                    .map(|records| Table::new(spec, records))
                    .map_err(|e| format!("cannot read {}: {e}", spec.verbose_name))
            })
            .as_ref()
            .map_err(String::clone)
    }
}

/// The data of one render: the objects, and which secrets this render may show.
pub struct Dataset {
    tables: Arc<Tables>,
    pub(crate) secrets: Secrets,
    /// The first error met while loading; the render fails with it.
    failure: Mutex<Option<String>>,
}

impl Dataset {
    pub fn new(source: Box<dyn DataSource>, secrets: Secrets) -> Arc<Dataset> {
        Dataset::over(Tables::new(source), secrets)
    }

    /// A render's view of shared tables.
    pub fn over(tables: Arc<Tables>, secrets: Secrets) -> Arc<Dataset> {
        Arc::new(Dataset {
            tables,
            secrets,
            failure: Mutex::new(None),
        })
    }

    pub(crate) fn source(&self) -> &dyn DataSource {
        self.tables.source.as_ref()
    }

    /// Every object of `spec`, loaded on first use; `None` if loading failed (the error
    /// is kept for [`Dataset::take_failure`]).
    pub fn table(&self, spec: &'static ResourceSpec) -> Option<&Table> {
        match self.tables.table(spec) {
            Ok(table) => Some(table),
            Err(e) => {
                self.fail(e);
                None
            }
        }
    }

    pub fn record(&self, spec: &'static ResourceSpec, id: i64) -> Option<&Record> {
        let table = self.table(spec)?;
        table.position(id).map(|i| &table.records[i])
    }

    pub(crate) fn fail(&self, message: String) {
        let mut failure = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        failure.get_or_insert(message);
    }

    pub fn take_failure(&self) -> Option<String> {
        self.failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }
}

impl RelatedLookup for Dataset {
    fn related(&self, spec: &ResourceSpec, id: i64) -> Option<&Record> {
        let spec = ALL.iter().copied().find(|s| s.table == spec.table)?;
        self.record(spec, id)
    }
}
