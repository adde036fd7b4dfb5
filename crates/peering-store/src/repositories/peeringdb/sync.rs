//! Writes of the local PeeringDB copy: a synchronisation applies PeeringDB's objects in
//! batches, inside one transaction, so that an interrupted one leaves the previous copy
//! whole. Objects are upserted by PeeringDB's id; the ids each table holds are kept in
//! memory for the transaction, to count creations and updates and to refuse an object
//! whose parent the copy lacks (as the reference's validation does) instead of failing on
//! the foreign key.

use std::collections::{HashMap, HashSet};

use peering_domain::peeringdb::{Incoming, Refused};
use peering_domain::resources::{
    PDB_HIDDEN_PEER, PDB_IXLAN, PDB_NETWORK, PDB_SYNCHRONISATION, PEERINGDB_NAMESPACES,
};
use peering_domain::value::time_to_micros;
use peering_domain::{Kind, Record, ResourceSpec, Value};

use crate::connection::Db;
use crate::sql::{Bind, Sql};
use crate::written::Writes;
use crate::Error;

/// Objects created, updated and deleted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub created: u64,
    pub updated: u64,
    pub deleted: u64,
}

impl Counts {
    pub fn total(&self) -> u64 {
        self.created + self.updated + self.deleted
    }

    fn add(&mut self, other: Counts) {
        self.created += other.created;
        self.updated += other.updated;
        self.deleted += other.deleted;
    }
}

