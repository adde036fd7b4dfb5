//! The declared resources and the registry of all of them.

mod autonomous_system;
mod common;
mod object_change;
mod routing;
mod tag;
mod user;

pub use autonomous_system::AUTONOMOUS_SYSTEM;
pub use object_change::OBJECT_CHANGE;
pub use routing::{COMMUNITY, ROUTING_POLICY};
pub use tag::TAG;
pub use user::USER;

use crate::spec::ResourceSpec;

/// Every resource, in API order. Reverse relations are derived by scanning this list.
pub static ALL: &[&ResourceSpec] = &[
    &AUTONOMOUS_SYSTEM,
    &COMMUNITY,
    &ROUTING_POLICY,
    &TAG,
    &OBJECT_CHANGE,
    &USER,
];

/// The resource with content type `app.model`.
pub fn by_content_type(content_type: &str) -> Option<&'static ResourceSpec> {
    let (app, model) = content_type.split_once('.')?;
    ALL.iter()
        .copied()
        .find(|r| r.app == app && r.model == model)
}

/// The resource served at `/api/<app>/<path>/`.
pub fn by_path(app: &str, path: &str) -> Option<&'static ResourceSpec> {
    ALL.iter().copied().find(|r| r.app == app && r.path == path)
}
