//! Unit tests of statement assembly: parameters out of the text, logged statements,
//! rows as arrays on PostgreSQL and bound values on SQLite.

use super::array::PgArray;
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
    let mut one = Sql::new("SELECT id FROM t WHERE id IN ");
    one.bind_list([Bind::Int(1)]);
    assert!(
        one.cacheable,
        "a list of one value keeps the text of any other"
    );
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
