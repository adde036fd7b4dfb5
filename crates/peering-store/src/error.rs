//! The store's errors: what a caller can act on, never a diesel type. An error that came
//! from another (diesel's, a migration's) keeps it as its source, while what it shows stays
//! the words the store chose.

use std::sync::Arc;

use peering_domain::FieldErrors;

#[derive(Debug, Clone)]
pub enum Error {
    Config(String),
    Unavailable(String),
    /// The database cannot take writes: its disk is full, or it is read-only.
    Storage(StorageProblem),
    /// Other writes held what this one needed for too long (a lock wait past its limit, a
    /// deadlock, a serialization failure), and retrying did not help: nothing was written.
    Busy(Cause),
    /// Validation of one object failed; `index` is its position in a list body.
    Invalid {
        index: Option<usize>,
        errors: FieldErrors,
    },
    /// A delete refused because other objects depend on the object (409).
    Protected(String),
    NotFound,
    /// The caller may not make this change (403).
    Forbidden(String),
    Backend(Cause),
    /// The caller's own work inside a transaction failed (a malformed file being read into
    /// it): nothing was written.
    Aborted(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Config(m) => write!(f, "configuration: {m}"),
            Error::Unavailable(m) => write!(f, "database unavailable: {m}"),
            Error::Storage(problem) => write!(f, "{problem}"),
            Error::Busy(cause) => write!(f, "database busy: {cause}"),
            Error::Invalid { .. } => f.write_str("invalid object"),
            Error::NotFound => f.write_str("not found"),
            Error::Backend(cause) => write!(f, "database error: {cause}"),
            Error::Protected(m) | Error::Forbidden(m) | Error::Aborted(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Busy(cause) | Error::Backend(cause) => cause.source(),
            Error::Config(_)
            | Error::Unavailable(_)
            | Error::Storage(_)
            | Error::Invalid { .. }
            | Error::Protected(_)
            | Error::NotFound
            | Error::Forbidden(_)
            | Error::Aborted(_) => None,
        }
    }
}

/// What went wrong, in the words an [`Error`] shows, with the error that said so where
/// there was one (diesel's, a migration's), which the [`Error`] gives as its source.
#[derive(Debug, Clone)]
pub struct Cause {
    message: String,
    source: Option<Arc<dyn std::error::Error + Send + Sync>>,
}

impl Cause {
    /// `message`, said by `source`.
    pub fn from_error(
        message: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Cause {
        Cause {
            message: message.into(),
            source: Some(Arc::new(source)),
        }
    }

    /// `message`, said by the boxed error `source`.
    pub(crate) fn from_boxed(
        message: impl Into<String>,
        source: Box<dyn std::error::Error + Send + Sync>,
    ) -> Cause {
        Cause {
            message: message.into(),
            source: Some(Arc::from(source)),
        }
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// The error that said so, if any.
    pub fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        let source: &(dyn std::error::Error + 'static) = self.source.as_deref()?;
        Some(source)
    }
}

impl std::fmt::Display for Cause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Read as its words (`cause.contains(…)`).
impl std::ops::Deref for Cause {
    type Target = str;

    fn deref(&self) -> &str {
        &self.message
    }
}

/// Words of the store's own, with no error behind them.
impl From<String> for Cause {
    fn from(message: String) -> Cause {
        Cause {
            message,
            source: None,
        }
    }
}

impl From<&str> for Cause {
    fn from(message: &str) -> Cause {
        Cause::from(message.to_owned())
    }
}

impl From<Cause> for String {
    fn from(cause: Cause) -> String {
        cause.message
    }
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

/// What a database's message says, where diesel has no kind for it.
#[derive(Debug, PartialEq)]
enum Said {
    /// The statement lost a race with other writers.
    Contention,
    /// The connection is gone.
    Lost,
    Storage(StorageProblem),
}

/// What a database's message says of the connection or the storage, where diesel has no
/// kind for it.
fn classify(message: &str) -> Option<Said> {
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
        Some(Said::Contention)
    } else if LOST.iter().any(|m| message.contains(m)) {
        Some(Said::Lost)
    } else if message.starts_with("database or disk is full") {
        Some(Said::Storage(StorageProblem::DiskFull))
    } else if message.starts_with("attempt to write a readonly database") {
        Some(Said::Storage(StorageProblem::ReadOnly))
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
        let message = match &e {
            D::NotFound => return Error::NotFound,
            D::DatabaseError(DatabaseErrorKind::ForeignKeyViolation, info) => {
                return Error::Protected(format!(
                    "unable to delete object: other objects depend on it ({})",
                    info.message()
                ));
            }
            D::DatabaseError(DatabaseErrorKind::UniqueViolation, info) => {
                return Error::invalid(FieldErrors::single(
                    "__all__",
                    format!(
                        "An object with these values already exists ({}).",
                        info.message()
                    ),
                ));
            }
            D::DatabaseError(_, info) => info.message().to_owned(),
            other => other.to_string(),
        };
        let said = match &e {
            D::DatabaseError(DatabaseErrorKind::ClosedConnection, _) => Some(Said::Lost),
            D::DatabaseError(DatabaseErrorKind::SerializationFailure, _) => Some(Said::Contention),
            _ => classify(&message),
        };
        match said {
            Some(Said::Contention) => Error::Busy(Cause::from_error(message, e)),
            Some(Said::Lost) => Error::Unavailable(message),
            Some(Said::Storage(problem)) => Error::Storage(problem),
            None => Error::Backend(Cause::from_error(e.to_string(), e)),
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

    /// A statement's failure shows as it did, and keeps diesel's error as its source.
    #[test]
    fn a_database_error_keeps_diesels_error_as_its_source() {
        use std::error::Error as _;
        let mut c = diesel::sqlite::SqliteConnection::establish(":memory:").unwrap();
        let failed = c.batch_execute("SELECT * FROM nowhere").unwrap_err();
        let shown = format!("database error: {failed}");
        let error = Error::from(failed);
        assert_eq!(error.to_string(), shown);
        let source = error.source().expect("a source");
        assert!(source.downcast_ref::<diesel::result::Error>().is_some());
        assert_eq!(format!("database error: {source}"), shown);
        let own = Error::Backend("the new job has no id".into());
        assert!(own.source().is_none());
        assert_eq!(own.to_string(), "database error: the new job has no id");
    }

    #[test]
    fn lost_connections_and_lost_races_are_classified() {
        assert_eq!(
            classify("terminating connection due to administrator command"),
            Some(Said::Lost)
        );
        assert_eq!(classify("deadlock detected"), Some(Said::Contention));
        assert!(classify("syntax error at or near").is_none());
    }
}
