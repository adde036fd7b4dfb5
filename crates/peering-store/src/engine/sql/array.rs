//! Columns of values sent to PostgreSQL as one array parameter each.

use super::Bind;

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
    pub(super) fn of_column(column: Vec<Bind>) -> (PgArray, &'static str) {
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
