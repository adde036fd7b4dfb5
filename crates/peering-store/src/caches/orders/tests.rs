//! The kept orders' bookkeeping, without a database: which reader reads an order, what
//! writes do to kept orders and to those being read, and the bounds on what is kept.

use super::*;
use crate::written::Writes;

fn key(order: &str) -> OrderKey {
    ("autonomous_systems", order.to_owned())
}

/// The tables [`order`]'s orders read.
const TABLES: &[&str] = &["autonomous_systems", "tags"];

fn order(version: i64, ids: Vec<i64>) -> KeptOrder {
    KeptOrder {
        version,
        ids: Arc::new(ids.into_iter().collect()),
        tables: TABLES,
        reads: Arc::new([("autonomous_systems", "asn")]),
    }
}

/// Updates of a column the orders do not read, and of one they do.
fn comments_set() -> Written {
    written(&[Writes::updates("autonomous_systems").setting(&["comments"])])
}

fn numbers_set() -> Written {
    written(&[Writes::updates("autonomous_systems").setting(&["asn"])])
}

/// What a transaction of `statements` wrote.
fn written(statements: &[Writes]) -> Written {
    let mut written = Written::default();
    for writes in statements {
        written.note(writes);
    }
    written
}

fn kept_version(orders: &KeptOrders, key: &OrderKey) -> Option<i64> {
    match orders.find(key) {
        Found::Kept(order) => Some(order.version),
        _ => None,
    }
}

#[test]
fn one_reader_reads_a_missing_order_while_the_others_use_offsets() {
    let orders = KeptOrders::default();
    assert!(matches!(orders.find(&key("a")), Found::Read));
    assert!(matches!(orders.find(&key("a")), Found::Offset));
    // Another order of the same table is its own.
    assert!(matches!(orders.find(&key("b")), Found::Read));
    orders.keep(key("a"), order(7, vec![3, 1, 2]));
    // The reader's giving up after keeping changes nothing.
    orders.give_up(&key("a"));
    assert_eq!(kept_version(&orders, &key("a")), Some(7));
    orders.give_up(&key("b"));
    assert!(matches!(orders.find(&key("b")), Found::Read));
}

#[test]
fn an_order_is_forgotten_at_its_version_or_when_a_table_it_reads_is_written() {
    let orders = KeptOrders::default();
    orders.keep(key("a"), order(7, vec![1, 2]));
    orders.forget(&key("a"), 6);
    assert_eq!(kept_version(&orders, &key("a")), Some(7));
    orders.forget(&key("a"), 7);
    assert_eq!(orders.bytes(), 0);
    read_after_offsets(&orders, &key("a"));
    orders.keep(key("a"), order(8, vec![1, 2]));
    orders.after_write(&written(&[Writes::updates("routers")]), None);
    assert_eq!(kept_version(&orders, &key("a")), Some(8));
    orders.after_write(&written(&[Writes::updates("tags")]), None);
    assert_eq!(orders.bytes(), 0);
    read_after_offsets(&orders, &key("a"));
}

#[test]
fn a_write_that_changed_nothing_an_order_reads_keeps_it_at_the_versions_it_left() {
    let orders = KeptOrders::default();
    let (before, after) = (versions(1, 2), versions(3, 2));
    let comments = comments_set();
    let kept_at = |orders: &KeptOrders| kept_version(orders, &key("a"));

    orders.keep(key("a"), order(before.of(TABLES), vec![2, 1]));
    orders.after_write(&comments, Some((&before, &after)));
    assert_eq!(kept_at(&orders), Some(after.of(TABLES)));
    assert_eq!(orders.bytes(), 2 * 4);

    // Read at other versions than the write found: another write came between.
    let (other, later) = (versions(5, 2), versions(6, 2));
    orders.after_write(&comments, Some((&other, &later)));
    assert_eq!(orders.bytes(), 0);

    // A column the order reads set, rows added, rows removed, an update that did not say
    // which columns it set, no versions.
    let systems = "autonomous_systems";
    for (statements, versions) in [
        (
            Writes::updates(systems).setting(&["comments", "asn"]),
            Some((&before, &after)),
        ),
        (Writes::adds(systems), Some((&before, &after))),
        (Writes::removes(systems), Some((&before, &after))),
        (Writes::updates(systems), Some((&before, &after))),
        (Writes::updates(systems).setting(&["comments"]), None),
    ] {
        let statements = [statements];
        orders.keep(key("a"), order(before.of(TABLES), vec![2, 1]));
        orders.after_write(&written(&statements), versions);
        assert_eq!(orders.bytes(), 0, "{statements:?}");
        assert_eq!(kept_at(&orders), None, "{statements:?}");
    }
}

