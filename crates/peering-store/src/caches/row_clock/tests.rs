//! The row clock's marks, without a database: which writes make which texts stale.

use super::*;
use crate::written::Writes;

const AS: &str = "autonomous_systems";
const TAGS: &str = "tagged_items";

fn versions(pairs: &[(&str, i64)]) -> TableVersions {
    TableVersions::from_pairs(pairs.iter().copied())
}

fn written(statements: &[Writes]) -> Written {
    let mut written = Written::default();
    for writes in statements {
        written.note(writes);
    }
    written
}

fn row(id: i64) -> [(&'static str, i64); 1] {
    [(AS, id)]
}

/// Whether a text stamped `stamp` showing AS `id` (and depending on the tags whole) holds.
fn holds(clock: &RowClock, stamp: u64, id: i64) -> bool {
    let rows = row(id);
    let depends = Depends {
        rows: &rows,
        tables: &[TAGS],
    };
    clock.current([(stamp, depends)].into_iter())[0]
}

/// A clock tracking both tables at version 1 of each, and a stamp taken after.
fn tracking() -> (RowClock, u64) {
    let clock = RowClock::default();
    clock.reconcile(&versions(&[(AS, 1), (TAGS, 1)]), &[AS, TAGS]);
    let stamp = clock.stamp();
    (clock, stamp)
}

#[test]
fn a_write_naming_rows_makes_only_their_texts_stale() {
    let (clock, stamp) = tracking();
    let update = written(&[Writes::updates(AS).of_rows(vec![5])]);
    let (before, after) = (
        versions(&[(AS, 1), (TAGS, 1)]),
        versions(&[(AS, 2), (TAGS, 1)]),
    );
    clock.after_write(&update, Some((&before, &after)));
    assert!(!holds(&clock, stamp, 5));
    assert!(holds(&clock, stamp, 6));
    assert!(holds(&clock, clock.stamp(), 5), "rendered after the write");
    // A request that read the versions after the write reconciles without a mark, and so
    // does one that read them just before it.
    clock.reconcile(&after, &[AS, TAGS]);
    clock.reconcile(&before, &[AS, TAGS]);
    assert!(holds(&clock, stamp, 6));
}

#[test]
fn a_version_never_accounted_for_marks_the_table_whole() {
    let (clock, stamp) = tracking();
    clock.reconcile(&versions(&[(AS, 7), (TAGS, 1)]), &[AS, TAGS]);
    assert!(!holds(&clock, stamp, 6), "another instance wrote");
    let later = clock.stamp();
    assert!(holds(&clock, later, 6));
    clock.reconcile(&versions(&[(AS, 7), (TAGS, 8)]), &[AS, TAGS]);
    assert!(
        !holds(&clock, later, 6),
        "a table depended on whole was written"
    );
}

#[test]
fn a_write_after_one_not_seen_marks_the_table_whole() {
    let (clock, stamp) = tracking();
    let update = written(&[Writes::updates(AS).of_rows(vec![5])]);
    // Another instance's write (version 3) came between what was accounted for (1) and
    // this one: its rows are unknown.
    let (before, after) = (
        versions(&[(AS, 3), (TAGS, 1)]),
        versions(&[(AS, 4), (TAGS, 1)]),
    );
    clock.after_write(&update, Some((&before, &after)));
    assert!(!holds(&clock, stamp, 6));
}

#[test]
fn writes_that_add_or_do_not_name_rows_mark_the_table_whole() {
    for statements in [
        vec![Writes::adds(AS)],
        vec![Writes::removes(AS)],
        vec![Writes::updates(AS)],
        vec![Writes::updates(AS).of_rows(vec![5]), Writes::adds(AS)],
    ] {
        let (clock, stamp) = tracking();
        let (before, after) = (versions(&[(AS, 1)]), versions(&[(AS, 2)]));
        clock.after_write(&written(&statements), Some((&before, &after)));
        assert!(!holds(&clock, stamp, 6), "{statements:?}");
    }
}

#[test]
fn a_write_without_versions_marks_what_it_wrote_whole() {
    let (clock, stamp) = tracking();
    clock.after_write(&written(&[Writes::updates(AS).of_rows(vec![5])]), None);
    assert!(!holds(&clock, stamp, 6));
}

#[test]
fn writes_to_tables_tracked_elsewhere_leave_texts_current() {
    let (clock, stamp) = tracking();
    let routers = written(&[Writes::updates("routers")]);
    clock.after_write(&routers, None);
    assert!(holds(&clock, stamp, 6));
    assert!(!clock.tracks_any(&routers));
}

#[test]
fn a_text_depending_on_an_untracked_table_never_holds() {
    let clock = RowClock::default();
    let stamp = clock.stamp();
    assert!(!holds(&clock, stamp, 1));
}

#[test]
fn rows_past_the_bound_are_forgotten_by_marking_the_table_whole() {
    let (clock, stamp) = tracking();
    let ids: Vec<i64> = (0..MOST_ROWS as i64 + 1).collect();
    for (version, chunk) in (1..).zip(ids.chunks(4096)) {
        let update = written(&[Writes::updates(AS).of_rows(chunk.to_vec())]);
        let (before, after) = (versions(&[(AS, version)]), versions(&[(AS, version + 1)]));
        clock.after_write(&update, Some((&before, &after)));
    }
    assert!(!holds(&clock, stamp, -1), "no row of that id was named");
    assert!(clock.lock().tables[AS].rows.len() <= MOST_ROWS);
}

#[test]
fn a_snapshot_reconciled_once_tells_nothing_new_the_next_time() {
    static LIST: [&str; 2] = [AS, TAGS];
    let clock = RowClock::default();
    let first = versions(&[(AS, 1), (TAGS, 1)]);
    clock.reconcile(&first, &LIST);
    // More writes of this process than it remembers the versions of.
    let mut before = first.clone();
    for version in 2..=(RECENT as i64 + 3) {
        let after = versions(&[(AS, version), (TAGS, 1)]);
        let update = written(&[Writes::updates(AS).of_rows(vec![version])]);
        clock.after_write(&update, Some((&before, &after)));
        before = after;
    }
    let stamp = clock.stamp();
    // A request still holding the first snapshot: it was reconciled already, so the
    // texts rendered since stay.
    clock.reconcile(&first, &LIST);
    assert!(holds(&clock, stamp, 1));
    // The same versions in a snapshot of their own are looked at, and the version long
    // gone marks the table whole, as before.
    clock.reconcile(&versions(&[(AS, 1), (TAGS, 1)]), &LIST);
    assert!(!holds(&clock, stamp, 1));
}
