//! Dynamic SQL with bound parameters, run on either backend, and rows read without a
//! static schema.
//!
//! Queries are assembled from the resources' declarations, so their shape is known only at
//! run time; values never become SQL text: each one is a bound parameter, and diesel writes
//! the placeholder each backend expects.

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, QueryableByName};
use diesel::pg::{Pg, PgValue};
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::row::{Field, NamedRow, Row};
use diesel::serialize::ToSql;
use diesel::sql_types::{Array, BigInt, Bool, Double, HasSqlType, Nullable, Text, Untyped};
use diesel::sqlite::{Sqlite, SqliteType, SqliteValue};
use diesel::{QueryResult, RunQueryDsl};

use crate::connection::Backend as Database;

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

/// A column of values sent to PostgreSQL as one array parameter, in its binary form: the
/// values are copied, never escaped into an array literal for the server to parse (for
/// 1,000 change records, a megabyte of JSON).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PgArray {
    Int(Vec<Option<i64>>),
    Text(Vec<Option<String>>),
    Bool(Vec<Option<bool>>),
}

impl PgArray {
    /// The array of a column of values, typed by its first value, as a column's values are
    /// all of one kind (any that is not is sent as text, and cast by PostgreSQL).
    fn of_column(column: Vec<Bind>) -> (PgArray, &'static str) {
        let sql_type = match column.first() {
            Some(Bind::Int(_) | Bind::NullInt) | None => "BIGINT",
            Some(Bind::Text(_) | Bind::NullText) => "TEXT",
            Some(Bind::Bool(_) | Bind::NullBool) => "BOOLEAN",
        };
        let ints = || {
            column
                .iter()
                .map(|b| match b {
                    Bind::Int(n) => Some(Some(*n)),
                    Bind::NullInt => Some(None),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()
        };
        let bools = || {
            column
                .iter()
                .map(|b| match b {
                    Bind::Bool(v) => Some(Some(*v)),
                    Bind::NullBool => Some(None),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()
        };
        let array = match sql_type {
            "BIGINT" => ints().map(PgArray::Int),
            "BOOLEAN" => bools().map(PgArray::Bool),
            _ => None,
        };
        let array = array.unwrap_or_else(|| {
            PgArray::Text(
                column
                    .into_iter()
                    .map(|b| match b {
                        Bind::Text(t) => Some(t),
                        Bind::Int(n) => Some(n.to_string()),
                        Bind::Bool(v) => Some(v.to_string()),
                        Bind::NullInt | Bind::NullText | Bind::NullBool => None,
                    })
                    .collect(),
            )
        });
        (array, sql_type)
    }
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
}

impl Default for Sql {
    fn default() -> Self {
        Sql {
            parts: vec![String::new()],
            binds: Vec::new(),
            cacheable: true,
        }
    }
}

impl Sql {
    pub fn new(text: &str) -> Self {
        let mut s = Sql::default();
        s.push(text);
        s
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

    /// Appends `(?, ?, …)` for a list of values (which must not be empty).
    pub fn bind_list(&mut self, values: impl IntoIterator<Item = Bind>) -> &mut Self {
        self.cacheable = false;
        self.push("(");
        for (i, v) in values.into_iter().enumerate() {
            if i > 0 {
                self.push(", ");
            }
            self.bind(v);
        }
        self.push(")")
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
            Database::Sqlite => {
                let list: Vec<String> = ids.iter().map(i64::to_string).collect();
                self.push(expr)
                    .push(" IN (SELECT value FROM json_each(")
                    .bind(Bind::Text(format!("[{}]", list.join(","))))
                    .push("))")
            }
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
        table: &str,
        columns: &[&str],
        rows: Vec<Vec<Bind>>,
    ) -> Vec<Sql> {
        let per_statement = Self::rows_per_statement(backend, columns.len());
        let mut statements = Vec::new();
        let mut rows = rows.into_iter().peekable();
        while rows.peek().is_some() {
            let chunk: Vec<Vec<Bind>> = rows.by_ref().take(per_statement).collect();
            let mut sql = Sql::new(&format!(
                "INSERT INTO {table} ({}) SELECT * FROM ",
                columns.join(", ")
            ));
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

/// A borrowed query, so one `Sql` can be run without cloning it.
pub(crate) struct Run<'a>(pub &'a Sql);

impl QueryId for Run<'_> {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl Query for Run<'_> {
    type SqlType = Untyped;
}

impl<Conn> RunQueryDsl<Conn> for Run<'_> {}

/// How a backend takes an array parameter: PostgreSQL natively; SQLite has none, and the
/// store's SQL for it never asks for one (`Sql::push_rows`, `Sql::in_ids`).
pub(crate) trait ArrayParams: Backend {
    fn push_array<'b>(out: &mut AstPass<'_, 'b, Self>, array: &'b PgArray) -> QueryResult<()>;
}

impl ArrayParams for Pg {
    fn push_array<'b>(out: &mut AstPass<'_, 'b, Pg>, array: &'b PgArray) -> QueryResult<()> {
        match array {
            PgArray::Int(v) => out.push_bind_param::<Array<Nullable<BigInt>>, _>(v),
            PgArray::Text(v) => out.push_bind_param::<Array<Nullable<Text>>, _>(v),
            PgArray::Bool(v) => out.push_bind_param::<Array<Nullable<Bool>>, _>(v),
        }
    }
}

impl ArrayParams for Sqlite {
    fn push_array<'b>(_: &mut AstPass<'_, 'b, Sqlite>, _: &'b PgArray) -> QueryResult<()> {
        Err(diesel::result::Error::QueryBuilderError(
            "SQLite takes no array parameters".into(),
        ))
    }
}

impl<DB> QueryFragment<DB> for Run<'_>
where
    DB: ArrayParams + HasSqlType<BigInt> + HasSqlType<Text> + HasSqlType<Bool>,
    i64: ToSql<BigInt, DB>,
    String: ToSql<Text, DB>,
    bool: ToSql<Bool, DB>,
    Option<i64>: ToSql<Nullable<BigInt>, DB>,
    Option<String>: ToSql<Nullable<Text>, DB>,
    Option<bool>: ToSql<Nullable<Bool>, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        const NO_INT: Option<i64> = None;
        const NO_TEXT: Option<String> = None;
        const NO_BOOL: Option<bool> = None;
        if !self.0.cacheable {
            out.unsafe_to_cache_prepared();
        }
        for (i, part) in self.0.parts.iter().enumerate() {
            out.push_sql(part);
            match self.0.binds.get(i) {
                None => {}
                Some(Param::One(Bind::Int(v))) => out.push_bind_param::<BigInt, _>(v)?,
                Some(Param::One(Bind::Text(v))) => out.push_bind_param::<Text, _>(v)?,
                Some(Param::One(Bind::Bool(v))) => out.push_bind_param::<Bool, _>(v)?,
                Some(Param::One(Bind::NullInt)) => {
                    out.push_bind_param::<Nullable<BigInt>, _>(&NO_INT)?
                }
                Some(Param::One(Bind::NullText)) => {
                    out.push_bind_param::<Nullable<Text>, _>(&NO_TEXT)?
                }
                Some(Param::One(Bind::NullBool)) => {
                    out.push_bind_param::<Nullable<Bool>, _>(&NO_BOOL)?
                }
                Some(Param::Array(array)) => DB::push_array(&mut out, array)?,
            }
        }
        Ok(())
    }
}

/// One value read from a row; booleans arrive as integers from SQLite.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Cell {
    Null,
    Int(i64),
    Text(String),
    Bool(bool),
    Double(f64),
}

impl Cell {
    pub fn int(&self) -> Option<i64> {
        match self {
            Cell::Int(i) => Some(*i),
            Cell::Bool(b) => Some(i64::from(*b)),
            Cell::Double(d) => Some(*d as i64),
            _ => None,
        }
    }

