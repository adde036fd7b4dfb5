//! What an action needs of its caller, declared with the action. peering-api checks it
//! before the handler runs: before the object is looked up, the body read, or a missing
//! setting's 503. A handler never checks permissions itself.

use peering_domain::permission::{self, Action as Permission};
use peering_domain::ResourceSpec;

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
    pub fn writes(self) -> bool {
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
}
