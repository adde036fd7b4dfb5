//! Accounts made and passwords set outside the API (the command line): the same password
//! rule as a write through the API, and only hashes reach the store.

use peering_store::{Error, Store};

use crate::edits::{password_hash, WriteRules};

/// Why an account could not be made or changed.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// The password breaks the password rule.
    #[error("{0}")]
    Password(String),
    #[error("no user named {0:?}")]
    NoSuchUser(String),
    #[error(transparent)]
    Store(#[from] Error),
}

/// Creates a user; without a password, the user cannot log in by password until one is
/// set. Blocks while the password is hashed.
pub fn create_user(
    store: &Store,
    rules: &WriteRules,
    username: &str,
    password: Option<&str>,
    superuser: bool,
) -> Result<i64, AccountError> {
    let hash = match password {
        Some(plain) => password_hash(plain, rules).map_err(AccountError::Password)?,
        None => String::new(),
    };
    Ok(store.users().create_user(username, &hash, superuser)?)
}

/// Sets a user's password. Blocks while the password is hashed.
pub fn set_password(
    store: &Store,
    rules: &WriteRules,
    username: &str,
    password: &str,
) -> Result<(), AccountError> {
    let hash = password_hash(password, rules).map_err(AccountError::Password)?;
    if store.users().set_password(username, &hash)? {
        Ok(())
    } else {
        Err(AccountError::NoSuchUser(username.to_string()))
    }
}
