//! Files on the router's host, read, written and moved through the router's transport
//! (so over SSH as well as here), and the unified diff of a running configuration against
//! a candidate. What a file holds travels on standard input or output, never on a command
//! line.

use std::time::Duration;

use peering_exec::Transport;

use crate::RouterError;

/// How a file written for a router is named beside the configuration file it may replace:
/// in the same directory, so that the configuration's relative includes still resolve.
pub(crate) fn candidate_path(config_file: &str) -> String {
    format!("{config_file}.peeringd-candidate")
}

/// Runs a shell script on the router's host, `args` as its positional parameters.
fn shell(
    transport: &dyn Transport,
    timeout: Duration,
    script: &str,
    args: &[&str],
    input: &[u8],
) -> Result<String, RouterError> {
    let mut argv = vec!["-c", script, "sh"];
    argv.extend_from_slice(args);
    let ran = transport.run("sh", &argv, input, timeout)?;
    if ran.success() {
        Ok(ran.stdout_text())
    } else {
        Err(RouterError::Daemon(format!(
            "on {}: {}",
            transport.place(),
            ran.stderr_tail(5).trim()
        )))
    }
}

/// The text of `path` on the router's host.
pub(crate) fn read(
    transport: &dyn Transport,
    timeout: Duration,
    path: &str,
) -> Result<String, RouterError> {
    shell(transport, timeout, "cat -- \"$1\"", &[path], b"")
}

/// Writes `text` to `path`, with the owner and mode of `like` when it exists (the daemon
/// must be able to read it as it reads its own configuration).
pub(crate) fn write(
    transport: &dyn Transport,
    timeout: Duration,
    path: &str,
    like: &str,
    text: &str,
) -> Result<(), RouterError> {
    let script =
        "rm -f -- \"$1\" && { [ ! -e \"$2\" ] || cp -p -- \"$2\" \"$1\"; } && cat > \"$1\"";
    shell(transport, timeout, script, &[path, like], text.as_bytes()).map(drop)
}

/// Moves `from` over `to`, in one step (same directory).
pub(crate) fn install(
    transport: &dyn Transport,
    timeout: Duration,
    from: &str,
    to: &str,
) -> Result<(), RouterError> {
    shell(
        transport,
        timeout,
        "mv -f -- \"$1\" \"$2\"",
        &[from, to],
        b"",
    )
    .map(drop)
}

/// Removes `path` if it exists.
pub(crate) fn remove(
    transport: &dyn Transport,
    timeout: Duration,
    path: &str,
) -> Result<(), RouterError> {
    shell(transport, timeout, "rm -f -- \"$1\"", &[path], b"").map(drop)
}

/// A configuration written as the candidate beside the running one and checked by the
/// daemon: what a push diffs and, when it commits, runs.
pub(crate) struct Staged {
    /// The configuration file's text before the push.
    pub running: String,
    /// Where the candidate is; removed already unless it is to be committed.
    pub candidate: String,
    pub diff: String,
}

/// Writes `configuration` as the candidate beside `config_file` and has `check` (the
/// daemon) validate it. A refused candidate, or one not to be committed, is removed; a
/// refusal is the error.
pub(crate) fn stage(
    transport: &dyn Transport,
    timeout: Duration,
    config_file: &str,
    configuration: &str,
    commit: bool,
    check: impl FnOnce(&str) -> Result<(), RouterError>,
) -> Result<Staged, RouterError> {
    let running = read(transport, timeout, config_file)?;
    let candidate = candidate_path(config_file);
    write(transport, timeout, &candidate, config_file, configuration)?;
    let checked = check(&candidate);
    if checked.is_err() || !commit {
        remove(transport, timeout, &candidate)?;
    }
    checked?;
    let diff = unified_diff(&running, configuration, config_file);
    Ok(Staged {
        running,
        candidate,
        diff,
    })
}

/// A unified diff, as `diff -u` writes it, from `running` to `candidate`; empty when the
/// texts are equal.
pub(crate) fn unified_diff(running: &str, candidate: &str, name: &str) -> String {
    if running == candidate {
        return String::new();
    }
    similar::TextDiff::from_lines(running, candidate)
        .unified_diff()
        .context_radius(3)
        .header(&format!("{name} (running)"), &format!("{name} (candidate)"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_have_no_diff() {
        assert_eq!(unified_diff("a\nb\n", "a\nb\n", "f"), "");
    }

    #[test]
    fn a_changed_line_is_removed_and_added() {
        let diff = unified_diff("a\nb\nc\n", "a\nB\nc\n", "bird.conf");
        assert!(diff.starts_with("--- bird.conf (running)\n+++ bird.conf (candidate)\n"));
        assert!(diff.contains("\n-b\n+B\n"), "{diff}");
    }
}
