//! Importing the sessions routers run at an exchange, as the reference's
//! `import-sessions` does: each router connected to the exchange is asked for its BGP
//! neighbours, and those whose address is on one of its connections to the exchange
//! become sessions there. A missing autonomous system is created from PeeringDB, or by
//! its number; nothing is created for a neighbour that gives no session.

use peering_domain::resources::{CONNECTION, INTERNET_EXCHANGE};
use peering_peeringdb::import::{import_candidates, Candidate, Imported, MissingSystems};
use peering_store::ChangeContext;
use serde_json::Value as Json;

use super::Ask;
use crate::{Work, WorkError};

impl Work {
    /// Imports the sessions the routers connected to `exchange` run there.
    pub fn import_router_sessions(
        &self,
        command: &[String],
        exchange: i64,
        ctx: &ChangeContext,
    ) -> Result<Imported, WorkError> {
        self.record(&INTERNET_EXCHANGE, exchange, "internet exchange")?;
        let mut routers: Vec<i64> = self
            .store
            .everything(&CONNECTION)?
            .iter()
            .filter(|c| c.get(&CONNECTION, "internet_exchange_point").as_int() == Some(exchange))
            .filter_map(|c| c.get(&CONNECTION, "router").as_int())
            .collect();
        routers.sort_unstable();
        routers.dedup();
        let mut candidates = Vec::new();
        for router in routers {
            let answer = self.ask_router(command, router, &Ask::Poll)?;
            candidates.extend(neighbours(&answer, router));
        }
        let imported = import_candidates(
            &self.store,
            exchange,
            &candidates,
            MissingSystems::FromPeeringDbOrNumber,
            ctx,
        )?;
        Ok(imported)
    }
}

/// The neighbours a router's poll answer names with their AS number.
fn neighbours(answer: &Json, router: i64) -> Vec<Candidate> {
    let Some(sessions) = answer["sessions"].as_array() else {
        return Vec::new();
    };
    sessions
        .iter()
        .filter_map(|entry| {
            let asn = entry["remote_asn"].as_i64().filter(|asn| *asn > 0)?;
            let address = entry["ip_address"].as_str()?;
            let ip: std::net::IpAddr = address.split('/').next()?.parse().ok()?;
            Some(Candidate {
                asn,
                ip: ip.to_string(),
                router: Some(router),
            })
        })
        .collect()
}
