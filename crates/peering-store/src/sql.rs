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
use diesel::sql_types::{BigInt, Bool, Double, HasSqlType, Nullable, Text, Untyped};
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

/// SQL text split around its parameters: `parts.len() == binds.len() + 1`.
#[derive(Debug, Clone)]
pub(crate) struct Sql {
    parts: Vec<String>,
    binds: Vec<Bind>,
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
        self.binds.push(value);
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
        let list: Vec<String> = ids.iter().map(i64::to_string).collect();
        match backend {
            Database::Sqlite => self
                .push(expr)
                .push(" IN (SELECT value FROM json_each(")
                .bind(Bind::Text(format!("[{}]", list.join(","))))
                .push("))"),
            // A page's few ids: `= ANY(?)`, which the planner serves from an index. Many
            // ids: a semi-join, because with a generic plan `= ANY` of a parameter is
            // checked element by element on every row (seconds for thousands of ids over a
            // large table), where the semi-join hashes them.
            Database::Postgres if ids.len() <= FEW_IDS => self
                .push(expr)
                .push(" = ANY(CAST(")
                .bind(Bind::Text(format!("{{{}}}", list.join(","))))
                .push(" AS BIGINT[]))"),
            Database::Postgres => self
                .push(expr)
                .push(" IN (SELECT unnest(CAST(")
                .bind(Bind::Text(format!("{{{}}}", list.join(","))))
                .push(" AS BIGINT[])))"),
        }
    }

    /// Appends a column of values as one PostgreSQL array parameter, `CAST(? AS type[])`,
    /// typed by the values' kind (all of one kind, as a column's are).
    pub fn bind_pg_array(&mut self, column: &[Bind]) -> &mut Self {
        let sql_type = match column.first() {
            Some(Bind::Int(_) | Bind::NullInt) | None => "BIGINT",
            Some(Bind::Text(_) | Bind::NullText) => "TEXT",
            Some(Bind::Bool(_) | Bind::NullBool) => "BOOLEAN",
        };
        let mut literal = String::with_capacity(2 + column.len() * 8);
        literal.push('{');
        for (i, value) in column.iter().enumerate() {
            if i > 0 {
                literal.push(',');
            }
            match value {
                Bind::Int(n) => literal.push_str(&n.to_string()),
                Bind::Bool(b) => literal.push(if *b { 't' } else { 'f' }),
                Bind::Text(t) => {
                    literal.push('"');
                    for c in t.chars() {
                        if c == '"' || c == '\\' {
                            literal.push('\\');
                        }
                        literal.push(c);
                    }
                    literal.push('"');
                }
                Bind::NullInt | Bind::NullText | Bind::NullBool => literal.push_str("NULL"),
            }
        }
        literal.push('}');
        self.push("CAST(")
            .bind(Bind::Text(literal))
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
                for (i, column) in by_column.iter().enumerate() {
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
        for (bind, part) in other.binds.iter().zip(parts) {
            self.bind(bind.clone());
            self.push(part);
        }
        self
    }

    pub fn is_empty(&self) -> bool {
        self.binds.is_empty() && self.parts.iter().all(|p| p.is_empty())
    }

    #[cfg(test)]
    pub fn text(&self) -> String {
        self.parts.join("?")
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

impl<DB> QueryFragment<DB> for Run<'_>
where
    DB: Backend + HasSqlType<BigInt> + HasSqlType<Text> + HasSqlType<Bool>,
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
                Some(Bind::Int(v)) => out.push_bind_param::<BigInt, _>(v)?,
                Some(Bind::Text(v)) => out.push_bind_param::<Text, _>(v)?,
                Some(Bind::Bool(v)) => out.push_bind_param::<Bool, _>(v)?,
                Some(Bind::NullInt) => out.push_bind_param::<Nullable<BigInt>, _>(&NO_INT)?,
                Some(Bind::NullText) => out.push_bind_param::<Nullable<Text>, _>(&NO_TEXT)?,
                Some(Bind::NullBool) => out.push_bind_param::<Nullable<Bool>, _>(&NO_BOOL)?,
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
                Bind::Text("{1,NULL}".into()),
                Bind::Text(r#"{"a \"b\" \\ {c}, NULL",NULL}"#.into()),
                Bind::Text("{t,NULL}".into()),
            ]
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
