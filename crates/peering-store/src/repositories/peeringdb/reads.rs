//! Reads of the local PeeringDB copy that peering work needs: who is at an exchange's LAN
//! and not yet peered with, the LAN's prefixes, a network by its number, what two networks
//! share, and the records that name a connection's addresses. Each is one query (or one
//! query for the ids, then the objects with their relations), whatever the copy's size.

use peering_domain::resources::{
    PDB_FACILITY, PDB_HIDDEN_PEER, PDB_IXLAN_PREFIX, PDB_NETWORK, PDB_NETWORK_IXLAN,
};
use peering_domain::value::{now, time_to_micros};
use peering_domain::{Record, ResourceSpec};

use crate::connection::Db;
use crate::query::{by_ids, Related};
use crate::sql::{Bind, Sql};
use crate::Error;

/// A PeeringDB network-LAN record as a connection's addresses match it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LanPresence {
    pub id: i64,
    pub ixlan: i64,
    /// The sort keys of its addresses.
    pub ipv4_key: Option<String>,
    pub ipv6_key: Option<String>,
}

/// Session addresses (as sort keys) at an exchange.
const EXCHANGE_SESSION_KEYS: &str =
    "SELECT s.ip_address_key FROM internet_exchange_peering_sessions s \
     JOIN connections c ON c.id = s.ixp_connection_id WHERE c.internet_exchange_point_id = ";

/// The objects of `spec` whose ids one query gives, with their relations, in that order.
fn objects_in_order(
    db: &mut Db<'_>,
    spec: &'static ResourceSpec,
    ids_query: &Sql,
) -> Result<(Vec<Record>, Related), Error> {
    let ids: Vec<i64> = db.load(ids_query)?.iter().map(|r| r.int(0)).collect();
    let (records, related) = by_ids(db, spec, &ids)?;
    let mut by_id: std::collections::HashMap<i64, Record> =
        records.into_iter().map(|r| (r.id, r)).collect();
    let ordered = ids.iter().filter_map(|id| by_id.remove(id)).collect();
    Ok((ordered, related))
}