    pub fn bool(&self) -> Option<bool> {
        match self {
            Cell::Bool(b) => Some(*b),
            Cell::Int(i) => Some(*i != 0),
            _ => None,
        }
    }

    pub fn into_text(self) -> Option<String> {
        match self {
            Cell::Text(s) => Some(s),
            Cell::Int(i) => Some(i.to_string()),
            _ => None,
        }
    }
}

/// A row of any shape.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DbRow(pub Vec<Cell>);

impl DbRow {
    pub fn int(&self, i: usize) -> i64 {
        self.0.get(i).and_then(Cell::int).unwrap_or(0)
    }

    pub fn take(&mut self, i: usize) -> Cell {
        self.0
            .get_mut(i)
            .map(|c| std::mem::replace(c, Cell::Null))
            .unwrap_or(Cell::Null)
    }
}

fn sqlite_cell(value: Option<SqliteValue<'_, '_, '_>>) -> deserialize::Result<Cell> {
    let Some(value) = value else {
        return Ok(Cell::Null);
    };
    Ok(match value.value_type() {
        None => Cell::Null,
        Some(SqliteType::Long | SqliteType::Integer | SqliteType::SmallInt) => {
            Cell::Int(<i64 as FromSql<BigInt, Sqlite>>::from_sql(value)?)
        }
        Some(SqliteType::Double | SqliteType::Float) => {
            Cell::Double(<f64 as FromSql<Double, Sqlite>>::from_sql(value)?)
        }
        Some(_) => Cell::Text(<String as FromSql<Text, Sqlite>>::from_sql(value)?),
    })
}

fn pg_cell(value: Option<PgValue<'_>>) -> deserialize::Result<Cell> {
    let Some(value) = value else {
        return Ok(Cell::Null);
    };
    Ok(match value.get_oid().get() {
        16 => Cell::Bool(<bool as FromSql<Bool, Pg>>::from_sql(value)?),
        20 => Cell::Int(<i64 as FromSql<BigInt, Pg>>::from_sql(value)?),
        21 => Cell::Int(i64::from(<i16 as FromSql<
            diesel::sql_types::SmallInt,
            Pg,
        >>::from_sql(value)?)),
        23 => Cell::Int(i64::from(<i32 as FromSql<
            diesel::sql_types::Integer,
            Pg,
        >>::from_sql(value)?)),
        700 | 701 => Cell::Double(<f64 as FromSql<Double, Pg>>::from_sql(value)?),
        _ => Cell::Text(<String as FromSql<Text, Pg>>::from_sql(value)?),
    })
}

impl QueryableByName<Sqlite> for DbRow {
    fn build<'a>(row: &impl NamedRow<'a, Sqlite>) -> deserialize::Result<Self> {
        (0..row.field_count())
            .map(|i| match Row::get(row, i) {
                Some(field) => sqlite_cell(field.value()),
                None => Ok(Cell::Null),
            })
            .collect::<deserialize::Result<Vec<_>>>()
            .map(DbRow)
    }
}

