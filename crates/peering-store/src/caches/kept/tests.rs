//! Tests of the kept objects: versions, carrying through writes, the bound and its sizes.

use super::*;
use crate::written::Writes;
use peering_domain::resources::{
    AUTONOMOUS_SYSTEM, CONNECTION, INTERNET_EXCHANGE_PEERING_SESSION, ROUTER, TAG,
};

fn object(id: i64) -> Arc<Record> {
    Arc::new(Record {
        id,
        values: vec![Value::Int(id)],
    })
}

/// An object holding a text of `bytes`.
fn text_of(id: i64, bytes: usize) -> Arc<Record> {
    let values = vec![Value::Text("x".repeat(bytes))];
    Arc::new(Record { id, values })
}

#[test]
fn objects_are_taken_only_under_the_version_they_were_kept_at() {
    let kept = KeptObjects::default();
    kept.keep(&TAG, 7, &[object(1), object(2)]);
    let (found, missing) = kept.take(&TAG, 7, vec![2, 3, 1]);
    assert_eq!(found.iter().map(|r| r.id).collect::<Vec<_>>(), [2, 1]);
    assert_eq!(missing, [3]);
    let (found, missing) = kept.take(&TAG, 8, vec![1, 2]);
    assert!(found.is_empty());
    assert_eq!(missing, [1, 2]);
    // Another table's version is its own.
    assert_eq!(kept.take(&AUTONOMOUS_SYSTEM, 7, vec![1]).1, [1]);
}

#[test]
fn a_new_version_drops_what_the_old_one_kept() {
    let kept = KeptObjects::default();
    kept.keep(&TAG, 1, &[object(1), object(2)]);
    kept.keep(&TAG, 2, &[object(3)]);
    assert_eq!(kept.bytes(), approximate_bytes(&object(3)));
    assert_eq!(kept.take(&TAG, 2, vec![1, 3]).1, [1]);
    assert_eq!(kept.take(&TAG, 1, vec![1]).1, [1]);
}

#[test]
fn past_the_most_kept_the_table_holding_most_is_kept_no_longer() {
    let kept = KeptObjects::default();
    let big = |id| text_of(id, 1 << 20);
    // One object of a MiB fewer than the bound holds, then two more.
    let fitting = i64::try_from(MOST_KEPT_BYTES >> 20).unwrap() - 1;
    let many: Vec<_> = (0..fitting).map(big).collect();
    kept.keep(&TAG, 1, &many);
    kept.keep(&AUTONOMOUS_SYSTEM, 1, &[object(1)]);
    let before = kept.bytes();
    assert!(before > MOST_KEPT_BYTES - (1 << 20), "{before}");
    kept.keep(&TAG, 1, &[big(fitting + 1), big(fitting + 2)]);
    // The tags are let go of; the other table stays.
    assert_eq!(kept.bytes(), approximate_bytes(&object(1)));
    assert!(kept.take(&AUTONOMOUS_SYSTEM, 1, vec![1]).1.is_empty());
    assert_eq!(kept.take(&TAG, 1, vec![0, fitting + 1]).1, [0, fitting + 1]);
    // From now on tags are not kept, even a few under a new version.
    kept.keep(&TAG, 2, &[object(7)]);
    assert_eq!(kept.take(&TAG, 2, vec![7]).1, [7]);
    kept.keep(&AUTONOMOUS_SYSTEM, 1, &[object(2)]);
    assert!(kept.take(&AUTONOMOUS_SYSTEM, 1, vec![1, 2]).1.is_empty());
}

#[test]
fn a_table_too_large_alone_is_not_kept_and_lets_the_others_be() {
    let kept = KeptObjects::default();
    kept.keep(&TAG, 1, &[object(1)]);
    kept.keep(&AUTONOMOUS_SYSTEM, 1, &[text_of(5, MOST_KEPT_BYTES)]);
    assert_eq!(kept.take(&AUTONOMOUS_SYSTEM, 1, vec![5]).1, [5]);
    assert!(kept.take(&TAG, 1, vec![1]).1.is_empty());
    assert_eq!(kept.bytes(), approximate_bytes(&object(1)));
}

#[test]
fn objects_kept_already_or_under_a_version_about_to_go_count_for_nothing() {
    let kept = KeptObjects::default();
    let big = |id| text_of(id, 1 << 20);
    kept.keep(&TAG, 1, &[object(1)]);
    kept.keep(&AUTONOMOUS_SYSTEM, 1, &[big(1), big(2), big(3)]);
    // Counted again, they would pass the bound and let go of the autonomous systems.
    kept.keep(&AUTONOMOUS_SYSTEM, 1, &[big(1), big(2), big(3)]);
    kept.keep(&AUTONOMOUS_SYSTEM, 2, &[big(4), big(5), big(6), big(7)]);
    assert!(kept.take(&AUTONOMOUS_SYSTEM, 2, vec![4, 7]).1.is_empty());
    assert!(kept.take(&TAG, 1, vec![1]).1.is_empty());
    let expected = 4 * approximate_bytes(&big(4)) + approximate_bytes(&object(1));
    assert_eq!(kept.bytes(), expected);
}