impl super::PeeringDb<'_> {
    /// PeeringDB's network-LAN records on `ixlan` of networks other than `local_asn`, and
    /// not hidden there now, with an address no session at `exchange` uses yet, by AS
    /// number (the reference's available peers: a dual-stack network stays listed until
    /// both its addresses have sessions).
    pub fn available_peers(
        &self,
        exchange: i64,
        ixlan: i64,
        local_asn: i64,
    ) -> Result<(Vec<Record>, Related), Error> {
        self.store.read(|db| {
            let mut sql = Sql::new(&format!(
                "SELECT n.id FROM {} n WHERE n.ixlan_id = ",
                PDB_NETWORK_IXLAN.table
            ));
            sql.bind(Bind::Int(ixlan))
                .push(" AND n.asn <> ")
                .bind(Bind::Int(local_asn));
            // Networks hidden on the LAN, for good or until a time still ahead.
            sql.push(&format!(
                " AND n.asn NOT IN (SELECT hn.asn FROM {} h JOIN {} hn ON hn.id = h.extdb_network_id \
                 WHERE h.extdb_ixlan_id = ",
                PDB_HIDDEN_PEER.table, PDB_NETWORK.table
            ))
            .bind(Bind::Int(ixlan))
            .push(" AND (h.until IS NULL OR h.until > ")
            .bind(Bind::Int(time_to_micros(now())))
            .push("))");
            for family in ["6", "4"] {
                sql.push(if family == "6" { " AND (" } else { " OR " });
                sql.push(&format!(
                    "(n.ipaddr{family}_key IS NOT NULL AND n.ipaddr{family}_key NOT IN ({EXCHANGE_SESSION_KEYS}"
                ))
                .bind(Bind::Int(exchange))
                .push("))");
            }
            sql.push(") ORDER BY n.asn, n.id");
            objects_in_order(db, &PDB_NETWORK_IXLAN, &sql)
        })
    }

    /// The prefixes PeeringDB lists for a LAN, in address order.
    pub fn ixlan_prefixes(&self, ixlan: i64) -> Result<Vec<String>, Error> {
        self.store.read(|db| {
            let mut sql = Sql::new(&format!(
                "SELECT prefix FROM {} WHERE ixlan_id = ",
                PDB_IXLAN_PREFIX.table
            ));
            sql.bind(Bind::Int(ixlan)).push(" ORDER BY prefix_key, id");
            Ok(db
                .load(&sql)?
                .into_iter()
                .filter_map(|mut r| r.take(0).into_text())
                .collect())
        })
    }

    /// PeeringDB's network with this AS number, if the copy has it (the first by id).
    pub fn network(&self, asn: i64) -> Result<Option<Record>, Error> {
        Ok(self.networks(&[asn])?.into_iter().next())
    }

    /// The (connection, address) pairs of the sessions at an exchange.
    pub fn session_addresses_at(&self, exchange: i64) -> Result<Vec<(i64, String)>, Error> {
        self.store.read(|db| {
            let mut sql = Sql::new(
                "SELECT s.ixp_connection_id, s.ip_address FROM internet_exchange_peering_sessions s \
                 JOIN connections c ON c.id = s.ixp_connection_id WHERE c.internet_exchange_point_id = ",
            );
            sql.bind(Bind::Int(exchange));
            Ok(db
                .load(&sql)?
                .into_iter()
                .filter_map(|mut r| Some((r.int(0), r.take(1).into_text()?)))
                .collect())
        })
    }

    /// PeeringDB's networks with these AS numbers (one query), in id order.
    pub fn networks(&self, asns: &[i64]) -> Result<Vec<Record>, Error> {
        if asns.is_empty() {
            return Ok(Vec::new());
        }
        self.store.read(|db| {
            let mut sql = Sql::new(&format!("SELECT id FROM {} WHERE ", PDB_NETWORK.table));
            sql.in_ids(db.backend(), "asn", asns).push(" ORDER BY id");
            Ok(objects_in_order(db, &PDB_NETWORK, &sql)?.0)
        })
    }

    /// The network-LAN records with any of these addresses (sort keys of host addresses).
    pub fn lan_presences(&self, keys: &[String]) -> Result<Vec<LanPresence>, Error> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        self.store.read(|db| {
            let mut sql = Sql::new(&format!(
                "SELECT id, ixlan_id, ipaddr4_key, ipaddr6_key FROM {} WHERE ipaddr4_key IN ",
                PDB_NETWORK_IXLAN.table
            ));
            sql.bind_list(keys.iter().map(|k| Bind::Text(k.clone())))
                .push(" OR ipaddr6_key IN ")
                .bind_list(keys.iter().map(|k| Bind::Text(k.clone())))
                .push(" ORDER BY id");
            Ok(db
                .load(&sql)?
                .into_iter()
                .map(|mut r| LanPresence {
                    id: r.int(0),
                    ixlan: r.int(1),
                    ipv4_key: r.take(2).into_text(),
                    ipv6_key: r.take(3).into_text(),
                })
                .collect())
        })
    }

    /// The LANs where PeeringDB lists both networks (by AS number), in id order.
    pub fn shared_ixlans(&self, asn: i64, other: i64) -> Result<Vec<i64>, Error> {
        if asn == other {
            return Ok(Vec::new());
        }
        self.store.read(|db| {
            let table = PDB_NETWORK_IXLAN.table;
            let mut sql = Sql::new(&format!(
                "SELECT DISTINCT a.ixlan_id FROM {table} a JOIN {table} b ON b.ixlan_id = a.ixlan_id \
                 WHERE a.asn = "
            ));
            sql.bind(Bind::Int(asn))
                .push(" AND b.asn = ")
                .bind(Bind::Int(other))
                .push(" ORDER BY a.ixlan_id");
            Ok(db.load(&sql)?.iter().map(|r| r.int(0)).collect())
        })
    }

    /// The facilities where PeeringDB lists both networks (by AS number), in id order.
    pub fn shared_facilities(&self, asn: i64, other: i64) -> Result<(Vec<Record>, Related), Error> {
        if asn == other {
            return Ok((Vec::new(), Related::default()));
        }
        self.store.read(|db| {
            let mut sql = Sql::new(
                "SELECT DISTINCT a.fac_id FROM peeringdb_network_facilities a \
                 JOIN peeringdb_networks an ON an.id = a.net_id \
                 JOIN peeringdb_network_facilities b ON b.fac_id = a.fac_id \
                 JOIN peeringdb_networks bn ON bn.id = b.net_id WHERE an.asn = ",
            );
            sql.bind(Bind::Int(asn))
                .push(" AND bn.asn = ")
                .bind(Bind::Int(other))
                .push(" ORDER BY a.fac_id");
            objects_in_order(db, &PDB_FACILITY, &sql)
        })
    }

    /// The distinct LANs of network-LAN records, in id order.
    pub fn ixlans_of_records(&self, records: &[i64]) -> Result<Vec<i64>, Error> {
        if records.is_empty() {
            return Ok(Vec::new());
        }
        self.store.read(|db| {
            let mut sql = Sql::new(&format!(
                "SELECT DISTINCT ixlan_id FROM {} WHERE ",
                PDB_NETWORK_IXLAN.table
            ));
            sql.in_primary_key(db.backend(), "id", records)
                .push(" ORDER BY ixlan_id");
            Ok(db.load(&sql)?.iter().map(|r| r.int(0)).collect())
        })
    }

    /// A network's records (by AS number) on these LANs, in id order.
    pub fn lan_records(&self, asn: i64, lans: &[i64]) -> Result<Vec<Record>, Error> {
        if lans.is_empty() {
            return Ok(Vec::new());
        }
        self.store.read(|db| {
            let mut sql = Sql::new(&format!(
                "SELECT id FROM {} WHERE asn = ",
                PDB_NETWORK_IXLAN.table
            ));
            sql.bind(Bind::Int(asn)).push(" AND ");
            sql.in_ids(db.backend(), "ixlan_id", lans)
                .push(" ORDER BY id");
            Ok(objects_in_order(db, &PDB_NETWORK_IXLAN, &sql)?.0)
        })
    }
}