/// A synchronisation in progress, inside its transaction.
pub struct CopyWriter<'c, 'd> {
    db: &'c mut Db<'d>,
    /// Ids per table, read on first use.
    known: HashMap<&'static str, HashSet<i64>>,
    counts: HashMap<&'static str, Counts>,
    refused: Vec<(&'static str, Refused)>,
    deleted_any: bool,
    started: chrono::DateTime<chrono::Utc>,
}

/// What a synchronisation did.
#[derive(Debug, Clone, Default)]
pub struct Applied {
    /// Per resource (by table), in the order of `PEERINGDB_NAMESPACES`.
    pub counts: Vec<(&'static ResourceSpec, Counts)>,
    /// The objects refused, with the resource and the reason.
    pub refused: Vec<(&'static ResourceSpec, Refused)>,
}

impl Applied {
    pub fn total(&self) -> Counts {
        let mut total = Counts::default();
        for (_, c) in &self.counts {
            total.add(*c);
        }
        total
    }
}

impl<'c, 'd> CopyWriter<'c, 'd> {
    fn new(db: &'c mut Db<'d>, started: chrono::DateTime<chrono::Utc>) -> Self {
        CopyWriter {
            db,
            known: HashMap::new(),
            counts: HashMap::new(),
            refused: Vec::new(),
            deleted_any: false,
            started,
        }
    }

    /// Records an object of `spec` that could not be read (it is left as it was).
    pub fn refuse(&mut self, spec: &'static ResourceSpec, refused: Refused) {
        log::warn!("peeringdb {}: skipped {refused}", spec.path);
        self.refused.push((spec.table, refused));
    }

    fn ids(&mut self, spec: &'static ResourceSpec) -> Result<&mut HashSet<i64>, Error> {
        if !self.known.contains_key(spec.table) {
            let sql = Sql::new(&format!("SELECT id FROM {}", spec.table));
            let ids = self.db.load(&sql)?.iter().map(|r| r.int(0)).collect();
            self.known.insert(spec.table, ids);
        }
        Ok(self.known.get_mut(spec.table).expect("just read"))
    }

    /// Applies a batch of PeeringDB's objects of `spec`.
    pub fn apply(
        &mut self,
        spec: &'static ResourceSpec,
        batch: Vec<Incoming>,
    ) -> Result<(), Error> {
        let mut keep = Vec::with_capacity(batch.len());
        let mut delete = Vec::new();
        for incoming in batch {
            match incoming {
                Incoming::Keep(record) => {
                    if let Some(record) = self.with_parents(spec, record)? {
                        keep.push(record);
                    }
                }
                Incoming::Delete(id) => delete.push(id),
            }
        }
        self.upsert(spec, keep)?;
        self.delete(spec, delete)
    }

    /// The record, if the copy holds the objects it points at; a missing optional parent
    /// is left out, a missing required one refuses the object.
    fn with_parents(
        &mut self,
        spec: &'static ResourceSpec,
        mut record: Record,
    ) -> Result<Option<Record>, Error> {
        for (i, field) in spec.fields.iter().enumerate() {
            let (Kind::ForeignKey { target, .. }, Value::Int(parent)) =
                (field.kind, &record.values[i])
            else {
                continue;
            };
            let parent = *parent;
            if self.ids(target())?.contains(&parent) {
                continue;
            }
            if field.nullable {
                record.values[i] = Value::Null;
                continue;
            }
            let reason = format!(
                "{}_id: no {} #{parent} in the copy",
                field.name,
                target().verbose_name
            );
            self.refuse(
                spec,
                Refused {
                    id: Some(record.id),
                    reason,
                },
            );
            return Ok(None);
        }
        Ok(Some(record))
    }

    fn upsert(&mut self, spec: &'static ResourceSpec, records: Vec<Record>) -> Result<(), Error> {
        let Some(first) = records.first() else {
            return Ok(());
        };
        let mut names = vec!["id"];
        names.extend(
            crate::write::column_binds(spec, &first.values)
                .iter()
                .map(|(n, _)| *n),
        );
        let known = self.ids(spec)?;
        let mut counts = Counts::default();
        // An id given twice in one batch counts once, as the later object wins.
        let mut rows: HashMap<i64, Vec<Bind>> = HashMap::with_capacity(records.len());
        for record in &records {
            if known.insert(record.id) {
                counts.created += 1;
            } else if !rows.contains_key(&record.id) {
                counts.updated += 1;
            }
            let row = std::iter::once(Bind::Int(record.id))
                .chain(
                    crate::write::column_binds(spec, &record.values)
                        .into_iter()
                        .map(|(_, b)| b),
                )
                .collect();
            rows.insert(record.id, row);
        }
        self.counts.entry(spec.table).or_default().add(counts);
        let backend = self.db.backend();
        let updates: Vec<String> = names[1..]
            .iter()
            .map(|n| format!("{n} = excluded.{n}"))
            .collect();
        let mut rows: Vec<Vec<Bind>> = rows.into_values().collect();
        let per_statement = Sql::rows_per_statement(backend, names.len());
        while !rows.is_empty() {
            let chunk: Vec<Vec<Bind>> = rows.drain(..per_statement.min(rows.len())).collect();
            let mut sql = Sql::writing(
                Writes::adds(spec.table),
                &format!(
                    "INSERT INTO {} ({}) SELECT * FROM ",
                    spec.table,
                    names.join(", ")
                ),
            );
            sql.push_rows(backend, chunk);
            // `WHERE true` tells SQLite's parser that ON CONFLICT belongs to the insert.
            sql.push(&format!(
                " WHERE true ON CONFLICT (id) DO UPDATE SET {}",
                updates.join(", ")
            ));
            self.db.execute(&sql)?;
        }
        Ok(())
    }

    fn delete(&mut self, spec: &'static ResourceSpec, ids: Vec<i64>) -> Result<(), Error> {
        let known = self.ids(spec)?;
        let present: Vec<i64> = ids.into_iter().filter(|id| known.remove(id)).collect();
        if present.is_empty() {
            return Ok(());
        }
        let backend = self.db.backend();
        let mut sql = Sql::writing(
            Writes::removes(spec.table),
            &format!("DELETE FROM {} WHERE ", spec.table),
        );
        sql.in_ids(backend, "id", &present);
        self.db.execute(&sql)?;
        self.counts.entry(spec.table).or_default().deleted += present.len() as u64;
        self.deleted_any = true;
        // Deleting took the object's children with it: the tables written later read
        // their ids again.
        let later = PEERINGDB_NAMESPACES
            .iter()
            .skip_while(|(_, s)| s.table != spec.table)
            .skip(1);
        for (_, s) in later {
            self.known.remove(s.table);
        }
        Ok(())
    }

    fn finish(self) -> Result<Applied, Error> {
        if self.deleted_any {
            unlink_gone(self.db)?;
        }
        if self.counts.values().any(|c| c.created > 0) {
            link_hidden_peers(self.db)?;
        }
        let counts = PEERINGDB_NAMESPACES
            .iter()
            .map(|(_, spec)| {
                (
                    *spec,
                    self.counts.get(spec.table).copied().unwrap_or_default(),
                )
            })
            .collect();
        let refused = self
            .refused
            .into_iter()
            .filter_map(|(t, r)| {
                let spec = PEERINGDB_NAMESPACES.iter().find(|(_, s)| s.table == t)?.1;
                Some((spec, r))
            })
            .collect();
        let applied = Applied { counts, refused };
        record_synchronisation(self.db, self.started, applied.total())?;
        Ok(applied)
    }
}

/// Clears the links of exchanges and connections to PeeringDB objects that are gone, as
/// the reference's `SET_NULL` does (without change records).
fn unlink_gone(db: &mut Db<'_>) -> Result<(), Error> {
    for (table, column, copy) in [
        ("internet_exchanges", "extdb_ixlan", "peeringdb_ixlans"),
        ("connections", "extdb_netixlan", "peeringdb_network_ixlans"),
    ] {
        db.execute(&Sql::writing(
            Writes::updates(table).setting(&[column]),
            &format!(
                "UPDATE {table} SET {column} = NULL WHERE {column} IS NOT NULL \
                 AND NOT EXISTS (SELECT 1 FROM {copy} c WHERE c.id = {table}.{column})"
            ),
        ))?;
    }
    Ok(())
}

/// Links hidden peers again to the networks and LANs PeeringDB lists anew, by the ids
/// they kept when PeeringDB dropped them (the database cleared the links then), as the
/// reference's `link_to_peeringdb` after each synchronisation; without change records, as
/// the clearing.
fn link_hidden_peers(db: &mut Db<'_>) -> Result<(), Error> {
    let table = PDB_HIDDEN_PEER.table;
    for (copy, link, kept) in [
        (
            PDB_NETWORK.table,
            "extdb_network_id",
            "extdb_network_id_copy",
        ),
        (PDB_IXLAN.table, "extdb_ixlan_id", "extdb_ixlan_id_copy"),
    ] {
        db.execute(&Sql::writing(
            Writes::updates(table).setting(&[link]),
            &format!(
                "UPDATE {table} SET {link} = {kept} WHERE {link} IS NULL \
                 AND {kept} IN (SELECT id FROM {copy})"
            ),
        ))?;
    }
    Ok(())
}

/// A synchronisation that changed something is recorded, as the reference records it.
fn record_synchronisation(
    db: &mut Db<'_>,
    started: chrono::DateTime<chrono::Utc>,
    total: Counts,
) -> Result<(), Error> {
    if total.total() == 0 {
        return Ok(());
    }
    let columns = ["time", "created", "updated", "deleted"];
    let row = vec![
        Bind::Int(time_to_micros(started)),
        Bind::Int(total.created as i64),
        Bind::Int(total.updated as i64),
        Bind::Int(total.deleted as i64),
    ];
    db.insert(PDB_SYNCHRONISATION.table, &columns, vec![row])
}

impl super::PeeringDb<'_> {
    /// Runs a synchronisation of the PeeringDB copy: `feed` applies PeeringDB's objects
    /// through the writer, parents first. Everything lands, with the record of the
    /// synchronisation (at `started`, the time the next one asks for changes since), or
    /// nothing does (a failure of `feed`, `Error::Aborted`, included). `feed` runs again
    /// if the transaction lost a race with other writers.
    pub fn synchronise(
        &self,
        started: chrono::DateTime<chrono::Utc>,
        mut feed: impl FnMut(&mut CopyWriter<'_, '_>) -> Result<(), Error>,
    ) -> Result<Applied, Error> {
        self.store.write(|db| {
            let mut writer = CopyWriter::new(db, started);
            feed(&mut writer)?;
            writer.finish()
        })
    }

    /// When the last synchronisation that changed something happened.
    pub fn last_synchronisation(&self) -> Result<Option<chrono::DateTime<chrono::Utc>>, Error> {
        self.store.read(|db| {
            let sql = Sql::new(&format!(
                "SELECT MAX(time) FROM {}",
                PDB_SYNCHRONISATION.table
            ));
            let micros = db
                .load(&sql)?
                .into_iter()
                .next()
                .and_then(|mut r| r.take(0).int());
            Ok(micros.map(peering_domain::value::micros_to_time))
        })
    }

    /// How many objects each table of the copy holds, by PeeringDB name, and the number of
    /// synchronisations (`sync`).
    pub fn counts(&self) -> Result<Vec<(&'static str, i64)>, Error> {
        self.store.read(|db| {
            let tables = PEERINGDB_NAMESPACES
                .iter()
                .copied()
                .chain(std::iter::once(("sync", &PDB_SYNCHRONISATION)));
            let mut out = Vec::new();
            for (name, spec) in tables {
                let sql = Sql::new(&format!("SELECT COUNT(*) FROM {}", spec.table));
                out.push((name, db.scalar(&sql)?.unwrap_or(0)));
            }
            Ok(out)
        })
    }

    /// Empties the copy and its synchronisation records, unlinking exchanges and
    /// connections first.
    pub fn clear(&self) -> Result<(), Error> {
        self.store.write(|db| {
            db.execute(&Sql::writing(
                Writes::updates("internet_exchanges").setting(&["extdb_ixlan", "extdb_prefixes"]),
                "UPDATE internet_exchanges SET extdb_ixlan = NULL, extdb_prefixes = '{}' \
                 WHERE extdb_ixlan IS NOT NULL",
            ))?;
            db.execute(&Sql::writing(
                Writes::updates("connections").setting(&["extdb_netixlan"]),
                "UPDATE connections SET extdb_netixlan = NULL WHERE extdb_netixlan IS NOT NULL",
            ))?;
            let copy = PEERINGDB_NAMESPACES.iter().rev().map(|(_, spec)| *spec);
            for spec in copy.chain([&PDB_SYNCHRONISATION]) {
                let table = spec.table;
                db.execute(&Sql::writing(
                    Writes::removes(table),
                    &format!("DELETE FROM {table}"),
                ))?;
            }
            Ok(())
        })
    }
}
