//! Writes to users and groups, held to the rules of `peering_domain::grants`: the accounts
//! and groups a write touches are read before and after it, in its transaction, and a
//! refused change rolls the whole write back.

use std::collections::{BTreeSet, HashMap};

use peering_domain::grants::{self, Account, Authority};
use peering_domain::resources::{GROUP, USER};
use peering_domain::ResourceSpec;

use crate::connection::Db;
use crate::error::Error;
use crate::sql::{DbRow, Sql};

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
    row.take(column)
        .into_text()
        .and_then(|text| serde_json::from_str::<Vec<String>>(&text).ok())
        .unwrap_or_default()
        .into_iter()
        .collect()
}
