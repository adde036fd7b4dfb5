//! Users and API tokens as stored; hashing and checks live in `peering-auth`.

use chrono::{DateTime, Utc};
use peering_domain::value::{micros_to_time, now, time_to_micros};

use crate::connection::Db;
use crate::error::Error;
use crate::sql::{Bind, Sql};

/// A token found by its key's hash, with what the request needs of its user.
#[derive(Debug, Clone)]
pub struct TokenRecord {
    pub id: i64,
    pub key_hash: String,
    pub expires: Option<DateTime<Utc>>,
    pub write_enabled: bool,
    pub last_used: Option<DateTime<Utc>>,
    pub user_id: i64,
    pub username: String,
    pub is_superuser: bool,
    pub is_active: bool,
}

/// What is needed to create a token.
#[derive(Debug, Clone)]
pub struct NewToken {
    pub user_id: i64,
    pub key_hash: String,
    pub key_suffix: String,
    pub expires: Option<DateTime<Utc>>,
    pub write_enabled: bool,
    pub description: String,
}

pub(crate) fn token_by_hash(db: &mut Db<'_>, hash: &str) -> Result<Option<TokenRecord>, Error> {
    let mut sql = Sql::new(
        "SELECT t.id, t.key_hash, t.expires, t.write_enabled, t.last_used, u.id, u.username, \
         u.is_superuser, u.is_active FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.key_hash = ",
    );
    sql.bind(Bind::Text(hash.to_string()));
    let Some(mut row) = db.load(&sql)?.pop() else {
        return Ok(None);
    };
    let time = |c: crate::sql::Cell| c.int().map(micros_to_time);
    Ok(Some(TokenRecord {
        id: row.int(0),
        key_hash: row.take(1).into_text().unwrap_or_default(),
        expires: time(row.take(2)),
        write_enabled: row.take(3).bool().unwrap_or(false),
        last_used: time(row.take(4)),
        user_id: row.int(5),
        username: row.take(6).into_text().unwrap_or_default(),
        is_superuser: row.take(7).bool().unwrap_or(false),
        is_active: row.take(8).bool().unwrap_or(false),
    }))
}

pub(crate) fn touch_token(db: &mut Db<'_>, id: i64) -> Result<(), Error> {
    let mut sql = Sql::new("UPDATE tokens SET last_used = ");
    sql.bind(Bind::Int(time_to_micros(now())))
        .push(" WHERE id = ")
        .bind(Bind::Int(id));
    db.execute(&sql).map(|_| ())
}

pub(crate) fn create_user(
    db: &mut Db<'_>,
    username: &str,
    password_hash: &str,
    superuser: bool,
) -> Result<i64, Error> {
    let mut exists = Sql::new("SELECT id FROM users WHERE username = ");
    exists.bind(Bind::Text(username.to_string()));
    if db.scalar(&exists)?.is_some() {
        return Err(Error::Config(format!("user {username:?} already exists")));
    }
    let mut sql = Sql::new(
        "INSERT INTO users (username, username_lc, password, is_staff, is_superuser, is_active, date_joined) VALUES (",
    );
    sql.bind(Bind::Text(username.to_string()))
        .push(", ")
        .bind(Bind::Text(username.to_lowercase()))
        .push(", ")
        .bind(Bind::Text(password_hash.to_string()))
        .push(", ")
        .bind(Bind::Bool(superuser))
        .push(", ")
        .bind(Bind::Bool(superuser))
        .push(", ")
        .bind(Bind::Bool(true))
        .push(", ")
        .bind(Bind::Int(time_to_micros(now())))
        .push(") RETURNING id");
    db.scalar(&sql)?.ok_or(Error::NotFound)
}

pub(crate) fn user_id(db: &mut Db<'_>, username: &str) -> Result<Option<i64>, Error> {
    let mut sql = Sql::new("SELECT id FROM users WHERE username = ");
    sql.bind(Bind::Text(username.to_string()));
    db.scalar(&sql)
}

pub(crate) fn count_users(db: &mut Db<'_>) -> Result<i64, Error> {
    Ok(db
        .scalar(&Sql::new("SELECT COUNT(*) FROM users"))?
        .unwrap_or(0))
}

pub(crate) fn create_token(db: &mut Db<'_>, t: &NewToken) -> Result<i64, Error> {
    let mut exists = Sql::new("SELECT id FROM tokens WHERE key_hash = ");
    exists.bind(Bind::Text(t.key_hash.clone()));
    if db.scalar(&exists)?.is_some() {
        return Err(Error::Config("a token with this key already exists".into()));
    }
    let mut sql = Sql::new(
        "INSERT INTO tokens (user_id, key_hash, key_suffix, created, expires, write_enabled, description) VALUES (",
    );
    sql.bind(Bind::Int(t.user_id))
        .push(", ")
        .bind(Bind::Text(t.key_hash.clone()))
        .push(", ")
        .bind(Bind::Text(t.key_suffix.clone()))
        .push(", ")
        .bind(Bind::Int(time_to_micros(now())))
        .push(", ")
        .bind(
            t.expires
                .map(|e| Bind::Int(time_to_micros(e)))
                .unwrap_or(Bind::NullInt),
        )
        .push(", ")
        .bind(Bind::Bool(t.write_enabled))
        .push(", ")
        .bind(Bind::Text(t.description.clone()))
        .push(") RETURNING id");
    db.scalar(&sql)?.ok_or(Error::NotFound)
}
