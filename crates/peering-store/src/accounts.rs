//! Writes to users and groups, held to the rules of `peering_domain::grants`: the accounts
//! and groups a write touches are read before and after it, in its transaction, and a
//! refused change rolls the whole write back.

use std::collections::{BTreeSet, HashMap};

use peering_domain::grants::{self, Account, Authority};
use peering_domain::resources::{GROUP, USER};
use peering_domain::ResourceSpec;

use crate::connection::Db;
use crate::error::Error;
use crate::sql::{Bind, DbRow, Sql};
use crate::written::Writes;

/// What a write to users or groups looked like before it ran.
pub(crate) enum Guard<'a> {
    /// Not a write to users or groups, or one on the operator's authority.
    Free,
    Users(&'a Authority, HashMap<i64, Account>),
    Groups(&'a Authority, HashMap<i64, BTreeSet<String>>),
}

impl<'a> Guard<'a> {
    /// Reads the objects `ids` of `spec` before a write to them (none for a create).
    pub fn before(
        db: &mut Db<'_>,
        spec: &ResourceSpec,
        ids: &[i64],
        by: &'a Authority,
    ) -> Result<Guard<'a>, Error> {
        if by.superuser {
            return Ok(Guard::Free);
        }
        Ok(if std::ptr::eq(spec, &USER) {
            Guard::Users(by, accounts(db, ids)?)
        } else if std::ptr::eq(spec, &GROUP) {
            Guard::Groups(by, group_permissions(db, ids)?)
        } else {
            Guard::Free
        })
    }

    /// Checks the objects `ids` as the write left them (none after a delete) against what
    /// they were: a refusal is a `Forbidden` error, which rolls the transaction back.
    pub fn after(self, db: &mut Db<'_>, ids: &[i64]) -> Result<(), Error> {
        let refused = |r: grants::Refusal| Error::Forbidden(r.to_string());
        match self {
            Guard::Free => Ok(()),
            Guard::Users(by, before) => {
                let after = accounts(db, ids)?;
                let touched: BTreeSet<i64> = before.keys().chain(after.keys()).copied().collect();
                for id in touched {
                    grants::check_account(by, before.get(&id), after.get(&id)).map_err(refused)?;
                }
                Ok(())
            }
            Guard::Groups(by, before) => {
                let none = BTreeSet::new();
                for (id, now) in group_permissions(db, ids)? {
                    grants::check_group(by, before.get(&id).unwrap_or(&none), &now)
                        .map_err(refused)?;
                }
                Ok(())
            }
        }
    }
}

/// The accounts `ids`, with the permissions of their groups.
fn accounts(db: &mut Db<'_>, ids: &[i64]) -> Result<HashMap<i64, Account>, Error> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let backend = db.backend();
    let mut sql =
        Sql::new("SELECT id, is_superuser, is_staff, password, permissions FROM users WHERE ");
    sql.in_primary_key(backend, "id", ids);
    let mut found = HashMap::with_capacity(ids.len());
    for mut row in db.load(&sql)? {
        let account = Account {
            id: row.int(0),
            superuser: row.take(1).bool().unwrap_or(false),
            staff: row.take(2).bool().unwrap_or(false),
            password: row.take(3).into_text().unwrap_or_default(),
            permissions: permission_set(&mut row, 4),
        };
        found.insert(account.id, account);
    }
    let mut groups = Sql::new(
        "SELECT ug.user_id, g.permissions FROM user_groups ug JOIN groups g ON g.id = ug.group_id WHERE ",
    );
    groups.in_ids(backend, "ug.user_id", ids);
    for mut row in db.load(&groups)? {
        let from_group = permission_set(&mut row, 1);
        if let Some(account) = found.get_mut(&row.int(0)) {
            account.permissions.extend(from_group);
        }
    }
    Ok(found)
}

fn group_permissions(
    db: &mut Db<'_>,
    ids: &[i64],
) -> Result<HashMap<i64, BTreeSet<String>>, Error> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let mut sql = Sql::new("SELECT id, permissions FROM groups WHERE ");
    sql.in_primary_key(db.backend(), "id", ids);
    Ok(db
        .load(&sql)?
        .into_iter()
        .map(|mut row| (row.int(0), permission_set(&mut row, 1)))
        .collect())
}

fn permission_set(row: &mut DbRow, column: usize) -> BTreeSet<String> {
    crate::repositories::users::permission_list(row.take(column).into_text())
        .into_iter()
        .collect()
}

/// Refuses a write by a user who was deactivated or deleted since their token or session
/// was checked (the API keeps tokens a few seconds): one indexed read, in the write's
/// transaction.
pub(crate) fn require_active(db: &mut Db<'_>, by: &Authority) -> Result<(), Error> {
    let Some(user_id) = by.user_id else {
        return Ok(());
    };
    let mut sql = Sql::new("SELECT is_active FROM users WHERE id = ");
    sql.bind(Bind::Int(user_id));
    let active = db
        .load(&sql)?
        .pop()
        .and_then(|mut row| row.take(0).bool())
        .unwrap_or(false);
    if active {
        Ok(())
    } else {
        Err(Error::Forbidden("User inactive or deleted.".into()))
    }
}

/// The password hashes of the users a write touches, to end the browser sessions of
/// those whose password it changed.
pub(crate) struct Passwords(Option<HashMap<i64, String>>);

impl Passwords {
    pub fn before(db: &mut Db<'_>, spec: &ResourceSpec, ids: &[i64]) -> Result<Passwords, Error> {
        if !std::ptr::eq(spec, &USER) || ids.is_empty() {
            return Ok(Passwords(None));
        }
        Ok(Passwords(Some(password_hashes(db, ids)?)))
    }

    /// Someone who learnt the old password, or a session cookie, loses the access it gave.
    pub fn end_sessions_of_changed(self, db: &mut Db<'_>) -> Result<(), Error> {
        let Some(before) = self.0 else {
            return Ok(());
        };
        let ids: Vec<i64> = before.keys().copied().collect();
        let changed: Vec<i64> = password_hashes(db, &ids)?
            .into_iter()
            .filter(|(id, hash)| before.get(id) != Some(hash))
            .map(|(id, _)| id)
            .collect();
        if changed.is_empty() {
            return Ok(());
        }
        let mut sql = Sql::writing(Writes::removes("sessions"), "DELETE FROM sessions WHERE ");
        sql.in_ids(db.backend(), "user_id", &changed);
        db.execute(&sql)?;
        Ok(())
    }
}

fn password_hashes(db: &mut Db<'_>, ids: &[i64]) -> Result<HashMap<i64, String>, Error> {
    let mut sql = Sql::new("SELECT id, password FROM users WHERE ");
    sql.in_primary_key(db.backend(), "id", ids);
    Ok(db
        .load(&sql)?
        .into_iter()
        .map(|mut row| (row.int(0), row.take(1).into_text().unwrap_or_default()))
        .collect())
}
