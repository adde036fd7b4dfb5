//! What an action needs of its caller, declared with the action and checked by `dispatch`
//! before the handler runs: before the object is looked up, the body read, or a missing
//! setting's 503. A handler never checks permissions itself.

use peering_auth::Access;
use peering_domain::permission::{self, Action as Permission};
use peering_domain::ResourceSpec;

use crate::auth::{Caller, NOT_PROVIDED, NO_PERMISSION};
use crate::error::ApiError;
use crate::AppState;

/// One permission an action needs.
#[derive(Debug, Clone, Copy)]
pub enum Grant {
    /// A model permission on a resource.
    On(Permission, &'static ResourceSpec),
    /// A model permission on the resource the action was reached through (actions declared
    /// alike on several resources).
    OnReached(Permission),
    /// A permission beyond view/add/change/delete (`permission::EXTRA`).
    Named(&'static str),
}

impl Grant {
    /// The permission's name, for `reached`.
    pub fn name(self, reached: &ResourceSpec) -> String {
        match self {
            Grant::On(action, spec) => permission::name(action, spec),
            Grant::OnReached(action) => permission::name(action, reached),
            Grant::Named(name) => name.to_string(),
        }
    }

    /// Whether the permission lets its holder change something (then a read-only token
    /// does not carry it).
    fn writes(self) -> bool {
        match self {
            Grant::On(action, _) | Grant::OnReached(action) => action != Permission::View,
            Grant::Named(name) => !name.contains(".view_"),
        }
    }
}

/// What a caller must be or hold to run an action.
#[derive(Debug, Clone, Copy)]
pub enum Needs {
    /// Reading these resources as their lists and objects may be read (a login when
    /// `LOGIN_REQUIRED`, a view permission unless `EXEMPT_VIEW_PERMISSIONS` exempts them).
    Read(&'static [&'static ResourceSpec]),
    /// A user holding every one of these; a grant that changes anything also needs a
    /// token that may write.
    Hold(&'static [Grant]),
    /// Staff or a superuser (the reference's `IsAdminUser`); `write` also needs a token
    /// that may write.
    Staff { write: bool },
}

impl Needs {
    /// Whether the action changes something, so that a read-only token is refused.
    pub fn writes(self) -> bool {
        match self {
            Needs::Read(_) => false,
            Needs::Hold(grants) => grants.iter().any(|g| g.writes()),
            Needs::Staff { write } => write,
        }
    }

    /// The 403 for a caller who does not qualify.
    pub fn check(
        self,
        caller: &Caller,
        state: &AppState,
        reached: &ResourceSpec,
    ) -> Result<(), ApiError> {
        match self {
            Needs::Read(specs) => specs
                .iter()
                .try_for_each(|spec| caller.require_read(state, Some(spec))),
            Needs::Hold(grants) => {
                let user = caller.require_user()?;
                let writes = self.writes();
                let held = |grant: &Grant| {
                    user.superuser || user.permissions.contains(&grant.name(reached))
                };
                if !grants.iter().all(held) || (writes && user.access != Access::ReadWrite) {
                    return Err(ApiError::Forbidden(NO_PERMISSION.into()));
                }
                Ok(())
            }
            Needs::Staff { write } => match &caller.user {
                None => Err(ApiError::Forbidden(NOT_PROVIDED.into())),
                Some(user)
                    if (user.staff || user.superuser)
                        && (!write || user.access == Access::ReadWrite) =>
                {
                    Ok(())
                }
                Some(_) => Err(ApiError::Forbidden(NO_PERMISSION.into())),
            },
        }
    }
}
