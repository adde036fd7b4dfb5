//! What the store derives once from each resource's declaration: its columns, its select
//! list, how each filter of its catalog (`peering_filter::ResourceCatalog`) compiles, and
//! the columns it orders by.

use std::collections::HashMap;
use std::sync::OnceLock;

use peering_domain::resources::ALL;
use peering_domain::spec::{Field, FilterSource, Kind, Search};
use peering_domain::value::{micros_to_time, time_to_micros};
use peering_domain::{ResourceSpec, Value};
use peering_filter::{filter_kind, CHANGE_REQUEST_FILTERS};

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

/// A relation followed from one table to the next.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Hop {
    /// A foreign key: `<alias>.<column>` holds the id of a row of `table`.
    Key {
        column: &'static str,
        table: &'static str,
    },
    /// A many-to-many relation: rows of `link` pair `<alias>.id` (in `source`) with ids of
    /// rows of `table` (in `target`).
    Link {
        link: &'static str,
        source: &'static str,
        target: &'static str,
        table: &'static str,
    },
}

/// Where a compared value lives: a column of the table a chain of foreign keys leads to
/// (no hops: the resource's own table).
#[derive(Debug, Clone)]
pub(crate) struct Path {
    pub hops: Vec<Hop>,
    pub column: &'static str,
    pub lc: Option<&'static str>,
    pub kind: Kind,
}

/// A column whose values a filter's values must name, or the filter is refused.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MustExist {
    pub table: &'static str,
    pub column: &'static str,
}

/// How a filter parameter is compiled.
#[derive(Debug, Clone)]
pub(crate) enum FilterTarget {
    Column {
        path: Path,
        must_exist: Option<MustExist>,
    },
    Tag,
    /// A computed boolean (`Field::computed`): its expression.
    Computed(&'static str),
    /// `created_by_request` / `updated_by_request`: ids named by change records.
    ChangeRequest(&'static [&'static str]),
    /// The family of the address whose sort key is in `key`.
    AddressFamily {
        key: &'static str,
    },
    /// A timestamp column at least (`since`) or at most the value.
    Bound {
        column: &'static str,
        since: bool,
    },
    ReferredBy {
        table: &'static str,
        column: &'static str,
        match_column: &'static str,
    },
    ChoiceOrAlso {
        column: &'static str,
        kind: Kind,
        also: &'static str,
    },
}

impl FilterTarget {
    /// The column the filter's values must exist in, if any.
    pub fn must_exist(&self) -> Option<MustExist> {
        match self {
            FilterTarget::Column { must_exist, .. } => *must_exist,
            FilterTarget::Tag => Some(MustExist {
                table: "tags",
                column: "slug",
            }),
            _ => None,
        }
    }
}

/// How a search term matches `q`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum SearchHow {
    Contains,
    IntEquals,
    IpHost,
}

/// One term of `q`, resolved.
#[derive(Debug, Clone)]
pub(crate) struct SearchTerm {
    pub path: Path,
    pub how: SearchHow,
}

/// A trigram index over a table's lower-cased copies, which `q` reads instead of scanning
/// the table (SQLite: an FTS5 table of `tokenize='trigram case_sensitive 1'` that triggers
/// keep in step; PostgreSQL serves `LIKE` from `pg_trgm` indexes without being asked).
#[derive(Debug)]
pub(crate) struct SearchIndex {
    pub table: &'static str,
    pub index: &'static str,
    pub columns: &'static [&'static str],
}

/// A foreign key that lists order by a key the migrations keep on the row (the related
/// model's own order, as Django expands an ordering by a relation) instead of the related
/// object's id. Migration 22 keeps the keys right with triggers and indexes them.
#[derive(Debug)]
pub(crate) struct OrderKey {
    pub table: &'static str,
    pub field: &'static str,
    pub column: &'static str,
}

/// The order keys the migrations keep.
pub(crate) const ORDER_KEYS: &[OrderKey] = &[
    OrderKey {
        table: "internet_exchange_peering_sessions",
        field: "autonomous_system",
        column: "peer_asn",
    },
    OrderKey {
        table: "internet_exchange_peering_sessions",
        field: "ixp_connection",
        column: "connection_rank",
    },
    OrderKey {
        table: "direct_peering_sessions",
        field: "local_autonomous_system",
        column: "local_asn",
    },
    OrderKey {
        table: "direct_peering_sessions",
        field: "autonomous_system",
        column: "peer_asn",
    },
];

/// The trigram indexes the migrations create.
pub(crate) const SEARCH_INDEXES: &[SearchIndex] = &[SearchIndex {
    table: "autonomous_systems",
    index: "autonomous_systems_search",
    columns: &["name_lc", "irr_as_set_lc"],
}];

