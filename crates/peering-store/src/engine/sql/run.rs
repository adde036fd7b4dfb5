//! Running an assembled statement through diesel: its text and parameters walked into
//! either backend's query, arrays bound natively on PostgreSQL.

use diesel::backend::Backend;
use diesel::pg::Pg;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::serialize::ToSql;
use diesel::sql_types::{Array, BigInt, Bool, HasSqlType, Nullable, Text, Untyped};
use diesel::sqlite::Sqlite;
use diesel::{QueryResult, RunQueryDsl};

use super::array::PgArray;
use super::{Bind, Param, Sql};

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
