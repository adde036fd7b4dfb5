//! `cargo xtask migrate`: applies migrations through `peeringd migrate`, so that the
//! migrations embedded in the server are the ones applied.

use std::process::{Command, ExitCode};

use crate::{cargo, project_root};

pub fn run(database_url: Option<&str>) -> Result<ExitCode, String> {
    let mut command = Command::new(cargo());
    command
        .args(["run", "-p", "peeringd", "--", "migrate"])
        .current_dir(project_root());
    // Without the flag the child inherits PEERING_DATABASE_URL (or peeringd's default).
    if let Some(url) = database_url {
        command.env("PEERING_DATABASE_URL", url);
    }
    let status = command
        .status()
        .map_err(|e| format!("cannot run {}: {e}", cargo()))?;
    Ok(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        // Exit codes above 255 do not exist on Unix; clamp rather than wrap to 0.
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        None => {
            eprintln!("xtask: peeringd migrate was killed by a signal");
            ExitCode::FAILURE
        }
    })
}
