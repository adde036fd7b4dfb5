//! `cargo xtask check-migrations`: fails when the SQLite and PostgreSQL migrations drift
//! apart (different migration names, missing files, different tables or columns), since
//! the store uses one diesel schema for both backends.

mod schema;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use schema::Schema;

use crate::project_root;

const BACKENDS: [&str; 2] = ["sqlite", "postgres"];

pub fn run() -> Result<(), String> {
    let summary = check(&project_root().join("migrations"))?;
    println!(
        "{} migrations, {} tables, identical column sets on sqlite and postgres",
        summary.migrations, summary.tables
    );
    Ok(())
}

#[derive(Debug, PartialEq)]
struct Summary {
    migrations: usize,
    tables: usize,
}

/// Checks `migrations/{sqlite,postgres}` and lists every problem found, not just the first.
fn check(migrations: &Path) -> Result<Summary, String> {
    let mut problems = Vec::new();
    let mut names = Vec::new();
    for backend in BACKENDS {
        names.push(migration_names(&migrations.join(backend))?);
    }
    let (sqlite_names, postgres_names) = (&names[0], &names[1]);
    for name in sqlite_names.difference(postgres_names) {
        problems.push(format!("{name} exists only in migrations/sqlite"));
    }
    for name in postgres_names.difference(sqlite_names) {
        problems.push(format!("{name} exists only in migrations/postgres"));
    }

    let mut schemas = Vec::new();
    for (backend, names) in BACKENDS.iter().zip(&names) {
        let mut schema = Schema::new();
        // BTreeSet order is name order, which is timestamp order: the order diesel applies.
        for name in names {
            let dir = migrations.join(backend).join(name);
            for file in ["up.sql", "down.sql"] {
                if !dir.join(file).is_file() {
                    problems.push(format!("{backend}/{name} has no {file}"));
                }
            }
            let up = dir.join("up.sql");
            if let Ok(sql) = fs::read_to_string(&up) {
                if let Err(e) = schema::apply_sql(&mut schema, &sql) {
                    problems.push(format!("{backend}/{name}/up.sql: {e}"));
                }
            }
        }
        schemas.push(schema);
    }
    problems.extend(compare(&schemas[0], &schemas[1]));

    if problems.is_empty() {
        Ok(Summary {
            migrations: sqlite_names.len(),
            tables: schemas[0].len(),
        })
    } else {
        Err(format!(
            "migrations/sqlite and migrations/postgres differ:\n  - {}",
            problems.join("\n  - ")
        ))
    }
}

/// The migration directory names (hidden entries and plain files are not migrations).
fn migration_names(dir: &Path) -> Result<BTreeSet<String>, String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    let mut names = BTreeSet::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') && entry.path().is_dir() {
            names.insert(name);
        }
    }
    Ok(names)
}

