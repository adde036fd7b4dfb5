//! Filters compiled to SQL: each predicate of a parsed `Filter` becomes a condition on the
//! object `o`, by how its parameter compiles (`schema::FilterTarget`).

use peering_domain::spec::Kind;
use peering_domain::ResourceSpec;
use peering_filter::{Filter, Lookup, Predicate, Value as FilterValue};

use super::column::{column_condition, filter_bind, with_null};
use super::search::search_condition;
use crate::connection::Backend;
use crate::schema::{FilterTarget, Hop, Path, Table};
use crate::sql::{Bind, Sql};

/// The WHERE conditions of a filter (without the keyword), or an empty fragment.
pub(crate) fn compile_filter(backend: Backend, table: &Table, filter: &Filter) -> Sql {
    let mut conditions: Vec<Sql> = filter
        .predicates
        .iter()
        .filter_map(|p| target_condition(table.spec, table.targets.get(p.field)?, p))
        .collect();
    if let Some(q) = &filter.search {
        conditions.push(search_condition(backend, table, q));
    }
    let mut out = Sql::default();
    for (i, c) in conditions.iter().enumerate() {
        if i > 0 {
            out.push(" AND ");
        }
        out.append(c);
    }
    out
}

/// The condition of one predicate, by how its parameter compiles (none: no condition).
fn target_condition(spec: &ResourceSpec, target: &FilterTarget, p: &Predicate) -> Option<Sql> {
    match target {
        FilterTarget::Column { path, .. } => Some(path_condition(path, p)),
        FilterTarget::Computed(expression) => computed_condition(expression, p),
        FilterTarget::Tag => Some(tag_condition(spec, p)),
        FilterTarget::ChangeRequest(actions) => Some(change_request_condition(spec, actions, p)),
        FilterTarget::AddressFamily { key } => ip_family_condition(key, p),
        FilterTarget::Bound { column, since } => Some(bound_condition(column, *since, p)),
        FilterTarget::Expired { column } => expired_condition(column, p),
        FilterTarget::ReferredBy {
            table,
            column,
            match_column,
        } => referred_by_condition(table, column, match_column, p),
        FilterTarget::ChoiceOrAlso { column, kind, also } => {
            Some(choice_or_also_condition(column, kind, also, p))
        }
    }
}

/// The object carries the tag (one predicate per tag, so that repeated tags AND).
fn tag_condition(spec: &ResourceSpec, p: &Predicate) -> Sql {
    let mut sql = Sql::default();
    if p.lookup.is_negated() {
        sql.push("NOT ");
    }
    sql.push(
        "EXISTS (SELECT 1 FROM tagged_items ti JOIN tags tg ON tg.id = ti.tag_id \
         WHERE ti.object_type = ",
    )
    .bind(Bind::Text(spec.content_type()))
    .push(" AND ti.object_id = o.id AND tg.slug IN ")
    .bind_list(p.values.iter().map(|v| filter_bind(&Kind::Tags, v)))
    .push(")");
    sql
}

/// The object was written by one of the requests, as its change records tell.
fn change_request_condition(spec: &ResourceSpec, actions: &[&str], p: &Predicate) -> Sql {
    let mut sql = Sql::new(
        "o.id IN (SELECT c.changed_object_id FROM object_changes c WHERE c.changed_object_type = ",
    );
    sql.bind(Bind::Text(spec.content_type()))
        .push(" AND c.action IN ")
        .bind_list(actions.iter().map(|a| Bind::Text((*a).to_string())))
        .push(" AND c.request_id IN ")
        .bind_list(p.values.iter().map(|v| filter_bind(&Kind::Uuid, v)))
        .push(")");
    sql
}

/// A timestamp at least (`since`) or at most the value; other lookups as given.
fn bound_condition(column: &str, since: bool, p: &Predicate) -> Sql {
    let mut bounded = p.clone();
    if p.lookup == Lookup::Exact {
        bounded.lookup = if since { Lookup::Gte } else { Lookup::Lte };
    }
    column_condition("o", column, None, &Kind::Time, &bounded)
}

/// The timestamp is set and past (`true`), or empty or ahead (`false`), as of now: the
/// clock is read for each statement, which is why answers of such lists are never kept
/// (`ResourceSpec::reads_the_clock`). Both values given: every row.
fn expired_condition(column: &str, p: &Predicate) -> Option<Sql> {
    let wanted: Vec<bool> = (p.values.iter())
        .filter_map(|v| match v {
            FilterValue::Bool(b) => Some(*b),
            _ => None,
        })
        .collect();
    let expired = match (wanted.contains(&true), wanted.contains(&false)) {
        (true, false) => true,
        (false, true) => false,
        _ => return None,
    };
    let now = Bind::Int(peering_domain::value::time_to_micros(
        peering_domain::value::now(),
    ));
    let mut sql = Sql::default();
    if p.lookup.is_negated() {
        sql.push("NOT ");
    }
    if expired {
        sql.push(&format!("(o.{column} IS NOT NULL AND o.{column} < "));
    } else {
        sql.push(&format!("(o.{column} IS NULL OR o.{column} >= "));
    }
    sql.bind(now).push(")");
    Some(sql)
}

