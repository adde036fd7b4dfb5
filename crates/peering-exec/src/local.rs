//! Processes started on this host: each runs in a process group of its own,
//! which is killed at its deadline and as soon as it exits (what it left behind must not
//! hold its pipes, nor outlive its job), and dies with the server. The job ends by its
//! deadline whatever the processes it started do: output still held open by a process
//! that left the group is given up on, never waited for.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, WaitId, WaitIdOptions};

/// How long the output is waited for past the deadline once the group is killed: the
/// pipes close as its processes die, within moments.
const OUTPUT_GRACE: Duration = Duration::from_millis(250);

/// How often a running process is looked at.
const POLL: Duration = Duration::from_millis(10);

/// A process that ended by its deadline: its exit status and what it wrote.
#[derive(Debug)]
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Why a process gave no [`Finished`].
#[derive(Debug)]
pub enum ProcessError {
    /// It could not be started.
    Start(std::io::Error),
    /// It was still running at its deadline; its whole group was killed.
    TimedOut,
    /// It exited, but its output was still held open at the deadline by a process it
    /// started outside its group (which is left alone: it is not ours to find).
    OutputHeld,
    /// Waiting for it failed.
    Wait(std::io::Error),
}

/// Runs `command` with `input` on its standard input and reads at most `max_output` bytes
/// of each of its standard output and error (the rest is drained), until `timeout` from
/// now. Its standard streams are set here; its arguments and environment are the caller's.
pub fn run_bounded(
    command: &mut Command,
    input: Vec<u8>,
    timeout: Duration,
    max_output: u64,
) -> Result<Finished, ProcessError> {
    let deadline = Instant::now() + timeout;
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    dies_with_this_process(command);
    let mut child = command.spawn().map_err(ProcessError::Start)?;
    let stdout = child
        .stdout
        .take()
        .map(|o| read_in_background(o, max_output));
    let stderr = child
        .stderr
        .take()
        .map(|e| read_in_background(e, max_output));
    if let Some(stdin) = child.stdin.take() {
        write_in_background(stdin, input);
    }
    let exited = exited_by(&child, deadline);
    // The leader is not reaped yet, so its id still names its group and nothing else.
    kill_group(&child);
    let status = child.wait().map_err(ProcessError::Wait)?;
    match exited {
        Ok(true) => {}
        Ok(false) => return Err(ProcessError::TimedOut),
        Err(e) => return Err(ProcessError::Wait(e)),
    }
    let collect_by = deadline.max(Instant::now()) + OUTPUT_GRACE;
    Ok(Finished {
        status,
        stdout: collected(stdout, collect_by)?,
        stderr: collected(stderr, collect_by)?,
    })
}

/// Kills the group the child leads (its leftovers on exit, everything at the deadline).
fn kill_group(child: &Child) {
    let group = Pid::from_child(child);
    // No such group: every process of it has already ended.
    let _ = rustix::process::kill_process_group(group, Signal::KILL);
}

/// Whether the child exited before `deadline`, leaving it unreaped (`WNOWAIT`).
fn exited_by(child: &Child, deadline: Instant) -> std::io::Result<bool> {
    let pid = Pid::from_child(child);
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    loop {
        if rustix::process::waitid(WaitId::Pid(pid), options)?.is_some() {
            return Ok(true);
        }
        let now = Instant::now();
        if now >= deadline {
            return Ok(false);
        }
        std::thread::sleep(POLL.min(deadline - now));
    }
}

/// Makes the command receive SIGKILL when the thread that starts it ends, which is when
/// this process dies: a job's worker thread waits for its command, so the command never
/// outlives its job for long, even if the server is killed. Linux only.
fn dies_with_this_process(command: &mut Command) {
    let parent = rustix::process::getpid();
    let hook = move || -> std::io::Result<()> {
        rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
        // The server may have died between the fork and the line above: no signal would
        // come then, so the command does not start.
        if rustix::process::getppid() != Some(parent) {
            return Err(rustix::io::Errno::SRCH.into());
        }
        Ok(())
    };
    // SAFETY: the hook runs in the child between fork and exec, where only
    // async-signal-safe work is allowed: it makes two system calls (prctl, getppid) and
    // allocates nothing (its error is a raw OS error). This is the one place the crate
    // allows `unsafe` (Cargo.toml): std marks `pre_exec` so.
    #[allow(unsafe_code)]
    unsafe {
        command.pre_exec(hook);
    }
}

type Output = mpsc::Receiver<Vec<u8>>;

/// Reads a pipe to its end on a thread of its own; what it read arrives on the receiver.
fn read_in_background(mut pipe: impl Read + Send + 'static, max: u64) -> Output {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buffer = Vec::new();
        let _ = (&mut pipe).take(max).read_to_end(&mut buffer);
        // Whatever is left is drained so that the process never blocks on a full pipe.
        let _ = std::io::copy(&mut pipe, &mut std::io::sink());
        // Nobody waits any more when the output was given up on.
        let _ = sender.send(buffer);
    });
    receiver
}

/// Writes the input on a thread of its own: a process that does not read it must not
/// stop the wait for its deadline (the write fails once the process is killed).
fn write_in_background(mut stdin: impl Write + Send + 'static, input: Vec<u8>) {
    std::thread::spawn(move || {
        // A process that does not read its input is its own business.
        let _ = stdin.write_all(&input);
    });
}

/// What a reader collected, if its pipe reached its end by `until`.
fn collected(output: Option<Output>, until: Instant) -> Result<Vec<u8>, ProcessError> {
    let Some(output) = output else {
        return Ok(Vec::new());
    };
    let wait = until.saturating_duration_since(Instant::now());
    output
        .recv_timeout(wait)
        .map_err(|_| ProcessError::OutputHeld)
}
