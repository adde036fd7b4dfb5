//! Where a router's sessions are: the sessions it holds (directly, or at exchanges through
//! its connections), the routers that hold an object's sessions, and a session's router.

use peering_domain::resources::{
    CONNECTION, DIRECT_PEERING_SESSION, INTERNET_EXCHANGE_PEERING_SESSION,
};
use peering_domain::{Record, ResourceSpec};

use crate::{Work, WorkError};

/// A resource's sessions on a router: (id, address).
pub(super) type SessionsOf = (&'static ResourceSpec, Vec<(i64, String)>);

impl Work {
    /// The router's sessions by resource: (id, address).
    pub(super) fn router_sessions(&self, router: i64) -> Result<Vec<SessionsOf>, WorkError> {
        let direct: Vec<(i64, String)> = self
            .store
            .everything(&DIRECT_PEERING_SESSION)?
            .into_iter()
            .filter(|s| s.get(&DIRECT_PEERING_SESSION, "router").as_int() == Some(router))
            .map(|s| {
                (
                    s.id,
                    s.text(&DIRECT_PEERING_SESSION, "ip_address").to_string(),
                )
            })
            .collect();
        let connections: Vec<i64> = self
            .store
            .everything(&CONNECTION)?
            .into_iter()
            .filter(|c| c.get(&CONNECTION, "router").as_int() == Some(router))
            .map(|c| c.id)
            .collect();
        let spec = &INTERNET_EXCHANGE_PEERING_SESSION;
        let exchange: Vec<(i64, String)> = self
            .store
            .everything(spec)?
            .into_iter()
            .filter(|s| {
                s.get(spec, "ixp_connection")
                    .as_int()
                    .is_some_and(|c| connections.contains(&c))
            })
            .map(|s| (s.id, s.text(spec, "ip_address").to_string()))
            .collect();
        Ok(vec![(&DIRECT_PEERING_SESSION, direct), (spec, exchange)])
    }
    /// The routers that hold sessions of an autonomous system, a BGP group or an exchange
    /// (what the reference polls for each of them), in id order.
    pub fn routers_of(&self, spec: &'static ResourceSpec, id: i64) -> Result<Vec<i64>, WorkError> {
        use peering_domain::resources::{AUTONOMOUS_SYSTEM, BGP_GROUP, INTERNET_EXCHANGE};
        let of =
            |record: &Record, spec: &ResourceSpec, field: &str| record.get(spec, field).as_int();
        let connections = self.store.everything(&CONNECTION)?;
        let router_of_connection = |connection: i64| {
            connections
                .iter()
                .find(|c| c.id == connection)
                .and_then(|c| of(c, &CONNECTION, "router"))
        };
        let mut routers: Vec<i64> = if spec.table == AUTONOMOUS_SYSTEM.table {
            let direct = self.store.everything(&DIRECT_PEERING_SESSION)?;
            let exchange = self.store.everything(&INTERNET_EXCHANGE_PEERING_SESSION)?;
            direct
                .iter()
                .filter(|s| of(s, &DIRECT_PEERING_SESSION, "autonomous_system") == Some(id))
                .filter_map(|s| of(s, &DIRECT_PEERING_SESSION, "router"))
                .chain(
                    exchange
                        .iter()
                        .filter(|s| {
                            of(s, &INTERNET_EXCHANGE_PEERING_SESSION, "autonomous_system")
                                == Some(id)
                        })
                        .filter_map(|s| of(s, &INTERNET_EXCHANGE_PEERING_SESSION, "ixp_connection"))
                        .filter_map(router_of_connection),
                )
                .collect()
        } else if spec.table == BGP_GROUP.table {
            self.store
                .everything(&DIRECT_PEERING_SESSION)?
                .iter()
                .filter(|s| of(s, &DIRECT_PEERING_SESSION, "bgp_group") == Some(id))
                .filter_map(|s| of(s, &DIRECT_PEERING_SESSION, "router"))
                .collect()
        } else if spec.table == INTERNET_EXCHANGE.table {
            connections
                .iter()
                .filter(|c| of(c, &CONNECTION, "internet_exchange_point") == Some(id))
                .filter_map(|c| of(c, &CONNECTION, "router"))
                .collect()
        } else {
            Vec::new()
        };
        routers.sort_unstable();
        routers.dedup();
        Ok(routers)
    }

    /// The router a session is set up on (directly, or through its connection).
    pub fn router_of_session(
        &self,
        spec: &'static ResourceSpec,
        id: i64,
    ) -> Result<Option<i64>, WorkError> {
        let Some((session, _)) = self.store.get(spec, id)? else {
            return Err(WorkError::NotFound("session"));
        };
        if spec.table == DIRECT_PEERING_SESSION.table {
            return Ok(session.get(spec, "router").as_int());
        }
        let Some(connection) = session.get(spec, "ixp_connection").as_int() else {
            return Ok(None);
        };
        Ok(self
            .store
            .get(&CONNECTION, connection)?
            .and_then(|(c, _)| c.get(&CONNECTION, "router").as_int()))
    }
}
