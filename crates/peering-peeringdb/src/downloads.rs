//! The folders answers are downloaded to, in the temporary directory: one per
//! synchronisation, named with a prefix of ours, removed however the synchronisation ends
//! (an error or a panic unwinding through its guard). A killed synchronisation cannot
//! remove its own, so each synchronisation first removes those of earlier ones that no
//! running synchronisation uses: a folder's user holds a lock on the file `in-use` inside
//! it for as long as it runs, which the system lets go of when the process dies, however it
//! dies.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The start of every download folder's name.
pub const PREFIX: &str = "peeringd-peeringdb-";
/// The file whose lock says a folder is in use.
const LOCK_FILE: &str = "in-use";
/// A folder without a lock file was made by a peeringd from before the lock, or is being
/// made this instant; it is taken for abandoned once nothing was written in it for this long
/// (a running synchronisation writes a file per object type).
const ABANDONED_AFTER: Duration = Duration::from_secs(3600);

/// A synchronisation's download folder, removed when dropped.
pub(crate) struct DownloadFolder {
    // Dropped first: the folder is removed while its lock is still held, so that no other
    // synchronisation's clean-up races the removal.
    folder: tempfile::TempDir,
    _lock: File,
}

impl DownloadFolder {
    /// A new folder in `temporary`, locked as in use.
    pub fn create_in(temporary: &Path) -> std::io::Result<DownloadFolder> {
        let folder = tempfile::Builder::new()
            .prefix(PREFIX)
            .tempdir_in(temporary)?;
        // Locked under another name, then renamed: a clean-up never finds the lock file
        // before it is locked.
        let pending = folder.path().join(format!("{LOCK_FILE}.pending"));
        let lock = File::create(&pending)?;
        lock.lock()?;
        std::fs::rename(&pending, folder.path().join(LOCK_FILE))?;
        Ok(DownloadFolder {
            folder,
            _lock: lock,
        })
    }

    pub fn path(&self) -> &Path {
        self.folder.path()
    }
}

/// Removes the download folders in `temporary` (the system's temporary directory) that no
/// running synchronisation uses; the folders removed.
pub fn remove_abandoned(temporary: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(temporary) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let ours = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(PREFIX));
        // Not followed if a link: only folders of ours are removed.
        let folder = entry.file_type().is_ok_and(|t| t.is_dir());
        if !(ours && folder) {
            continue;
        }
        let path = entry.path();
        match remove_if_abandoned(&path) {
            Ok(true) => removed.push(path),
            Ok(false) => {}
            Err(e) => log::warn!("could not remove {}: {e}", path.display()),
        }
    }
    removed
}

/// Removes `folder` if no running synchronisation uses it; whether it did.
fn remove_if_abandoned(folder: &Path) -> std::io::Result<bool> {
    match File::open(folder.join(LOCK_FILE)) {
        Ok(lock) => match lock.try_lock() {
            // Held through the removal, so that another clean-up leaves the folder alone.
            Ok(()) => remove(folder),
            Err(std::fs::TryLockError::WouldBlock) => Ok(false),
            Err(std::fs::TryLockError::Error(e)) => Err(e),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let modified = std::fs::metadata(folder)?.modified()?;
            let age = SystemTime::now()
                .duration_since(modified)
                .unwrap_or_default();
            if age < ABANDONED_AFTER {
                return Ok(false);
            }
            remove(folder)
        }
        Err(e) => Err(e),
    }
}

/// Removes `folder`; whether it was there (its own synchronisation may have just removed
/// it, between its lock's release and ours).
fn remove(folder: &Path) -> std::io::Result<bool> {
    match std::fs::remove_dir_all(folder) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A temporary directory of its own, so that tests do not see each other's folders.
    fn temporary() -> tempfile::TempDir {
        tempfile::tempdir().expect("a temporary directory")
    }

    #[test]
    fn a_folder_whose_lock_nobody_holds_is_removed_and_a_held_one_kept() {
        let temporary = temporary();
        let held = temporary.path().join(format!("{PREFIX}held"));
        let left = temporary.path().join(format!("{PREFIX}left"));
        let foreign = temporary.path().join("someone-elses");
        for dir in [&held, &left, &foreign] {
            std::fs::create_dir(dir).unwrap();
            std::fs::write(dir.join(LOCK_FILE), "").unwrap();
            std::fs::write(dir.join("net.json"), "{}").unwrap();
        }
        let lock = File::open(held.join(LOCK_FILE)).unwrap();
        lock.lock().unwrap();
        assert_eq!(remove_abandoned(temporary.path()), vec![left.clone()]);
        assert!(!left.exists());
        assert!(held.join("net.json").exists(), "in use: kept");
        assert!(foreign.exists(), "not ours: kept");
        drop(lock);
        assert_eq!(remove_abandoned(temporary.path()), vec![held.clone()]);
    }

    #[test]
    fn a_folder_without_a_lock_file_is_removed_only_once_old() {
        let temporary = temporary();
        let young = temporary.path().join(format!("{PREFIX}young"));
        std::fs::create_dir(&young).unwrap();
        assert!(remove_abandoned(temporary.path()).is_empty());
        assert!(young.exists());
        let old = SystemTime::now() - ABANDONED_AFTER - Duration::from_secs(60);
        File::open(&young).unwrap().set_modified(old).unwrap();
        assert_eq!(remove_abandoned(temporary.path()), vec![young.clone()]);
    }

    #[test]
    fn a_folder_in_use_is_kept_by_a_clean_up_and_removed_when_dropped() {
        let temporary = temporary();
        let folder = DownloadFolder::create_in(temporary.path()).unwrap();
        let path = folder.path().to_path_buf();
        assert!(remove_abandoned(temporary.path()).is_empty());
        assert!(path.join(LOCK_FILE).exists());
        drop(folder);
        assert!(!path.exists());
    }
}
