//! What an object's row carries besides its columns, so that one statement reads what took
//! several: the ids of its relation lists (a subquery each, listing them as text), and the
//! versions of the tables whose objects it shows, which say whether those kept between
//! reads still hold (`kept.rs`; the same in every row, read once by the database). Read in
//! the row's statement, the versions are never newer than the objects they key, which are
//! read after.

use peering_domain::resources::PerResource;
use peering_domain::{Record, ResourceSpec, Value};

use super::relations::LinkTable;
use super::{KeptAt, Related};
use crate::connection::{Backend, Db};
use crate::kept::tables_shown_with;
use crate::sql::{Cell, DbRow, Sql};
use crate::versions::{self, TableVersions};

/// The extra columns of a read's rows, after the object's own.
#[derive(Debug)]
pub(crate) struct Inline {
    spec: &'static ResourceSpec,
    /// The relation lists read with the row (field index, link table), in column order.
    lists: &'static [(usize, LinkTable)],
    /// The tables whose versions end the row; none for a read that takes no kept objects.
    versions: &'static [&'static str],
}

/// The relation lists of `spec` with their link tables.
pub(super) fn lists_of(spec: &'static ResourceSpec) -> &'static [(usize, LinkTable)] {
    static LISTS: PerResource<Vec<(usize, LinkTable)>> = PerResource::new(|spec| {
        (spec.fields.iter().enumerate())
            .filter_map(|(i, f)| LinkTable::of(&f.kind).map(|link| (i, link)))
            .collect()
    });
    LISTS.get(spec).map_or(&[], Vec::as_slice)
}

impl Inline {
    /// What rows of `spec` read on `db` carry, `relations` or only what labels read.
    pub fn of(db: &Db<'_>, spec: &'static ResourceSpec, relations: bool) -> Inline {
        Inline::new(spec, relations, db.kept().is_some())
    }

    /// What the rows of a read with its relations that takes kept objects carry (the
    /// statements the tests pin).
    #[cfg(test)]
    pub fn of_read_with_relations(spec: &'static ResourceSpec) -> Inline {
        Inline::new(spec, true, true)
    }

    /// What rows of `spec` carry: their lists with their `relations`, and the versions when
    /// the read may take kept objects (`kept`) and will want related objects (with its
    /// relations, or for what its labels read).
    fn new(spec: &'static ResourceSpec, relations: bool, kept: bool) -> Inline {
        let wants_related = relations || !spec.reads.is_empty();
        Inline {
            spec,
            lists: if relations { lists_of(spec) } else { &[] },
            versions: if kept && wants_related {
                tables_shown_with(spec)
            } else {
                &[]
            },
        }
    }

    /// The same without the relation lists, for a read that takes them from the links
    /// query instead (`relations.rs::load_links`).
    pub fn without_lists(self) -> Inline {
        Inline { lists: &[], ..self }
    }

    /// Whether the rows carry their relation lists.
    pub fn carries_lists(&self) -> bool {
        !self.lists.is_empty()
    }

    /// Whether `spec` has relation lists to carry.
    pub fn has_lists(spec: &'static ResourceSpec) -> bool {
        !lists_of(spec).is_empty()
    }

    /// The extra columns, each `, (SELECT …)`, for rows aliased `o`.
    pub fn columns(&self, backend: Backend) -> Sql {
        let mut sql = Sql::default();
        for (_, link) in self.lists {
            let linked = listed(backend, &link.linked);
            sql.push(&format!(
                ", (SELECT {linked} FROM {} WHERE {} = o.id",
                link.from, link.owner
            ));
            link.and_of_type(&mut sql, self.spec);
            sql.push(")");
        }
        if !self.versions.is_empty() {
            sql.append(&versions_column(backend, self.versions));
        }
        sql
    }

    /// Takes the extra columns off the end of `row`, before its object is built from it.
    pub fn take(&self, row: &mut DbRow) -> Carried {
        let versions = (!self.versions.is_empty())
            .then(|| row.0.pop().and_then(Cell::into_text).unwrap_or_default());
        let at = row.0.len().saturating_sub(self.lists.len());
        Carried {
            lists: row.0.split_off(at),
            versions,
        }
    }

    /// Fills `record`'s lists with what its row carried, and keys `related`'s kept
    /// objects by the versions it carried (the first row's, for a page: all are equal).
    pub fn fill(&self, record: &mut Record, carried: Carried, related: &mut Related) {
        for ((fi, _), cell) in self.lists.iter().zip(carried.lists) {
            record.values[*fi] = Value::Ids(ids_listed(cell));
        }
        if let (Some(listed), None) = (carried.versions, &related.kept_at) {
            related.kept_at = Some(KeptAt {
                tables: self.versions,
                versions: TableVersions::from_listed(&listed),
            });
        }
    }
}

/// What a row carried besides its object's columns.
pub(crate) struct Carried {
    lists: Vec<Cell>,
    versions: Option<String>,
}

/// An extra column, `, (SELECT …)`, listing the versions of `tables` as `name:version`
/// pairs (`TableVersions::from_listed` reads them back).
pub(super) fn versions_column(backend: Backend, tables: &[&str]) -> Sql {
    let pairs = listed(backend, "tv.name || ':' || tv.version");
    let mut sql = Sql::new(", (");
    versions::select_named(&mut sql, &pairs, tables);
    sql.push(")");
    sql
}

/// `expression` of every row, as text separated by commas (NULL for no row).
pub(super) fn listed(backend: Backend, expression: &str) -> String {
    match backend {
        Backend::Sqlite => format!("group_concat({expression}, ',')"),
        Backend::Postgres => format!("string_agg(({expression})::text, ',')"),
    }
}

/// The ids of a list read as text, in id order (a relation list's order).
fn ids_listed(cell: Cell) -> Vec<i64> {
    let text = cell.into_text().unwrap_or_default();
    let mut ids: Vec<i64> = text.split(',').filter_map(|id| id.parse().ok()).collect();
    ids.sort_unstable();
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listed_cell_gives_its_ids_in_order() {
        assert_eq!(ids_listed(Cell::Text("3,1,2".into())), [1, 2, 3]);
        assert_eq!(ids_listed(Cell::Null), Vec::<i64>::new());
        assert_eq!(ids_listed(Cell::Int(7)), [7]);
    }

    #[test]
    fn listed_versions_are_read_back_per_table() {
        let versions = TableVersions::from_listed("tags:-12,routing_policies:5");
        let other = TableVersions::from_listed("tags:-12,routing_policies:6");
        assert_eq!(versions.of(&["tags"]), other.of(&["tags"]));
        assert_ne!(
            versions.of(&["routing_policies"]),
            other.of(&["routing_policies"])
        );
    }
}