/// Differences between the SQLite and PostgreSQL schemas, one line each.
fn compare(sqlite: &Schema, postgres: &Schema) -> Vec<String> {
    let mut problems = Vec::new();
    for (table, sqlite_columns) in sqlite {
        let Some(postgres_columns) = postgres.get(table) else {
            problems.push(format!("table {table} exists only on sqlite"));
            continue;
        };
        if sqlite_columns == postgres_columns {
            continue;
        }
        let only = |a: &[String], b: &[String]| -> Vec<String> {
            a.iter().filter(|c| !b.contains(c)).cloned().collect()
        };
        let only_sqlite = only(sqlite_columns, postgres_columns);
        let only_postgres = only(postgres_columns, sqlite_columns);
        if only_sqlite.is_empty() && only_postgres.is_empty() {
            problems.push(format!(
                "table {table}: same columns in another order: sqlite ({}) vs postgres ({})",
                sqlite_columns.join(", "),
                postgres_columns.join(", ")
            ));
        } else {
            let mut sides = Vec::new();
            for (backend, only) in [("sqlite", only_sqlite), ("postgres", only_postgres)] {
                if !only.is_empty() {
                    sides.push(format!("only on {backend}: [{}]", only.join(", ")));
                }
            }
            problems.push(format!("table {table}: columns {}", sides.join("; ")));
        }
    }
    for table in postgres.keys().filter(|t| !sqlite.contains_key(*t)) {
        problems.push(format!("table {table} exists only on postgres"));
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// A throw-away `migrations` directory, removed on drop.
    struct Fixture(PathBuf);

    impl Fixture {
        fn new(test: &str) -> Self {
            let dir = std::env::temp_dir().join(format!(
                "xtask-check-migrations-{}-{test}",
                std::process::id()
            ));
            let _ = fs::remove_dir_all(&dir);
            Fixture(dir)
        }

        fn write(&self, relative: &str, sql: &str) -> &Self {
            let path = self.0.join(relative);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, sql).unwrap();
            self
        }

        /// The same migration on both backends with the given up.sql texts.
        fn migration(&self, name: &str, sqlite_up: &str, postgres_up: &str) -> &Self {
            self.write(&format!("sqlite/{name}/up.sql"), sqlite_up)
                .write(&format!("sqlite/{name}/down.sql"), "")
                .write(&format!("postgres/{name}/up.sql"), postgres_up)
                .write(&format!("postgres/{name}/down.sql"), "")
        }
    }

    impl Drop for Fixture {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    const SQLITE_1: &str = "CREATE TABLE t (\n    id INTEGER PRIMARY KEY AUTOINCREMENT,\n    name TEXT NOT NULL,\n    UNIQUE (name)\n);";
    const POSTGRES_1: &str = "CREATE TABLE t (\n    id BIGSERIAL PRIMARY KEY,\n    name TEXT NOT NULL,\n    UNIQUE (name)\n);";

    fn schema(sql: &str) -> Schema {
        let mut schema = Schema::new();
        schema::apply_sql(&mut schema, sql).unwrap();
        schema
    }

    #[test]
    fn identical_backends_pass() {
        let f = Fixture::new("identical");
        f.migration("2026-01-01-000001_a", SQLITE_1, POSTGRES_1)
            .migration(
                "2026-01-02-000001_b",
                "ALTER TABLE t ADD COLUMN x BOOLEAN NOT NULL DEFAULT 0;",
                "ALTER TABLE t ADD COLUMN x BOOLEAN NOT NULL DEFAULT FALSE;",
            );
        assert_eq!(
            check(&f.0).unwrap(),
            Summary {
                migrations: 2,
                tables: 1
            }
        );
    }

    #[test]
    fn drifted_columns_fail() {
        let f = Fixture::new("drifted");
        f.migration("2026-01-01-000001_a", SQLITE_1, POSTGRES_1)
            .migration(
                "2026-01-02-000001_b",
                "ALTER TABLE t ADD COLUMN x INT;",
                "ALTER TABLE t ADD COLUMN y INT;",
            );
        let err = check(&f.0).unwrap_err();
        assert!(err.contains("only on sqlite: [x]"), "{err}");
        assert!(err.contains("only on postgres: [y]"), "{err}");
    }

    #[test]
    fn mismatched_directories_and_missing_files_fail() {
        let f = Fixture::new("dirs");
        f.migration("2026-01-01-000001_a", SQLITE_1, POSTGRES_1)
            .write("sqlite/2026-01-02-000001_b/up.sql", "")
            .write("sqlite/2026-01-02-000001_b/down.sql", "");
        fs::remove_file(f.0.join("postgres/2026-01-01-000001_a/down.sql")).unwrap();
        let err = check(&f.0).unwrap_err();
        assert!(
            err.contains("2026-01-02-000001_b exists only in migrations/sqlite"),
            "{err}"
        );
        assert!(
            err.contains("postgres/2026-01-01-000001_a has no down.sql"),
            "{err}"
        );
    }

    #[test]
    fn compare_reports_each_kind_of_drift() {
        let sqlite = schema("CREATE TABLE a (id INT, x INT); CREATE TABLE b (id INT, y INT, z INT); CREATE TABLE only_s (id INT);");
        let postgres = schema("CREATE TABLE a (id INT, x INT); CREATE TABLE b (id INT, z INT, y INT); CREATE TABLE only_p (id INT);");
        let problems = compare(&sqlite, &postgres);
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].contains("table b: same columns in another order"));
        assert!(problems[1].contains("only_s exists only on sqlite"));
        assert!(problems[2].contains("only_p exists only on postgres"));
        assert!(compare(&sqlite, &sqlite).is_empty());
    }
}
