//! SQLite's write-ahead log is copied back into the database file by a background thread,
//! not by whichever write happens to cross the log's size threshold: that write used to pay
//! for everyone's (a fifth of a 1,000-object bulk POST on a large database).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use diesel::connection::SimpleConnection;

use crate::connection::{Pool, BUSY_TIMEOUT_MS};
use crate::error::Error;

/// How often the log is checked for writes to copy back.
const INTERVAL: Duration = Duration::from_millis(500);

/// Counts the writes since the thread started; the thread stops once the last store holding
/// this is dropped.
#[derive(Debug, Default)]
pub(crate) struct Checkpoints {
    writes: AtomicU64,
}

impl Checkpoints {
    /// Starts the thread that checkpoints `pool`'s database after writes.
    pub(crate) fn start(pool: Pool) -> Result<Arc<Checkpoints>, Error> {
        let mut copied = 0;
        crate::background::start(
            "sqlite-checkpoint",
            Checkpoints::default(),
            INTERVAL,
            move |checkpoints: &Checkpoints| {
                let writes = checkpoints.writes.load(Ordering::Relaxed);
                if writes != copied && checkpoint(&pool) {
                    copied = writes;
                }
                INTERVAL
            },
        )
    }

    pub(crate) fn wrote(&self) {
        self.writes.fetch_add(1, Ordering::Relaxed);
    }
}

/// Copies the log into the database file; whether it did.
fn checkpoint(pool: &Pool) -> bool {
    // PASSIVE copies the log without holding up anyone; RESTART then copies what was
    // written meanwhile and has the next write start the log from its beginning, so that
    // it stops growing. RESTART holds writers back while it waits for readers of the log
    // to finish, sleeping in the busy handler's steps of up to 100 ms: under a steady
    // stream of reads, writes stalled for half a second (docs/performance.md, nineteenth
    // round). It is tried without waiting; when readers hold the log, the next write
    // starts it over itself once every frame is copied and no reader needs it.
    let copy = "PRAGMA wal_checkpoint(PASSIVE); PRAGMA busy_timeout = 0; \
                PRAGMA wal_checkpoint(RESTART);";
    let mut conn = match pool.get() {
        Ok(conn) => conn,
        Err(e) => {
            log::warn!("no connection to checkpoint with: {e}");
            return false;
        }
    };
    let copied = conn.batch_execute(copy);
    // Restored whatever the copy did: the connection goes back to the pool.
    let restored = conn.batch_execute(&format!("PRAGMA busy_timeout = {BUSY_TIMEOUT_MS};"));
    match copied.and(restored) {
        Ok(()) => true,
        Err(e) => {
            log::warn!("checkpoint failed: {e}");
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{TestDatabase, TestStore};

    #[test]
    fn writes_reach_the_database_file_without_waiting_for_a_write_to_checkpoint() {
        let store = TestStore::on(TestDatabase::sqlite(), 2);
        let path = store
            .database
            .url
            .trim_start_matches("sqlite://")
            .to_string();
        let size = || std::fs::metadata(&path).unwrap().len();
        let before = size();
        let filler = "x".repeat(2000);
        for i in 0..200 {
            store
                .users()
                .create_user(&format!("user{i}"), &filler, false)
                .unwrap();
        }
        // The writes are in the log; the thread copies them into the file within a second.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while size() < before + 200 * 2000 {
            assert!(
                std::time::Instant::now() < deadline,
                "the database file stayed at {} bytes",
                size()
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let log = std::fs::metadata(format!("{path}-wal")).unwrap().len();
        assert!(log > 0, "the log exists until the store is closed");
    }
}
