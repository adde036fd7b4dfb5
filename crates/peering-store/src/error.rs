//! The store's errors: what a caller can act on, never a diesel type.

use peering_domain::FieldErrors;

#[derive(Debug, Clone, thiserror::Error)]
pub enum Error {
    #[error("configuration: {0}")]
    Config(String),
    #[error("database unavailable: {0}")]
    Unavailable(String),
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
            D::DatabaseError(_, info) if is_contention(info.message()) => {
                Error::Busy(info.message().to_string())
            }
            other => Error::Backend(other.to_string()),
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