#[test]
fn a_write_naming_its_rows_lets_go_of_those_alone() {
    let (tags, systems) = ([TAG.table], [AUTONOMOUS_SYSTEM.table]);
    let before = TableVersions::from_pairs([(TAG.table, 1), (AUTONOMOUS_SYSTEM.table, 1)]);
    let kept = KeptObjects::default();
    kept.keep(&TAG, before.of(&tags), &[object(1), object(2), object(3)]);
    kept.keep(&AUTONOMOUS_SYSTEM, before.of(&systems), &[object(1)]);
    let mut written = Written::default();
    written.note(&Writes::updates("tags").setting(&["name"]).of_rows(vec![2]));
    written.note(&Writes::updates("autonomous_systems").setting(&["name"]));
    assert!(kept.carried_by(&written));
    let after = before.advanced(&written, 9);

    kept.after_write(&written, None);
    assert_eq!(kept.take(&TAG, before.of(&tags), vec![2]).1, [] as [i64; 0]);
    kept.after_write(&written, Some((&before, &after)));
    let (found, missing) = kept.take(&TAG, after.of(&tags), vec![1, 2, 3]);
    assert_eq!(found.iter().map(|r| r.id).collect::<Vec<_>>(), [1, 3]);
    assert_eq!(missing, [2], "the row written");
    // A read that began before the write takes what is kept, and keeps what it read
    // but the row written, which it may have read before the write.
    assert_eq!(kept.take(&TAG, before.of(&tags), vec![1, 2]).1, [2]);
    kept.keep(&TAG, before.of(&tags), &[object(2), object(4)]);
    assert_eq!(kept.take(&TAG, after.of(&tags), vec![2, 4]).1, [2]);
    assert_eq!(kept.take(&TAG, 5, vec![1]).1, [1], "a version never kept");
    assert_eq!(
        kept.take(&AUTONOMOUS_SYSTEM, after.of(&systems), vec![1]).1,
        [1],
        "written by a statement that named no rows"
    );
    assert_eq!(kept.bytes(), 3 * approximate_bytes(&object(1)));

    // Kept under neither version: another write came between.
    let later = after.advanced(&written, 10);
    kept.after_write(&written, Some((&later, &later.advanced(&written, 11))));
    assert_eq!(kept.bytes(), 0);
    // Kept under the version a write left: read after it, kept as is.
    kept.keep(&TAG, after.of(&tags), &[object(2)]);
    kept.after_write(&written, Some((&before, &after)));
    assert_eq!(kept.take(&TAG, after.of(&tags), vec![2]).1, [] as [i64; 0]);
}

/// The migrations' triggers rewrite order keys on rows no statement names (a session's
/// copy of its peer's ASN; every connection's rank, `rank_connections`). Kept objects
/// hold their resources' own columns, none of which is such a key: those rewrites
/// leave kept objects as they were, and a write's named rows stay all it changed of
/// them.
#[test]
fn no_key_the_triggers_rewrite_is_a_column_of_a_kept_object() {
    let mut rewritten: Vec<(&str, &str)> = (crate::schema::ORDER_KEYS.iter())
        .map(|key| (key.table, key.column))
        .collect();
    rewritten.push((CONNECTION.table, "order_rank"));
    for (table, column) in rewritten {
        let spec = (peering_domain::resources::ALL.iter())
            .find(|spec| spec.table == table)
            .unwrap_or_else(|| panic!("{table} is no resource's table"));
        let columns = &crate::schema::table(spec).columns;
        assert!(
            columns.iter().all(|c| c.name != column),
            "{table}.{column} is read into objects"
        );
    }
}

/// The bound is set for the autonomous systems of a mid-sized network (5,000) with
/// room for what else pages show; a value grown larger (an unboxed JSON document is 72
/// bytes) would let them fit no longer, and every page would read them again.
#[test]
fn five_thousand_autonomous_systems_fit_in_the_bound_with_room() {
    let spec = &AUTONOMOUS_SYSTEM;
    let values = (spec.fields.iter())
        .map(|field| match (field.name, &field.kind) {
            ("name", _) => Value::Text("Example Networks 1234".into()),
            ("irr_as_set", _) => Value::Text("AS-EXAMPLE1234".into()),
            (_, Kind::Text { .. }) => Value::Text(String::new()),
            (_, Kind::ManyToMany { .. } | Kind::Tags) => Value::Ids(Vec::new()),
            (_, Kind::Bool) => Value::Bool(true),
            (_, Kind::Time) => Value::Time(chrono::Utc::now()),
            (_, Kind::Int { .. }) => Value::Int(64_512),
            _ => Value::Null,
        })
        .collect();
    let one = approximate_bytes(&Record { id: 1, values });
    assert!(5_000 * one < MOST_KEPT_BYTES * 4 / 5, "{one} bytes an AS");
}

#[test]
fn a_read_may_show_the_tables_its_relations_point_to_and_what_they_read() {
    let tables = tables_shown_with(&AUTONOMOUS_SYSTEM);
    assert!(tables.contains(&TAG.table), "{tables:?}");
    assert!(!tables.contains(&AUTONOMOUS_SYSTEM.table), "{tables:?}");
    // A session shows its connection, and the router the connection's label reads.
    let session = tables_shown_with(&INTERNET_EXCHANGE_PEERING_SESSION);
    assert!(session.contains(&CONNECTION.table), "{session:?}");
    assert!(session.contains(&ROUTER.table), "{session:?}");
}