/// The object is referred to by rows of `other` whose `match_column` holds a value (only
/// `null` given: no condition).
fn referred_by_condition(
    other: &str,
    column: &str,
    match_column: &str,
    p: &Predicate,
) -> Option<Sql> {
    let values: Vec<Bind> = p
        .values
        .iter()
        .filter(|v| **v != FilterValue::Null)
        .map(|v| filter_bind(&Kind::ContentType, v))
        .collect();
    if values.is_empty() {
        return None;
    }
    let mut sql = Sql::default();
    if p.lookup.is_negated() {
        sql.push("NOT ");
    }
    sql.push(&format!(
        "o.id IN (SELECT x.{column} FROM {other} x WHERE x.{match_column} IN "
    ))
    .bind_list(values)
    .push(")");
    Some(sql)
}

/// A choice, whose exact match also always takes `also`.
fn choice_or_also_condition(column: &str, kind: &Kind, also: &str, p: &Predicate) -> Sql {
    let sql = column_condition("o", column, None, kind, p);
    if p.lookup != Lookup::Exact {
        return sql;
    }
    let mut either = Sql::new("(");
    either
        .append(&sql)
        .push(&format!(" OR o.{column} = "))
        .bind(Bind::Text(also.to_string()))
        .push(")");
    either
}

/// `leaf` applied at the end of `path`: a nested `IN (SELECT id …)` per relation followed,
/// each guarded so that a missing relation is a plain "no match", never NULL.
pub(super) fn along(path: &Path, leaf: impl FnOnce(&str) -> Sql) -> Sql {
    fn step(hops: &[Hop], depth: usize, leaf: impl FnOnce(&str) -> Sql) -> Sql {
        let alias = if depth == 0 {
            "o".to_string()
        } else {
            format!("t{depth}")
        };
        let Some((hop, rest)) = hops.split_first() else {
            return leaf(&alias);
        };
        let inner = format!("t{}", depth + 1);
        let mut sql = Sql::default();
        match hop {
            Hop::Key { column, table } => sql.push(&format!(
                "({alias}.{column} IS NOT NULL AND {alias}.{column} IN (SELECT {inner}.id FROM {table} {inner} WHERE "
            )),
            Hop::Link {
                link,
                source,
                target,
                table,
            } => sql.push(&format!(
                "({alias}.id IN (SELECT l{depth}.{source} FROM {link} l{depth} WHERE l{depth}.{target} IN (SELECT {inner}.id FROM {table} {inner} WHERE "
            )),
        };
        sql.append(&step(rest, depth + 1, leaf));
        sql.push(match hop {
            Hop::Key { .. } => "))",
            Hop::Link { .. } => ")))",
        });
        sql
    }
    step(&path.hops, 0, leaf)
}

/// A predicate on a column, possibly of a related object. `null` on a related attribute
/// means "no related object".
fn path_condition(path: &Path, p: &Predicate) -> Sql {
    let Some(first) = path.hops.first() else {
        return column_condition("o", path.column, path.lc, &path.kind, p);
    };
    let is_null = match first {
        Hop::Key { column, .. } => format!("o.{column} IS NULL"),
        Hop::Link { link, source, .. } => format!("o.id NOT IN (SELECT n.{source} FROM {link} n)"),
    };
    with_null(p, &is_null, |values| {
        let positive = Predicate {
            lookup: p.lookup.positive(),
            values: values.into_iter().cloned().collect(),
            ..p.clone()
        };
        along(path, |alias| {
            column_condition(alias, path.column, path.lc, &path.kind, &positive)
        })
    })
}

fn ip_family_condition(key: &str, p: &Predicate) -> Option<Sql> {
    // Sort keys start with the family digit: `4…` or `6…`.
    let families: Vec<&str> = p
        .values
        .iter()
        .filter_map(|v| match v {
            FilterValue::Int(4) => Some("4"),
            FilterValue::Int(6) => Some("6"),
            _ => None,
        })
        .collect();
    if families.is_empty() {
        return None;
    }
    let mut sql = Sql::default();
    if p.lookup.is_negated() {
        sql.push("NOT ");
    }
    sql.push("(");
    for (i, family) in families.iter().enumerate() {
        if i > 0 {
            sql.push(" OR ");
        }
        let range = if *family == "4" {
            "o.{k} >= '4' AND o.{k} < '5'"
        } else {
            "o.{k} >= '6' AND o.{k} < '7'"
        };
        sql.push(&format!(
            "(o.{key} IS NOT NULL AND {})",
            range.replace("{k}", key)
        ));
    }
    sql.push(")");
    Some(sql)
}

/// A computed boolean equal to one of the values (none given: no condition).
fn computed_condition(expression: &str, p: &Predicate) -> Option<Sql> {
    let wanted: Vec<bool> = p
        .values
        .iter()
        .filter_map(|v| match v {
            FilterValue::Bool(b) => Some(*b),
            _ => None,
        })
        .collect();
    if wanted.is_empty() {
        return None;
    }
    let mut sql = Sql::default();
    if p.lookup.is_negated() {
        sql.push("NOT ");
    }
    sql.push("(");
    for (i, b) in wanted.into_iter().enumerate() {
        if i > 0 {
            sql.push(" OR ");
        }
        sql.push(&format!("({expression}) = ")).bind(Bind::Bool(b));
    }
    sql.push(")");
    Some(sql)
}
