//! Threads that look after the database beside the store (checkpoints on SQLite, vacuums on
//! PostgreSQL): each wakes after a pause, does a pass over the state the store feeds it,
//! and ends once the last store holding that state has dropped it.

use std::sync::Arc;
use std::time::Duration;

use crate::error::Error;

/// Starts the thread `name`, which sleeps `first_pause`, then calls `pass` with `state`
/// for as long as a store holds the returned `Arc`; each pass returns the pause before
/// the next.
pub(crate) fn start<T: Send + Sync + 'static>(
    name: &str,
    state: T,
    first_pause: Duration,
    mut pass: impl FnMut(&T) -> Duration + Send + 'static,
) -> Result<Arc<T>, Error> {
    let shared = Arc::new(state);
    let watched = Arc::downgrade(&shared);
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            let mut pause = first_pause;
            loop {
                std::thread::sleep(pause);
                let Some(state) = watched.upgrade() else {
                    return;
                };
                pause = pass(&state);
            }
        })
        .map_err(|e| Error::Unavailable(format!("cannot start the thread {name}: {e}")))?;
    Ok(shared)
}
