//! Each declared action's handler (`peering_openapi::actions::ACTIONS`), by the action's
//! resource, name and scope: the declarations say what an action is, this table what runs
//! it. A test holds the two to one handler per action and one action per handler.

use actix_web::HttpResponse;
use futures_util::future::LocalBoxFuture;
use peering_domain::resources::{
    AUTONOMOUS_SYSTEM, BGP_GROUP, DATA_SOURCE, DIRECT_PEERING_SESSION, EXPORT_TEMPLATE,
    INTERNET_EXCHANGE, INTERNET_EXCHANGE_PEERING_SESSION, PDB_NETWORK, PDB_SYNCHRONISATION, ROUTER,
};
use peering_domain::ResourceSpec;

use super::{
    autonomous_systems, data_sources, exchanges, export, messaging, peeringdb_cache,
    peeringdb_networks, routers, sessions, Action, Call, Scope,
};
use crate::error::ApiError;

pub type Handler = fn(Call) -> LocalBoxFuture<'static, Result<HttpResponse, ApiError>>;

/// The handler of the action `name` of `spec` in `scope`.
pub struct Served {
    pub spec: &'static ResourceSpec,
    pub name: &'static str,
    pub scope: Scope,
    pub handler: Handler,
}

impl Served {
    /// Whether this handler serves `action`.
    pub fn serves(&self, action: &Action) -> bool {
        action.is(self.spec, self.name, self.scope)
    }
}

const fn on(spec: &'static ResourceSpec, name: &'static str, handler: Handler) -> Served {
    Served {
        spec,
        name,
        scope: Scope::Object,
        handler,
    }
}

const fn at(
    spec: &'static ResourceSpec,
    name: &'static str,
    scope: Scope,
    handler: Handler,
) -> Served {
    Served {
        spec,
        name,
        scope,
        handler,
    }
}

const COLLECTION: Scope = Scope::Collection;
const CACHE: Scope = Scope::Under("cache");

/// Every action's handler, in the declarations' order.
pub static HANDLERS: &[Served] = &[
    on(&ROUTER, "configuration", |c| {
        Box::pin(routers::configuration(c))
    }),
    on(&ROUTER, "poll-bgp-sessions", |c| {
        Box::pin(routers::poll_sessions(c))
    }),
    on(&ROUTER, "test-napalm-connection", |c| {
        Box::pin(routers::test_connection(c))
    }),
    at(&ROUTER, "configure", COLLECTION, |c| {
        Box::pin(routers::configure(c))
    }),
    on(&ROUTER, "confirm-configuration", |c| {
        Box::pin(routers::confirm_configuration(c))
    }),
    on(&AUTONOMOUS_SYSTEM, "generate-email", |c| {
        Box::pin(messaging::generate_email(c))
    }),
    on(&AUTONOMOUS_SYSTEM, "send-email", |c| {
        Box::pin(messaging::send_email(c))
    }),
    on(&AUTONOMOUS_SYSTEM, "as-set-prefixes", |c| {
        Box::pin(autonomous_systems::as_set_prefixes(c))
    }),
    on(&AUTONOMOUS_SYSTEM, "shared-ixps", |c| {
        Box::pin(autonomous_systems::shared_ixps(c))
    }),
    on(&AUTONOMOUS_SYSTEM, "shared-facilities", |c| {
        Box::pin(autonomous_systems::shared_facilities(c))
    }),
    on(&AUTONOMOUS_SYSTEM, "sync-with-peeringdb", |c| {
        Box::pin(autonomous_systems::sync_with_peeringdb(c))
    }),
    on(&DATA_SOURCE, "synchronise", |c| {
        Box::pin(data_sources::synchronise(c))
    }),
    on(&DATA_SOURCE, "sync", |c| {
        Box::pin(data_sources::synchronise(c))
    }),
    on(&AUTONOMOUS_SYSTEM, "refresh-prefixes", |c| {
        Box::pin(autonomous_systems::refresh_prefixes(c))
    }),
    on(&INTERNET_EXCHANGE, "link-to-peeringdb", |c| {
        Box::pin(exchanges::link_to_peeringdb(c))
    }),
    on(&INTERNET_EXCHANGE, "available-peers", |c| {
        Box::pin(exchanges::available_peers(c))
    }),
    on(&INTERNET_EXCHANGE, "import-sessions", |c| {
        Box::pin(exchanges::import_sessions(c))
    }),
    on(&INTERNET_EXCHANGE, "import-peeringdb-sessions", |c| {
        Box::pin(exchanges::import_peeringdb_sessions(c))
    }),
    on(&INTERNET_EXCHANGE, "prefixes", |c| {
        Box::pin(exchanges::prefixes(c))
    }),
    at(&PDB_SYNCHRONISATION, "statistics", CACHE, |c| {
        Box::pin(peeringdb_cache::statistics(c))
    }),
    at(&PDB_SYNCHRONISATION, "update-local", CACHE, |c| {
        Box::pin(peeringdb_cache::update_local(c))
    }),
    at(&PDB_SYNCHRONISATION, "clear-local", CACHE, |c| {
        Box::pin(peeringdb_cache::clear_local(c))
    }),
    at(&PDB_NETWORK, "render-email", COLLECTION, |c| {
        Box::pin(peeringdb_networks::render_email(c))
    }),
    on(&EXPORT_TEMPLATE, "render", |c| {
        Box::pin(export::render_job(c))
    }),
    on(&EXPORT_TEMPLATE, "render-synchronous", |c| {
        Box::pin(export::render_now(c))
    }),
    on(&DIRECT_PEERING_SESSION, "encrypt-password", |c| {
        Box::pin(sessions::encrypt_password(c))
    }),
    on(
        &INTERNET_EXCHANGE_PEERING_SESSION,
        "encrypt-password",
        |c| Box::pin(sessions::encrypt_password(c)),
    ),
    on(&AUTONOMOUS_SYSTEM, "poll-bgp-sessions", |c| {
        Box::pin(routers::poll_routers_of(c))
    }),
    on(&BGP_GROUP, "poll-bgp-sessions", |c| {
        Box::pin(routers::poll_routers_of(c))
    }),
    on(&INTERNET_EXCHANGE, "poll-bgp-sessions", |c| {
        Box::pin(routers::poll_routers_of(c))
    }),
    on(&DIRECT_PEERING_SESSION, "poll", |c| {
        Box::pin(routers::poll_session(c))
    }),
    on(&INTERNET_EXCHANGE_PEERING_SESSION, "poll", |c| {
        Box::pin(routers::poll_session(c))
    }),
];

/// The handler of a declared action (every one has one: see the test below).
pub fn handler(action: &Action) -> Option<Handler> {
    HANDLERS
        .iter()
        .find(|served| served.serves(action))
        .map(|served| served.handler)
}

#[cfg(test)]
mod tests {
    use super::super::ACTIONS;
    use super::*;

    #[test]
    fn every_declared_action_has_one_handler_and_every_handler_one_action() {
        for action in ACTIONS {
            let handlers = HANDLERS.iter().filter(|s| s.serves(action)).count();
            assert_eq!(
                handlers, 1,
                "{} {} ({:?}) has {handlers} handlers",
                action.spec.table, action.name, action.scope
            );
        }
        for served in HANDLERS {
            let actions = ACTIONS.iter().filter(|a| served.serves(a)).count();
            assert_eq!(
                actions, 1,
                "the handler of {} {} ({:?}) serves {actions} declared actions",
                served.spec.table, served.name, served.scope
            );
        }
    }
}
