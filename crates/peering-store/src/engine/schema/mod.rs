//! What the store derives once from each resource's declaration: its columns, its select
//! list, how each filter of its catalog (`peering_filter::ResourceCatalog`) compiles, and
//! the columns it orders by.

mod columns;
mod order;
mod paths;
mod search;
mod targets;
mod values;

pub(crate) use order::ORDER_KEYS;

use std::collections::HashMap;

use peering_domain::resources::PerResource;
use peering_domain::ResourceSpec;

use crate::sql::Sql;

pub(crate) use columns::Column;
pub(crate) use paths::{Hop, MustExist, Path};
pub(crate) use search::{SearchHow, SearchIndex, SearchTerm};
pub(crate) use targets::FilterTarget;
pub(crate) use values::{cell_to_value, lower_bind, stored_value, value_to_bind};

/// Everything derived from one resource.
#[derive(Debug)]
pub(crate) struct Table {
    pub spec: &'static ResourceSpec,
    pub columns: Vec<Column>,
    /// `SELECT o.id, <columns>, <counts>, <computed> FROM <table> o`.
    pub select: String,
    /// `select` without its `FROM`, for statements that add columns or joins.
    pub select_head: String,
    /// The computed fields (index, expression), in the order `select` lists them.
    pub computed: Vec<(usize, &'static str)>,
    /// `SELECT o.id, <columns> FROM <table> o`: without the computed counts, for related
    /// objects, whose nested forms never show them.
    pub select_columns: String,
    /// How each parameter of the resource's filter catalog compiles, by its name.
    pub targets: HashMap<&'static str, FilterTarget>,
    pub search: Vec<SearchTerm>,
    /// The trigram index over some of the searched columns, if the table has one.
    pub search_index: Option<&'static SearchIndex>,
    /// Orderable field to `(column, nullable)`.
    pub order_columns: HashMap<&'static str, (&'static str, bool)>,
    /// A default ordering term that follows foreign keys (`router.name`, as Django orders
    /// by a related model's own ordering) to its value: a scalar subquery per key.
    pub related_order: HashMap<&'static str, String>,
}

/// Names built once per resource, which live as long as the process.
fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

impl Table {
    /// `select` with `extra` columns after the object's own (`, (SELECT …)` each).
    pub fn select_with(&self, extra: &Sql) -> Sql {
        let mut sql = Sql::new(&self.select_head);
        sql.append(extra)
            .push(&format!(" FROM {} o", self.spec.table));
        sql
    }

    fn build(spec: &'static ResourceSpec) -> Table {
        let columns = columns::columns_of(spec);
        let computed = columns::computed_of(spec);
        let (select_head, select_columns) = columns::select_lists(spec, &columns, &computed);
        Table {
            spec,
            select: format!("{select_head} FROM {} o", spec.table),
            select_head,
            select_columns,
            targets: targets::targets_of(spec, &columns, &computed),
            search: search::terms_of(spec),
            search_index: search::index_of(spec),
            order_columns: order::order_columns(spec, &columns),
            related_order: order::related_order(spec),
            columns,
            computed,
        }
    }
}

/// The derived table of a resource.
pub(crate) fn table(spec: &ResourceSpec) -> &'static Table {
    static TABLES: PerResource<Table> = PerResource::new(Table::build);
    TABLES.get(spec).unwrap_or_else(|| unreachable_table(spec))
}

#[cold]
fn unreachable_table(spec: &ResourceSpec) -> ! {
    // Every resource is registered in `peering_domain::resources::ALL`; one missing from it
    // is a programming error caught by the first test that touches it.
    panic!(
        "resource {} is not registered in resources::ALL",
        spec.table
    )
}

#[cfg(test)]
mod tests {
    use peering_domain::resources::ALL;
    use peering_filter::ResourceCatalog;

    use super::*;

    #[test]
    fn every_parameter_of_a_catalog_has_a_target_and_no_other() {
        for spec in ALL {
            let mut params: Vec<&str> = ResourceCatalog::of(spec)
                .fields
                .iter()
                .map(|f| f.name)
                .collect();
            let mut targets: Vec<&str> = table(spec).targets.keys().copied().collect();
            params.sort_unstable();
            targets.sort_unstable();
            assert_eq!(params, targets, "{}", spec.table);
        }
    }
}