/// Everything derived from one resource.
#[derive(Debug)]
pub(crate) struct Table {
    pub spec: &'static ResourceSpec,
    pub columns: Vec<Column>,
    /// `SELECT o.id, <columns>, <counts>, <computed> FROM <table> o`.
    pub select: String,
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

/// Resolves a dotted path of foreign-key fields ending in an attribute (`router.hostname`,
/// `ixp_connection.internet_exchange_point.id`), and the column its values must exist in.
///
/// Paths are declarations: one that does not resolve is a programming error, caught by the
/// first test that builds the tables.
fn resolve(spec: &'static ResourceSpec, path: &'static str) -> (Path, MustExist) {
    let mut hops = Vec::new();
    let mut current = spec;
    let mut segments: Vec<&'static str> = path.split('.').collect();
    let last = segments.pop().unwrap_or(path);
    for segment in segments {
        let (hop, target) = match current.field(segment).map(|f| f.kind) {
            Some(Kind::ForeignKey { target, .. }) => (
                Hop::Key {
                    column: leak(format!("{segment}_id")),
                    table: target().table,
                },
                target(),
            ),
            Some(Kind::ManyToMany {
                target,
                table,
                source,
                target_column,
            }) => (
                Hop::Link {
                    link: table,
                    source,
                    target: target_column,
                    table: target().table,
                },
                target(),
            ),
            _ => panic!("{}: {path}: {segment} is not a relation", spec.table),
        };
        hops.push(hop);
        current = target;
    }
    let id_kind = Kind::Int {
        min: 0,
        max: i64::MAX,
    };
    if last == "id" {
        // `x.id` is `x_id` in the table before: one subquery fewer.
        return match hops.last().copied() {
            Some(Hop::Key { column, table }) => {
                hops.pop();
                (
                    Path {
                        hops,
                        column,
                        lc: None,
                        kind: id_kind,
                    },
                    MustExist {
                        table,
                        column: "id",
                    },
                )
            }
            _ => (
                Path {
                    hops,
                    column: "id",
                    lc: None,
                    kind: id_kind,
                },
                MustExist {
                    table: current.table,
                    column: "id",
                },
            ),
        };
    }
    let field = current
        .field(last)
        .unwrap_or_else(|| panic!("{}: {path}: no field {last}", spec.table));
    let column = column_name(field);
    let lc = keeps_lower_copy(&field.kind).then(|| leak(format!("{column}_lc")));
    (
        Path {
            hops,
            column,
            lc,
            kind: field.kind,
        },
        MustExist {
            table: current.table,
            column,
        },
    )
}

fn own_column(column: &'static str, kind: Kind) -> Path {
    Path {
        hops: Vec::new(),
        column,
        lc: keeps_lower_copy(&kind).then(|| leak(format!("{column}_lc"))),
        kind,
    }
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
        let computed: Vec<(usize, &'static str)> = spec
            .fields
            .iter()
            .enumerate()
            .filter_map(|(i, f)| Some((i, crate::computed::expression(f.computed?))))
            .collect();
        for (_, expression) in &computed {
            select.push_str(&format!(", {expression}"));
        }
        select.push_str(&format!(" FROM {} o", spec.table));

        // Keyed as the filter crate's catalog names the parameters, in the same order, so
        // that a later declaration replaces an earlier one alike.
        let mut targets = HashMap::new();
        let id_kind = Kind::Int {
            min: 0,
            max: i64::MAX,
        };
        targets.insert(
            "id",
            FilterTarget::Column {
                path: own_column("id", id_kind),
                must_exist: None,
            },
        );
        for col in &columns {
            let field = &spec.fields[col.field];
            if !field.filter || filter_kind(&field.kind).is_none() {
                continue;
            }
            let (param, must_exist) = match field.kind {
                Kind::ForeignKey { target, .. } => (
                    col.name,
                    Some(MustExist {
                        table: target().table,
                        column: "id",
                    }),
                ),
                _ => (field.name, None),
            };
            targets.insert(
                param,
                FilterTarget::Column {
                    path: own_column(col.name, field.kind),
                    must_exist,
                },
            );
        }
        for &(i, expression) in &computed {
            if spec.fields[i].filter {
                targets.insert(spec.fields[i].name, FilterTarget::Computed(expression));
            }
        }
        for extra in spec.extra_filters {
            targets.insert(extra.param, extra_target(spec, &extra.source));
        }
        if spec.change_logged {
            for (param, actions) in CHANGE_REQUEST_FILTERS {
                targets.insert(param, FilterTarget::ChangeRequest(actions));
            }
        }
        if spec.taggable() {
            targets.insert("tag", FilterTarget::Tag);
        }
        let search = spec
            .search
            .iter()
            .map(|term| {
                let (path, how) = match *term {
                    Search::Contains(p) => (p, SearchHow::Contains),
                    Search::IntEquals(p) => (p, SearchHow::IntEquals),
                    Search::IpHost(p) => (p, SearchHow::IpHost),
                };
                let (mut path, _) = resolve(spec, path);
                if how == SearchHow::IpHost {
                    path.column = leak(format!("{}_key", path.column));
                }
                SearchTerm { path, how }
            })
            .collect();

        let mut order_columns = HashMap::new();
        order_columns.insert("id", ("id", false));
        for col in &columns {
            let field = &spec.fields[col.field];
            if !field.shown() || matches!(field.kind, Kind::Json { .. } | Kind::ContentTypes) {
                continue;
            }
            // Addresses sort by their key: numerically, IPv4 before IPv6.
            order_columns.insert(field.name, (col.key.unwrap_or(col.name), field.nullable));
        }
        for key in ORDER_KEYS.iter().filter(|k| k.table == spec.table) {
            order_columns.insert(key.field, (key.column, false));
        }
        let related_order = spec
            .ordering
            .iter()
            .map(|term| term.trim_start_matches('-'))
            .filter(|term| term.contains('.'))
            .map(|term| (term, related_value(spec, term)))
            .collect();
        Table {
            spec,
            columns,
            select,
            select_columns,
            computed,
            targets,
            search,
            search_index: SEARCH_INDEXES.iter().find(|i| i.table == spec.table),
            order_columns,
            related_order,
        }
    }
}

/// The value a dotted path of foreign keys leads to, for the object `o`: a scalar subquery
/// per key followed (NULL where a key is).
fn related_value(spec: &'static ResourceSpec, path: &'static str) -> String {
    let (path, _) = resolve(spec, path);
    let mut keys = path.hops.iter().map(|hop| match hop {
        Hop::Key { column, table } => (*column, *table),
        Hop::Link { .. } => panic!("{}: ordering by {path:?} crosses a list", spec.table),
    });
    let Some((first, mut table)) = keys.next() else {
        return format!("o.{}", path.column);
    };
    let mut value = format!("o.{first}");
    for (depth, (column, next)) in keys.enumerate() {
        value =
            format!("(SELECT r{depth}.{column} FROM {table} r{depth} WHERE r{depth}.id = {value})");
        table = next;
    }
    format!(
        "(SELECT rl.{} FROM {table} rl WHERE rl.id = {value})",
        path.column
    )
}

/// How an extra filter compiles.
fn extra_target(spec: &'static ResourceSpec, source: &FilterSource) -> FilterTarget {
    match *source {
        FilterSource::Column { column, kind } => FilterTarget::Column {
            path: own_column(column, kind),
            must_exist: None,
        },
        FilterSource::Related(path) => {
            let (path, must_exist) = resolve(spec, path);
            FilterTarget::Column {
                path,
                must_exist: Some(must_exist),
            }
        }
        FilterSource::AddressFamily(field) => FilterTarget::AddressFamily {
            key: leak(format!("{field}_key")),
        },
        FilterSource::Since(field) => FilterTarget::Bound {
            column: field,
            since: true,
        },
        FilterSource::Until(field) => FilterTarget::Bound {
            column: field,
            since: false,
        },
        FilterSource::ReferredBy {
            table,
            column,
            match_column,
        } => FilterTarget::ReferredBy {
            table,
            column,
            match_column,
        },
        FilterSource::ChoiceOrAlso { field, also } => FilterTarget::ChoiceOrAlso {
            column: field,
            kind: spec
                .field(field)
                .map(|f| f.kind)
                .unwrap_or_else(|| panic!("{}: no field {field}", spec.table)),
            also,
        },
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
        Kind::DisplayCopy | Kind::GenericObject { .. } => Value::Null,
        Kind::ManyToMany { .. } | Kind::Tags => Value::Ids(Vec::new()),
    }
}

/// What a column keeps of a value: the value that reading the column back gives.
pub(crate) fn stored_value(kind: &Kind, value: &Value) -> Value {
    let cell = match value_to_bind(kind, value) {
        Bind::Int(i) => Cell::Int(i),
        Bind::Text(t) => Cell::Text(t),
        Bind::Bool(b) => Cell::Bool(b),
        Bind::NullInt | Bind::NullText | Bind::NullBool => Cell::Null,
    };
    cell_to_value(kind, cell)
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

#[cfg(test)]
mod tests {
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
