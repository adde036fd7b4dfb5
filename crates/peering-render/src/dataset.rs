//! The objects a render sees, loaded a resource at a time on first use and indexed by id
//! and by the foreign keys that filters follow backwards (an exchange's connections, a
//! group's sessions).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use peering_domain::resources::{ALL, PDB_FACILITY, PDB_NETWORK_IXLAN};
use peering_domain::spec::RelatedLookup;
use peering_domain::{Record, ResourceSpec};

use crate::source::{DataSource, StoredKind, StoredTemplate};

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
                .or_insert_with(|| Arc::new(crate::budget::uncounted(|| self.index_by(field))))
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
        Secrets {
            visible: tables_of(content_types),
        }
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

/// The tables of the resources named `app.model`; unknown names are left out.
fn tables_of(content_types: impl IntoIterator<Item = String>) -> Vec<&'static str> {
    content_types
        .into_iter()
        .filter_map(|c| peering_domain::resources::by_content_type(&c))
        .map(|spec| spec.table)
        .collect()
}

/// Whom a render is for: the resources whose objects it sees (those its caller may read
/// through the API; the others look empty), the secrets it shows, and the caller, whose
/// own objects show their secrets (a job's output to the user who asked for it).
#[derive(Debug, Clone)]
pub struct Audience {
    /// Tables whose objects are seen; `None`: every one.
    readable: Option<Vec<&'static str>>,
    secrets: Secrets,
    user: Option<i64>,
}

impl Audience {
    /// A caller who may read the resources named (`app.model`) and see the secrets given.
    pub fn reading(
        readable: impl IntoIterator<Item = String>,
        secrets: Secrets,
        user: Option<i64>,
    ) -> Audience {
        Audience {
            readable: Some(tables_of(readable)),
            secrets,
            user,
        }
    }

    /// Whether objects of `spec` are seen.
    pub fn reads(&self, spec: &ResourceSpec) -> bool {
        self.readable
            .as_ref()
            .is_none_or(|tables| tables.contains(&spec.table))
    }

    /// Whether `record`'s secret fields are shown: the caller may change its resource, or
    /// owns it.
    pub fn shows_secrets_of(&self, spec: &ResourceSpec, record: &Record) -> bool {
        self.secrets.shown(spec)
            || spec.owner.is_some_and(|field| {
                self.user.is_some() && record.get(spec, field).as_int() == self.user
            })
    }
}

/// Everything readable, with these secrets: a tool rendering its own data.
impl From<Secrets> for Audience {
    fn from(secrets: Secrets) -> Audience {
        Audience {
            readable: None,
            secrets,
            user: None,
        }
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
        // Loaded once for every render of the data version: not the render's own memory.
        self.tables[slot]
            .get_or_init(|| {
                crate::budget::uncounted(|| {
                    self.source
                        .all(spec)
                        .map(|records| Table::new(spec, records))
                        .map_err(|e| format!("cannot read {}: {e}", spec.verbose_name))
                })
            })
            .as_ref()
            .map_err(String::clone)
    }
}

/// The data of one render: the objects its audience may read, and which secrets it shows.
pub struct Dataset {
    tables: Arc<Tables>,
    /// The tables' source as this render may use it.
    source: ForAudience,
    /// The first error met while loading; the render fails with it.
    failure: Mutex<Option<String>>,
}

impl Dataset {
    pub fn new(source: Box<dyn DataSource>, audience: impl Into<Audience>) -> Arc<Dataset> {
        Dataset::over(Tables::new(source), audience)
    }

    /// A render's view of shared tables.
    pub fn over(tables: Arc<Tables>, audience: impl Into<Audience>) -> Arc<Dataset> {
        let source = ForAudience {
            tables: tables.clone(),
            audience: audience.into(),
        };
        Arc::new(Dataset {
            tables,
            source,
            failure: Mutex::new(None),
        })
    }

    /// What filters and includes read beyond the tables, limited to what the audience may
    /// read: stored templates, the PeeringDB copy.
    pub(crate) fn source(&self) -> &dyn DataSource {
        &self.source
    }

    pub fn audience(&self) -> &Audience {
        &self.source.audience
    }

    /// Every object of `spec`, loaded on first use; `None` if the audience may not read
    /// them, or if loading failed (the error is kept for [`Dataset::take_failure`]).
    pub fn table(&self, spec: &'static ResourceSpec) -> Option<&Table> {
        if !self.audience().reads(spec) {
            return None;
        }
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

/// A data source answering only about what an audience may read: nothing (no template,
/// no record) about the rest.
struct ForAudience {
    tables: Arc<Tables>,
    audience: Audience,
}

impl ForAudience {
    fn reads(&self, spec: &ResourceSpec) -> bool {
        self.audience.reads(spec)
    }
}

impl DataSource for ForAudience {
    fn all(&self, spec: &'static ResourceSpec) -> Result<Vec<Record>, String> {
        if !self.reads(spec) {
            return Ok(Vec::new());
        }
        self.tables.source.all(spec)
    }

    fn template(
        &self,
        kind: StoredKind,
        identifier: &str,
    ) -> Result<Option<StoredTemplate>, String> {
        if !self.reads(kind.spec()) {
            return Ok(None);
        }
        self.tables.source.template(kind, identifier)
    }

    fn shared_lans(&self, asn: i64, other: i64) -> Result<Vec<i64>, String> {
        if !self.reads(&PDB_NETWORK_IXLAN) {
            return Ok(Vec::new());
        }
        self.tables.source.shared_lans(asn, other)
    }

    fn shared_facilities(&self, asn: i64, other: i64) -> Result<Vec<Record>, String> {
        if !self.reads(&PDB_FACILITY) || !self.reads(&PDB_NETWORK_IXLAN) {
            return Ok(Vec::new());
        }
        self.tables.source.shared_facilities(asn, other)
    }

    fn lan_records(&self, asn: i64, lans: &[i64]) -> Result<Vec<Record>, String> {
        if !self.reads(&PDB_NETWORK_IXLAN) {
            return Ok(Vec::new());
        }
        self.tables.source.lan_records(asn, lans)
    }
}

impl RelatedLookup for Dataset {
    fn related(&self, spec: &ResourceSpec, id: i64) -> Option<&Record> {
        let spec = ALL.iter().copied().find(|s| s.table == spec.table)?;
        self.record(spec, id)
    }
}
