//! What the store derives once from each resource's declaration: its columns, its select
//! list, its filter catalog and its orderable fields.

use std::collections::HashMap;
use std::sync::OnceLock;

use peering_domain::resources::ALL;
use peering_domain::spec::{Field, Kind};
use peering_domain::value::{micros_to_time, time_to_micros};
use peering_domain::{ResourceSpec, Value};
use peering_filter::{Catalog, FilterField, FilterKind};

use crate::sql::{Bind, Cell};

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

/// How a filter parameter is compiled.
#[derive(Debug, Clone, Copy)]
pub(crate) enum FilterTarget {
    Column {
        column: &'static str,
        lc: Option<&'static str>,
        kind: Kind,
    },
    Tag,
    /// `created_by_request` / `updated_by_request`: ids named by change records.
    ChangeRequest(&'static [&'static str]),
}

/// Everything derived from one resource.
#[derive(Debug)]
pub(crate) struct Table {
    pub spec: &'static ResourceSpec,
    pub columns: Vec<Column>,
    /// `SELECT o.id, <columns>, <counts> FROM <table> o`.
    pub select: String,
    /// `SELECT o.id, <columns> FROM <table> o`: without the computed counts, for related
    /// objects, whose nested forms never show them.
    pub select_columns: String,
    pub filters: Vec<FilterField>,
    pub targets: HashMap<&'static str, FilterTarget>,
    pub orderable: Vec<&'static str>,
    /// Orderable field to `(column, nullable)`.
    pub order_columns: HashMap<&'static str, (&'static str, bool)>,
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn column_name(field: &Field) -> &'static str {
    match field.kind {
        Kind::ForeignKey { .. } => leak(format!("{}_id", field.name)),
        _ => field.name,
    }
}

fn keeps_lower_copy(kind: &Kind) -> bool {
    matches!(kind, Kind::Text { ci: true, .. })
}

fn filter_kind(kind: &Kind) -> Option<FilterKind> {
    Some(match kind {
        Kind::Int { .. } => FilterKind::Number,
        Kind::Text { .. } | Kind::Ip { .. } | Kind::Mac | Kind::ContentType => FilterKind::String,
        Kind::Bool => FilterKind::Bool,
        Kind::Choice { set, .. } => FilterKind::Choice(set.values),
        Kind::Time => FilterKind::DateTime,
        Kind::Uuid => FilterKind::Uuid,
        Kind::ForeignKey { .. } => FilterKind::ForeignKey,
        Kind::Json { .. }
        | Kind::ManyToMany { .. }
        | Kind::Tags
        | Kind::ReverseCount { .. }
        | Kind::DisplayCopy
        | Kind::ContentTypes
        | Kind::GenericObject => return None,
    })
}

impl Table {
    fn build(spec: &'static ResourceSpec) -> Table {
        let mut columns = Vec::new();
        let mut columns_sql = String::from("o.id");
        for (i, field) in spec.fields.iter().enumerate() {
            if field.is_column() {
                let name = column_name(field);
                let lc = keeps_lower_copy(&field.kind).then(|| leak(format!("{name}_lc")));
                let key =
                    matches!(field.kind, Kind::Ip { .. }).then(|| leak(format!("{name}_key")));
                columns.push(Column {
                    field: i,
                    name,
                    lc,
                    key,
                });
                columns_sql.push_str(", o.");
                columns_sql.push_str(name);
            }
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
        select.push_str(&format!(" FROM {} o", spec.table));

        let mut filters = vec![FilterField {
            name: "id",
            kind: FilterKind::Number,
        }];
        let mut targets = HashMap::new();
        targets.insert(
            "id",
            FilterTarget::Column {
                column: "id",
                lc: None,
                kind: Kind::Int {
                    min: 0,
                    max: i64::MAX,
                },
            },
        );
        for col in &columns {
            let field = &spec.fields[col.field];
            if !field.filter {
                continue;
            }
            let Some(kind) = filter_kind(&field.kind) else {
                continue;
            };
            let param = if matches!(field.kind, Kind::ForeignKey { .. }) {
                col.name
            } else {
                field.name
            };
            filters.push(FilterField { name: param, kind });
            targets.insert(
                param,
                FilterTarget::Column {
                    column: col.name,
                    lc: col.lc,
                    kind: field.kind,
                },
            );
        }
        for extra in spec.extra_filters {
            if let Some(kind) = filter_kind(&extra.kind) {
                filters.push(FilterField {
                    name: extra.param,
                    kind,
                });
                let lc =
                    keeps_lower_copy(&extra.kind).then(|| leak(format!("{}_lc", extra.column)));
                targets.insert(
                    extra.param,
                    FilterTarget::Column {
                        column: extra.column,
                        lc,
                        kind: extra.kind,
                    },
                );
            }
        }
        if spec.change_logged {
            for (param, actions) in [
                ("created_by_request", &["create", "update"][..]),
                ("updated_by_request", &["update"][..]),
            ] {
                filters.push(FilterField {
                    name: param,
                    kind: FilterKind::Uuid,
                });
                targets.insert(param, FilterTarget::ChangeRequest(actions));
            }
        }
        if spec.fields.iter().any(|f| matches!(f.kind, Kind::Tags)) {
            filters.push(FilterField {
                name: "tag",
                kind: FilterKind::Tag,
            });
            targets.insert("tag", FilterTarget::Tag);
        }

        let mut orderable = vec!["id"];
        let mut order_columns = HashMap::new();
        order_columns.insert("id", ("id", false));
        for col in &columns {
            let field = &spec.fields[col.field];
            if field.hidden || matches!(field.kind, Kind::Json { .. } | Kind::ContentTypes) {
                continue;
            }
            orderable.push(field.name);
            // Addresses sort by their key: numerically, IPv4 before IPv6.
            order_columns.insert(field.name, (col.key.unwrap_or(col.name), field.nullable));
        }
        Table {
            spec,
            columns,
            select,
            select_columns,
            filters,
            targets,
            orderable,
            order_columns,
        }
    }

    pub fn catalog(&self) -> Catalog<'_> {
        Catalog {
            fields: &self.filters,
            orderable: &self.orderable,
        }
    }
}

