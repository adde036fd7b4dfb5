//! Users and API tokens as stored; hashing and checks live in `peering-auth`.

use chrono::{DateTime, Utc};
use peering_domain::value::{micros_to_time, now, time_to_micros};

use crate::connection::Db;
use crate::error::Error;
use crate::sql::{Bind, Sql};
use crate::written::Writes;

/// A user as a request needs them: who, what status, which permissions (their own and
/// their groups').
#[derive(Debug, Clone)]
pub struct Principal {
    pub user_id: i64,
    pub username: String,
    pub is_superuser: bool,
    pub is_staff: bool,
    pub is_active: bool,
    pub permissions: Vec<String>,
}

/// A token found by its key's hash, with its user.
#[derive(Debug, Clone)]
pub struct TokenRecord {
    pub id: i64,
    pub key_hash: String,
    pub expires: Option<DateTime<Utc>>,
    pub write_enabled: bool,
    pub last_used: Option<DateTime<Utc>>,
    pub principal: Principal,
}

/// A token as listed to its owner: never its key, only the key's last characters.
#[derive(Debug, Clone)]
pub struct TokenInfo {
    pub id: i64,
    pub user_id: i64,
    pub username: String,
    pub key_suffix: String,
    pub created: DateTime<Utc>,
    pub expires: Option<DateTime<Utc>>,
    pub last_used: Option<DateTime<Utc>>,
    pub write_enabled: bool,
    pub description: String,
}

/// A browser session found by its key's hash.
#[derive(Debug, Clone)]
pub struct SessionRecord {
    pub id: i64,
    pub csrf_token: String,
    pub expires: DateTime<Utc>,
    pub principal: Principal,
}

