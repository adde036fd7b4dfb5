//! Related objects: relation lists filled from their link tables, and the objects records
//! point to, each loaded with one query per related resource whatever the number of records.

use std::borrow::Borrow;
use std::collections::BTreeSet;

use rustc_hash::FxHashMap;
use std::sync::Arc;

use peering_domain::resources::group_by_resource;
use peering_domain::spec::Kind;
use peering_domain::{Record, ResourceSpec, Value};

use super::inline::lists_of;
use super::objects::shallow_by_ids;
use super::{KeptAt, Related};
use crate::connection::{Backend, Db};
use crate::error::Error;
use crate::kept::tables_shown_with;
use crate::sql::{Bind, Sql};
use crate::versions::{self, TableVersions};

/// Loads the objects that the display rule of `spec` reads (one query per such foreign
/// key, none for objects kept between reads), so that related objects are labelled as they
/// are on their own.
pub(crate) fn load_reads<R: Borrow<Record>>(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    records: &[R],
    related: &mut Related,
) -> Result<(), Error> {
    for name in spec.reads {
        let Some(i) = spec.index_of(name) else {
            continue;
        };
        if let Kind::GenericObject { .. } = spec.fields[i].kind {
            // One query per resource type named, whatever the number of records.
            let named = records
                .iter()
                .filter_map(|r| r.borrow().generic_target(spec));
            for (target, ids) in group_by_resource::<_, BTreeSet<i64>>(named) {
                load_shallow(db, spec, target, ids.into_iter().collect(), related)?;
            }
            continue;
        }
        let Kind::ForeignKey { target, .. } = spec.fields[i].kind else {
            continue;
        };
        let target = target();
        let ids: BTreeSet<i64> = records
            .iter()
            .filter_map(|r| r.borrow().values[i].as_int())
            .filter(|&id| not_at_hand(related, spec, target, id))
            .collect();
        load_shallow(db, spec, target, ids.into_iter().collect(), related)?;
    }
    Ok(())
}

/// Puts the objects `ids` of `target`, shown beside objects of `spec`, in `related`, with
/// what their labels read in turn (declarations form no cycles of reads): those kept
/// between reads at their table's current version (`kept.rs`), the others read, shallow,
/// in one query, and kept.
fn load_shallow(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    target: &'static ResourceSpec,
    ids: Vec<i64>,
    related: &mut Related,
) -> Result<(), Error> {
    if ids.is_empty() {
        return Ok(());
    }
    let kept = match db.kept() {
        Some(kept) => kept_version(db, spec, target, related)?.map(|v| (kept, v)),
        None => None,
    };
    let (mut objects, missing) = match kept {
        Some((kept, version)) => kept.take(target, version, ids),
        None => (Vec::new(), ids),
    };
    if !missing.is_empty() {
        let loaded: Vec<Arc<Record>> = (shallow_by_ids(db, target, &missing)?.into_iter())
            .map(Arc::new)
            .collect();
        if let Some((kept, version)) = kept {
            kept.keep(target, version, &loaded);
        }
        objects.extend(loaded);
    }
    load_reads(db, target, &objects, related)?;
    for object in objects {
        related.insert_shared(target, object);
    }
    Ok(())
}

/// The version under which this read takes and keeps objects of `target` (`kept.rs`), or
/// `None` when they are not kept. The versions are read once per read: carried by its rows,
/// or read here, at the first object wanted, for every table a read of `spec` may show.
fn kept_version(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    target: &'static ResourceSpec,
    related: &mut Related,
) -> Result<Option<i64>, Error> {
    let kept_at = match &mut related.kept_at {
        Some(kept_at) => kept_at,
        unread => {
            let tables = tables_shown_with(spec);
            let versions = if tables.is_empty() {
                TableVersions::default()
            } else {
                versions::read_of(db, tables)?
            };
            unread.insert(KeptAt { tables, versions })
        }
    };
    let known = kept_at.tables.binary_search(&target.table).is_ok();
    Ok(known.then(|| kept_at.versions.of(&[target.table])))
}

/// Whether a related object must be read: it is not at hand, or it is of `spec` itself,
/// which the caller may have just written. Objects of other resources read earlier in the
/// same call (a write's checks, its answer) stay as they were read.
fn not_at_hand(
    related: &Related,
    spec: &'static ResourceSpec,
    target: &'static ResourceSpec,
    id: i64,
) -> bool {
    std::ptr::eq(target, spec) || related.get(target, id).is_none()
}

/// Fills the relation lists of `records` and loads every object they point to, with a
/// fixed number of queries whatever the number of records: one for all the links of the
/// resource's relations (ids only), then one per related resource for the distinct objects.
pub(crate) fn attach_relations(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    records: &mut [Record],
    related: &mut Related,
) -> Result<(), Error> {
    load_links(db, spec, records)?;
    load_related(db, spec, records, related)
}

/// Fills the relation lists of `records` (empty as loaded) from their link tables, in one
/// query for all relations, each list in the order of the linked ids. The lists are put in
/// order here: ordered by the query, the rows were sorted through a temporary tree per
/// link table, which on SQLite took half the query's time (docs/performance.md,
/// seventeenth round).
pub(super) fn load_links(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    records: &mut [Record],
) -> Result<(), Error> {
    if records.is_empty() {
        return Ok(());
    }
    let ids: Vec<i64> = records.iter().map(|r| r.id).collect();
    let position: FxHashMap<i64, usize> =
        records.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
    let links = links_sql(db.backend(), spec, &ids);
    if !links.is_empty() {
        for row in db.load(&links)? {
            let (fi, owner, linked) = (row.int(0) as usize, row.int(1), row.int(2));
            if let Some(&i) = position.get(&owner) {
                if let Some(Value::Ids(list)) = records[i].values.get_mut(fi) {
                    list.push(linked);
                }
            }
        }
        for record in records.iter_mut() {
            for &(fi, _) in lists_of(spec) {
                if let Some(Value::Ids(list)) = record.values.get_mut(fi) {
                    list.sort_unstable();
                }
            }
        }
    }
    Ok(())
}