/// The derived table of a resource.
pub(crate) fn table(spec: &ResourceSpec) -> &'static Table {
    static TABLES: OnceLock<Vec<Table>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| ALL.iter().map(|s| Table::build(s)).collect());
    tables
        .iter()
        .find(|t| std::ptr::eq(t.spec, spec) || t.spec.table == spec.table)
        .unwrap_or_else(|| unreachable_table(spec))
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

/// Converts a stored cell into a field value.
pub(crate) fn cell_to_value(kind: &Kind, cell: Cell) -> Value {
    if cell == Cell::Null {
        return Value::Null;
    }
    match kind {
        Kind::Int { .. } | Kind::ForeignKey { .. } | Kind::ReverseCount { .. } => {
            cell.int().map(Value::Int).unwrap_or(Value::Null)
        }
        Kind::Bool => cell.bool().map(Value::Bool).unwrap_or(Value::Null),
        Kind::Time => cell
            .int()
            .map(|us| Value::Time(micros_to_time(us)))
            .unwrap_or(Value::Null),
        Kind::Json { .. } | Kind::ContentTypes => cell
            .into_text()
            .and_then(|t| serde_json::from_str(&t).ok())
            .map(Value::Json)
            .unwrap_or(Value::Null),
        Kind::Text { .. }
        | Kind::Choice { .. }
        | Kind::Uuid
        | Kind::Ip { .. }
        | Kind::Mac
        | Kind::ContentType => cell.into_text().map(Value::Text).unwrap_or(Value::Null),
        Kind::DisplayCopy | Kind::GenericObject => Value::Null,
        Kind::ManyToMany { .. } | Kind::Tags => Value::Ids(Vec::new()),
    }
}

/// Converts a field value into a parameter for its column.
pub(crate) fn value_to_bind(kind: &Kind, value: &Value) -> Bind {
    match (kind, value) {
        (Kind::Bool, Value::Bool(b)) => Bind::Bool(*b),
        (Kind::Bool, _) => Bind::NullBool,
        (Kind::Time, Value::Time(t)) => Bind::Int(time_to_micros(*t)),
        (Kind::Int { .. } | Kind::ForeignKey { .. } | Kind::Time, Value::Int(i)) => Bind::Int(*i),
        (
            Kind::Int { .. } | Kind::ForeignKey { .. } | Kind::Time | Kind::ReverseCount { .. },
            _,
        ) => Bind::NullInt,
        (Kind::Json { .. } | Kind::ContentTypes, Value::Json(j)) => Bind::Text(j.to_string()),
        (_, Value::Text(t)) => Bind::Text(t.clone()),
        (_, Value::Int(i)) => Bind::Text(i.to_string()),
        _ => Bind::NullText,
    }
}

/// The lower-cased copy of a text value.
pub(crate) fn lower_bind(value: &Value) -> Bind {
    match value {
        Value::Text(t) => Bind::Text(t.to_lowercase()),
        _ => Bind::NullText,
    }
}