/// A forgotten order is read again after a few pages read with their offsets.
fn read_after_offsets(orders: &KeptOrders, key: &OrderKey) {
    for _ in 0..PAGES_BEFORE_READING_AGAIN {
        assert!(matches!(orders.find(key), Found::Offset));
    }
    assert!(matches!(orders.find(key), Found::Read));
    assert!(matches!(orders.find(key), Found::Offset));
}

#[test]
fn the_lists_known_are_bounded_and_the_least_recently_used_let_go_of() {
    let orders = KeptOrders::default();
    orders.keep(key("kept"), order(1, vec![1, 2, 3]));
    for n in 0..MOST_LISTS - 1 {
        let other = key(&n.to_string());
        assert!(matches!(orders.find(&other), Found::Read));
        orders.keep(other, order(1, vec![1]));
        // Pages of the first order between the others' keep it in use.
        assert!(orders.holds(&key("kept")));
    }
    // The list found next lets go of the one least recently used alone.
    assert!(matches!(orders.find(&key("new")), Found::Read));
    assert_eq!(orders.lock().by_key.len(), MOST_LISTS);
    assert!(!orders.lock().by_key.contains_key(&key("0")));
    assert_eq!(kept_version(&orders, &key("1")), Some(1));
    assert_eq!(kept_version(&orders, &key("kept")), Some(1));
    assert_eq!(orders.bytes(), (3 + MOST_LISTS - 2) * 4);
}

#[test]
fn a_list_too_long_is_not_kept_nor_read_whole_again_soon() {
    let wide = i64::from(u32::MAX) + 1;
    for too_long in [
        vec![0; MOST_IDS_PER_ORDER + 1],
        vec![wide; MOST_BYTES_PER_ORDER / 8 + 1],
    ] {
        let orders = KeptOrders::default();
        assert!(matches!(orders.find(&key("a")), Found::Read));
        orders.keep(key("a"), order(1, too_long));
        assert_eq!(orders.bytes(), 0);
        assert!(matches!(orders.find(&key("a")), Found::Offset));
    }
}

#[test]
fn past_the_most_kept_the_orders_least_recently_used_are_let_go_of() {
    let orders = KeptOrders::default();
    // Four bytes an id: three such orders fill what is kept.
    let many = MOST_KEPT_BYTES / 3 / 4;
    for name in ["a", "b", "c"] {
        orders.keep(key(name), order(1, vec![0; many]));
    }
    assert_eq!(orders.bytes(), MOST_KEPT_BYTES);
    assert!(
        orders.holds(&key("a")),
        "a page of a: b is now the least recently used"
    );
    orders.keep(key("d"), order(1, vec![0; many]));
    assert_eq!(orders.bytes(), MOST_KEPT_BYTES);
    assert_eq!(kept_version(&orders, &key("b")), None);
    for name in ["a", "c", "d"] {
        assert_eq!(kept_version(&orders, &key(name)), Some(1), "{name}");
    }
    // One order larger than those: the two least recently used make room for it.
    orders.keep(key("e"), order(1, vec![0; many + 1]));
    assert_eq!(orders.bytes(), (many * 2 + 1) * 4);
    assert_eq!(kept_version(&orders, &key("e")), Some(1));
    assert_eq!(kept_version(&orders, &key("d")), Some(1));
    // Replacing an order counts its ids once.
    orders.keep(key("d"), order(2, vec![0; 10]));
    assert_eq!(orders.bytes(), (many + 1 + 10) * 4);
}

