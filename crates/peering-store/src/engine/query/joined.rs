//! Objects read in one statement: each row with the objects its foreign keys point to and
//! those their labels read in turn (a session with its AS, its connection and the
//! connection's exchange) joined to it, and what rows carry (`inline.rs`: its relation
//! lists, the versions of the tables whose kept objects it shows). A detail whose related
//! objects are kept then costs one statement, where it took one per related resource, one
//! for its links and one for the versions; details asked together (`together.rs`) share
//! one.

use peering_domain::resources::PerResource;
use peering_domain::spec::Kind;
use peering_domain::{Record, ResourceSpec};

use super::inline::Inline;
use super::{record_from_row, shallow_record, Related};
use crate::connection::{Backend, Db};
use crate::error::Error;
use crate::schema::table;
use crate::sql::{Bind, Cell, Sql};

/// At most this many objects are joined to one row.
const MAX_JOINS: usize = 8;

/// How a resource's object is read in one statement.
#[derive(Debug)]
pub(crate) struct Plan {
    /// The joined resources, in the order their columns come (before the object's own).
    joined: Vec<&'static ResourceSpec>,
    /// `SELECT <joined columns>, <the object's columns>`.
    head: String,
    /// ` FROM <table> o LEFT JOIN …`.
    from: String,
}

/// The plan of `spec`, or `None` when joining would not save a statement (no foreign key),
/// or could not read everything the separate reads would (a label reading a generic object,
/// reads that loop back, too many joins): such a resource is read as before.
pub(crate) fn plan(spec: &'static ResourceSpec) -> Option<&'static Plan> {
    static PLANS: PerResource<Option<Plan>> = PerResource::new(Plan::of);
    PLANS.get(spec).and_then(Option::as_ref)
}

/// A foreign key to follow: the field's index and its target.
fn foreign_key(spec: &ResourceSpec, index: usize) -> Option<&'static ResourceSpec> {
    match spec.fields.get(index)?.kind {
        Kind::ForeignKey { target, .. } => Some(target()),
        _ => None,
    }
}

struct Builder {
    joined: Vec<&'static ResourceSpec>,
    columns: String,
    joins: String,
}

impl Builder {
    /// Joins the object `field` of `spec` (aliased `from`) points to, then what its label
    /// reads; `false` when that cannot be done completely.
    fn join(
        &mut self,
        spec: &'static ResourceSpec,
        from: &str,
        field: usize,
        chain: &[&str],
    ) -> bool {
        let Some(target) = foreign_key(spec, field) else {
            return false;
        };
        let Some(column) = table(spec).columns.iter().find(|c| c.field == field) else {
            return false;
        };
        if self.joined.len() >= MAX_JOINS || chain.contains(&target.table) {
            return false;
        }
        let alias = format!("j{}", self.joined.len());
        self.joined.push(target);
        self.columns.push_str(&format!("{alias}.id"));
        for c in &table(target).columns {
            self.columns.push_str(&format!(", {alias}.{}", c.name));
        }
        self.columns.push_str(", ");
        self.joins.push_str(&format!(
            " LEFT JOIN {} {alias} ON {alias}.id = {from}.{}",
            target.table, column.name
        ));
        let chain = [chain, &[target.table]].concat();
        target.reads.iter().all(|name| {
            target
                .index_of(name)
                .is_some_and(|i| self.join(target, &alias, i, &chain))
        })
    }
}

impl Plan {
    fn of(spec: &'static ResourceSpec) -> Option<Plan> {
        let mut builder = Builder {
            joined: Vec::new(),
            columns: String::new(),
            joins: String::new(),
        };
        for i in 0..spec.fields.len() {
            // A key to the resource itself is left to the separate reads, which read it
            // again on purpose (it may just have been written).
            let joinable = foreign_key(spec, i).is_some_and(|t| !std::ptr::eq(t, spec));
            if joinable && !builder.join(spec, "o", i, &[spec.table]) {
                return None;
            }
        }
        if builder.joined.is_empty() && !Inline::has_lists(spec) {
            return None;
        }
        let own = table(spec).select_head.strip_prefix("SELECT ")?;
        Some(Plan {
            head: format!("SELECT {}{own}", builder.columns),
            from: format!(" FROM {} o{}", spec.table, builder.joins),
            joined: builder.joined,
        })
    }

    /// The statement reading `ids`, with the columns rows carry (`inline.rs`).
    pub(crate) fn sql(&self, backend: Backend, carried: &Sql, ids: &[i64]) -> Sql {
        let mut sql = Sql::new(&self.head);
        sql.append(carried).push(&self.from);
        match ids {
            [id] => sql.push(" WHERE o.id = ").bind(Bind::Int(*id)),
            _ => sql
                .push(" WHERE ")
                .in_primary_key(backend, "o.id", ids)
                .push(" ORDER BY o.id"),
        };
        sql
    }

    /// Objects `ids` (those that exist), in id order, with their relation lists, the
    /// objects they point to put in `related`, and, for a read that may take kept objects,
    /// the versions they are kept under.
    pub(crate) fn read(
        &self,
        db: &mut Db<'_>,
        spec: &'static ResourceSpec,
        ids: &[i64],
        related: &mut Related,
    ) -> Result<Vec<Record>, Error> {
        let inline = Inline::of(db, spec, true);
        let sql = self.sql(db.backend(), &inline.columns(db.backend()), ids);
        let mut records = Vec::with_capacity(ids.len());
        for mut row in db.load(&sql)? {
            let carried = inline.take(&mut row);
            let mut offset = 0;
            for target in &self.joined {
                let joined = table(target);
                if !matches!(row.0.get(offset), None | Some(Cell::Null)) {
                    related.insert(target, shallow_record(joined, &mut row, offset));
                }
                offset += 1 + joined.columns.len();
            }
            let mut record = record_from_row(table(spec), &mut row, offset);
            inline.fill(&mut record, carried, related);
            records.push(record);
        }
        Ok(records)
    }
}
