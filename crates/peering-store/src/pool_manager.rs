//! The pool's connection manager: opens connections to either database, and sets aside a
//! PostgreSQL connection that the server ended while it sat in the pool.

use diesel::pg::PgConnection;
use diesel::r2d2::{self, ManageConnection, R2D2Connection};
use diesel::sqlite::SqliteConnection;
use diesel::Connection;

use crate::connection::{AnyConnection, Target};

/// Opens connections for the pool.
#[derive(Debug)]
pub(crate) struct Manager {
    pub target: Target,
}

impl ManageConnection for Manager {
    type Connection = AnyConnection;
    type Error = r2d2::Error;

    fn connect(&self) -> Result<AnyConnection, r2d2::Error> {
        match &self.target {
            Target::Sqlite(path) => SqliteConnection::establish(path).map(AnyConnection::Sqlite),
            Target::Postgres(url) => PgConnection::establish(url).map(AnyConnection::Postgresql),
        }
        .map_err(r2d2::Error::ConnectionError)
    }

    /// Checked at every checkout (`build_pool`): a PostgreSQL connection the server ended
    /// is set aside, and the pool takes or opens another, instead of handing it to a
    /// request that would fail with a 503. A SQLite connection is a file of this process:
    /// nothing ends it under us.
    fn is_valid(&self, conn: &mut AnyConnection) -> Result<(), r2d2::Error> {
        match conn {
            AnyConnection::Postgresql(c) => ended_by_server(c).map_err(r2d2::Error::QueryError),
            AnyConnection::Sqlite(_) => Ok(()),
        }
    }

    fn has_broken(&self, conn: &mut AnyConnection) -> bool {
        match conn {
            AnyConnection::Postgresql(c) => c.is_broken(),
            AnyConnection::Sqlite(_) => false,
        }
    }
}

/// An error if the server ended this idle PostgreSQL connection (a restart, a failover,
/// `pg_terminate_backend`), found without a round trip: a server that ends a connection
/// sends why and closes it, and reading what arrived since the last statement without
/// waiting (libpq's `PQconsumeInput`, which diesel calls to take notifications; the store
/// listens for none, so none is lost) finds that end. Twice, because one read may take
/// the message and stop short of the end behind it. A checkout and a one-row read on
/// loopback, one connection, 10,000 times, 3 quiet rounds of 5: 33-36 µs unchecked, 34-45
/// µs so, 60-86 µs with a `SELECT 1` at each checkout (the round trip nearly doubled a
/// small read).
fn ended_by_server(c: &mut PgConnection) -> diesel::QueryResult<()> {
    for _ in 0..2 {
        if let Some(Err(ended)) = c.notifications_iter().next() {
            return Err(ended);
        }
    }
    Ok(())
}

#[cfg(test)]
mod ended_connections {
    use diesel::connection::SimpleConnection;
    use diesel::sql_types::Integer;
    use diesel::{Connection, PgConnection, QueryableByName, RunQueryDsl};

    use crate::testing::{postgres_url, TestDatabase};

    #[derive(QueryableByName)]
    struct Pid {
        #[diesel(sql_type = Integer)]
        pid: i32,
    }

    /// A connection the server ended is found so without a statement; a live one is left
    /// working.
    #[test]
    fn a_connection_the_server_ended_is_told_from_a_live_one() {
        if postgres_url().is_none() {
            return; // SQLite has no server to end a connection
        }
        let db = TestDatabase::new();
        let url = match crate::Target::parse(&db.url).unwrap() {
            crate::Target::Postgres(url) => url,
            crate::Target::Sqlite(_) => unreachable!("a PostgreSQL database"),
        };
        let (mut live, mut ended) = (
            PgConnection::establish(&url).unwrap(),
            PgConnection::establish(&url).unwrap(),
        );
        let pid = diesel::sql_query("SELECT pg_backend_pid() AS pid")
            .get_result::<Pid>(&mut ended)
            .unwrap()
            .pid;
        assert!(super::ended_by_server(&mut live).is_ok());
        assert!(super::ended_by_server(&mut ended).is_ok(), "not ended yet");
        // Waits (up to 5 s) for the server process to be gone.
        live.batch_execute(&format!("SELECT pg_terminate_backend({pid}, 5000)"))
            .unwrap();
        let started = std::time::Instant::now();
        while super::ended_by_server(&mut ended).is_ok() {
            assert!(started.elapsed() < std::time::Duration::from_secs(5));
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(super::ended_by_server(&mut live).is_ok());
        live.batch_execute("SELECT 1").expect("still working");
    }
}
