//! `cargo xtask new-migration NAME`: creates the same empty, timestamped migration
//! directory for SQLite and PostgreSQL.

use std::fs;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::project_root;

const BACKENDS: [(&str, &str); 2] = [("sqlite", "SQLite"), ("postgres", "PostgreSQL")];

pub fn run(name: &str) -> Result<(), String> {
    validate_name(name)?;
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_err(|e| format!("system clock before 1970: {e}"))?
        .as_secs();
    let dir_name = format!("{}_{name}", timestamp(secs));
    let root = project_root().join("migrations");

    // Check both backends before creating anything, so a refusal leaves no half migration.
    for (backend, _) in BACKENDS {
        let dir = root.join(backend);
        if let Some(existing) = existing_with_name(&dir, name)? {
            return Err(format!(
                "a migration named {name:?} already exists: {}",
                dir.join(existing).display()
            ));
        }
    }
    for (backend, label) in BACKENDS {
        let dir = root.join(backend).join(&dir_name);
        // create_dir (not create_dir_all) fails if the directory appeared meanwhile.
        fs::create_dir_all(dir.parent().expect("has parent"))
            .and_then(|()| fs::create_dir(&dir))
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        write(
            &dir.join("up.sql"),
            &format!("-- {name}: write the {label} statements that apply this migration; keep tables and columns identical to the other backend.\n"),
        )?;
        write(
            &dir.join("down.sql"),
            &format!("-- {name}: write the {label} statements that undo everything up.sql does.\n"),
        )?;
        println!("created {}", dir.display());
    }
    Ok(())
}

fn validate_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "invalid migration name {name:?}: use [a-z0-9_]+ (e.g. add_peering_sessions)"
        ))
    }
}

/// The directory in `dir` whose name, after the `<timestamp>_` prefix, is `name`.
fn existing_with_name(dir: &Path, name: &str) -> Result<Option<String>, String> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot list {}: {e}", dir.display())),
    };
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        let file_name = entry.file_name().to_string_lossy().into_owned();
        if file_name.split_once('_').map(|(_, rest)| rest) == Some(name) {
            return Ok(Some(file_name));
        }
    }
    Ok(None)
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `YYYY-MM-DD-HHMMSS` in UTC, the prefix diesel sorts migrations by.
fn timestamp(unix_secs: u64) -> String {
    let days = (unix_secs / 86_400) as i64;
    let rem = unix_secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}-{:02}{:02}{:02}",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// Days since 1970-01-01 to (year, month, day) in the proleptic Gregorian calendar
/// (Howard Hinnant's `civil_from_days`), to avoid a date crate for one line.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // day of era, [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153; // month from March, [0, 11]
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn timestamp_format() {
        // 2024-02-29 13:05:09 UTC
        assert_eq!(
            timestamp(19_782 * 86_400 + 13 * 3600 + 5 * 60 + 9),
            "2024-02-29-130509"
        );
    }

    #[test]
    fn names() {
        assert!(validate_name("add_sessions_2").is_ok());
        for bad in ["", "Add", "add-sessions", "a b", "é"] {
            assert!(validate_name(bad).is_err(), "{bad:?}");
        }
    }
}
