//! Dynamic SQL with bound parameters, run on either backend, and rows read without a
//! static schema.
//!
//! Queries are assembled from the resources' declarations, so their shape is known only at
//! run time; values never become SQL text: each one is a bound parameter, and diesel writes
//! the placeholder each backend expects.

mod array;
mod rows;
mod run;

use crate::connection::Backend as Database;
use crate::written::Writes;

use array::PgArray;
pub(crate) use rows::{Cell, DbRow};
pub(crate) use run::Run;

/// A parameter value; nulls carry their SQL type, as PostgreSQL requires.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Bind {
    Int(i64),
    Text(String),
    Bool(bool),
    NullInt,
    NullText,
    NullBool,
}

/// A statement's parameter: one value, or (PostgreSQL only) an array of them.
#[derive(Debug, Clone, PartialEq)]
enum Param {
    One(Bind),
    Array(PgArray),
}

/// SQL text split around its parameters: `parts.len() == binds.len() + 1`.
#[derive(Debug, Clone)]
pub(crate) struct Sql {
    parts: Vec<String>,
    binds: Vec<Param>,
    /// Whether the prepared statement may be cached (false for variable-length lists,
    /// whose text would fill the cache with one entry per length).
    cacheable: bool,
    /// What the statement writes, as its builder declares it (`None`: it only reads).
    writes: Option<Writes>,
}

impl Default for Sql {
    fn default() -> Self {
        Sql {
            parts: vec![String::new()],
            binds: Vec::new(),
            cacheable: true,
            writes: None,
        }
    }
}

impl Sql {
    pub fn new(text: &str) -> Self {
        let mut s = Sql::default();
        s.push(text);
        s
    }

    /// A statement that writes what `writes` declares, starting with `text`.
    pub fn writing(writes: Writes, text: &str) -> Self {
        let mut s = Sql::new(text);
        s.writes = Some(writes);
        s
    }

    /// What the statement writes, as its builder declared it; `None` for a read.
    pub fn writes(&self) -> Option<&Writes> {
        self.writes.as_ref()
    }

    pub fn push(&mut self, text: &str) -> &mut Self {
        if let Some(last) = self.parts.last_mut() {
            last.push_str(text);
        }
        self
    }

    pub fn bind(&mut self, value: Bind) -> &mut Self {
        self.push_param(Param::One(value))
    }

    fn push_param(&mut self, param: Param) -> &mut Self {
        self.binds.push(param);
        self.parts.push(String::new());
        self
    }

    /// Appends `(?, ?, …)` for a list of values (which must not be empty). A list of one
    /// value, a filter's usual case, keeps the statement cacheable: its text is the same
    /// whatever the value. Longer lists give texts that vary with their length.
    pub fn bind_list(&mut self, values: impl IntoIterator<Item = Bind>) -> &mut Self {
        self.push("(");
        let mut count = 0;
        for v in values {
            if count > 0 {
                self.push(", ");
            }
            self.bind(v);
            count += 1;
        }
        self.cacheable &= count == 1;
        self.push(")")
    }

    /// On SQLite, `json_each(?) j CROSS JOIN ` with the ids bound: a table of the ids, read
    /// first, that the next table's join condition probes through `j.value` (the ids must
    /// differ, or rows repeat).
    pub fn sqlite_ids_joined(&mut self, ids: &[i64]) -> &mut Self {
        self.push("json_each(")
            .bind(json_ids(ids))
            .push(") j CROSS JOIN ")
    }

    /// Appends a membership test of `expr` in a set of ids with a single parameter, so the
    /// statement's text (and its cached prepared form) does not depend on the set's size.
    pub fn in_ids(&mut self, backend: Database, expr: &str, ids: &[i64]) -> &mut Self {
        /// Up to this many ids (a 50-object page's), PostgreSQL is given `= ANY`.
        const FEW_IDS: usize = 100;
        self.membership(backend, expr, ids, ids.len() <= FEW_IDS)
    }

    /// `in_ids` for a table's own primary key: PostgreSQL is given `= ANY` for any number
    /// of ids, which it serves by walking the key's index once in key order (500 ids:
    /// 1.3 ms, against 2.0 ms for the semi-join); with the key's index at hand, no plan
    /// scans the table checking each row against the list.
    pub fn in_primary_key(&mut self, backend: Database, expr: &str, ids: &[i64]) -> &mut Self {
        self.membership(backend, expr, ids, true)
    }

