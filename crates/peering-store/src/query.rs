//! Reads: filters compiled to SQL, pages, single objects, and the related objects a page
//! renders, loaded with a fixed number of queries whatever the page size.

use std::collections::{BTreeSet, HashMap};

use peering_domain::spec::Kind;
use peering_domain::value::time_to_micros;
use peering_domain::{Record, ResourceSpec, Value};
use peering_filter::{Filter, Lookup, Predicate, Value as FilterValue};

use crate::connection::{Backend, Db};
use crate::error::Error;
use crate::schema::{cell_to_value, table, FilterTarget, Hop, Path, SearchHow, Table};
use crate::sql::{Bind, DbRow, Sql};

/// Objects related to the ones being rendered, by `(table, id)`.
#[derive(Debug, Default, Clone)]
pub struct Related {
    map: HashMap<(&'static str, i64), Record>,
}

impl peering_domain::spec::RelatedLookup for Related {
    fn related(&self, spec: &ResourceSpec, id: i64) -> Option<&Record> {
        self.get(spec, id)
    }
}

impl Related {
    pub fn get(&self, spec: &ResourceSpec, id: i64) -> Option<&Record> {
        self.map.get(&(spec.table, id))
    }

    fn insert(&mut self, spec: &'static ResourceSpec, record: Record) {
        self.map.insert((spec.table, record.id), record);
    }
}

/// One page of a list.
#[derive(Debug)]
pub struct Page {
    pub count: i64,
    pub records: Vec<Record>,
    pub related: Related,
}

/// Which slice of a list to read; `limit: None` reads to the end.
#[derive(Debug, Clone, Copy)]
pub struct Window {
    pub limit: Option<i64>,
    pub offset: i64,
}

/// Builds a record from a row whose columns start at `offset`.
pub(crate) fn record_from_row(table: &Table, row: &mut DbRow, offset: usize) -> Record {
    let spec = table.spec;
    let id = row.int(offset);
    let mut values: Vec<Value> = spec
        .fields
        .iter()
        .map(|f| match f.kind {
            Kind::ManyToMany { .. } | Kind::Tags => Value::Ids(Vec::new()),
            _ => Value::Null,
        })
        .collect();
    for (i, col) in table.columns.iter().enumerate() {
        let cell = row.take(offset + 1 + i);
        values[col.field] = cell_to_value(&spec.fields[col.field].kind, cell);
    }
    let mut next = offset + 1 + table.columns.len();
    for (i, field) in spec.fields.iter().enumerate() {
        if next >= row.0.len() {
            // Loaded without its computed counts.
            break;
        }
        if let Kind::ReverseCount { .. } = field.kind {
            values[i] = cell_to_value(&field.kind, row.take(next));
            next += 1;
        }
    }
    for &(i, _) in &table.computed {
        if next >= row.0.len() {
            break;
        }
        values[i] = cell_to_value(&spec.fields[i].kind, row.take(next));
        next += 1;
    }
    Record { id, values }
}

fn filter_bind(kind: &Kind, value: &FilterValue) -> Bind {
    match value {
        FilterValue::Null => Bind::NullText,
        FilterValue::Int(i) => match kind {
            Kind::Text { .. } | Kind::Choice { .. } | Kind::Uuid => Bind::Text(i.to_string()),
            _ => Bind::Int(*i),
        },
        // An address is compared in the form a write stores it, so that a filter finds
        // what a write would call the same address (`2001:DB8::C8` is `2001:db8::c8/128`).
        FilterValue::Text(t) => match kind {
            Kind::Ip { family, host_only } => Bind::Text(
                peering_domain::net::canonical(t, *family, *host_only)
                    .unwrap_or_else(|| t.to_lowercase()),
            ),
            _ => Bind::Text(t.clone()),
        },
        FilterValue::Bool(b) => Bind::Bool(*b),
        FilterValue::Uuid(u) => Bind::Text(u.to_string()),
        FilterValue::DateTime(t) => Bind::Int(time_to_micros(*t)),
    }
}

/// `%`, `_` and `\` are wildcards or the escape in LIKE; a value matches them literally.
fn like_pattern(text: &str, prefix: bool, suffix: bool) -> String {
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
fn column_condition(
    alias: &str,
    column: &str,
    lc: Option<&str>,
    kind: &Kind,
    p: &Predicate,
) -> Sql {
    let col = format!("{alias}.{column}");
    // Addresses and content types are stored in their canonical lower-case form: compared
    // as they are, without LOWER() on every row (which costs two thirds of a prefix scan).
    let stored_lower = matches!(kind, Kind::Ip { .. } | Kind::Mac | Kind::ContentType);
    let lower = match lc {
        Some(l) => format!("{alias}.{l}"),
        None if stored_lower => col.clone(),
        None => format!("LOWER({alias}.{column})"),
    };
    let positive = p.lookup.positive();
    let mut sql = Sql::default();
    if positive == Lookup::Empty {
        let empty = matches!(p.values.first(), Some(FilterValue::Bool(true)));
        let is_text = matches!(kind, Kind::Text { .. });
        let cond = if is_text {
            format!("({col} IS NULL OR {col} = '')")
        } else {
            format!("({col} IS NULL)")
        };
        if empty {
            sql.push(&cond);
        } else {
            sql.push("NOT ").push(&cond);
        }
        return sql;
    }
    let has_null = p.values.contains(&FilterValue::Null);
    let values: Vec<&FilterValue> = p
        .values
        .iter()
        .filter(|v| **v != FilterValue::Null)
        .collect();
    if p.lookup.is_negated() {
        sql.push("NOT ");
    }
    sql.push("(");
    let mut first = true;
    if has_null {
        sql.push(&col).push(" IS NULL");
        first = false;
    }
    if !values.is_empty() {
        if !first {
            sql.push(" OR ");
        }
        sql.push("(").push(&col).push(" IS NOT NULL AND (");
        match positive {
            Lookup::Exact => {
                if values.len() == 1 {
                    sql.push(&col)
                        .push(" = ")
                        .bind(filter_bind(kind, values[0]));
                } else {
                    sql.push(&col).push(" IN ");
                    sql.bind_list(values.iter().map(|v| filter_bind(kind, v)));
                }
            }
            _ => {
                for (i, v) in values.iter().enumerate() {
                    if i > 0 {
                        sql.push(" OR ");
                    }
                    let text = match v {
                        FilterValue::Text(t) => t.as_str(),
                        _ => "",
                    };
                    match positive {
                        Lookup::Lt => sql.push(&col).push(" < ").bind(filter_bind(kind, v)),
                        Lookup::Lte => sql.push(&col).push(" <= ").bind(filter_bind(kind, v)),
                        Lookup::Gt => sql.push(&col).push(" > ").bind(filter_bind(kind, v)),
                        Lookup::Gte => sql.push(&col).push(" >= ").bind(filter_bind(kind, v)),
                        Lookup::Ie => sql
                            .push(&lower)
                            .push(" = ")
                            .bind(Bind::Text(text.to_lowercase())),
                        Lookup::Ic | Lookup::Isw | Lookup::Iew => {
                            let pattern = like_pattern(
                                text,
                                positive != Lookup::Isw,
                                positive != Lookup::Iew,
                            );
                            sql.push(&lower)
                                .push(" LIKE ")
                                .bind(Bind::Text(pattern))
                                .push(" ESCAPE '\\'")
                        }
                        _ => sql.push("1 = 0"),
                    };
                }
            }
        }
        sql.push("))");
    }
    sql.push(")");
    sql
}

/// `leaf` applied at the end of `path`: a nested `IN (SELECT id …)` per relation followed,
/// each guarded so that a missing relation is a plain "no match", never NULL.
fn along(path: &Path, leaf: impl FnOnce(&str) -> Sql) -> Sql {
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
    let has_null = p.values.contains(&FilterValue::Null);
    let values: Vec<FilterValue> = p
        .values
        .iter()
        .filter(|v| **v != FilterValue::Null)
        .cloned()
        .collect();
    let mut sql = Sql::default();
    if p.lookup.is_negated() {
        sql.push("NOT ");
    }
    sql.push("(");
    if has_null {
        sql.push(&match first {
            Hop::Key { column, .. } => format!("o.{column} IS NULL"),
            Hop::Link { link, source, .. } => {
                format!("o.id NOT IN (SELECT n.{source} FROM {link} n)")
            }
        });
    }
    if !values.is_empty() {
        if has_null {
            sql.push(" OR ");
        }
        let positive = Predicate {
            lookup: p.lookup.positive(),
            values,
            ..p.clone()
        };
        sql.append(&along(path, |alias| {
            column_condition(alias, path.column, path.lc, &path.kind, &positive)
        }));
    }
    sql.push(")");
    sql
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

/// The WHERE conditions of a filter (without the keyword), or an empty fragment.
pub(crate) fn compile_filter(backend: Backend, table: &Table, filter: &Filter) -> Sql {
    let spec = table.spec;
    let mut conditions: Vec<Sql> = Vec::new();
    for p in &filter.predicates {
        let Some(target) = table.targets.get(p.field) else {
            continue;
        };
        match target {
            FilterTarget::Column { path, .. } => conditions.push(path_condition(path, p)),
            FilterTarget::Computed(expression) => {
                conditions.extend(computed_condition(expression, p));
            }
            FilterTarget::Tag => {
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
                conditions.push(sql);
            }
            FilterTarget::ChangeRequest(actions) => {
                let mut sql = Sql::new(
                    "o.id IN (SELECT c.changed_object_id FROM object_changes c WHERE c.changed_object_type = ",
                );
                sql.bind(Bind::Text(spec.content_type()))
                    .push(" AND c.action IN ")
                    .bind_list(actions.iter().map(|a| Bind::Text((*a).to_string())))
                    .push(" AND c.request_id IN ")
                    .bind_list(p.values.iter().map(|v| filter_bind(&Kind::Uuid, v)))
                    .push(")");
                conditions.push(sql);
            }
            FilterTarget::AddressFamily { key } => {
                conditions.extend(ip_family_condition(key, p));
            }
            FilterTarget::Bound { column, since } => {
                let mut bounded = p.clone();
                if p.lookup == Lookup::Exact {
                    bounded.lookup = if *since { Lookup::Gte } else { Lookup::Lte };
                }
                conditions.push(column_condition("o", column, None, &Kind::Time, &bounded));
            }
            FilterTarget::ReferredBy {
                table: other,
                column,
                match_column,
            } => {
                let values: Vec<Bind> = p
                    .values
                    .iter()
                    .filter(|v| **v != FilterValue::Null)
                    .map(|v| filter_bind(&Kind::ContentType, v))
                    .collect();
                if values.is_empty() {
                    continue;
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
                conditions.push(sql);
            }
            FilterTarget::ChoiceOrAlso { column, kind, also } => {
                let mut sql = column_condition("o", column, None, kind, p);
                if p.lookup == Lookup::Exact {
                    let mut either = Sql::new("(");
                    either
                        .append(&sql)
                        .push(&format!(" OR o.{column} = "))
                        .bind(Bind::Text((*also).to_string()))
                        .push(")");
                    sql = either;
                }
                conditions.push(sql);
            }
        }
    }
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

/// `q`: any search term matches. On SQLite, the terms a trigram index covers are one
/// lookup in it, when `q` has the three characters a trigram needs.
fn search_condition(backend: Backend, table: &Table, q: &str) -> Sql {
    let lower = q.to_lowercase();
    let index = table
        .search_index
        .filter(|_| backend == Backend::Sqlite && lower.chars().count() >= 3);
    let indexed = |term: &crate::schema::SearchTerm| {
        index.is_some_and(|i| {
            matches!(term.how, SearchHow::Contains)
                && term.path.hops.is_empty()
                && term.path.lc.is_some_and(|lc| i.columns.contains(&lc))
        })
    };
    let number = q.trim().parse::<i64>().ok();
    let host_key = q
        .trim()
        .parse::<std::net::IpAddr>()
        .ok()
        .map(|addr| peering_domain::net::sort_key(&addr, None));
    let pattern = like_pattern(q, true, true);
    let mut sql = Sql::new("(");
    let mut first = true;
    let columns: Vec<&str> = table
        .search
        .iter()
        .filter(|t| indexed(t))
        .filter_map(|t| t.path.lc)
        .collect();
    if let (Some(index), false) = (index, columns.is_empty()) {
        // A phrase of the trigrams of `q`, in order: `q` as a substring, as `LIKE` has it.
        let phrase = lower.replace('"', "\"\"");
        sql.push(&format!(
            "o.id IN (SELECT rowid FROM {i} WHERE {i} MATCH ",
            i = index.index
        ))
        .bind(Bind::Text(format!(
            "{{{}}} : \"{phrase}\"",
            columns.join(" ")
        )))
        .push(")");
        first = false;
    }
    for term in table.search.iter().filter(|t| !indexed(t)) {
        let path = &term.path;
        let leaf: Box<dyn FnOnce(&str) -> Sql> = match term.how {
            SearchHow::Contains => {
                let pattern = pattern.clone();
                Box::new(move |alias: &str| {
                    let lower = path
                        .lc
                        .map(|l| format!("{alias}.{l}"))
                        .unwrap_or_else(|| format!("LOWER({alias}.{})", path.column));
                    let mut sql = Sql::new(&lower);
                    sql.push(" LIKE ")
                        .bind(Bind::Text(pattern))
                        .push(" ESCAPE '\\'");
                    sql
                })
            }
            SearchHow::IntEquals => {
                let Some(number) = number else {
                    continue;
                };
                Box::new(move |alias: &str| {
                    let mut sql = Sql::new(&format!("{alias}.{} = ", path.column));
                    sql.bind(Bind::Int(number));
                    sql
                })
            }
            SearchHow::IpHost => {
                let Some(key) = host_key.clone() else {
                    continue;
                };
                // A host matches with or without a prefix length (`<key>` or `<key>/<len>`).
                Box::new(move |alias: &str| {
                    let col = format!("{alias}.{}", path.column);
                    let mut sql = Sql::new(&format!("({col} = "));
                    sql.bind(Bind::Text(key.clone()))
                        .push(&format!(" OR {col} LIKE "))
                        .bind(Bind::Text(format!("{key}/%")))
                        .push(")");
                    sql
                })
            }
        };
        if !first {
            sql.push(" OR ");
        }
        first = false;
        sql.append(&along(path, leaf));
    }
    if first {
        sql.push("1 = 1");
    }
    sql.push(")");
    sql
}

/// `ORDER BY …`, always ending in `id` so that pages never overlap.
pub(crate) fn order_by(table: &Table, filter: &Filter) -> String {
    let mut terms: Vec<(String, bool)> = if filter.ordering.is_empty() {
        table
            .spec
            .ordering
            .iter()
            .map(|t| match t.strip_prefix('-') {
                Some(name) => (name.to_string(), true),
                None => (t.to_string(), false),
            })
            .collect()
    } else {
        filter
            .ordering
            .iter()
            .map(|t| (t.field.clone(), t.descending))
            .collect()
    };
    if !terms.iter().any(|(f, _)| f == "id") {
        terms.push(("id".into(), false));
    }
    let mut sql = String::from(" ORDER BY ");
    let mut first = true;
    for (name, desc) in terms {
        let (value, nullable) = match table.order_columns.get(name.as_str()) {
            Some((column, nullable)) => (format!("o.{column}"), *nullable),
            None => match table.related_order.get(name.as_str()) {
                Some(value) => (value.clone(), true),
                None => continue,
            },
        };
        if !first {
            sql.push_str(", ");
        }
        first = false;
        let dir = if desc { "DESC" } else { "ASC" };
        // NULLs sort last ascending and first descending on both databases.
        if nullable {
            sql.push_str(&format!("({value} IS NULL) {dir}, "));
        }
        sql.push_str(&format!("{value} {dir}"));
    }
    sql
}

fn where_clause(conditions: &Sql) -> Sql {
    let mut sql = Sql::default();
    if !conditions.is_empty() {
        sql.push(" WHERE ").append(conditions);
    }
    sql
}

/// From this offset on, a page's skipped rows are walked as ids only.
const DEFERRED_OFFSET: i64 = 1000;

/// The statements of a page: its total count, and its rows.
pub(crate) fn page_sql(
    backend: Backend,
    table: &Table,
    filter: &Filter,
    window: Window,
) -> (Sql, Sql) {
    let conditions = compile_filter(backend, table, filter);
    let mut count_sql = Sql::new(&format!("SELECT COUNT(*) FROM {} o", table.spec.table));
    count_sql.append(&where_clause(&conditions));

    let order = order_by(table, filter);
    let mut slice = Sql::default();
    match (window.limit, backend) {
        (Some(limit), _) => {
            slice.push(" LIMIT ").bind(Bind::Int(limit));
        }
        (None, Backend::Sqlite) => {
            slice.push(" LIMIT -1");
        }
        (None, Backend::Postgres) => {}
    }
    slice.push(" OFFSET ").bind(Bind::Int(window.offset));
    let mut sql = Sql::new(&table.select);
    if window.offset >= DEFERRED_OFFSET && window.limit.is_some() {
        // A deep page: the rows skipped are walked as ids only (through an index in list
        // order where there is one), then the page's rows are read by id.
        sql.push(&format!(
            " WHERE o.id IN (SELECT o.id FROM {} o",
            table.spec.table
        ))
        .append(&where_clause(&conditions))
        .push(&order)
        .append(&slice)
        .push(")")
        .push(&order);
    } else {
        sql.append(&where_clause(&conditions))
            .push(&order)
            .append(&slice);
    }
    (count_sql, sql)
}

/// Reads one page of a resource's list and its total count.
pub(crate) fn list(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    filter: &Filter,
    window: Window,
    relations: bool,
) -> Result<Page, Error> {
    let table = table(spec);
    let (count_sql, sql) = page_sql(db.backend(), table, filter, window);
    let count = db.scalar(&count_sql)?.unwrap_or(0);
    let records = if count > window.offset && window.limit != Some(0) {
        load_records(db, table, &sql)?
    } else {
        Vec::new()
    };
    let mut page = Page {
        count,
        records,
        related: Related::default(),
    };
    if relations {
        attach_relations(db, spec, &mut page.records, &mut page.related)?;
    } else {
        load_reads(db, spec, &page.records, &mut page.related)?;
    }
    Ok(page)
}

/// Sets the computed values of objects just written, as a read would show them.
pub(crate) fn fill_computed(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    records: &mut [Record],
) -> Result<(), Error> {
    let table = table(spec);
    if table.computed.is_empty() || records.is_empty() {
        return Ok(());
    }
    let mut sql = Sql::new("SELECT o.id");
    for (_, expression) in &table.computed {
        sql.push(&format!(", {expression}"));
    }
    sql.push(&format!(" FROM {} o WHERE ", spec.table));
    let ids: Vec<i64> = records.iter().map(|r| r.id).collect();
    sql.in_primary_key(db.backend(), "o.id", &ids);
    let mut computed = HashMap::new();
    for mut row in db.load(&sql)? {
        let id = row.int(0);
        let values: Vec<Value> = (1..=table.computed.len())
            .zip(&table.computed)
            .map(|(at, &(i, _))| cell_to_value(&spec.fields[i].kind, row.take(at)))
            .collect();
        computed.insert(id, values);
    }
    for record in records {
        if let Some(values) = computed.remove(&record.id) {
            for (&(i, _), value) in table.computed.iter().zip(values) {
                record.values[i] = value;
            }
        }
    }
    Ok(())
}

/// Every object of a resource in list order, relation lists filled, related objects not
/// loaded (templates follow relations through their own copy of each resource).
pub(crate) fn everything(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
) -> Result<Vec<Record>, Error> {
    let table = table(spec);
    let mut sql = Sql::new(&table.select);
    sql.push(&order_by(table, &Filter::default()));
    let mut records = load_records(db, table, &sql)?;
    load_links(db, spec, &mut records)?;
    Ok(records)
}

/// Every id of a list, in list order: an answer too large to read at once is then read in
/// slices of ids.
pub(crate) fn list_ids(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    filter: &Filter,
) -> Result<Vec<i64>, Error> {
    let table = table(spec);
    let mut sql = Sql::new(&format!("SELECT o.id FROM {} o", spec.table));
    sql.append(&where_clause(&compile_filter(db.backend(), table, filter)))
        .push(&order_by(table, filter));
    Ok(db.load(&sql)?.iter().map(|row| row.int(0)).collect())
}

/// Objects by id in the order given (ids of objects deleted since are skipped), with their
/// relations, or only what their labels read.
pub(crate) fn in_order(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    ids: &[i64],
    relations: bool,
) -> Result<(Vec<Record>, Related), Error> {
    let mut records = load_by_ids(db, spec, ids, true)?;
    let position: HashMap<i64, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    records.sort_unstable_by_key(|r| position.get(&r.id).copied());
    let mut related = Related::default();
    if relations {
        attach_relations(db, spec, &mut records, &mut related)?;
    } else {
        load_reads(db, spec, &records, &mut related)?;
    }
    Ok((records, related))
}

/// Loads the objects that the display rule of `spec` reads (one query per such foreign
/// key), so that related objects are labelled as they are on their own.
pub(crate) fn load_reads(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    records: &[Record],
    related: &mut Related,
) -> Result<(), Error> {
    for name in spec.reads {
        let Some(i) = spec.index_of(name) else {
            continue;
        };
        if let Kind::GenericObject { .. } = spec.fields[i].kind {
            // One query per resource type named, whatever the number of records.
            let mut by_type: Vec<(&'static ResourceSpec, BTreeSet<i64>)> = Vec::new();
            for (target, id) in records.iter().filter_map(|r| r.generic_target(spec)) {
                match by_type.iter_mut().find(|(t, _)| std::ptr::eq(*t, target)) {
                    Some((_, ids)) => {
                        ids.insert(id);
                    }
                    None => by_type.push((target, BTreeSet::from([id]))),
                }
            }
            for (target, ids) in by_type {
                let ids: Vec<i64> = ids.into_iter().collect();
                for r in shallow_by_ids(db, target, &ids)? {
                    related.insert(target, r);
                }
            }
            continue;
        }
        let Kind::ForeignKey { target, .. } = spec.fields[i].kind else {
            continue;
        };
        let target = target();
        let ids: BTreeSet<i64> = records
            .iter()
            .filter_map(|r| r.values[i].as_int())
            .filter(|&id| not_at_hand(related, spec, target, id))
            .collect();
        if ids.is_empty() {
            continue;
        }
        let ids: Vec<i64> = ids.into_iter().collect();
        let loaded = shallow_by_ids(db, target, &ids)?;
        // What those objects read in turn (declarations form no cycles of reads).
        load_reads(db, target, &loaded, related)?;
        for r in loaded {
            related.insert(target, r);
        }
    }
    Ok(())
}

fn load_records(db: &mut Db<'_>, table: &Table, sql: &Sql) -> Result<Vec<Record>, Error> {
    Ok(db
        .load(sql)?
        .into_iter()
        .map(|mut row| record_from_row(table, &mut row, 0))
        .collect())
}

/// Reads objects by id, with their relations, in id order.
pub(crate) fn by_ids(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    ids: &[i64],
) -> Result<(Vec<Record>, Related), Error> {
    let mut related = Related::default();
    if ids.is_empty() {
        return Ok((Vec::new(), related));
    }
    let mut records = load_by_ids(db, spec, ids, true)?;
    attach_relations(db, spec, &mut records, &mut related)?;
    Ok((records, related))
}

/// Reads objects by id without their relations nor computed counts.
pub(crate) fn shallow_by_ids(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    ids: &[i64],
) -> Result<Vec<Record>, Error> {
    load_by_ids(db, spec, ids, false)
}

/// Reads, without relations, the objects of `spec` whose `column` holds one of `ids` (for a
/// generic relation, `object_id`, with `content_type` naming the resource), in id order.
pub(crate) fn shallow_referring(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    column: &str,
    content_type: Option<(&str, String)>,
    ids: &[i64],
) -> Result<Vec<Record>, Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let table = table(spec);
    let mut sql = Sql::new(&table.select_columns);
    sql.push(" WHERE ");
    if let Some((type_column, content_type)) = content_type {
        sql.push(&format!("o.{type_column} = "))
            .bind(Bind::Text(content_type))
            .push(" AND ");
    }
    sql.in_ids(db.backend(), &format!("o.{column}"), ids)
        .push(" ORDER BY o.id");
    load_records(db, table, &sql)
}

fn load_by_ids(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    ids: &[i64],
    counts: bool,
) -> Result<Vec<Record>, Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let table = table(spec);
    let sql = by_ids_sql(db.backend(), table, ids, counts);
    load_records(db, table, &sql)
}

/// Objects by id (not none), in id order; `counts` adds the computed counts and values.
pub(crate) fn by_ids_sql(backend: Backend, table: &Table, ids: &[i64], counts: bool) -> Sql {
    let mut sql = Sql::new(if counts {
        &table.select
    } else {
        &table.select_columns
    });
    if ids.len() == 1 {
        sql.push(" WHERE o.id = ").bind(Bind::Int(ids[0]));
    } else {
        sql.push(" WHERE ").in_primary_key(backend, "o.id", ids);
    }
    sql.push(" ORDER BY o.id");
    sql
}

/// Whether a related object must be read: it is not at hand, or it is of `spec` itself,
/// which the caller may have just written. Objects of other resources read earlier in the
/// same call (a write's checks, its answer) stay as they were read.
fn not_at_hand(
    related: &Related,
    spec: &'static ResourceSpec,
    target: &'static ResourceSpec,
    id: i64,
) -> bool {
    std::ptr::eq(target, spec) || related.get(target, id).is_none()
}

/// Fills the relation lists of `records` and loads every object they point to, with a
/// fixed number of queries whatever the number of records: one for all the links of the
/// resource's relations (ids only), then one per related resource for the distinct objects.
pub(crate) fn attach_relations(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    records: &mut [Record],
    related: &mut Related,
) -> Result<(), Error> {
    load_links(db, spec, records)?;
    load_related(db, spec, records, related)
}

/// Fills the relation lists of `records` (empty as loaded) from their link tables, in one
/// query for all relations, each list in the order of the linked ids.
fn load_links(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    records: &mut [Record],
) -> Result<(), Error> {
    if records.is_empty() {
        return Ok(());
    }
    let ids: Vec<i64> = records.iter().map(|r| r.id).collect();
    let position: HashMap<i64, usize> =
        records.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
    let links = links_sql(db.backend(), spec, &ids);
    if !links.is_empty() {
        for row in db.load(&links)? {
            let (fi, owner, linked) = (row.int(0) as usize, row.int(1), row.int(2));
            if let Some(&i) = position.get(&owner) {
                if let Some(Value::Ids(list)) = records[i].values.get_mut(fi) {
                    list.push(linked);
                }
            }
        }
    }
    Ok(())
}

/// The links of every list relation of the objects `ids`, in one query: rows of (field
/// index, owner id, linked id), in field and linked id order (empty: no list relation).
pub(crate) fn links_sql(backend: Backend, spec: &ResourceSpec, ids: &[i64]) -> Sql {
    let mut links = Sql::default();
    for (fi, field) in spec.fields.iter().enumerate() {
        let branch = match field.kind {
            Kind::ManyToMany {
                table: through,
                source,
                target_column,
                ..
            } => {
                let mut sql = Sql::new(&format!(
                    "SELECT {fi}, th.{source}, th.{target_column} FROM {through} th WHERE "
                ));
                sql.in_ids(backend, &format!("th.{source}"), ids);
                sql
            }
            Kind::Tags => {
                let mut sql = Sql::new(&format!(
                    "SELECT {fi}, ti.object_id, ti.tag_id FROM tagged_items ti WHERE ti.object_type = "
                ));
                sql.bind(Bind::Text(spec.content_type()))
                    .push(" AND ")
                    .in_ids(backend, "ti.object_id", ids);
                sql
            }
            _ => continue,
        };
        if !links.is_empty() {
            links.push(" UNION ALL ");
        }
        links.append(&branch);
    }
    if !links.is_empty() {
        links.push(" ORDER BY 1, 3");
    }
    links
}

/// Loads every object that `records` point to (foreign keys, generic objects, relation
/// lists), one query per related resource, and puts tag lists in name order.
pub(crate) fn load_related(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    records: &mut [Record],
    related: &mut Related,
) -> Result<(), Error> {
    // Related resources in declaration order, each with the ids to load.
    let mut wanted: Vec<(&'static ResourceSpec, BTreeSet<i64>)> = Vec::new();
    let mut want = |target: &'static ResourceSpec, id: i64| match wanted
        .iter_mut()
        .find(|(s, _)| std::ptr::eq(*s, target))
    {
        Some((_, set)) => {
            set.insert(id);
        }
        None => wanted.push((target, BTreeSet::from([id]))),
    };
    let mut list_fields: Vec<(usize, &'static ResourceSpec)> = Vec::new();
    for (fi, field) in spec.fields.iter().enumerate() {
        let target = match field.kind {
            Kind::ForeignKey { target, .. } => {
                for id in records.iter().filter_map(|r| r.values[fi].as_int()) {
                    want(target(), id);
                }
                continue;
            }
            Kind::GenericObject { .. } => {
                for (target, id) in records.iter().filter_map(|r| r.generic_target(spec)) {
                    want(target, id);
                }
                continue;
            }
            Kind::ManyToMany { target, .. } => target(),
            Kind::Tags => &peering_domain::resources::TAG,
            _ => continue,
        };
        list_fields.push((fi, target));
        for record in records.iter() {
            for id in record.values[fi].as_ids() {
                want(target, *id);
            }
        }
    }
    for (target, set) in wanted {
        let ids: Vec<i64> = set
            .into_iter()
            .filter(|&id| not_at_hand(related, spec, target, id))
            .collect();
        if ids.is_empty() {
            continue;
        }
        let loaded = shallow_by_ids(db, target, &ids)?;
        load_reads(db, target, &loaded, related)?;
        for r in loaded {
            related.insert(target, r);
        }
    }
    // Tags are listed by name, as the reference orders them.
    let tag = &peering_domain::resources::TAG;
    for &(fi, target) in &list_fields {
        if !std::ptr::eq(target, tag) {
            continue;
        }
        for record in records.iter_mut() {
            if let Some(Value::Ids(list)) = record.values.get_mut(fi) {
                list.sort_by_cached_key(|id| {
                    let name = related
                        .get(tag, *id)
                        .map(|t| t.text(tag, "name").to_string());
                    (name, *id)
                });
            }
        }
    }
    Ok(())
}
