//! Deletes: objects and, by the on-delete rules, what depends on them, with a number of
//! queries that depends on the resources involved, not on the number of objects.
//!
//! The objects to delete are gathered a generation at a time (one query per kind of
//! dependent for a whole generation), their change records are written in the order in
//! which the reference deletes them one by one (each object after what it takes with it),
//! then the rows go, deepest generation first.

use std::collections::{HashMap, HashSet};

use peering_domain::resources::group_by_resource;
use peering_domain::resources::ALL;
use peering_domain::spec::{Kind, OnDelete};
use peering_domain::{Record, ResourceSpec};

use crate::changes::{record_labelled_changes, snapshot, tag_names, Action, Change, ChangeContext};
use crate::connection::Db;
use crate::error::Error;
use crate::query::{by_ids, load_reads, shallow_referring, Related};
use crate::sql::{Bind, Sql};
use crate::written::Writes;

/// Deletes objects and, by the on-delete rules, what depends on them. Refuses the whole
/// operation when any object is protected by a dependent. Unknown ids are skipped.
pub(crate) fn delete(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    ids: &[i64],
    ctx: &ChangeContext,
) -> Result<(), Error> {
    let (records, mut related) = by_ids(db, spec, ids)?;
    refuse_protected(db, spec, &records)?;
    let doomed = Doomed::gather(db, spec, records)?;
    doomed.record_changes(db, ctx, &mut related)?;
    doomed.delete_rows(db)
}

/// The 409 listing the objects that protect some of `records`, if there are any.
fn refuse_protected(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    records: &[Record],
) -> Result<(), Error> {
    let ids: Vec<i64> = records.iter().map(|r| r.id).collect();
    let mut blockers = Vec::new();
    for (kind, (other, found)) in dependents(db, spec, &ids, OnDelete::Protect)?
        .into_iter()
        .enumerate()
    {
        for (parent, record) in found {
            blockers.push((parent, kind, other, record));
        }
    }
    if blockers.is_empty() {
        return Ok(());
    }
    // Listed as the reference finds them: by protected object, then kind, then id.
    let position: HashMap<i64, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    blockers.sort_by_key(|(parent, kind, _, record)| (position[parent], *kind, record.id));
    let mut related = Related::default();
    load_labels(
        db,
        blockers
            .iter()
            .map(|(_, _, other, record)| (*other, record)),
        &mut related,
    )?;
    let listed: Vec<String> = blockers
        .iter()
        .map(|(_, _, other, record)| {
            format!("{} ({})", record.display_with(other, &related), record.id)
        })
        .collect();
    Err(Error::Protected(format!(
        "unable to delete object. {} dependent objects were found: {}",
        blockers.len(),
        listed.join(", ")
    )))
}

