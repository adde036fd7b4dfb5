//! The migrated template each test process copies its tests' databases from: migrating a
//! database takes a test longer than copying one, and every test would migrate its own.
//!
//! A process makes its template the first time a test asks, under a name of its own, so
//! that processes running at once never share (or drop) one another's; it holds the
//! template until it exits. Statics are never dropped, so the template outlives its
//! process: the next process to make one removes those nobody holds any more.
//! - SQLite: a migrated file in the temporary directory, held by a shared lock on it. A
//!   copy of the file is a test's database.
//! - PostgreSQL: a migrated database, held by an advisory lock of a session (on the
//!   server's administrative database) the process keeps open. A test's database is
//!   `CREATE DATABASE … TEMPLATE` it. PostgreSQL refuses to copy a database another session
//!   is connected to, so the template takes no connections once migrated (which also keeps
//!   autovacuum out of it).

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use diesel::sql_types::{Bool, Integer, Text};
use diesel::{Connection, QueryableByName, RunQueryDsl};

/// What the names of SQLite templates start with, in the temporary directory.
const SQLITE_PREFIX: &str = "peeringd-template-";
/// What the names of PostgreSQL templates start with.
const POSTGRES_PREFIX: &str = "peeringd_template_";
/// The first key of the advisory locks that hold PostgreSQL templates (the second is the
/// hash of the template's name): apart from the migrations' lock, which takes one key.
const POSTGRES_LOCK_CLASS: i32 = 0x7065_6572;
/// A template file younger than this is never removed as left behind: its maker may not
/// have locked it yet.
const SQLITE_GRACE: Duration = Duration::from_secs(60);

/// The SQLite template of this process: its path, and the open file whose lock holds it.
struct SqliteTemplate {
    path: PathBuf,
    _held: File,
}

/// The PostgreSQL template of this process on one server: its name, and the session that
/// holds its lock.
struct PostgresTemplate {
    admin_url: String,
    name: String,
    _keeper: Mutex<PgConnection>,
}

/// Copies the SQLite template of this process (made on the first call) to `path`.
pub(super) fn copy_sqlite(path: &Path) {
    static TEMPLATE: OnceLock<SqliteTemplate> = OnceLock::new();
    let template = TEMPLATE.get_or_init(make_sqlite);
    std::fs::copy(&template.path, path)
        .unwrap_or_else(|e| panic!("cannot copy the template database: {e}"));
}

/// Creates the database `name` on the server at `admin_url`, through `admin`, as a copy
/// of this process's template on that server (made on the first call).
pub(super) fn create_postgres(admin: &mut PgConnection, admin_url: &str, name: &str) {
    static TEMPLATES: Mutex<Vec<&'static PostgresTemplate>> = Mutex::new(Vec::new());
    let template = {
        let mut templates = TEMPLATES.lock().unwrap_or_else(|e| e.into_inner());
        match templates.iter().find(|t| t.admin_url == admin_url) {
            Some(t) => *t,
            None => {
                let made: &'static PostgresTemplate = Box::leak(Box::new(make_postgres(admin_url)));
                templates.push(made);
                made
            }
        }
    };
    admin
        .batch_execute(&format!(
            "CREATE DATABASE {name} TEMPLATE {}",
            template.name
        ))
        .unwrap_or_else(|e| panic!("cannot create test database: {e}"));
}

fn make_sqlite() -> SqliteTemplate {
    remove_sqlite_left_behind();
    let path = std::env::temp_dir().join(format!(
        "{SQLITE_PREFIX}{}.sqlite3",
        uuid::Uuid::new_v4().simple()
    ));
    let held = File::create(&path)
        .and_then(|f| f.lock_shared().map(|()| f))
        .unwrap_or_else(|e| panic!("cannot make the template database: {e}"));
    crate::migrate(&format!("sqlite://{}", path.display()))
        .unwrap_or_else(|e| panic!("cannot migrate the template database: {e}"));
    SqliteTemplate { path, _held: held }
}

/// Removes the SQLite templates of processes gone: nobody holds their lock.
fn remove_sqlite_left_behind() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().starts_with(SQLITE_PREFIX) {
            continue;
        }
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|at| at.elapsed().is_ok_and(|age| age > SQLITE_GRACE));
        let Ok(file) = File::open(entry.path()) else {
            continue;
        };
        if old && file.try_lock().is_ok() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[derive(QueryableByName)]
struct Database {
    #[diesel(sql_type = Text)]
    datname: String,
}

#[derive(QueryableByName)]
struct Locked {
    #[diesel(sql_type = Bool)]
    locked: bool,
}

/// Takes the advisory lock that holds the template `name`, if nobody holds it; whether it
/// did.
fn try_hold(keeper: &mut PgConnection, name: &str) -> bool {
    diesel::sql_query("SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked")
        .bind::<Integer, _>(POSTGRES_LOCK_CLASS)
        .bind::<Text, _>(name)
        .get_result::<Locked>(keeper)
        .is_ok_and(|l| l.locked)
}

fn make_postgres(admin_url: &str) -> PostgresTemplate {
    let mut keeper = PgConnection::establish(admin_url)
        .unwrap_or_else(|e| panic!("PostgreSQL at {admin_url} unreachable: {e}"));
    let name = format!("{POSTGRES_PREFIX}{}", uuid::Uuid::new_v4().simple());
    assert!(try_hold(&mut keeper, &name), "a new template is held");
    remove_postgres_left_behind(&mut keeper, &name);
    keeper
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap_or_else(|e| panic!("cannot create the template database: {e}"));
    crate::migrate(&format!("{}/{name}", super::server_base(admin_url)))
        .unwrap_or_else(|e| panic!("cannot migrate the template database: {e}"));
    keeper
        .batch_execute(&format!(
            "ALTER DATABASE {name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false"
        ))
        .unwrap_or_else(|e| panic!("cannot close the template database: {e}"));
    PostgresTemplate {
        admin_url: admin_url.to_string(),
        name,
        _keeper: Mutex::new(keeper),
    }
}

/// Drops the templates of processes gone: nobody holds their lock.
fn remove_postgres_left_behind(keeper: &mut PgConnection, ours: &str) {
    let Ok(templates) = diesel::sql_query(format!(
        "SELECT datname FROM pg_database WHERE datname LIKE '{}%'",
        POSTGRES_PREFIX.replace('_', "\\_")
    ))
    .load::<Database>(keeper) else {
        return;
    };
    for Database { datname } in templates {
        if datname == ours || !try_hold(keeper, &datname) {
            continue;
        }
        // Two statements apart: DROP DATABASE refuses to run in a transaction, which a
        // batch of them is.
        let quoted = datname.replace('"', "\"\"");
        let _ = keeper
            .batch_execute(&format!(
                "ALTER DATABASE \"{quoted}\" WITH IS_TEMPLATE false"
            ))
            .and_then(|()| {
                keeper.batch_execute(&format!(
                    "DROP DATABASE IF EXISTS \"{quoted}\" WITH (FORCE)"
                ))
            });
        let _ = diesel::sql_query("SELECT pg_advisory_unlock($1, hashtext($2)) AS locked")
            .bind::<Integer, _>(POSTGRES_LOCK_CLASS)
            .bind::<Text, _>(&datname)
            .get_result::<Locked>(keeper);
    }
}
