//! The condition one predicate puts on one column: its lookup, its values typed for the
//! column, `null` and `empty`.

use peering_domain::spec::Kind;
use peering_domain::value::time_to_micros;
use peering_filter::{Lookup, Predicate, Value as FilterValue};

use crate::sql::{Bind, Sql};

/// A filter's value bound as the column of `kind` holds it. Every kind has its arm, so that
/// a kind added to the declarations does not compile until its filters' values are bound.
pub(super) fn filter_bind(kind: &Kind, value: &FilterValue) -> Bind {
    match value {
        FilterValue::Null => Bind::NullText,
        FilterValue::Int(i) => match kind {
            Kind::Text { .. } | Kind::Choice { .. } | Kind::Uuid => Bind::Text(i.to_string()),
            Kind::Int { .. }
            | Kind::ReverseCount { .. }
            | Kind::Bool
            | Kind::Json { .. }
            | Kind::Time
            | Kind::ForeignKey { .. }
            | Kind::ManyToMany { .. }
            | Kind::Tags
            | Kind::Ip { .. }
            | Kind::Mac
            | Kind::DisplayCopy
            | Kind::Derived { .. }
            | Kind::ContentType
            | Kind::ContentTypes
            | Kind::GenericObject { .. } => Bind::Int(*i),
        },
        // An address is compared in the form a write stores it, so that a filter finds
        // what a write would call the same address (`2001:DB8::C8` is `2001:db8::c8/128`).
        FilterValue::Text(t) => match kind {
            Kind::Ip { family, host_only } => Bind::Text(
                peering_domain::net::canonical(t, *family, *host_only)
                    .unwrap_or_else(|| t.to_lowercase()),
            ),
            Kind::Int { .. }
            | Kind::Text { .. }
            | Kind::Uuid
            | Kind::ReverseCount { .. }
            | Kind::Bool
            | Kind::Choice { .. }
            | Kind::Json { .. }
            | Kind::Time
            | Kind::ForeignKey { .. }
            | Kind::ManyToMany { .. }
            | Kind::Tags
            | Kind::Mac
            | Kind::DisplayCopy
            | Kind::Derived { .. }
            | Kind::ContentType
            | Kind::ContentTypes
            | Kind::GenericObject { .. } => Bind::Text(t.clone()),
        },
        FilterValue::Bool(b) => Bind::Bool(*b),
        FilterValue::Uuid(u) => Bind::Text(u.to_string()),
        FilterValue::DateTime(t) => Bind::Int(time_to_micros(*t)),
    }
}

/// `%`, `_` and `\` are wildcards or the escape in LIKE; a value matches them literally.
pub(super) fn like_pattern(text: &str, prefix: bool, suffix: bool) -> String {
    let mut p = String::with_capacity(text.len() + 2);
    if prefix {
        p.push('%');
    }
    for c in text.to_lowercase().chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    if suffix {
        p.push('%');
    }
    p
}

/// The condition of one column predicate on `alias`, never NULL (so that NOT means "does
/// not match").
pub(super) fn column_condition(
    alias: &str,
    column: &str,
    lc: Option<&str>,
    kind: &Kind,
    p: &Predicate,
) -> Sql {
    let col = format!("{alias}.{column}");
    let test = match Test::of(p.lookup) {
        Test::Empty => return empty_condition(&col, kind, p),
        Test::Exact => None,
        Test::Compare(test) => Some(test),
    };
    with_null(p, &format!("{col} IS NULL"), |values| {
        let mut sql = Sql::default();
        sql.push("(").push(&col).push(" IS NOT NULL AND (");
        match test {
            None => equal_to_any(&mut sql, &col, kind, &values),
            Some(test) => {
                let lower = lower_column(alias, column, lc, kind);
                for (i, v) in values.iter().enumerate() {
                    if i > 0 {
                        sql.push(" OR ");
                    }
                    compare(&mut sql, &col, &lower, kind, test, v);
                }
            }
        }
        sql.push("))");
        sql
    })
}

/// What a lookup tests of a column, its negation aside (`with_null` puts the `NOT`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Test {
    /// Equal to one of the values.
    Exact,
    /// Compared with each value.
    Compare(Comparison),
    /// Holds nothing, or something, as the value says.
    Empty,
}

/// How a column is compared with one value.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Comparison {
    /// Ordered against the value: `<`, `<=`, `>` or `>=`.
    Ordered(&'static str),
    /// Equal, case-insensitive.
    EqualIgnoringCase,
    /// Like the value, case-insensitive, with anything before it (`any_before`) and after.
    Like { any_before: bool, any_after: bool },
}

