//! Running commands for the server's jobs. A [`Transport`] runs a program with its
//! arguments and standard input, and gives its exit code and output by a deadline:
//! [`Local`] on this host (a process group of its own, a clean environment, killed with the
//! server: [`local`]), and, for routers reached over the network, SSH. What runs never
//! sees the server's environment, and secrets travel on standard input, never on a command
//! line.

mod environment;
pub mod local;
pub mod ssh;
#[cfg(feature = "testing")]
pub mod testing;

use std::process::Command;
use std::time::Duration;

pub use environment::{clean_environment, PASSED_VARIABLES};
pub use local::{run_bounded, Finished, ProcessError};
pub use ssh::{HostKeyCheck, Ssh, SshKey, SshTarget};

/// The most a command may write on its standard output, and on its standard error.
pub const MAX_OUTPUT: u64 = 16 << 20;

/// What a command that ran by its deadline left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ran {
    /// Its exit code; `None` when a signal ended it.
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

impl Ran {
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }

    /// Its standard output as text (invalid UTF-8 replaced).
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// The last `count` lines of its standard error, for messages.
    pub fn stderr_tail(&self, count: usize) -> String {
        last_lines(&self.stderr, count)
    }
}

/// The last `count` lines of a text, such as a command's standard error.
pub fn last_lines(text: &[u8], count: usize) -> String {
    let text = String::from_utf8_lossy(text);
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(count)..].join("\n")
}

/// Why a command gave no [`Ran`].
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    #[error("cannot run {program}: {reason}")]
    Start { program: String, reason: String },
    #[error("{program} did not finish within {} s", .timeout.as_secs())]
    TimedOut { program: String, timeout: Duration },
    #[error(
        "{program} exited, but a process it started outside its process group still held \
         its output open"
    )]
    OutputHeld { program: String },
    #[error("cannot reach {place}: {reason}")]
    Unreachable { place: String, reason: String },
    #[error("{place} refused the credentials: {reason}")]
    Refused { place: String, reason: String },
    #[error("{0}")]
    Other(String),
}

/// A place where commands run.
pub trait Transport: Send + Sync {
    /// Runs `program` with `args`, `input` on its standard input, finished by `timeout`.
    fn run(
        &self,
        program: &str,
        args: &[&str],
        input: &[u8],
        timeout: Duration,
    ) -> Result<Ran, ExecError>;

    /// Where commands run, for messages: `this host`, `ssh netops@edge1:22`.
    fn place(&self) -> String;
}

/// This host: each command in a process group of its own, with a clean environment
/// ([`clean_environment`]), killed at its deadline and with the server.
#[derive(Debug, Clone, Copy, Default)]
pub struct Local;

impl Transport for Local {
    fn run(
        &self,
        program: &str,
        args: &[&str],
        input: &[u8],
        timeout: Duration,
    ) -> Result<Ran, ExecError> {
        let mut command = Command::new(program);
        command.args(args).env_clear().envs(clean_environment());
        let finished = run_bounded(&mut command, input.to_vec(), timeout, MAX_OUTPUT)
            .map_err(|e| local_error(e, program, timeout))?;
        Ok(Ran {
            code: finished.status.code(),
            stdout: finished.stdout,
            stderr: finished.stderr,
        })
    }

    fn place(&self) -> String {
        "this host".into()
    }
}

fn local_error(error: ProcessError, program: &str, timeout: Duration) -> ExecError {
    let program = program.to_string();
    match error {
        ProcessError::Start(e) => ExecError::Start {
            program,
            reason: e.to_string(),
        },
        ProcessError::TimedOut => ExecError::TimedOut { program, timeout },
        ProcessError::OutputHeld => ExecError::OutputHeld { program },
        ProcessError::Wait(e) => ExecError::Other(format!("{program}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_local_command_gets_its_input_and_no_secret_of_the_server() {
        std::env::set_var("PEERING_EXEC_TEST_SECRET", "hunter2");
        let ran = Local
            .run(
                "sh",
                &["-c", "cat; env"],
                b"hello\n",
                Duration::from_secs(10),
            )
            .expect("sh runs");
        let out = ran.stdout_text();
        assert!(ran.success());
        assert!(out.starts_with("hello\n"), "{out}");
        assert!(!out.contains("hunter2"), "{out}");
    }

    #[test]
    fn a_local_command_that_hangs_ends_at_its_deadline() {
        let error = Local
            .run("sleep", &["30"], b"", Duration::from_millis(200))
            .expect_err("sleep outlives its deadline");
        assert!(matches!(error, ExecError::TimedOut { .. }), "{error}");
    }

    #[test]
    fn a_missing_program_is_named() {
        let error = Local
            .run("no-such-program-here", &[], b"", Duration::from_secs(5))
            .expect_err("nothing to run");
        assert!(
            error.to_string().contains("no-such-program-here"),
            "{error}"
        );
    }
}
