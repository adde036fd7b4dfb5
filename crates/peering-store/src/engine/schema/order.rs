//! What lists order by: the columns of orderable fields, the keys the migrations keep for
//! relations, and the related values a default ordering follows.

use std::collections::HashMap;

use peering_domain::spec::Kind;
use peering_domain::ResourceSpec;

use super::columns::Column;
use super::paths::{resolve, Hop};

/// A foreign key that lists order by a key the migrations keep on the row (the related
/// model's own order, as Django expands an ordering by a relation) instead of the related
/// object's id. Migration 22 keeps the keys right with triggers and indexes them.
#[derive(Debug)]
pub(crate) struct OrderKey {
    pub table: &'static str,
    pub field: &'static str,
    pub column: &'static str,
    /// The row's own columns whose change sets the key anew (the triggers set all of a
    /// row's keys when any of these changes).
    pub set_by: &'static [&'static str],
    /// What the key's value is copied from (by the triggers, when it changes): a list
    /// ordered by it changes order when these columns change, or rows of these tables are
    /// added or removed.
    pub copied_from: &'static [CopiedFrom],
}

/// A table and the columns of it a key is copied from.
#[derive(Debug)]
pub(crate) struct CopiedFrom {
    pub table: &'static str,
    pub columns: &'static [&'static str],
}

/// An autonomous system's number, which the peer's and the local ASN copy.
const ASN: CopiedFrom = CopiedFrom {
    table: "autonomous_systems",
    columns: &["asn"],
};
const AN_ASN: &[CopiedFrom] = &[ASN];

/// What a session's connection rank is copied from: the connection's exchange, its router,
/// and their local autonomous systems' numbers (`connection_order_ranks`, migration 22).
const CONNECTION_RANK_SOURCES: &[CopiedFrom] = &[
    CopiedFrom {
        table: "connections",
        columns: &["internet_exchange_point_id", "router_id", "order_rank"],
    },
    CopiedFrom {
        table: "internet_exchanges",
        columns: &["name", "slug", "local_autonomous_system_id"],
    },
    CopiedFrom {
        table: "routers",
        columns: &["name", "local_autonomous_system_id"],
    },
    ASN,
];

/// The columns whose change has the triggers set a session's keys anew.
const IXP_SESSION_KEYS_SET_BY: &[&str] = &["autonomous_system_id", "ixp_connection_id"];
const DIRECT_SESSION_KEYS_SET_BY: &[&str] = &["local_autonomous_system_id", "autonomous_system_id"];

/// The order keys the migrations keep.
pub(crate) const ORDER_KEYS: &[OrderKey] = &[
    OrderKey {
        table: "internet_exchange_peering_sessions",
        field: "autonomous_system",
        column: "peer_asn",
        set_by: IXP_SESSION_KEYS_SET_BY,
        copied_from: AN_ASN,
    },
    OrderKey {
        table: "internet_exchange_peering_sessions",
        field: "ixp_connection",
        column: "connection_rank",
        set_by: IXP_SESSION_KEYS_SET_BY,
        copied_from: CONNECTION_RANK_SOURCES,
    },
    OrderKey {
        table: "direct_peering_sessions",
        field: "local_autonomous_system",
        column: "local_asn",
        set_by: DIRECT_SESSION_KEYS_SET_BY,
        copied_from: AN_ASN,
    },
    OrderKey {
        table: "direct_peering_sessions",
        field: "autonomous_system",
        column: "peer_asn",
        set_by: DIRECT_SESSION_KEYS_SET_BY,
        copied_from: AN_ASN,
    },
];

/// Orderable field to `(column, nullable)`: `id`, every field shown and stored but JSON,
/// and the relations ordered by the keys the migrations keep.
pub(super) fn order_columns(
    spec: &ResourceSpec,
    columns: &[Column],
) -> HashMap<&'static str, (&'static str, bool)> {
    let mut order_columns = HashMap::new();
    order_columns.insert("id", ("id", false));
    for col in columns {
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
    order_columns
}

/// The default ordering's terms that follow foreign keys, with the value each orders by.
pub(super) fn related_order(spec: &'static ResourceSpec) -> HashMap<&'static str, String> {
    spec.ordering
        .iter()
        .map(|term| term.trim_start_matches('-'))
        .filter(|term| term.contains('.'))
        .map(|term| (term, related_value(spec, term)))
        .collect()
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
