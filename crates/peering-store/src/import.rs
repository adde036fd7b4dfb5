//! Bringing another system's data in: every object written with its own id and times in
//! one transaction (validated as any creation, without change records of its own), the
//! other system's change records copied as they were, then each sequence moved above the
//! ids taken. A failed or interrupted import leaves nothing; a dry run is an import whose
//! transaction is rolled back at the end.

use peering_domain::resources::ALL;
use peering_domain::ResourceSpec;

use crate::connection::Db;
use crate::sql::Sql;
use crate::write::{import, realign_sequence, ImportedObject};
use crate::Error;

/// An import under way, inside its transaction.
pub struct ImportWriter<'c, 'd> {
    db: &'c mut Db<'d>,
}

impl ImportWriter<'_, '_> {
    /// Writes records as they are, unchecked: another system's change records, which
    /// record what was, not what may be written.
    pub fn records(
        &mut self,
        spec: &'static ResourceSpec,
        records: &[peering_domain::Record],
    ) -> Result<usize, Error> {
        crate::write::insert_records(self.db, spec, records)?;
        Ok(records.len())
    }

    /// Writes objects of one resource (those they refer to must be in already).
    pub fn objects(
        &mut self,
        spec: &'static ResourceSpec,
        objects: Vec<ImportedObject>,
    ) -> Result<usize, Error> {
        import(self.db, spec, objects)
    }
}

/// The resources that hold peering data, whose emptiness an import requires.
fn peering_data() -> impl Iterator<Item = &'static ResourceSpec> {
    ALL.iter()
        .copied()
        .filter(|s| s.change_logged && s.writes.edits() && s.app != "users")
}

impl crate::Store {
    /// Whether the database holds no peering data yet (users and the PeeringDB copy may be
    /// there).
    pub fn holds_no_peering_data(&self) -> Result<bool, Error> {
        self.read(|db| {
            for spec in peering_data() {
                let sql = Sql::new(&format!("SELECT COUNT(*) FROM {}", spec.table));
                if db.scalar(&sql)?.unwrap_or(0) > 0 {
                    return Ok(false);
                }
            }
            Ok(true)
        })
    }

    /// How many objects of a resource the database holds.
    pub fn count_of(&self, spec: &'static ResourceSpec) -> Result<i64, Error> {
        self.read(|db| {
            let sql = Sql::new(&format!("SELECT COUNT(*) FROM {}", spec.table));
            Ok(db.scalar(&sql)?.unwrap_or(0))
        })
    }

    /// Runs an import: `feed` writes through the writer; everything lands, sequences moved
    /// above the ids taken, or nothing does. With `dry_run` nothing lands either way, and
    /// what `feed` returned is given back.
    pub fn import<T>(
        &self,
        dry_run: bool,
        mut feed: impl FnMut(&mut ImportWriter<'_, '_>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let mut outcome = None;
        let result = self.write(|db| {
            let mut writer = ImportWriter { db };
            outcome = Some(feed(&mut writer)?);
            for spec in ALL.iter().copied().filter(|s| has_sequence(s)) {
                realign_sequence(writer.db, spec)?;
            }
            if dry_run {
                return Err(Error::Aborted("dry run".into()));
            }
            Ok(())
        });
        match (result, outcome) {
            (Ok(()), Some(outcome)) => Ok(outcome),
            (Err(Error::Aborted(_)), Some(outcome)) if dry_run => Ok(outcome),
            (Err(e), _) => Err(e),
            (Ok(()), None) => Err(Error::Aborted("the import wrote nothing".into())),
        }
    }
}

/// Tables whose ids come from a sequence: all but the PeeringDB copy's, whose ids are
/// PeeringDB's (hidden peers, written through the API, have their own).
fn has_sequence(spec: &ResourceSpec) -> bool {
    spec.app != "peeringdb" || spec.writes.edits()
}