    fn membership(&mut self, backend: Database, expr: &str, ids: &[i64], any: bool) -> &mut Self {
        let array = || Param::Array(PgArray::Int(ids.iter().map(|&id| Some(id)).collect()));
        match backend {
            Database::Sqlite => self
                .push(expr)
                .push(" IN (SELECT value FROM json_each(")
                .bind(json_ids(ids))
                .push("))"),
            // A few ids: `= ANY(?)`, which the planner serves from an index. Many ids
            // (outside a primary key): a semi-join, because with a generic plan `= ANY` of
            // a parameter may be checked element by element on every row (seconds for
            // thousands of ids over a large table), where the semi-join hashes them.
            Database::Postgres if any => self
                .push(expr)
                .push(" = ANY(CAST(")
                .push_param(array())
                .push(" AS BIGINT[]))"),
            Database::Postgres => self
                .push(expr)
                .push(" IN (SELECT unnest(CAST(")
                .push_param(array())
                .push(" AS BIGINT[])))"),
        }
    }

    /// Appends a column of values as one PostgreSQL array parameter, `CAST(? AS type[])`,
    /// typed by the values' kind (the cast is a no-op unless kinds were mixed).
    pub fn bind_pg_array(&mut self, column: Vec<Bind>) -> &mut Self {
        let (array, sql_type) = PgArray::of_column(column);
        self.push("CAST(")
            .push_param(Param::Array(array))
            .push(&format!(" AS {sql_type}[])"))
    }

    /// How many rows of `width` values one statement takes: SQLite binds each value, so
    /// its statements stay under 500 rows and 8,000 parameters; PostgreSQL binds a column
    /// per parameter (`push_rows`), so any number.
    pub fn rows_per_statement(backend: Database, width: usize) -> usize {
        match backend {
            Database::Sqlite => (8000 / width.max(1)).clamp(1, 500),
            Database::Postgres => usize::MAX,
        }
    }

    /// Appends rows of values (of equal width, not empty) as a table `v` with columns
    /// `column1`, `column2`…: a `VALUES` list on SQLite; on PostgreSQL, `unnest` of one array
    /// per column, whose text and plan do not depend on the number of rows (and which the
    /// planner, not knowing their number, joins to an index rather than scanning the table
    /// to hash it).
    pub fn push_rows(&mut self, backend: Database, rows: Vec<Vec<Bind>>) -> &mut Self {
        let width = rows.first().map_or(0, Vec::len);
        match backend {
            Database::Postgres => {
                let mut by_column: Vec<Vec<Bind>> = vec![Vec::with_capacity(rows.len()); width];
                for row in rows {
                    for (column, value) in by_column.iter_mut().zip(row) {
                        column.push(value);
                    }
                }
                self.push("unnest(");
                for (i, column) in by_column.into_iter().enumerate() {
                    if i > 0 {
                        self.push(", ");
                    }
                    self.bind_pg_array(column);
                }
                let names: Vec<String> = (1..=width).map(|k| format!("column{k}")).collect();
                self.push(&format!(") AS v({})", names.join(", ")))
            }
            Database::Sqlite => {
                if rows.len() != Self::rows_per_statement(backend, width) {
                    self.uncacheable();
                }
                self.push("(VALUES ");
                for (n, row) in rows.into_iter().enumerate() {
                    if n > 0 {
                        self.push(", ");
                    }
                    self.push("(");
                    for (i, value) in row.into_iter().enumerate() {
                        if i > 0 {
                            self.push(", ");
                        }
                        self.bind(value);
                    }
                    self.push(")");
                }
                self.push(") AS v")
            }
        }
    }

    /// Statements inserting rows (of one bind per column) into `table`'s `columns`, as few
    /// as the backend allows.
    pub fn inserts(
        backend: Database,
        table: &'static str,
        columns: &[&str],
        rows: Vec<Vec<Bind>>,
    ) -> Vec<Sql> {
        let per_statement = Self::rows_per_statement(backend, columns.len());
        Self::inserts_by(backend, table, columns, rows, per_statement)
    }

