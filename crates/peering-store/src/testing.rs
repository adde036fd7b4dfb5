//! Fresh databases for tests: a temporary SQLite file, or a new PostgreSQL database when
//! `PEERING_TEST_POSTGRES_URL` names a server. Each is removed when dropped. A test's
//! database comes migrated, copied from a template its process migrated once
//! (`template.rs`); [`TestDatabase::empty`] is one no migration touched.

mod template;

use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use diesel::Connection;

/// A database that exists for one test.
#[derive(Debug)]
pub struct TestDatabase {
    pub url: String,
    cleanup: Cleanup,
}

#[derive(Debug)]
enum Cleanup {
    File(std::path::PathBuf),
    Postgres { admin_url: String, name: String },
}

/// The PostgreSQL server tests run against, if the environment names one.
pub fn postgres_url() -> Option<String> {
    std::env::var("PEERING_TEST_POSTGRES_URL")
        .ok()
        .filter(|u| !u.is_empty())
}

impl TestDatabase {
    /// A fresh migrated database on the backend the environment selects.
    pub fn new() -> TestDatabase {
        match postgres_url() {
            Some(admin) => Self::postgres(&admin),
            None => Self::sqlite(),
        }
    }

    /// A fresh database no migration touched, on the backend the environment selects: for
    /// tests of migrations, and of a server's first start as an operator makes it.
    pub fn empty() -> TestDatabase {
        match postgres_url() {
            Some(admin) => Self::create_postgres(&admin, false),
            None => Self::create_sqlite(false),
        }
    }

    /// A fresh migrated SQLite database.
    pub fn sqlite() -> TestDatabase {
        Self::create_sqlite(true)
    }

    /// A fresh migrated database on the server at `admin_url`.
    ///
    /// # Panics
    /// When the server cannot be reached: a test asked for PostgreSQL and must not pass
    /// silently without it.
    pub fn postgres(admin_url: &str) -> TestDatabase {
        Self::create_postgres(admin_url, true)
    }

    fn create_sqlite(migrated: bool) -> TestDatabase {
        let path = std::env::temp_dir().join(format!(
            "peeringd-test-{}.sqlite3",
            uuid::Uuid::new_v4().simple()
        ));
        if migrated {
            template::copy_sqlite(&path);
        }
        TestDatabase {
            url: format!("sqlite://{}", path.display()),
            cleanup: Cleanup::File(path),
        }
    }

    fn create_postgres(admin_url: &str, migrated: bool) -> TestDatabase {
        let name = format!("peeringd_test_{}", uuid::Uuid::new_v4().simple());
        let mut admin = PgConnection::establish(admin_url)
            .unwrap_or_else(|e| panic!("PostgreSQL at {admin_url} unreachable: {e}"));
        if migrated {
            template::create_postgres(&mut admin, admin_url, &name);
        } else {
            admin
                .batch_execute(&format!("CREATE DATABASE {name}"))
                .unwrap_or_else(|e| panic!("cannot create test database: {e}"));
        }
        TestDatabase {
            url: format!("{}/{name}", server_base(admin_url)),
            cleanup: Cleanup::Postgres {
                admin_url: admin_url.to_string(),
                name,
            },
        }
    }
}

/// The URL of the server at `admin_url` without its database, to name another.
fn server_base(admin_url: &str) -> &str {
    admin_url
        .rsplit_once('/')
        .map(|(b, _)| b)
        .unwrap_or(admin_url)
}

impl Default for TestDatabase {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        match &self.cleanup {
            Cleanup::File(path) => {
                for suffix in ["", "-wal", "-shm"] {
                    let mut p = path.clone().into_os_string();
                    p.push(suffix);
                    let _ = std::fs::remove_file(p);
                }
            }
            Cleanup::Postgres { admin_url, name } => {
                if let Ok(mut admin) = PgConnection::establish(admin_url) {
                    let _ = admin
                        .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
                }
            }
        }
    }
}

/// A store opened on a fresh database, for the store's own tests: the store is dropped
/// (its connections closed) before the database is removed.
#[cfg(test)]
pub(crate) struct TestStore {
    pub store: crate::Store,
    pub database: TestDatabase,
}

#[cfg(test)]
impl TestStore {
    /// A store with `pool_size` connections on a fresh database of the backend the
    /// environment selects.
    pub fn new(pool_size: u32) -> TestStore {
        Self::on(TestDatabase::new(), pool_size)
    }

    /// A store with `pool_size` connections on `database`.
    pub fn on(database: TestDatabase, pool_size: u32) -> TestStore {
        let store = crate::Store::open(&database.url, pool_size).expect("store opens");
        TestStore { store, database }
    }
}

#[cfg(test)]
impl std::ops::Deref for TestStore {
    type Target = crate::Store;

    fn deref(&self) -> &crate::Store {
        &self.store
    }
}

/// Ends every connection to the PostgreSQL database at `url` but this call's own, as a
/// restart of the database server would (for tests of lost connections); nothing on SQLite.
/// The local ports of the connections it ended, those over TCP: a test process holds
/// connections to other databases of the same server, which these tell apart.
pub fn end_connections(url: &str) -> Result<Vec<u16>, crate::Error> {
    use diesel::sql_types::{Bool, Integer, Nullable};
    use diesel::RunQueryDsl;

    #[derive(diesel::QueryableByName)]
    struct Ended {
        #[diesel(sql_type = Nullable<Integer>)]
        client_port: Option<i32>,
        #[diesel(sql_type = Bool)]
        _ended: bool,
    }

    let crate::Target::Postgres(url) = crate::Target::parse(url)? else {
        return Ok(Vec::new());
    };
    let mut admin =
        PgConnection::establish(&url).map_err(|e| crate::Error::Unavailable(e.to_string()))?;
    let ended = diesel::sql_query(
        "SELECT client_port, pg_terminate_backend(pid) AS _ended FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .load::<Ended>(&mut admin)?;
    Ok(ended
        .iter()
        .filter_map(|e| u16::try_from(e.client_port?).ok())
        .collect())
}
