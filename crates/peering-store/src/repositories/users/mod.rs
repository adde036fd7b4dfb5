//! The store's users, API tokens, browser sessions and preferences, reached through
//! [`Store::users`]: each a read or a write of `rows.rs`.

mod rows;

use crate::{Error, Store};
use rows as users;
pub(crate) use rows::permission_list;
pub use rows::{LoginRecord, NewToken, Principal, SessionRecord, TokenInfo, TokenRecord};

/// The users, tokens, sessions and preferences of a store: `store.users().token_by_hash(…)`.
#[derive(Debug, Clone, Copy)]
pub struct Users<'s> {
    store: &'s Store,
}

impl Store {
    /// The users, their API tokens, browser sessions and preferences.
    pub fn users(&self) -> Users<'_> {
        Users { store: self }
    }
}

impl Users<'_> {
    pub fn token_by_hash(&self, hash: &str) -> Result<Option<TokenRecord>, Error> {
        self.store.read(|db| users::token_by_hash(db, hash))
    }

    pub fn touch_token(&self, id: i64) -> Result<(), Error> {
        self.store.read(|db| users::touch_token(db, id))
    }

    pub fn create_user(
        &self,
        username: &str,
        password_hash: &str,
        superuser: bool,
    ) -> Result<i64, Error> {
        self.store
            .write(|db| users::create_user(db, username, password_hash, superuser))
    }

    pub fn user_id(&self, username: &str) -> Result<Option<i64>, Error> {
        self.store.read(|db| users::user_id(db, username))
    }

    pub fn count_users(&self) -> Result<i64, Error> {
        self.store.read(users::count_users)
    }

    pub fn create_token(&self, token: &NewToken) -> Result<i64, Error> {
        self.store.write(|db| users::create_token(db, token))
    }

    /// Tokens of one user (`Some`) or of everyone, newest first.
    pub fn list_tokens(&self, user_id: Option<i64>) -> Result<Vec<TokenInfo>, Error> {
        self.store.read(|db| users::list_tokens(db, user_id))
    }

    pub fn token(&self, id: i64) -> Result<Option<TokenInfo>, Error> {
        self.store.read(|db| users::token(db, id))
    }

    /// Deletes a token; whether it existed.
    pub fn delete_token(&self, id: i64) -> Result<bool, Error> {
        self.store.write(|db| users::delete_token(db, id))
    }

    pub fn login_record(&self, username: &str) -> Result<Option<LoginRecord>, Error> {
        self.store.read(|db| users::login_record(db, username))
    }

    pub fn principal(&self, user_id: i64) -> Result<Option<Principal>, Error> {
        self.store.read(|db| users::principal(db, user_id))
    }

    /// Sets a user's password hash; whether the user exists.
    pub fn set_password(&self, username: &str, hash: &str) -> Result<bool, Error> {
        self.store
            .write(|db| users::set_password(db, username, hash))
    }

    pub fn create_session(
        &self,
        key_hash: &str,
        user_id: i64,
        csrf_token: &str,
        expires: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), Error> {
        self.store
            .write(|db| users::create_session(db, key_hash, user_id, csrf_token, expires))
    }

    pub fn session_by_hash(&self, key_hash: &str) -> Result<Option<SessionRecord>, Error> {
        self.store.read(|db| users::session_by_hash(db, key_hash))
    }

    pub fn delete_session(&self, key_hash: &str) -> Result<(), Error> {
        self.store.write(|db| users::delete_session(db, key_hash))
    }

    /// A user's preferences (a JSON object).
    pub fn preferences(&self, user_id: i64) -> Result<serde_json::Value, Error> {
        self.store.read(|db| users::preferences(db, user_id))
    }

    pub fn set_preferences(&self, user_id: i64, value: &serde_json::Value) -> Result<(), Error> {
        self.store
            .write(|db| users::set_preferences(db, user_id, value))
    }
}
