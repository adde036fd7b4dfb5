//! Related objects kept between reads. The objects a read shows beside the ones it was asked
//! for (an AS's routing policies, communities and tags; a session's exchange and router)
//! are the same few rows read after read. They are kept here, shallow, per table and under
//! the version of their table (`versions.rs`), and a read takes them from here while that
//! version holds: one statement reads the versions of every table the read may need, in
//! place of one statement per related resource.
//!
//! A kept object is never older than its key: the versions are read before the objects
//! they key, so an object kept under a version was read at that version or after. Reads in
//! a write transaction neither take nor keep objects: they see what the transaction wrote
//! before its versions change.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use peering_domain::resources::PerResource;
use peering_domain::spec::Kind;
use peering_domain::{Record, ResourceSpec};

/// At most this many objects are kept, all tables together; past it, a table's objects are
/// read as if none were kept until its version changes. Objects take a kilobyte or two.
const MOST_KEPT: usize = 2048;

/// Objects kept between reads, per table, each table's under one version.
#[derive(Debug, Default)]
pub(crate) struct KeptObjects {
    tables: Mutex<Tables>,
}

#[derive(Debug, Default)]
struct Tables {
    by_table: HashMap<&'static str, Kept>,
    /// Objects kept, all tables together.
    count: usize,
}

#[derive(Debug)]
struct Kept {
    version: i64,
    objects: HashMap<i64, Arc<Record>>,
}

impl KeptObjects {
    fn lock(&self) -> MutexGuard<'_, Tables> {
        // Maps of immutable objects: a panic cannot leave one half-updated.
        self.tables.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The objects among `ids` kept under `version` of `spec`'s table, and the ids of the
    /// others, which must be read.
    pub fn take(
        &self,
        spec: &'static ResourceSpec,
        version: i64,
        ids: Vec<i64>,
    ) -> (Vec<Arc<Record>>, Vec<i64>) {
        let tables = self.lock();
        let Some(kept) = (tables.by_table.get(spec.table)).filter(|k| k.version == version) else {
            return (Vec::new(), ids);
        };
        let mut found = Vec::with_capacity(ids.len());
        let mut missing = Vec::new();
        for id in ids {
            match kept.objects.get(&id) {
                Some(object) => found.push(Arc::clone(object)),
                None => missing.push(id),
            }
        }
        (found, missing)
    }

    /// Keeps `objects` of `spec`, read at `version` of its table or after. Objects kept
    /// under another version are dropped first.
    pub fn keep(&self, spec: &'static ResourceSpec, version: i64, objects: &[Arc<Record>]) {
        if objects.is_empty() {
            return;
        }
        let mut tables = self.lock();
        let Tables { by_table, count } = &mut *tables;
        let kept = by_table.entry(spec.table).or_insert_with(|| Kept {
            version,
            objects: HashMap::new(),
        });
        if kept.version != version {
            *count -= kept.objects.len();
            kept.version = version;
            kept.objects.clear();
        }
        for object in objects {
            if *count >= MOST_KEPT {
                break;
            }
            if kept.objects.insert(object.id, Arc::clone(object)).is_none() {
                *count += 1;
            }
        }
    }

    /// Objects kept, all tables together.
    #[cfg(test)]
    pub fn count(&self) -> usize {
        self.lock().count
    }
}

/// The tables whose objects a read of `spec` may show beside its own: those its foreign
/// keys and relation lists point to, and what their labels read in turn (generic objects
/// name their resource in each row, and are not kept).
pub(crate) fn tables_shown_with(spec: &'static ResourceSpec) -> &'static [&'static str] {
    static TABLES: PerResource<Vec<&'static str>> = PerResource::new(|spec| {
        let mut tables = BTreeSet::new();
        for field in spec.fields {
            match field.kind {
                Kind::ForeignKey { target, .. } | Kind::ManyToMany { target, .. } => {
                    add_with_reads(target(), &mut tables);
                }
                Kind::Tags => add_with_reads(&peering_domain::resources::TAG, &mut tables),
                _ => {}
            }
        }
        tables.into_iter().collect()
    });
    TABLES.get(spec).map_or(&[], Vec::as_slice)
}

/// Adds `spec`'s table and those its display rule reads, in turn.
fn add_with_reads(spec: &'static ResourceSpec, tables: &mut BTreeSet<&'static str>) {
    if !tables.insert(spec.table) {
        return;
    }
    for name in spec.reads {
        let field = spec.index_of(name).map(|i| &spec.fields[i].kind);
        if let Some(Kind::ForeignKey { target, .. }) = field {
            add_with_reads(target(), tables);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use peering_domain::resources::{AUTONOMOUS_SYSTEM, TAG};
    use peering_domain::Value;

    fn object(id: i64) -> Arc<Record> {
        Arc::new(Record {
            id,
            values: vec![Value::Int(id)],
        })
    }

    #[test]
    fn objects_are_taken_only_under_the_version_they_were_kept_at() {
        let kept = KeptObjects::default();
        kept.keep(&TAG, 7, &[object(1), object(2)]);
        let (found, missing) = kept.take(&TAG, 7, vec![2, 3, 1]);
        assert_eq!(found.iter().map(|r| r.id).collect::<Vec<_>>(), [2, 1]);
        assert_eq!(missing, [3]);
        let (found, missing) = kept.take(&TAG, 8, vec![1, 2]);
        assert!(found.is_empty());
        assert_eq!(missing, [1, 2]);
        // Another table's version is its own.
        assert_eq!(kept.take(&AUTONOMOUS_SYSTEM, 7, vec![1]).1, [1]);
    }

    #[test]
    fn a_new_version_drops_what_the_old_one_kept() {
        let kept = KeptObjects::default();
        kept.keep(&TAG, 1, &[object(1), object(2)]);
        kept.keep(&TAG, 2, &[object(3)]);
        assert_eq!(kept.count(), 1);
        assert_eq!(kept.take(&TAG, 2, vec![1, 3]).1, [1]);
        assert_eq!(kept.take(&TAG, 1, vec![1]).1, [1]);
    }

    #[test]
    fn no_more_than_the_most_kept_are_kept() {
        let kept = KeptObjects::default();
        let many: Vec<_> = (0..MOST_KEPT as i64 + 10).map(object).collect();
        kept.keep(&TAG, 1, &many);
        kept.keep(&AUTONOMOUS_SYSTEM, 1, &many[..5]);
        assert_eq!(kept.count(), MOST_KEPT);
        // Dropped with their version, they leave room for others.
        kept.keep(&TAG, 2, &many[..3]);
        kept.keep(&AUTONOMOUS_SYSTEM, 1, &many[..5]);
        assert_eq!(kept.count(), 8);
    }

    #[test]
    fn a_read_may_show_the_tables_its_relations_point_to_and_what_they_read() {
        let tables = tables_shown_with(&AUTONOMOUS_SYSTEM);
        assert!(tables.contains(&TAG.table), "{tables:?}");
        assert!(!tables.contains(&AUTONOMOUS_SYSTEM.table), "{tables:?}");
    }
}