#[test]
fn filtered_lists_are_told_kept_while_one_of_their_table_is() {
    let orders = KeptOrders::default();
    let many = MOST_KEPT_BYTES / 2 / 4;
    let filtered = key("asn?tenant=1");
    assert!(!orders.may_keep_filtered("autonomous_systems"));
    orders.keep(filtered.clone(), order(1, vec![0; many]));
    orders.note_filtered(&filtered);
    assert!(orders.may_keep_filtered("autonomous_systems"));
    // Two unfiltered orders push it out: no filtered list of the table is kept.
    orders.keep(key("asn"), order(1, vec![0; many]));
    assert!(orders.may_keep_filtered("autonomous_systems"));
    orders.keep(key("name"), order(1, vec![0; many]));
    assert_eq!(kept_version(&orders, &filtered), None);
    assert!(!orders.may_keep_filtered("autonomous_systems"));
}

/// Versions of the two tables of [`order`]'s orders.
fn versions(autonomous_systems: i64, tags: i64) -> TableVersions {
    TableVersions::from_listed(&format!(
        "autonomous_systems:{autonomous_systems},tags:{tags}"
    ))
}

#[test]
fn writes_while_an_order_is_read_carry_it_when_kept() {
    let orders = KeptOrders::default();
    let (zero, first, second, third) = (
        versions(0, 2),
        versions(1, 2),
        versions(3, 2),
        versions(4, 2),
    );
    let (comments, renumbered) = (comments_set(), numbers_set());
    let routers = written(&[Writes::updates("routers").setting(&["name"])]);
    let read = |orders: &KeptOrders, name: &str| {
        assert!(matches!(orders.find(&key(name)), Found::Read));
    };

    // Read at the first versions: a write that ended before its snapshot, then two of
    // comments with one of another table between them.
    read(&orders, "a");
    orders.after_write(&comments, Some((&zero, &first)));
    orders.after_write(&comments, Some((&first, &second)));
    orders.after_write(&routers, Some((&second, &second)));
    orders.after_write(&comments, Some((&second, &third)));
    orders.keep(key("a"), order(first.of(TABLES), vec![2, 1]));
    assert_eq!(kept_version(&orders, &key("a")), Some(third.of(TABLES)));

    // No reading is left: the writes seen are forgotten, and carry nothing more.
    read(&orders, "b");
    orders.keep(key("b"), order(first.of(TABLES), vec![2, 1]));
    assert_eq!(kept_version(&orders, &key("b")), Some(first.of(TABLES)));

    // A write that may have moved the order stops it where it was read.
    read(&orders, "c");
    orders.after_write(&renumbered, Some((&first, &second)));
    orders.after_write(&comments, Some((&second, &third)));
    orders.keep(key("c"), order(first.of(TABLES), vec![2, 1]));
    assert_eq!(kept_version(&orders, &key("c")), Some(first.of(TABLES)));
}

#[test]
fn an_order_read_after_a_write_is_kept_through_it() {
    let orders = KeptOrders::default();
    let (before, after) = (versions(1, 2), versions(3, 2));
    // Even a write that renumbered: the order was read at the versions it left.
    let renumbered = numbers_set();
    orders.keep(key("a"), order(after.of(TABLES), vec![2, 1]));
    orders.after_write(&renumbered, Some((&before, &after)));
    assert_eq!(kept_version(&orders, &key("a")), Some(after.of(TABLES)));
}

#[test]
fn writes_are_noted_only_while_an_order_is_read() {
    let orders = KeptOrders::default();
    let comments = comments_set();
    let (before, after) = (versions(1, 2), versions(3, 2));
    orders.after_write(&comments, Some((&before, &after)));
    assert!(orders.lock().seen_writes.is_empty());
    assert!(!orders.any_reading(|_| true));
    assert!(matches!(orders.find(&key("a")), Found::Read));
    // A write of any table reads its versions while an order is being read.
    assert!(orders.any_reading(|_| false));
    for _ in 0..MOST_SEEN_WRITES + 5 {
        orders.after_write(&comments, Some((&before, &after)));
    }
    assert_eq!(orders.lock().seen_writes.len(), MOST_SEEN_WRITES);
    orders.give_up(&key("a"));
    assert!(orders.lock().seen_writes.is_empty());
}