    /// Like [`Sql::inserts`], `per_statement` rows at most in each statement.
    pub fn inserts_by(
        backend: Database,
        table: &'static str,
        columns: &[&str],
        rows: Vec<Vec<Bind>>,
        per_statement: usize,
    ) -> Vec<Sql> {
        let per_statement = per_statement.max(1);
        let mut statements = Vec::new();
        let mut rows = rows.into_iter().peekable();
        while rows.peek().is_some() {
            let chunk: Vec<Vec<Bind>> = rows.by_ref().take(per_statement).collect();
            let mut sql = Sql::writing(
                Writes::adds(table),
                &format!(
                    "INSERT INTO {table} ({}) SELECT * FROM ",
                    columns.join(", ")
                ),
            );
            sql.push_rows(backend, chunk);
            statements.push(sql);
        }
        statements
    }

    /// Marks the statement as not worth caching (its text varies with its data's size).
    pub fn uncacheable(&mut self) -> &mut Self {
        self.cacheable = false;
        self
    }

    /// Appends another fragment with its parameters.
    pub fn append(&mut self, other: &Sql) -> &mut Self {
        self.cacheable &= other.cacheable;
        let mut parts = other.parts.iter();
        if let Some(first) = parts.next() {
            self.push(first);
        }
        for (param, part) in other.binds.iter().zip(parts) {
            self.push_param(param.clone());
            self.push(part);
        }
        self
    }

    /// The text before the first parameter.
    pub fn head(&self) -> &str {
        self.parts.first().map_or("", String::as_str)
    }

    pub fn is_empty(&self) -> bool {
        self.binds.is_empty() && self.parts.iter().all(|p| p.is_empty())
    }

    /// The statement as PostgreSQL receives it (`$1`, `$2`, … in place of the values) and
    /// its values, as one JSON object: what the SQL trace log writes. The values a write
    /// sends are masked (they may be secrets: a session's password, a token's hash).
    pub fn logged(&self) -> serde_json::Value {
        use serde_json::json;
        let first = self.parts.first().map_or("", |p| p.trim_start());
        let reads = first
            .get(..6)
            .is_some_and(|w| w.eq_ignore_ascii_case("select"));
        let mut text = String::new();
        for (i, part) in self.parts.iter().enumerate() {
            text.push_str(part);
            if i < self.binds.len() {
                text.push_str(&format!("${}", i + 1));
            }
        }
        let one = |b: &Bind| match b {
            Bind::Int(v) => json!(v),
            Bind::Text(v) => json!(v),
            Bind::Bool(v) => json!(v),
            Bind::NullInt | Bind::NullText | Bind::NullBool => serde_json::Value::Null,
        };
        let binds: Vec<serde_json::Value> = self
            .binds
            .iter()
            .map(|p| match p {
                _ if !reads => json!("********"),
                Param::One(b) => one(b),
                Param::Array(PgArray::Int(v)) => json!(v),
                Param::Array(PgArray::Text(v)) => json!(v),
                Param::Array(PgArray::Bool(v)) => json!(v),
            })
            .collect();
        json!({"sql": text, "binds": binds})
    }

    #[cfg(test)]
    pub fn text(&self) -> String {
        self.parts.join("?")
    }

    /// The statement as `backend` receives it (`?` on SQLite, `$1`, `$2`… on PostgreSQL),
    /// then whether its prepared form is cached and its parameters, one a line: what the
    /// snapshot tests pin.
    #[cfg(test)]
    pub fn snapshot(&self, backend: Database) -> String {
        let mut text = String::new();
        for (i, part) in self.parts.iter().enumerate() {
            text.push_str(part);
            if i < self.binds.len() {
                match backend {
                    Database::Sqlite => text.push('?'),
                    Database::Postgres => text.push_str(&format!("${}", i + 1)),
                }
            }
        }
        text.push_str(&format!("\n-- cached: {}", self.cacheable));
        for (i, param) in self.binds.iter().enumerate() {
            let shown = match param {
                Param::One(bind) => format!("{bind:?}"),
                Param::Array(array) => format!("array {array:?}"),
            };
            text.push_str(&format!("\n-- {}: {shown}", i + 1));
        }
        text
    }
}

#[cfg(test)]
mod tests;

/// Ids as one JSON array parameter, which SQLite's `json_each` reads as a table.
fn json_ids(ids: &[i64]) -> Bind {
    let list: Vec<String> = ids.iter().map(i64::to_string).collect();
    Bind::Text(format!("[{}]", list.join(",")))
}
