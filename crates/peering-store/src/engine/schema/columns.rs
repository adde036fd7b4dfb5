//! A resource's stored columns (with their lower-cased and sort-key twins) and its select
//! lists.

use peering_domain::spec::{Field, Kind};
use peering_domain::ResourceSpec;

use super::leak;

/// How a field is stored in its resource's own table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Column {
    pub field: usize,
    pub name: &'static str,
    /// The lower-cased copy used by case-insensitive lookups.
    pub lc: Option<&'static str>,
    /// The sortable twin of an IP address column.
    pub key: Option<&'static str>,
}

pub(super) fn column_name(field: &Field) -> &'static str {
    match field.kind {
        Kind::ForeignKey { .. } => leak(format!("{}_id", field.name)),
        _ => field.name,
    }
}

pub(super) fn keeps_lower_copy(kind: &Kind) -> bool {
    matches!(kind, Kind::Text { ci: true, .. })
}

/// The columns of the fields stored in the resource's own table, in declaration order.
pub(super) fn columns_of(spec: &ResourceSpec) -> Vec<Column> {
    spec.fields
        .iter()
        .enumerate()
        .filter(|(_, field)| field.is_column())
        .map(|(i, field)| {
            let name = column_name(field);
            Column {
                field: i,
                name,
                lc: keeps_lower_copy(&field.kind).then(|| leak(format!("{name}_lc"))),
                key: matches!(field.kind, Kind::Ip { .. }).then(|| leak(format!("{name}_key"))),
            }
        })
        .collect()
}

/// The computed fields (index, expression), in declaration order.
pub(super) fn computed_of(spec: &ResourceSpec) -> Vec<(usize, &'static str)> {
    spec.fields
        .iter()
        .enumerate()
        .filter_map(|(i, f)| Some((i, crate::computed::expression(spec, f.computed?))))
        .collect()
}

/// `SELECT o.id, <columns>, <counts>, <computed>` (without its `FROM`), and
/// `SELECT o.id, <columns> FROM <table> o`, without the counts and computed values.
pub(super) fn select_lists(
    spec: &ResourceSpec,
    columns: &[Column],
    computed: &[(usize, &'static str)],
) -> (String, String) {
    let mut columns_sql = String::from("o.id");
    for column in columns {
        columns_sql.push_str(", o.");
        columns_sql.push_str(column.name);
    }
    let select_columns = format!("SELECT {columns_sql} FROM {} o", spec.table);
    let mut select = format!("SELECT {columns_sql}");
    for field in spec.fields {
        if let Kind::ReverseCount { table, column } = field.kind {
            select.push_str(&format!(
                ", (SELECT COUNT(*) FROM {table} x WHERE x.{column} = o.id)"
            ));
        }
    }
    for (_, expression) in computed {
        select.push_str(&format!(", {expression}"));
    }
    (select, select_columns)
}