impl Test {
    /// The test of every lookup, negated or not: one arm each, so that a lookup added to the
    /// filters' language does not compile until it is given its condition.
    fn of(lookup: Lookup) -> Test {
        let like = |any_before, any_after| {
            Test::Compare(Comparison::Like {
                any_before,
                any_after,
            })
        };
        match lookup {
            Lookup::Exact | Lookup::N => Test::Exact,
            Lookup::Lt => Test::Compare(Comparison::Ordered("<")),
            Lookup::Lte => Test::Compare(Comparison::Ordered("<=")),
            Lookup::Gt => Test::Compare(Comparison::Ordered(">")),
            Lookup::Gte => Test::Compare(Comparison::Ordered(">=")),
            Lookup::Ie | Lookup::Nie => Test::Compare(Comparison::EqualIgnoringCase),
            Lookup::Ic | Lookup::Nic => like(true, true),
            Lookup::Isw | Lookup::Nisw => like(false, true),
            Lookup::Iew | Lookup::Niew => like(true, false),
            Lookup::Empty => Test::Empty,
        }
    }
}

/// `[NOT ](<is_null> OR <others>)` for a predicate whose values may include `null`: the
/// null test as given, the other values' test built by `others`; never NULL itself, so
/// that NOT means "does not match".
pub(super) fn with_null(
    p: &Predicate,
    is_null: &str,
    others: impl FnOnce(Vec<&FilterValue>) -> Sql,
) -> Sql {
    let has_null = p.values.contains(&FilterValue::Null);
    let values: Vec<&FilterValue> = p
        .values
        .iter()
        .filter(|v| **v != FilterValue::Null)
        .collect();
    let mut sql = Sql::default();
    if p.lookup.is_negated() {
        sql.push("NOT ");
    }
    sql.push("(");
    if has_null {
        sql.push(is_null);
    }
    if !values.is_empty() {
        if has_null {
            sql.push(" OR ");
        }
        sql.append(&others(values));
    }
    sql.push(")");
    sql
}

/// `empty`: whether the column holds nothing (for text, nothing or an empty string), as its
/// one boolean asks.
fn empty_condition(col: &str, kind: &Kind, p: &Predicate) -> Sql {
    let empty = matches!(p.values.first(), Some(FilterValue::Bool(true)));
    let cond = if matches!(kind, Kind::Text { .. }) {
        format!("({col} IS NULL OR {col} = '')")
    } else {
        format!("({col} IS NULL)")
    };
    let mut sql = Sql::default();
    if !empty {
        sql.push("NOT ");
    }
    sql.push(&cond);
    sql
}

/// The column's value lower-cased, for case-insensitive lookups.
fn lower_column(alias: &str, column: &str, lc: Option<&str>, kind: &Kind) -> String {
    // Addresses and content types are stored in their canonical lower-case form: compared
    // as they are, without LOWER() on every row (which costs two thirds of a prefix scan).
    let stored_lower = matches!(kind, Kind::Ip { .. } | Kind::Mac | Kind::ContentType);
    match lc {
        Some(l) => format!("{alias}.{l}"),
        None if stored_lower => format!("{alias}.{column}"),
        None => format!("LOWER({alias}.{column})"),
    }
}

/// `exact`: one value is `=`, several an `IN` list.
fn equal_to_any(sql: &mut Sql, col: &str, kind: &Kind, values: &[&FilterValue]) {
    if values.len() == 1 {
        sql.push(col).push(" = ").bind(filter_bind(kind, values[0]));
    } else {
        sql.push(col).push(" IN ");
        sql.bind_list(values.iter().map(|v| filter_bind(kind, v)));
    }
}

/// One value compared with the column (`col`, or its lower-cased form `lower`).
fn compare(
    sql: &mut Sql,
    col: &str,
    lower: &str,
    kind: &Kind,
    comparison: Comparison,
    v: &FilterValue,
) {
    let text = match v {
        FilterValue::Text(t) => t.as_str(),
        _ => "",
    };
    match comparison {
        Comparison::Ordered(operator) => sql
            .push(col)
            .push(&format!(" {operator} "))
            .bind(filter_bind(kind, v)),
        Comparison::EqualIgnoringCase => sql
            .push(lower)
            .push(" = ")
            .bind(Bind::Text(text.to_lowercase())),
        Comparison::Like {
            any_before,
            any_after,
        } => sql
            .push(lower)
            .push(" LIKE ")
            .bind(Bind::Text(like_pattern(text, any_before, any_after)))
            .push(" ESCAPE '\\'"),
    };
}