/// For each kind of dependent of `spec` under `rule` (generic relations first, then foreign
/// keys, in declaration order): its resource and the dependents of the objects `ids`, each
/// with the id of the object it depends on, in id order.
type Dependents = Vec<(&'static ResourceSpec, Vec<(i64, Record)>)>;

fn dependents(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    ids: &[i64],
    rule: OnDelete,
) -> Result<Dependents, Error> {
    let mut out = Vec::new();
    // Generic relations that go with their object (assignments, journal entries).
    if rule == OnDelete::Cascade {
        for other in ALL.iter().copied() {
            let Some((type_field, id_field)) = other.fields.iter().find_map(|f| match f.kind {
                Kind::GenericObject {
                    type_field,
                    id_field,
                    cascade: true,
                } => Some((type_field, id_field)),
                _ => None,
            }) else {
                continue;
            };
            let named = Some((type_field, spec.content_type()));
            let found = shallow_referring(db, other, id_field, named, ids)?;
            let object_id = other
                .index_of(id_field)
                .expect("a generic relation's id field is declared");
            out.push((other, with_parent(found, object_id)));
        }
    }
    for other in ALL.iter().copied() {
        for (fi, field) in other.fields.iter().enumerate() {
            let Kind::ForeignKey { target, on_delete } = field.kind else {
                continue;
            };
            if on_delete != rule || !std::ptr::eq(target(), spec) {
                continue;
            }
            let column = format!("{}_id", field.name);
            let found = shallow_referring(db, other, &column, None, ids)?;
            out.push((other, with_parent(found, fi)));
        }
    }
    Ok(out)
}

/// Each record with the id its field `fi` holds.
fn with_parent(records: Vec<Record>, fi: usize) -> Vec<(i64, Record)> {
    records
        .into_iter()
        .filter_map(|r| Some((r.values[fi].as_int()?, r)))
        .collect()
}

/// One object to delete, and the objects deleted with it, in the order they go.
struct Node {
    spec: &'static ResourceSpec,
    record: Record,
    children: Vec<usize>,
}

/// Everything a delete takes: the objects named (the first generation), then each
/// generation of the objects that cascade from the previous one.
struct Doomed {
    /// The resource of the objects named.
    spec: &'static ResourceSpec,
    nodes: Vec<Node>,
    generations: Vec<Vec<usize>>,
}

impl Doomed {
    fn gather(
        db: &mut Db<'_>,
        spec: &'static ResourceSpec,
        records: Vec<Record>,
    ) -> Result<Doomed, Error> {
        let mut seen: HashSet<(&'static str, i64)> =
            records.iter().map(|r| (spec.table, r.id)).collect();
        let mut nodes: Vec<Node> = records
            .into_iter()
            .map(|record| Node {
                spec,
                record,
                children: Vec::new(),
            })
            .collect();
        let mut generations = vec![(0..nodes.len()).collect::<Vec<usize>>()];
        loop {
            let last = generations.last().expect("one generation at least");
            let mut next = Vec::new();
            for (parent_spec, parents) in
                group_by_resource::<_, Vec<_>>(last.iter().map(|&i| (nodes[i].spec, i)))
            {
                let ids: Vec<i64> = parents.iter().map(|&i| nodes[i].record.id).collect();
                let position: HashMap<i64, usize> =
                    parents.iter().map(|&i| (nodes[i].record.id, i)).collect();
                for (other, found) in dependents(db, parent_spec, &ids, OnDelete::Cascade)? {
                    for (parent, record) in found {
                        // An object reached twice (two foreign keys to the deleted objects)
                        // goes once, with the first object that takes it.
                        if !seen.insert((other.table, record.id)) {
                            continue;
                        }
                        // Found by kind, then id: each parent's dependents come in the
                        // order the reference finds them.
                        let index = nodes.len();
                        nodes.push(Node {
                            spec: other,
                            record,
                            children: Vec::new(),
                        });
                        nodes[position[&parent]].children.push(index);
                        next.push(index);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            generations.push(next);
        }
        Ok(Doomed {
            spec,
            nodes,
            generations,
        })
    }

    /// One change record per object, each object's after those of what it takes with it;
    /// the objects named keep a snapshot of what they were.
    fn record_changes(
        &self,
        db: &mut Db<'_>,
        ctx: &ChangeContext,
        related: &mut Related,
    ) -> Result<(), Error> {
        let dependents = self.generations[1..].iter().flatten();
        load_labels(
            db,
            dependents.map(|&i| (self.nodes[i].spec, &self.nodes[i].record)),
            related,
        )?;
        let mut order = Vec::with_capacity(self.nodes.len());
        for &root in &self.generations[0] {
            self.post_order(root, &mut order);
        }
        let named = &self.generations[0];
        let names = tag_names(
            db,
            self.spec,
            named.iter().map(|&i| &self.nodes[i].record),
            related,
        )?;
        let mut changes = Vec::with_capacity(order.len());
        for i in order {
            let node = &self.nodes[i];
            if !node.spec.change_logged {
                continue;
            }
            // The objects named come first among the nodes.
            let pre = (i < named.len()).then(|| snapshot(&names, node.spec, &node.record, None));
            let repr = node.record.display_with(node.spec, related);
            let change = Change {
                record: &node.record,
                action: Action::Delete,
                pre,
                post: None,
            };
            changes.push((node.spec, repr, change));
        }
        record_labelled_changes(db, ctx, related, changes)
    }

    fn post_order(&self, i: usize, out: &mut Vec<usize>) {
        for &child in &self.nodes[i].children {
            self.post_order(child, out);
        }
        out.push(i);
    }

    /// Deletes the rows (and tags) of each generation, the last first, so that no row goes
    /// before what refers to it.
    fn delete_rows(&self, db: &mut Db<'_>) -> Result<(), Error> {
        for generation in self.generations.iter().rev() {
            for (spec, members) in
                group_by_resource::<_, Vec<_>>(generation.iter().map(|&i| (self.nodes[i].spec, i)))
            {
                let ids: Vec<i64> = members.iter().map(|&i| self.nodes[i].record.id).collect();
                if spec.taggable() {
                    let mut tags = Sql::writing(
                        Writes::removes("tagged_items"),
                        "DELETE FROM tagged_items WHERE object_type = ",
                    );
                    tags.bind(Bind::Text(spec.content_type()))
                        .push(" AND ")
                        .in_ids(db.backend(), "object_id", &ids);
                    db.execute(&tags)?;
                }
                let mut rows = Sql::writing(
                    Writes::removes(spec.table),
                    &format!("DELETE FROM {} WHERE ", spec.table),
                );
                rows.in_primary_key(db.backend(), "id", &ids);
                db.execute(&rows)?;
            }
        }
        Ok(())
    }
}

/// Loads what the display rules of `objects` read (their labels), one query per resource
/// and reference whatever the number of objects.
fn load_labels<'r>(
    db: &mut Db<'_>,
    objects: impl Iterator<Item = (&'static ResourceSpec, &'r Record)>,
    related: &mut Related,
) -> Result<(), Error> {
    for (spec, records) in
        group_by_resource::<_, Vec<_>>(objects.map(|(spec, r)| (spec, r.clone())))
    {
        load_reads(db, spec, &records, related)?;
    }
    Ok(())
}
