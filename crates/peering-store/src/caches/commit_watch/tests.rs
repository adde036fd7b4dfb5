//! The watch against writes through this store, and through another one on the same file.

use std::sync::Arc;

use crate::testing::{TestDatabase, TestStore};
use crate::Store;

/// The versions told at once, with the statements the telling ran.
fn at_once(store: &Store) -> (Arc<crate::TableVersions>, u64) {
    let before = store
        .version_reads
        .load(std::sync::atomic::Ordering::Relaxed);
    let versions = store
        .table_versions_at_once()
        .expect("told at once on SQLite");
    let after = store
        .version_reads
        .load(std::sync::atomic::Ordering::Relaxed);
    (versions, after - before)
}

#[test]
fn versions_are_read_again_after_any_commit_and_only_then() {
    let store = TestStore::on(TestDatabase::sqlite(), 2);
    let (first, _) = at_once(&store);
    let (same, statements) = at_once(&store);
    assert!(Arc::ptr_eq(&first, &same), "no commit: the same versions");
    assert_eq!(statements, 1, "the pragma alone");
    store.users().create_user("here", "x", false).unwrap();
    let (after_here, statements) = at_once(&store);
    assert_ne!(after_here.whole(), first.whole(), "this store's write");
    assert_eq!(*after_here, store.table_versions().unwrap());
    assert_eq!(statements, 2, "the pragma, then the versions");
    // Another process's write, as another store on the same file is.
    let other = Store::open(&store.database.url, 1).unwrap();
    other.users().create_user("there", "x", false).unwrap();
    let (after_there, _) = at_once(&store);
    assert_ne!(
        after_there.whole(),
        after_here.whole(),
        "another store's write"
    );
    assert_eq!(*after_there, other.table_versions().unwrap());
}

#[test]
fn only_sqlite_tells_at_once() {
    // On the backend the environment selects: the suite runs on both.
    let store = TestStore::new(1);
    let told = store.table_versions_at_once().is_some();
    assert_eq!(told, store.backend() == crate::Backend::Sqlite);
}
