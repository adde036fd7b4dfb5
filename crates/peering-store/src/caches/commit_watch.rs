//! On SQLite, the tables' versions as of now, told by the asking thread in a few
//! microseconds instead of a round of reads on another thread (`peering-app`'s
//! `VersionProbe`, which PostgreSQL keeps: there a read is a round trip).
//!
//! `PRAGMA data_version` on a connection of its own says whether any other connection
//! (this process's writers, or another process's) committed since that connection last
//! asked. While none did, the versions read after it last asked are still the versions
//! now; once one did, they are read again. The pragma starts a read, so it sees every
//! commit that ended before it, as a round that started after the request would.
//!
//! Nothing here waits: the watch is skipped ([`CommitWatch::versions_now`] gives `None`)
//! while another thread holds it or SQLite is busy, and the caller waits for a round.

use std::sync::{Arc, Mutex};

use diesel::connection::SimpleConnection;
use diesel::r2d2::{CustomizeConnection, ManageConnection};
use diesel::sqlite::SqliteConnection;

use crate::connection::{AnyConnection, Db, Mode, Setup, Target};
use crate::error::Error;
use crate::pool_manager::Manager;
use crate::sql::Sql;
use crate::versions::{self, TableVersions};

/// The connection asked, and the versions read after its last change.
pub(crate) struct CommitWatch {
    watched: Mutex<Watched>,
}

struct Watched {
    /// Its own, held for good: `data_version` counts per connection.
    conn: SqliteConnection,
    /// `data_version` when `versions` were last read (asked just before reading them).
    seen: Option<(i64, Arc<TableVersions>)>,
}

impl CommitWatch {
    /// A watch on a connection of its own to `target`, set up as the pools' are; `None`
    /// unless `target` is SQLite.
    pub(crate) fn open(target: &Target) -> Result<Option<CommitWatch>, Error> {
        if !matches!(target, Target::Sqlite(_)) {
            return Ok(None);
        }
        let unavailable = |e: diesel::r2d2::Error| Error::Unavailable(e.to_string());
        let manager = Manager {
            target: target.clone(),
        };
        let mut conn = manager.connect().map_err(unavailable)?;
        Setup.on_acquire(&mut conn).map_err(unavailable)?;
        let AnyConnection::Sqlite(mut conn) = conn else {
            return Ok(None);
        };
        // Busy (a checkpoint restarting the log), the caller waits for a round instead.
        conn.batch_execute("PRAGMA busy_timeout = 0;")?;
        Ok(Some(CommitWatch {
            watched: Mutex::new(Watched { conn, seen: None }),
        }))
    }

    /// The tables' versions now, or `None` when they cannot be told without waiting.
    /// `reads` counts the statements run.
    pub(crate) fn versions_now(
        &self,
        reads: &std::sync::atomic::AtomicU64,
    ) -> Option<Arc<TableVersions>> {
        let mut watched = self.watched.try_lock().ok()?;
        let Watched { conn, seen } = &mut *watched;
        let mut db = Db::Sqlite(conn, reads, Mode::Read(None));
        let version = db.scalar(&Sql::new("PRAGMA data_version")).ok()??;
        if let Some((_, versions)) = seen.as_ref().filter(|(at, _)| *at == version) {
            return Some(Arc::clone(versions));
        }
        let versions = Arc::new(versions::read(&mut db).ok()?);
        *seen = Some((version, Arc::clone(&versions)));
        Some(versions)
    }
}

#[cfg(test)]
mod tests;