impl QueryableByName<Pg> for DbRow {
    fn build<'a>(row: &impl NamedRow<'a, Pg>) -> deserialize::Result<Self> {
        (0..row.field_count())
            .map(|i| match Row::get(row, i) {
                Some(field) => pg_cell(field.value()),
                None => Ok(Cell::Null),
            })
            .collect::<deserialize::Result<Vec<_>>>()
            .map(DbRow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logged_statements_number_their_parameters_as_postgresql_does() {
        let mut s = Sql::new("SELECT id FROM t WHERE name = ");
        s.bind(Bind::Text("x".into())).push(" AND flag = ");
        s.bind(Bind::NullBool).push(" AND id = ANY(");
        s.bind_pg_array(vec![Bind::Int(1), Bind::Int(2)]).push(")");
        assert_eq!(
            s.logged(),
            serde_json::json!({
                "sql": "SELECT id FROM t WHERE name = $1 AND flag = $2 AND id = ANY(CAST($3 AS BIGINT[]))",
                "binds": ["x", null, [1, 2]]
            })
        );
    }

    #[test]
    fn logged_writes_mask_their_values() {
        let mut s = Sql::new("UPDATE t SET password = ");
        s.bind(Bind::Text("secret".into())).push(" WHERE id = ");
        s.bind(Bind::Int(3));
        assert_eq!(
            s.logged(),
            serde_json::json!({
                "sql": "UPDATE t SET password = $1 WHERE id = $2",
                "binds": ["********", "********"]
            })
        );
    }

    #[test]
    fn parameters_stay_out_of_the_text() {
        let mut s = Sql::new("SELECT id FROM t WHERE name = ");
        s.bind(Bind::Text("x'; DROP TABLE t; --".into()));
        s.push(" AND id IN ");
        s.bind_list([Bind::Int(1), Bind::Int(2)]);
        assert_eq!(s.text(), "SELECT id FROM t WHERE name = ? AND id IN (?, ?)");
        assert!(!s.cacheable);
        let mut outer = Sql::new("SELECT * FROM (");
        outer.append(&s).push(")");
        assert_eq!(
            outer.text(),
            "SELECT * FROM (SELECT id FROM t WHERE name = ? AND id IN (?, ?))"
        );
        assert_eq!(outer.binds.len(), 3);
    }

    #[test]
    fn rows_are_one_array_per_column_on_postgres_and_bound_values_on_sqlite() {
        let rows = vec![
            vec![
                Bind::Int(1),
                Bind::Text("a \"b\" \\ {c}, NULL".into()),
                Bind::Bool(true),
            ],
            vec![Bind::NullInt, Bind::NullText, Bind::NullBool],
        ];
        let mut pg = Sql::new("SELECT * FROM ");
        pg.push_rows(Database::Postgres, rows.clone());
        assert_eq!(
            pg.text(),
            "SELECT * FROM unnest(CAST(? AS BIGINT[]), CAST(? AS TEXT[]), CAST(? AS BOOLEAN[])) \
             AS v(column1, column2, column3)"
        );
        assert_eq!(
            pg.binds,
            [
                Param::Array(PgArray::Int(vec![Some(1), None])),
                Param::Array(PgArray::Text(vec![
                    Some("a \"b\" \\ {c}, NULL".into()),
                    None
                ])),
                Param::Array(PgArray::Bool(vec![Some(true), None])),
            ]
        );
        // A column of mixed kinds goes as text, for PostgreSQL to cast.
        let mut mixed = Sql::new("");
        mixed.bind_pg_array(vec![Bind::Int(7), Bind::Text("8".into()), Bind::NullInt]);
        assert_eq!(mixed.text(), "CAST(? AS BIGINT[])");
        assert_eq!(
            mixed.binds,
            [Param::Array(PgArray::Text(vec![
                Some("7".into()),
                Some("8".into()),
                None
            ]))]
        );
        let mut lite = Sql::new("SELECT * FROM ");
        lite.push_rows(Database::Sqlite, rows);
        assert_eq!(
            lite.text(),
            "SELECT * FROM (VALUES (?, ?, ?), (?, ?, ?)) AS v"
        );
        assert_eq!(lite.binds.len(), 6);
    }
}
