//! The programs the harness runs beside peeringd (wrk, nginx), installed from Debian's
//! packages with apt-get when missing.

use std::process::{Command, Stdio};

/// Whether `program` can be spawned (its exit status does not matter: `wrk` without
/// arguments prints its usage and fails).
fn present(program: &str, probe: &[&str]) -> bool {
    Command::new(program)
        .args(probe)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// Makes sure `program` runs (spawned with `probe`), installing Debian's `package` if not.
pub fn ensure(program: &str, probe: &[&str], package: &str) -> Result<(), String> {
    if present(program, probe) {
        return Ok(());
    }
    eprintln!("{program} is not on PATH; installing it with apt-get…");
    let apt = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .stdin(Stdio::null())
            // Our stdout is the report.
            .stdout(std::io::stderr())
            .status()
            .is_ok_and(|s| s.success())
    };
    // The package lists may be missing or stale (e.g. in a fresh container).
    let install = ["install", "-y", package];
    let installed = apt(&install) || (apt(&["update"]) && apt(&install));
    if installed && present(program, probe) {
        Ok(())
    } else {
        Err(format!(
            "{program} is needed and `apt-get install -y {package}` failed: install it and retry"
        ))
    }
}
