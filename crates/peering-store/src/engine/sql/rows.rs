//! Rows read without a static schema: each cell typed by what the backend says it holds.

use diesel::deserialize::{self, FromSql, QueryableByName};
use diesel::pg::{Pg, PgValue};
use diesel::row::{Field, NamedRow, Row};
use diesel::sql_types::{BigInt, Bool, Double, Text};
use diesel::sqlite::{Sqlite, SqliteType, SqliteValue};

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
#[derive(Debug, Clone, Default, PartialEq)]
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
