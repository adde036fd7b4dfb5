//! A throw-away database per benchmark run: a SQLite file in a fresh temp directory, or a
//! fresh PostgreSQL database; both are removed when the guard is dropped.

use std::hash::{BuildHasher, Hasher};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use super::Backend;

const DEFAULT_POSTGRES_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";

pub enum Database {
    Sqlite {
        dir: PathBuf,
        url: String,
    },
    Postgres {
        admin_url: String,
        name: String,
        url: String,
    },
}

impl Database {
    pub fn create(backend: Backend) -> Result<Self, String> {
        let suffix = format!("{:016x}", random_u64());
        match backend {
            Backend::Sqlite => {
                let dir = std::env::temp_dir().join(format!("peeringd-bench-{suffix}"));
                std::fs::create_dir_all(&dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                let url = format!("sqlite://{}", dir.join("bench.sqlite3").display());
                Ok(Database::Sqlite { dir, url })
            }
            Backend::Postgres => {
                let admin_url = std::env::var("PEERING_BENCH_POSTGRES_URL")
                    .unwrap_or_else(|_| DEFAULT_POSTGRES_URL.into());
                let name = format!("bench_{suffix}");
                psql(&admin_url, &format!("CREATE DATABASE {name}")).map_err(|e| {
                    format!("{e}\n(set PEERING_BENCH_POSTGRES_URL to a server where you may create databases)")
                })?;
                let url = with_database(&admin_url, &name)?;
                Ok(Database::Postgres {
                    admin_url,
                    name,
                    url,
                })
            }
        }
    }

    /// Brings a freshly loaded PostgreSQL database to the state its autovacuum daemon
    /// reaches by itself shortly after a bulk load: tables vacuumed (the visibility map set,
    /// so index-only scans read no table pages) and analysed (statistics for the planner).
    /// Done here because the daemon's timing is not the run's, and a server may have it off.
    /// Then a checkpoint, so that no scenario pays for writing the load out. SQLite keeps
    /// no such state. Says what was done, for the report.
    pub fn settle(&self) -> Result<Option<String>, String> {
        match self {
            Database::Sqlite { .. } => Ok(None),
            Database::Postgres { url, .. } => {
                psql(url, "VACUUM (ANALYZE)")?;
                // The load's pages, and the vacuum's, are written out now: left to the next
                // checkpoint, they were written during whichever scenarios it fell in. A
                // role that may not (not a superuser, nor `pg_checkpoint`) leaves them.
                let checkpoint = match psql(url, "CHECKPOINT") {
                    Ok(_) => "then `CHECKPOINT`".to_string(),
                    Err(e) => format!("no `CHECKPOINT` ({})", e.trim()),
                };
                let autovacuum = psql_value(url, "SHOW autovacuum")?;
                Ok(Some(format!(
                    "`VACUUM (ANALYZE)`, as autovacuum would do (on this server: `autovacuum = {autovacuum}`), {checkpoint}"
                )))
            }
        }
    }

    pub fn url(&self) -> &str {
        match self {
            Database::Sqlite { url, .. } | Database::Postgres { url, .. } => url,
        }
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        let result = match self {
            Database::Sqlite { dir, .. } => std::fs::remove_dir_all(&*dir)
                .map_err(|e| format!("cannot remove {}: {e}", dir.display())),
            // FORCE: a server killed a moment ago may still hold connections.
            Database::Postgres {
                admin_url, name, ..
            } => psql(
                admin_url,
                &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
            ),
        };
        if let Err(e) = result {
            eprintln!("xtask: warning: cleanup failed: {e}");
        }
    }
}

fn psql(url: &str, sql: &str) -> Result<(), String> {
    let output = Command::new("psql")
        .args([url, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run psql: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "psql -c {sql:?} failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}

/// The single value a query gives.
fn psql_value(url: &str, sql: &str) -> Result<String, String> {
    let output = Command::new("psql")
        .args([url, "-v", "ON_ERROR_STOP=1", "-At", "-c", sql])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run psql: {e}"))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
    } else {
        Err(format!(
            "psql -c {sql:?} failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}

/// `url` with its database (the path) replaced by `name`, keeping user, host and query.
fn with_database(url: &str, name: &str) -> Result<String, String> {
    let authority_start = url
        .find("://")
        .map(|i| i + 3)
        .ok_or_else(|| format!("not a URL: {url:?}"))?;
    let after = &url[authority_start..];
    let authority_end = after.find(['/', '?']).unwrap_or(after.len());
    let rest = &after[authority_end..];
    let query = rest.find('?').map_or("", |q| &rest[q..]);
    Ok(format!(
        "{}{}/{name}{query}",
        &url[..authority_start],
        &after[..authority_end]
    ))
}

/// A random number from the standard library's per-process random hash keys, enough to
/// keep concurrent runs' database names apart without a `rand` dependency.
pub fn random_u64() -> u64 {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_database_name() {
        assert_eq!(
            with_database("postgres://postgres@127.0.0.1:5432/postgres", "bench_1").unwrap(),
            "postgres://postgres@127.0.0.1:5432/bench_1"
        );
        assert_eq!(
            with_database("postgresql://u:p@db/x?sslmode=disable", "b").unwrap(),
            "postgresql://u:p@db/b?sslmode=disable"
        );
        assert_eq!(
            with_database("postgres://h:5432", "b").unwrap(),
            "postgres://h:5432/b"
        );
        assert_eq!(
            with_database("postgresql://?host=/run/postgresql", "b").unwrap(),
            "postgresql:///b?host=/run/postgresql"
        );
        assert!(with_database("nonsense", "b").is_err());
    }
}
