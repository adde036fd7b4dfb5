//! Relation lists (many-to-many and tags) of written objects: old links cleared on update,
//! new ones inserted, a few statements per relation whatever the number of objects.

use peering_domain::spec::{Field, Kind};
use peering_domain::{Record, ResourceSpec};

use crate::connection::Db;
use crate::error::Error;
use crate::sql::{Bind, Sql};
use crate::written::Writes;

/// Writes the relation lists (many-to-many and tags) of written objects (each once): all
/// of them for new objects (`named: None`), else those each update names (by field
/// index), replacing the old links. A few statements per relation, whatever the number of
/// objects.
pub(super) fn write_links(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    records: &[&Record],
    named: Option<&[Vec<bool>]>,
) -> Result<(), Error> {
    for (i, field) in spec.fields.iter().enumerate() {
        let Some(link) = Link::of(field) else {
            continue;
        };
        let written: Vec<&Record> = records
            .iter()
            .enumerate()
            .filter(|(n, _)| named.is_none_or(|named| named[*n][i]))
            .map(|(_, r)| *r)
            .collect();
        if written.is_empty() {
            continue;
        }
        // New objects have no links to clear.
        if named.is_some() {
            let ids: Vec<i64> = written.iter().map(|r| r.id).collect();
            db.execute(&link.clear(db.backend(), spec, &ids))?;
        }
        let rows = written
            .iter()
            .flat_map(|r| r.values[i].as_ids().iter().map(move |t| (r.id, *t)))
            .map(|(id, target)| link.row(spec, id, target))
            .collect();
        db.insert(link.through, &link.columns(), rows)?;
    }
    Ok(())
}

/// Where a relation list's links are kept: rows of `through` pairing `source` (the object)
/// with `target_column`; tags also name the object's type.
struct Link {
    through: &'static str,
    source: &'static str,
    target_column: &'static str,
    tags: bool,
}

impl Link {
    fn of(field: &Field) -> Option<Link> {
        let (through, source, target_column) = match field.kind {
            Kind::ManyToMany {
                table,
                source,
                target_column,
                ..
            } => (table, source, target_column),
            Kind::Tags => ("tagged_items", "object_id", "tag_id"),
            _ => return None,
        };
        Some(Link {
            through,
            source,
            target_column,
            tags: matches!(field.kind, Kind::Tags),
        })
    }

    /// Deletes the links of the objects `ids`.
    fn clear(&self, backend: crate::Backend, spec: &ResourceSpec, ids: &[i64]) -> Sql {
        let mut clear = Sql::writing(
            Writes::removes(self.through),
            &format!("DELETE FROM {} WHERE ", self.through),
        );
        if self.tags {
            clear
                .push("object_type = ")
                .bind(Bind::Text(spec.content_type()))
                .push(" AND ");
        }
        clear.in_ids(backend, self.source, ids);
        clear
    }

    fn columns(&self) -> Vec<&'static str> {
        if self.tags {
            vec!["object_type", self.source, self.target_column]
        } else {
            vec![self.source, self.target_column]
        }
    }

    /// The row linking the object `id` to `target`, in `columns` order.
    fn row(&self, spec: &ResourceSpec, id: i64, target: i64) -> Vec<Bind> {
        let mut row = Vec::with_capacity(3);
        if self.tags {
            row.push(Bind::Text(spec.content_type()));
        }
        row.extend([Bind::Int(id), Bind::Int(target)]);
        row
    }
}
