//! Unit tests of reference resolution: a database failure while resolving stays an error of
//! its own, never a field message a client would read (a 400 naming the database's words).

use std::sync::atomic::AtomicU64;

use diesel::{Connection, SqliteConnection};
use peering_domain::input::{Draft, Input, Ref};
use peering_domain::resources::{AUTONOMOUS_SYSTEM, DIRECT_PEERING_SESSION};
use serde_json::json;

use crate::connection::Mode;

use super::*;

/// A connection to a database without the store's tables: every lookup fails.
fn broken() -> SqliteConnection {
    match SqliteConnection::establish(":memory:") {
        Ok(conn) => conn,
        Err(e) => panic!("an in-memory database: {e}"),
    }
}

fn attrs(value: Json) -> Ref {
    match value {
        Json::Object(map) => Ref::Attrs(map),
        other => panic!("not an object: {other}"),
    }
}

fn assert_database_failure<T: std::fmt::Debug>(result: Result<T, Error>) {
    match result {
        Err(Error::Backend(message)) => assert!(message.contains("no such table"), "{message}"),
        other => panic!("expected a database error, got {other:?}"),
    }
}

#[test]
fn a_failed_lookup_is_an_error_not_a_field_message() {
    let mut conn = broken();
    let queries = AtomicU64::new(0);
    let mut db = Db::Sqlite(&mut conn, &queries, Mode::Read(None));
    assert_database_failure(lookup_ref(&mut db, &AUTONOMOUS_SYSTEM, &Ref::Id(1)));
    assert_database_failure(lookup_ref(
        &mut db,
        &AUTONOMOUS_SYSTEM,
        &attrs(json!({"asn": 64500})),
    ));
    // A nested reference fails inside `select_by_attributes`: still not "not found".
    assert_database_failure(lookup_ref(
        &mut db,
        &DIRECT_PEERING_SESSION,
        &attrs(json!({"autonomous_system": {"asn": 64500}})),
    ));
}

#[test]
fn a_failed_lookup_fails_the_whole_draft() {
    let mut conn = broken();
    let queries = AtomicU64::new(0);
    let mut db = Db::Sqlite(&mut conn, &queries, Mode::Read(None));
    let spec = &DIRECT_PEERING_SESSION;
    let mut draft = Draft::empty(spec);
    let (Some(fk), Some(tags)) = (spec.index_of("autonomous_system"), spec.index_of("tags")) else {
        panic!("sessions have an autonomous system and tags");
    };
    draft.inputs[fk] = Some(Input::Ref(Some(Ref::Id(7))));
    assert_database_failure(resolve(&mut db, &mut Memo::default(), spec, draft.clone()));
    draft.inputs[fk] = None;
    draft.inputs[tags] = Some(Input::Refs(vec![Ref::Id(1), Ref::Id(2)]));
    assert_database_failure(resolve(&mut db, &mut Memo::default(), spec, draft.clone()));
    // The list's ids looked up up front fail the same way.
    assert_database_failure(Memo::default().prefetch_ids(&mut db, spec, [&draft].into_iter()));
}
