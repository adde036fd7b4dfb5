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
}
