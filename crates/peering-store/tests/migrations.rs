//! Migrations under concurrency and across versions: instances starting together on an
//! empty database all come up, and a database migrated by a newer binary is refused.

use diesel::connection::SimpleConnection;
use diesel::Connection;
use peering_store::testing::TestDatabase;
use peering_store::{Store, Target};

#[test]
fn instances_starting_together_on_an_empty_database_all_come_up() {
    for _ in 0..3 {
        let db = TestDatabase::empty();
        let opened: Vec<Result<(), String>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..4)
                .map(|_| {
                    scope.spawn(|| {
                        Store::open(&db.url, 1)
                            .map(|_| ())
                            .map_err(|e| e.to_string())
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(opened.iter().all(Result::is_ok), "{opened:?}");
        assert_eq!(peering_store::migrate(&db.url).unwrap(), 0);
    }
}

fn execute(url: &str, sql: &str) {
    match Target::parse(url).unwrap() {
        Target::Sqlite(path) => diesel::sqlite::SqliteConnection::establish(&path)
            .unwrap()
            .batch_execute(sql)
            .unwrap(),
        Target::Postgres(url) => diesel::pg::PgConnection::establish(&url)
            .unwrap()
            .batch_execute(sql)
            .unwrap(),
    }
}

#[test]
fn a_database_migrated_by_a_newer_binary_is_refused() {
    let db = TestDatabase::new();
    Store::open(&db.url, 1).unwrap();
    execute(
        &db.url,
        "INSERT INTO __diesel_schema_migrations (version) VALUES ('29991231000000')",
    );
    let refused = Store::open(&db.url, 1).unwrap_err().to_string();
    assert!(
        refused.contains("migrated by a newer peeringd") && refused.contains("29991231000000"),
        "{refused}"
    );
}