/// Where the links of a list relation are kept: `from` (a link table, aliased), its
/// column naming the owner and the one naming the linked object; tags are kept for every
/// resource in one table, with the owner's content type.
#[derive(Debug)]
pub(super) struct LinkTable {
    pub from: String,
    pub owner: String,
    pub linked: String,
    pub tagged: bool,
}

impl LinkTable {
    /// The link table of a list relation, `None` for any other kind of field.
    pub fn of(kind: &Kind) -> Option<LinkTable> {
        match *kind {
            Kind::ManyToMany {
                table: through,
                source,
                target_column,
                ..
            } => Some(LinkTable {
                from: format!("{through} th"),
                owner: format!("th.{source}"),
                linked: format!("th.{target_column}"),
                tagged: false,
            }),
            Kind::Tags => Some(LinkTable {
                from: "tagged_items ti".to_string(),
                owner: "ti.object_id".to_string(),
                linked: "ti.tag_id".to_string(),
                tagged: true,
            }),
            _ => None,
        }
    }

    /// ` AND <the owner's content type>` for tags, nothing for others.
    pub fn and_of_type(&self, sql: &mut Sql, spec: &ResourceSpec) {
        if self.tagged {
            sql.push(" AND ti.object_type = ")
                .bind(Bind::Text(spec.content_type()));
        }
    }
}

/// The links of every list relation of the objects `ids`, in one query: rows of (field
/// index, owner id, linked id), in no order (empty: no list relation).
pub(crate) fn links_sql(backend: Backend, spec: &ResourceSpec, ids: &[i64]) -> Sql {
    let mut links = Sql::default();
    for (fi, field) in spec.fields.iter().enumerate() {
        let Some(link) = LinkTable::of(&field.kind) else {
            continue;
        };
        let LinkTable {
            from,
            owner,
            linked,
            ..
        } = &link;
        let mut branch = Sql::new(&format!("SELECT {fi}, {owner}, {linked} FROM "));
        // On SQLite the ids are read first and each probes the link table's index: as
        // `IN (SELECT … json_each)`, each branch first copied them into a temporary index.
        match backend {
            Backend::Sqlite => {
                branch.sqlite_ids_joined(ids).push(from);
                branch.push(&format!(" ON {owner} = j.value"));
            }
            Backend::Postgres => {
                branch
                    .push(from)
                    .push(" WHERE ")
                    .in_ids(backend, owner, ids);
            }
        }
        link.and_of_type(&mut branch, spec);
        if !links.is_empty() {
            links.push(" UNION ALL ");
        }
        links.append(&branch);
    }
    links
}

/// Loads every object that `records` point to (foreign keys, generic objects, relation
/// lists), one query per related resource, and puts tag lists in name order.
pub(crate) fn load_related(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    records: &mut [Record],
    related: &mut Related,
) -> Result<(), Error> {
    let (wanted, list_fields) = related_ids(spec, records);
    for (target, set) in wanted {
        let ids: Vec<i64> = set
            .into_iter()
            .filter(|&id| not_at_hand(related, spec, target, id))
            .collect();
        load_shallow(db, spec, target, ids, related)?;
    }
    sort_tags(records, &list_fields, related);
    Ok(())
}

/// Related resources in declaration order, each with the ids `records` point to; and the
/// relation lists (field index, target).
type RelatedIds = (
    Vec<(&'static ResourceSpec, BTreeSet<i64>)>,
    Vec<(usize, &'static ResourceSpec)>,
);

fn related_ids(spec: &'static ResourceSpec, records: &[Record]) -> RelatedIds {
    let mut wanted: Vec<(&'static ResourceSpec, i64)> = Vec::new();
    let mut want = |target: &'static ResourceSpec, id: i64| wanted.push((target, id));
    let mut list_fields: Vec<(usize, &'static ResourceSpec)> = Vec::new();
    for (fi, field) in spec.fields.iter().enumerate() {
        let target = match field.kind {
            Kind::ForeignKey { target, .. } => {
                for id in records.iter().filter_map(|r| r.values[fi].as_int()) {
                    want(target(), id);
                }
                continue;
            }
            Kind::GenericObject { .. } => {
                for (target, id) in records.iter().filter_map(|r| r.generic_target(spec)) {
                    want(target, id);
                }
                continue;
            }
            Kind::ManyToMany { target, .. } => target(),
            Kind::Tags => &peering_domain::resources::TAG,
            _ => continue,
        };
        list_fields.push((fi, target));
        for record in records {
            for id in record.values[fi].as_ids() {
                want(target, *id);
            }
        }
    }
    (group_by_resource(wanted), list_fields)
}

/// Tags are listed by name, as the reference orders them.
fn sort_tags(
    records: &mut [Record],
    list_fields: &[(usize, &'static ResourceSpec)],
    related: &Related,
) {
    let tag = &peering_domain::resources::TAG;
    for &(fi, target) in list_fields {
        if !std::ptr::eq(target, tag) {
            continue;
        }
        for record in records.iter_mut() {
            if let Some(Value::Ids(list)) = record.values.get_mut(fi) {
                list.sort_by_cached_key(|id| {
                    let name = related
                        .get(tag, *id)
                        .map(|t| t.text(tag, "name").to_string());
                    (name, *id)
                });
            }
        }
    }
}
