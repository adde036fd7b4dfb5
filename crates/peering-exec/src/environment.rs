//! The environment a child receives: a few harmless variables of the server's, never the
//! rest, since the server's environment holds secrets (the database URL and its password,
//! the PeeringDB API key).

use std::ffi::OsString;

/// The variables of the server's environment a child receives, when set
/// (docs/router-command.md).
pub const PASSED_VARIABLES: [&str; 7] =
    ["PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR"];

/// A child's `PATH` when the server has none.
const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// A child's whole environment: the [`PASSED_VARIABLES`] the server has, and a `PATH`.
pub fn clean_environment() -> Vec<(&'static str, OsString)> {
    let mut environment: Vec<_> = PASSED_VARIABLES
        .iter()
        .filter_map(|name| std::env::var_os(name).map(|value| (*name, value)))
        .collect();
    if !environment.iter().any(|(name, _)| *name == "PATH") {
        environment.push(("PATH", DEFAULT_PATH.into()));
    }
    environment
}
