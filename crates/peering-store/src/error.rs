//! The store's errors: what a caller can act on, never a diesel type.

use peering_domain::FieldErrors;

#[derive(Debug, Clone, thiserror::Error)]
pub enum Error {
    #[error("configuration: {0}")]
    Config(String),
    #[error("database unavailable: {0}")]
    Unavailable(String),
    /// The database cannot take writes: its disk is full, or it is read-only.
    #[error("{0}")]
    Storage(StorageProblem),
    /// Other writes held what this one needed for too long (a lock wait past its limit, a
    /// deadlock, a serialization failure), and retrying did not help: nothing was written.
    #[error("database busy: {0}")]
    Busy(String),
    /// Validation of one object failed; `index` is its position in a list body.
    #[error("invalid object")]
    Invalid {
        index: Option<usize>,
        errors: FieldErrors,
    },
    /// A delete refused because other objects depend on the object (409).
    #[error("{0}")]
    Protected(String),
    #[error("not found")]
    NotFound,
    /// The caller may not make this change (403).
    #[error("{0}")]
    Forbidden(String),
    #[error("database error: {0}")]
    Backend(String),
    /// The caller's own work inside a transaction failed (a malformed file being read into
    /// it): nothing was written.
    #[error("{0}")]
    Aborted(String),
}

/// Why the database cannot take writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StorageProblem {
    DiskFull,
    ReadOnly,
}

impl std::fmt::Display for StorageProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StorageProblem::DiskFull => "The database's disk is full: nothing was written.",
            StorageProblem::ReadOnly => "The database is read-only: nothing was written.",
        })
    }
}

/// What a database's message says of the connection or the storage, where diesel has no
/// kind for it.
fn classify(message: &str) -> Option<Error> {
    const LOST: &[&str] = &[
        "server closed the connection",
        "terminating connection",
        "no connection to the server",
        "connection to server",
        "could not connect",
        "SSL SYSCALL",
        "the database system is",
    ];
    if is_contention(message) {
        Some(Error::Busy(message.to_string()))
    } else if LOST.iter().any(|m| message.contains(m)) {
        Some(Error::Unavailable(message.to_string()))
    } else if message.starts_with("database or disk is full") {
        Some(Error::Storage(StorageProblem::DiskFull))
    } else if message.starts_with("attempt to write a readonly database") {
        Some(Error::Storage(StorageProblem::ReadOnly))
    } else {
        None
    }
}

impl Error {
    pub fn invalid(errors: FieldErrors) -> Self {
        Error::Invalid {
            index: None,
            errors,
        }
    }

    /// Places an object's validation error at its index in a list body.
    pub fn at(self, i: usize) -> Self {
        match self {
            Error::Invalid { errors, .. } => Error::Invalid {
                index: Some(i),
                errors,
            },
            other => other,
        }
    }
}

impl From<diesel::result::Error> for Error {
    fn from(e: diesel::result::Error) -> Self {
        use diesel::result::{DatabaseErrorKind, Error as D};
        match e {
            D::NotFound => Error::NotFound,
            D::DatabaseError(DatabaseErrorKind::ForeignKeyViolation, info) => {
                Error::Protected(format!(
                    "unable to delete object: other objects depend on it ({})",
                    info.message()
                ))
            }
            D::DatabaseError(DatabaseErrorKind::UniqueViolation, info) => {
                Error::invalid(FieldErrors::single(
                    "__all__",
                    format!(
                        "An object with these values already exists ({}).",
                        info.message()
                    ),
                ))
            }
            D::DatabaseError(DatabaseErrorKind::ClosedConnection, info) => {
                Error::Unavailable(info.message().to_string())
            }
            D::DatabaseError(DatabaseErrorKind::SerializationFailure, info) => {
                Error::Busy(info.message().to_string())
            }
            D::DatabaseError(kind, info) => classify(info.message())
                .unwrap_or_else(|| Error::Backend(D::DatabaseError(kind, info).to_string())),
            other => {
                classify(&other.to_string()).unwrap_or_else(|| Error::Backend(other.to_string()))
            }
        }
    }
}

/// Whether a database's message says the statement lost a race with other writers, so
/// that the transaction may succeed if run again. PostgreSQL's deadlock (40P01) and
/// SQLite's busy errors have no kind of their own in diesel.
fn is_contention(message: &str) -> bool {
    message.starts_with("deadlock detected")
        || message.starts_with("could not serialize access")
        || message.starts_with("database is locked")
        || message.starts_with("database table is locked")
}

impl Error {
    /// Whether running the same transaction again may succeed.
    pub fn is_contention(&self) -> bool {
        matches!(self, Error::Busy(_))
    }
}

impl From<diesel::r2d2::PoolError> for Error {
    fn from(e: diesel::r2d2::PoolError) -> Self {
        Error::Unavailable(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::connection::SimpleConnection;
    use diesel::Connection;

    #[test]
    fn a_full_or_read_only_sqlite_database_is_a_storage_problem() {
        let mut c = diesel::sqlite::SqliteConnection::establish(":memory:").unwrap();
        c.batch_execute("CREATE TABLE t (x TEXT); PRAGMA max_page_count = 3;")
            .unwrap();
        let full = c
            .batch_execute("INSERT INTO t VALUES (printf('%.100000c', 'x'))")
            .unwrap_err();
        assert!(matches!(
            Error::from(full),
            Error::Storage(StorageProblem::DiskFull)
        ));
        c.batch_execute("PRAGMA query_only = ON").unwrap();
        let read_only = c.batch_execute("INSERT INTO t VALUES ('x')").unwrap_err();
        let mapped = Error::from(read_only);
        assert!(
            matches!(mapped, Error::Storage(StorageProblem::ReadOnly)),
            "{mapped:?}"
        );
    }

    #[test]
    fn lost_connections_and_lost_races_are_classified() {
        assert!(matches!(
            classify("terminating connection due to administrator command"),
            Some(Error::Unavailable(_))
        ));
        assert!(matches!(
            classify("deadlock detected"),
            Some(Error::Busy(_))
        ));
        assert!(classify("syntax error at or near").is_none());
    }
}
