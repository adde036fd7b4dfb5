//! The declared resources and the registry of all of them.

mod autonomous_system;
mod bfd;
mod bgp;
mod common;
mod community_kind;
mod config_context;
mod connection;
mod data;
mod devices;
mod extras;
mod internet_exchange;
mod job;
mod journal;
mod layout;
mod messaging;
mod object_change;
mod peeringdb;
mod registry;
mod routing;
mod session;
mod tag;
mod user;

pub use autonomous_system::AUTONOMOUS_SYSTEM;
pub use bfd::BFD;
pub use bgp::{BGP_GROUP, RELATIONSHIP};
pub use connection::CONNECTION;
pub use data::{DATA_FILE, DATA_SOURCE};
pub use devices::{CONFIGURATION, PLATFORM, ROUTER};
pub use extras::{
    CONFIG_CONTEXT, CONFIG_CONTEXT_ASSIGNMENT, CONTACT_ASSIGNMENT, EXPORT_TEMPLATE, IXAPI, WEBHOOK,
};
pub use internet_exchange::INTERNET_EXCHANGE;
pub use job::JOB;
pub use journal::JOURNAL_ENTRY;
pub use layout::Layout;
pub use messaging::{CONTACT, CONTACT_ROLE, EMAIL};
pub use object_change::OBJECT_CHANGE;
pub use peeringdb::{
    NAMESPACES as PEERINGDB_NAMESPACES, PDB_CAMPUS, PDB_FACILITY, PDB_HIDDEN_PEER,
    PDB_INTERNET_EXCHANGE, PDB_IXLAN, PDB_IXLAN_PREFIX, PDB_IX_FACILITY, PDB_NETWORK,
    PDB_NETWORK_CONTACT, PDB_NETWORK_FACILITY, PDB_NETWORK_IXLAN, PDB_ORGANIZATION,
    PDB_SYNCHRONISATION,
};
pub use routing::{COMMUNITY, ROUTING_POLICY};
pub use session::{DIRECT_PEERING_SESSION, INTERNET_EXCHANGE_PEERING_SESSION};
pub use tag::TAG;
pub use user::{GROUP, USER};

use crate::spec::ResourceSpec;

pub use registry::{position, tables_beside_rows, tables_read, PerResource};

/// Every resource, in API order. Reverse relations are derived by scanning this list.
pub static ALL: &[&ResourceSpec] = &[
    &AUTONOMOUS_SYSTEM,
    &BGP_GROUP,
    &COMMUNITY,
    &INTERNET_EXCHANGE,
    &CONNECTION,
    &BFD,
    &INTERNET_EXCHANGE_PEERING_SESSION,
    &DIRECT_PEERING_SESSION,
    &ROUTER,
    &ROUTING_POLICY,
    &RELATIONSHIP,
    &PLATFORM,
    &CONFIGURATION,
    &CONTACT_ROLE,
    &CONTACT,
    &EMAIL,
    &CONTACT_ASSIGNMENT,
    &CONFIG_CONTEXT,
    &CONFIG_CONTEXT_ASSIGNMENT,
    &EXPORT_TEMPLATE,
    &WEBHOOK,
    &IXAPI,
    &TAG,
    &OBJECT_CHANGE,
    &JOURNAL_ENTRY,
    &JOB,
    &DATA_SOURCE,
    &DATA_FILE,
    &USER,
    &GROUP,
    &PDB_ORGANIZATION,
    &PDB_CAMPUS,
    &PDB_FACILITY,
    &PDB_INTERNET_EXCHANGE,
    &PDB_IX_FACILITY,
    &PDB_IXLAN,
    &PDB_IXLAN_PREFIX,
    &PDB_NETWORK,
    &PDB_NETWORK_CONTACT,
    &PDB_NETWORK_FACILITY,
    &PDB_NETWORK_IXLAN,
    &PDB_SYNCHRONISATION,
    &PDB_HIDDEN_PEER,
];

/// Items grouped by resource, resources in order of first appearance, each group collected
/// into `C` (a `Vec` keeps every item, a `BTreeSet` of ids the distinct ones in order).
pub fn group_by_resource<T, C: std::default::Default + Extend<T>>(
    items: impl IntoIterator<Item = (&'static ResourceSpec, T)>,
) -> Vec<(&'static ResourceSpec, C)> {
    let mut groups: Vec<(&'static ResourceSpec, C)> = Vec::new();
    for (spec, item) in items {
        match groups.iter_mut().find(|(s, _)| std::ptr::eq(*s, spec)) {
            Some((_, group)) => group.extend([item]),
            None => {
                let mut group = C::default();
                group.extend([item]);
                groups.push((spec, group));
            }
        }
    }
    groups
}

/// The resource with content type `app.model`.
pub fn by_content_type(content_type: &str) -> Option<&'static ResourceSpec> {
    let (app, model) = content_type.split_once('.')?;
    ALL.iter()
        .copied()
        .find(|r| r.app == app && r.model == model)
}

/// A second place a resource is served: where the reference's later releases (1.9, 1.10)
/// moved it. Both places serve the same objects; links name the place of the layout the
/// request came through (`Layout`).
#[derive(Debug, Clone, Copy)]
pub struct Alias {
    pub app: &'static str,
    pub path: &'static str,
    pub spec: &'static ResourceSpec,
}

/// The reference's 1.9 and 1.10 paths of resources the 1.8 layout serves elsewhere.
pub static ALIASES: &[Alias] = &[
    Alias {
        app: "devices",
        path: "routers",
        spec: &ROUTER,
    },
    Alias {
        app: "core",
        path: "object-changes",
        spec: &OBJECT_CHANGE,
    },
    Alias {
        app: "bgp",
        path: "communities",
        spec: &COMMUNITY,
    },
];

/// The resource served at `/api/<app>/<path>/`, under either layout.
pub fn by_path(app: &str, path: &str) -> Option<&'static ResourceSpec> {
    ALL.iter()
        .copied()
        .find(|r| r.app == app && r.path == path)
        .or_else(|| {
            ALIASES
                .iter()
                .find(|a| a.app == app && a.path == path)
                .map(|a| a.spec)
        })
}
