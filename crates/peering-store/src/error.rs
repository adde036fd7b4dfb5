//! The store's errors: what a caller can act on, never a diesel type.

use peering_domain::FieldErrors;

#[derive(Debug, Clone, thiserror::Error)]
pub enum Error {
    #[error("configuration: {0}")]
    Config(String),
    #[error("database unavailable: {0}")]
    Unavailable(String),
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
            other => Error::Backend(other.to_string()),
        }
    }
}

impl From<diesel::r2d2::PoolError> for Error {
    fn from(e: diesel::r2d2::PoolError) -> Self {
        Error::Unavailable(e.to_string())
    }
}
