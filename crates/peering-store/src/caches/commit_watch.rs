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
use diesel::r2d2::PooledConnection;

use crate::connection::{AnyConnection, Db, Mode, Pool};
use crate::error::Error;
use crate::pool_manager::Manager;
use crate::sql::Sql;
use crate::versions::{self, TableVersions};

/// The connection asked, and the versions read after its last change.
pub(crate) struct CommitWatch {
    watched: Mutex<Watched>,
}

struct Watched {
    /// Held for good: `data_version` counts per connection.
    conn: PooledConnection<Manager>,
    /// `data_version` when `versions` were last read (asked just before reading them).
    seen: Option<(i64, Arc<TableVersions>)>,
}

impl CommitWatch {
    /// A watch on its own connection of `pool` (a pool of one, kept for it); `None` unless
    /// the pool's database is SQLite.
    pub(crate) fn open(pool: &Pool) -> Result<Option<CommitWatch>, Error> {
        let mut conn = pool.get()?;
        let AnyConnection::Sqlite(sqlite) = &mut *conn else {
            return Ok(None);
        };
        // Busy (a checkpoint restarting the log), the caller waits for a round instead.
        sqlite.batch_execute("PRAGMA busy_timeout = 0;")?;
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
        let AnyConnection::Sqlite(sqlite) = &mut **conn else {
            return None;
        };
        let mut db = Db::Sqlite(sqlite, reads, Mode::Read(None));
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
