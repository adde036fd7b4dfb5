//! Who may change users and groups. Stricter than the reference on purpose: there, anyone
//! allowed to change users could change a superuser's password or grant themselves any
//! permission. Here:
//! - only a superuser changes or deletes a superuser, changes another user's password, or
//!   grants (or takes away) staff or superuser status;
//! - nobody grants a permission they do not hold, directly or through a group.
//!
//! The rules compare an account before and after a write, so they hold whatever the write
//! did (a permission list, a group joined, a group's permissions edited).

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

/// On whose authority a write is made.
#[derive(Debug, Clone)]
pub struct Authority {
    /// The user making the write; `None` for the operator (command line, start-up).
    pub user_id: Option<i64>,
    pub superuser: bool,
    /// The permissions the user holds, their own and their groups'.
    pub holds: Arc<Vec<String>>,
}

impl Authority {
    /// The operator's own authority (the command line, demo data): whoever can run it
    /// holds the database already.
    pub fn operator() -> Authority {
        Authority {
            user_id: None,
            superuser: true,
            holds: Arc::default(),
        }
    }

    pub fn user(user_id: i64, superuser: bool, holds: Arc<Vec<String>>) -> Authority {
        Authority {
            user_id: Some(user_id),
            superuser,
            holds,
        }
    }

    fn holds(&self, permission: &str) -> bool {
        self.superuser || self.holds.iter().any(|p| p == permission)
    }

    /// The first of `granted` this authority does not hold.
    fn first_not_held<'a>(&self, granted: impl IntoIterator<Item = &'a String>) -> Option<String> {
        granted.into_iter().find(|p| !self.holds(p)).cloned()
    }
}

/// A user account as the rules see it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Account {
    pub id: i64,
    pub superuser: bool,
    pub staff: bool,
    /// The stored password hash (a new hash means a new password).
    pub password: String,
    /// Every permission the account holds: its own and its groups'.
    pub permissions: BTreeSet<String>,
}

/// Why a change of users or groups is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    ChangesSuperuser,
    SetsOthersPassword,
    ChangesStatus,
    GrantsUnheld(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::ChangesSuperuser => f.write_str("Only a superuser may change a superuser."),
            Refusal::SetsOthersPassword => {
                f.write_str("Only a superuser may change another user's password.")
            }
            Refusal::ChangesStatus => {
                f.write_str("Only a superuser may grant or remove staff or superuser status.")
            }
            Refusal::GrantsUnheld(p) => {
                write!(
                    f,
                    "You may not grant the permission {p}, which you do not hold."
                )
            }
        }
    }
}

/// Checks a write to one account: `before` is `None` for a new account, `after` is `None`
/// for a deleted one.
pub fn check_account(
    by: &Authority,
    before: Option<&Account>,
    after: Option<&Account>,
) -> Result<(), Refusal> {
    if by.superuser {
        return Ok(());
    }
    if before.is_some_and(|a| a.superuser) || after.is_some_and(|a| a.superuser) {
        return Err(Refusal::ChangesSuperuser);
    }
    let Some(after) = after else {
        return Ok(());
    };
    let (staff_before, password_before) = before.map_or((false, ""), |a| (a.staff, &a.password));
    if after.staff != staff_before {
        return Err(Refusal::ChangesStatus);
    }
    let own = by.user_id == Some(after.id);
    if before.is_some() && after.password != password_before && !own {
        return Err(Refusal::SetsOthersPassword);
    }
    let held_before = before.map(|a| &a.permissions);
    let granted = after
        .permissions
        .iter()
        .filter(|p| !held_before.is_some_and(|b| b.contains(*p)));
    match by.first_not_held(granted) {
        Some(p) => Err(Refusal::GrantsUnheld(p)),
        None => Ok(()),
    }
}

/// Checks a write to a group's permissions (its members gain what it gains).
pub fn check_group(
    by: &Authority,
    before: &BTreeSet<String>,
    after: &BTreeSet<String>,
) -> Result<(), Refusal> {
    match by.first_not_held(after.difference(before)) {
        Some(p) => Err(Refusal::GrantsUnheld(p)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn perms(list: &[&str]) -> BTreeSet<String> {
        list.iter().map(|p| p.to_string()).collect()
    }

    fn alice(list: &[&str]) -> Authority {
        Authority::user(
            2,
            false,
            Arc::new(list.iter().map(|p| p.to_string()).collect()),
        )
    }

    fn account(id: i64, list: &[&str]) -> Account {
        Account {
            id,
            password: format!("hash-{id}"),
            permissions: perms(list),
            ..Account::default()
        }
    }

    #[test]
    fn a_superuser_is_changed_only_by_a_superuser() {
        let mut root = account(1, &[]);
        root.superuser = true;
        let mut off = root.clone();
        off.password = "new".into();
        let by = alice(&["users.change_user"]);
        assert_eq!(
            check_account(&by, Some(&root), Some(&off)),
            Err(Refusal::ChangesSuperuser)
        );
        assert_eq!(
            check_account(&by, Some(&root), None),
            Err(Refusal::ChangesSuperuser)
        );
        assert!(check_account(&Authority::operator(), Some(&root), Some(&off)).is_ok());
    }

    #[test]
    fn only_ones_own_password_may_be_changed() {
        let by = alice(&["users.change_user"]);
        let bob = account(3, &[]);
        let mut changed = bob.clone();
        changed.password = "other".into();
        assert_eq!(
            check_account(&by, Some(&bob), Some(&changed)),
            Err(Refusal::SetsOthersPassword)
        );
        let me = account(2, &[]);
        let mut mine = me.clone();
        mine.password = "other".into();
        assert!(check_account(&by, Some(&me), Some(&mine)).is_ok());
        // A new account comes with its first password.
        assert!(check_account(&by, None, Some(&changed)).is_ok());
    }

    #[test]
    fn staff_status_is_granted_only_by_a_superuser() {
        let by = alice(&["users.add_user"]);
        let mut staff = account(3, &[]);
        staff.staff = true;
        assert_eq!(
            check_account(&by, None, Some(&staff)),
            Err(Refusal::ChangesStatus)
        );
    }

    #[test]
    fn only_held_permissions_are_granted() {
        let by = alice(&["peering.view_router", "users.change_user"]);
        let before = account(3, &["dns.secret_thing"]);
        // Keeping what the account had, and adding what alice holds, is fine.
        let after = account(3, &["dns.secret_thing", "peering.view_router"]);
        assert!(check_account(&by, Some(&before), Some(&after)).is_ok());
        let more = account(3, &["peering.add_router"]);
        assert_eq!(
            check_account(&by, Some(&before), Some(&more)),
            Err(Refusal::GrantsUnheld("peering.add_router".into()))
        );
        assert_eq!(
            check_group(&by, &perms(&[]), &perms(&["peering.add_router"])),
            Err(Refusal::GrantsUnheld("peering.add_router".into()))
        );
        assert!(check_group(&by, &perms(&["x.y_z"]), &perms(&["x.y_z"])).is_ok());
    }
}