/// What a login needs of a user.
#[derive(Debug, Clone)]
pub struct LoginRecord {
    pub user_id: i64,
    pub password_hash: String,
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

fn time(cell: crate::sql::Cell) -> Option<DateTime<Utc>> {
    cell.int().map(micros_to_time)
}

/// The user `user_id` with the permissions granted to them and to their groups.
pub(crate) fn principal(db: &mut Db<'_>, user_id: i64) -> Result<Option<Principal>, Error> {
    let mut sql = Sql::new(
        "SELECT id, username, is_superuser, is_staff, is_active, permissions FROM users WHERE id = ",
    );
    sql.bind(Bind::Int(user_id));
    let Some(mut row) = db.load(&sql)?.pop() else {
        return Ok(None);
    };
    let mut permissions = permission_list(row.take(5).into_text());
    let mut groups = Sql::new(
        "SELECT g.permissions FROM groups g JOIN user_groups ug ON ug.group_id = g.id WHERE ug.user_id = ",
    );
    groups.bind(Bind::Int(user_id));
    for mut group in db.load(&groups)? {
        permissions.extend(permission_list(group.take(0).into_text()));
    }
    permissions.sort();
    permissions.dedup();
    Ok(Some(Principal {
        user_id: row.int(0),
        username: row.take(1).into_text().unwrap_or_default(),
        is_superuser: row.take(2).bool().unwrap_or(false),
        is_staff: row.take(3).bool().unwrap_or(false),
        is_active: row.take(4).bool().unwrap_or(false),
        permissions,
    }))
}

pub(crate) fn permission_list(json: Option<String>) -> Vec<String> {
    json.and_then(|text| serde_json::from_str::<Vec<String>>(&text).ok())
        .unwrap_or_default()
}

pub(crate) fn token_by_hash(db: &mut Db<'_>, hash: &str) -> Result<Option<TokenRecord>, Error> {
    let mut sql = Sql::new(
        "SELECT id, key_hash, expires, write_enabled, last_used, user_id FROM tokens WHERE key_hash = ",
    );
    sql.bind(Bind::Text(hash.to_string()));
    let Some(mut row) = db.load(&sql)?.pop() else {
        return Ok(None);
    };
    let Some(principal) = principal(db, row.int(5))? else {
        return Ok(None);
    };
    Ok(Some(TokenRecord {
        id: row.int(0),
        key_hash: row.take(1).into_text().unwrap_or_default(),
        expires: time(row.take(2)),
        write_enabled: row.take(3).bool().unwrap_or(false),
        last_used: time(row.take(4)),
        principal,
    }))
}

const TOKEN_COLUMNS: &str = "SELECT t.id, t.user_id, u.username, t.key_suffix, t.created, \
     t.expires, t.last_used, t.write_enabled, t.description FROM tokens t JOIN users u ON u.id = t.user_id";

fn token_info(mut row: crate::sql::DbRow) -> TokenInfo {
    TokenInfo {
        id: row.int(0),
        user_id: row.int(1),
        username: row.take(2).into_text().unwrap_or_default(),
        key_suffix: row.take(3).into_text().unwrap_or_default(),
        created: time(row.take(4)).unwrap_or_else(now),
        expires: time(row.take(5)),
        last_used: time(row.take(6)),
        write_enabled: row.take(7).bool().unwrap_or(false),
        description: row.take(8).into_text().unwrap_or_default(),
    }
}

/// Tokens of `user_id`, or of everyone; newest first.
pub(crate) fn list_tokens(db: &mut Db<'_>, user_id: Option<i64>) -> Result<Vec<TokenInfo>, Error> {
    let mut sql = Sql::new(TOKEN_COLUMNS);
    if let Some(id) = user_id {
        sql.push(" WHERE t.user_id = ").bind(Bind::Int(id));
    }
    sql.push(" ORDER BY t.created DESC, t.id DESC");
    Ok(db.load(&sql)?.into_iter().map(token_info).collect())
}

pub(crate) fn token(db: &mut Db<'_>, id: i64) -> Result<Option<TokenInfo>, Error> {
    let mut sql = Sql::new(TOKEN_COLUMNS);
    sql.push(" WHERE t.id = ").bind(Bind::Int(id));
    Ok(db.load(&sql)?.pop().map(token_info))
}

/// Deletes a token; whether it existed.
pub(crate) fn delete_token(db: &mut Db<'_>, id: i64) -> Result<bool, Error> {
    let mut sql = Sql::writing(Writes::removes("tokens"), "DELETE FROM tokens WHERE id = ");
    sql.bind(Bind::Int(id));
    Ok(db.execute(&sql)? > 0)
}

pub(crate) fn login_record(db: &mut Db<'_>, username: &str) -> Result<Option<LoginRecord>, Error> {
    let mut sql = Sql::new("SELECT id, password, is_active FROM users WHERE username = ");
    sql.bind(Bind::Text(username.to_string()));
    Ok(db.load(&sql)?.pop().map(|mut row| LoginRecord {
        user_id: row.int(0),
        password_hash: row.take(1).into_text().unwrap_or_default(),
        is_active: row.take(2).bool().unwrap_or(false),
    }))
}

/// Sets a user's password hash; whether the user exists.
pub(crate) fn set_password(db: &mut Db<'_>, username: &str, hash: &str) -> Result<bool, Error> {
    let sets_password = Writes::updates("users").setting(&["password"]);
    let mut sql = Sql::writing(sets_password, "UPDATE users SET password = ");
    sql.bind(Bind::Text(hash.to_string()))
        .push(" WHERE username = ")
        .bind(Bind::Text(username.to_string()));
    if db.execute(&sql)? == 0 {
        return Ok(false);
    }
    // A new password ends the user's browser sessions.
    let mut sessions = Sql::writing(
        Writes::removes("sessions"),
        "DELETE FROM sessions WHERE user_id IN (SELECT id FROM users WHERE username = ",
    );
    sessions.bind(Bind::Text(username.to_string())).push(")");
    db.execute(&sessions)?;
    Ok(true)
}

pub(crate) fn create_session(
    db: &mut Db<'_>,
    key_hash: &str,
    user_id: i64,
    csrf_token: &str,
    expires: DateTime<Utc>,
) -> Result<(), Error> {
    // Expired sessions go when new ones come, so the table stays small.
    let mut purge = Sql::writing(
        Writes::removes("sessions"),
        "DELETE FROM sessions WHERE expires < ",
    );
    purge.bind(Bind::Int(time_to_micros(now())));
    db.execute(&purge)?;
    let mut sql = Sql::writing(
        Writes::adds("sessions"),
        "INSERT INTO sessions (key_hash, user_id, csrf_token, created, expires) VALUES (",
    );
    sql.bind(Bind::Text(key_hash.to_string()))
        .push(", ")
        .bind(Bind::Int(user_id))
        .push(", ")
        .bind(Bind::Text(csrf_token.to_string()))
        .push(", ")
        .bind(Bind::Int(time_to_micros(now())))
        .push(", ")
        .bind(Bind::Int(time_to_micros(expires)))
        .push(")");
    db.execute(&sql).map(|_| ())
}

pub(crate) fn session_by_hash(
    db: &mut Db<'_>,
    key_hash: &str,
) -> Result<Option<SessionRecord>, Error> {
    let mut sql =
        Sql::new("SELECT id, csrf_token, expires, user_id FROM sessions WHERE key_hash = ");
    sql.bind(Bind::Text(key_hash.to_string()));
    let Some(mut row) = db.load(&sql)?.pop() else {
        return Ok(None);
    };
    let Some(principal) = principal(db, row.int(3))? else {
        return Ok(None);
    };
    Ok(Some(SessionRecord {
        id: row.int(0),
        csrf_token: row.take(1).into_text().unwrap_or_default(),
        expires: time(row.take(2)).unwrap_or_else(now),
        principal,
    }))
}

pub(crate) fn delete_session(db: &mut Db<'_>, key_hash: &str) -> Result<(), Error> {
    let mut sql = Sql::writing(
        Writes::removes("sessions"),
        "DELETE FROM sessions WHERE key_hash = ",
    );
    sql.bind(Bind::Text(key_hash.to_string()));
    db.execute(&sql).map(|_| ())
}

pub(crate) fn preferences(db: &mut Db<'_>, user_id: i64) -> Result<serde_json::Value, Error> {
    let mut sql = Sql::new("SELECT preferences FROM users WHERE id = ");
    sql.bind(Bind::Int(user_id));
    let text = db
        .load(&sql)?
        .pop()
        .and_then(|mut row| row.take(0).into_text())
        .ok_or(Error::NotFound)?;
    Ok(serde_json::from_str(&text).unwrap_or_else(|_| serde_json::json!({})))
}

pub(crate) fn set_preferences(
    db: &mut Db<'_>,
    user_id: i64,
    value: &serde_json::Value,
) -> Result<(), Error> {
    let sets = Writes::updates("users")
        .setting(&["preferences"])
        .of_rows(vec![user_id]);
    let mut sql = Sql::writing(sets, "UPDATE users SET preferences = ");
    sql.bind(Bind::Text(value.to_string()))
        .push(" WHERE id = ")
        .bind(Bind::Int(user_id));
    db.execute(&sql).map(|_| ())
}

pub(crate) fn touch_token(db: &mut Db<'_>, id: i64) -> Result<(), Error> {
    let touches = Writes::updates("tokens")
        .setting(&["last_used"])
        .of_rows(vec![id]);
    let mut sql = Sql::writing(touches, "UPDATE tokens SET last_used = ");
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
    let mut sql = Sql::writing(
        Writes::adds("users"),
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
    let mut sql = Sql::writing(
        Writes::adds("tokens"),
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
