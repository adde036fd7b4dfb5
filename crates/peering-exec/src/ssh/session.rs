//! One command in one SSH session: connect and authenticate within the connect timeout,
//! exec, feed standard input while collecting the output, and at the deadline kill the
//! remote command (a `signal` request: sshd sends SIGKILL to the command's process group)
//! and close the connection.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use russh::client::{self, Handle, Msg};
use russh::keys::{PrivateKeyWithHashAlg, PublicKeyOrCertificate};
use russh::{Channel, ChannelMsg, ChannelReadHalf, ChannelWriteHalf, Disconnect, Sig};
use tokio::net::TcpStream;
use tokio::time::{timeout_at, Instant};

use super::{hostkey, Ssh, Trust};
use crate::{ExecError, Ran, MAX_OUTPUT};

/// How long, after the deadline, the server is given to confirm the kill and the
/// connection to close.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// How long, after the command's exit status, its output may stay open. Longer than the
/// local one: the last output and the close may still be on their way over the network.
const HELD_GRACE: Duration = Duration::from_secs(2);

/// Runs `command` (already quoted) with `input` on its standard input, by `timeout`.
pub async fn run(
    ssh: &Ssh,
    program: &str,
    command: String,
    input: &[u8],
    timeout: Duration,
) -> Result<Ran, ExecError> {
    let start = Instant::now();
    let deadline = start + timeout;
    let connect_by = deadline.min(start + ssh.connect_timeout);
    let timed_out = || ExecError::TimedOut {
        program: program.to_string(),
        timeout,
    };
    let handle = match timeout_at(connect_by, connect(ssh)).await {
        Ok(handle) => handle?,
        Err(_) if connect_by == deadline => return Err(timed_out()),
        Err(_) => {
            return Err(unreachable(
                ssh,
                format!(
                    "no SSH session within {} s (connect, handshake, authentication)",
                    ssh.connect_timeout.as_secs_f32()
                ),
            ))
        }
    };
    let channel = match timeout_at(deadline, open_and_exec(ssh, &handle, command)).await {
        Ok(channel) => channel?,
        Err(_) => {
            close(handle).await;
            return Err(timed_out());
        }
    };
    let (mut read, write) = channel.split();
    let write = Arc::new(write);
    let feeder = tokio::spawn(feed(Arc::clone(&write), input.to_vec()));
    let outcome = timeout_at(deadline, collect(ssh, program, &mut read)).await;
    feeder.abort();
    if outcome.is_err() {
        stop(&write, &mut read).await;
    }
    close(handle).await;
    outcome.map_err(|_| timed_out())?
}

/// Opens a session channel and starts `command` in it.
async fn open_and_exec(
    ssh: &Ssh,
    handle: &Handle<Checker>,
    command: String,
) -> Result<Channel<Msg>, ExecError> {
    let channel = handle
        .channel_open_session()
        .await
        .map_err(|e| unreachable(ssh, format!("cannot open a session: {e}")))?;
    channel
        .exec(true, command)
        .await
        .map_err(|e| unreachable(ssh, format!("cannot start the command: {e}")))?;
    Ok(channel)
}

/// Connects, checks the host key and authenticates.
async fn connect(ssh: &Ssh) -> Result<Handle<Checker>, ExecError> {
    let stream = TcpStream::connect((ssh.host.as_str(), ssh.port))
        .await
        .map_err(|e| unreachable(ssh, e.to_string()))?;
    // Nagle's delay would hold back the small packets of a command's exchange.
    let _ = stream.set_nodelay(true);
    let checker = Checker {
        trust: Arc::clone(&ssh.trust),
        host: ssh.host.clone(),
        port: ssh.port,
        rejection: Arc::default(),
    };
    let rejection = Arc::clone(&checker.rejection);
    let config = Arc::new(client::Config::default());
    let mut handle = match client::connect_stream(config, stream, checker).await {
        Ok(handle) => handle,
        Err(e) => {
            let rejected = rejection
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            return Err(match rejected {
                Some(reason) => refused(ssh, reason),
                None => unreachable(ssh, format!("SSH handshake failed: {e}")),
            });
        }
    };
    authenticate(ssh, &mut handle).await?;
    Ok(handle)
}

async fn authenticate(ssh: &Ssh, handle: &mut Handle<Checker>) -> Result<(), ExecError> {
    let lost = |e: russh::Error| unreachable(ssh, format!("authentication failed: {e}"));
    let hash = handle
        .best_supported_rsa_hash()
        .await
        .map_err(lost)?
        .flatten();
    let key = PrivateKeyWithHashAlg::new(Arc::clone(&ssh.key), hash);
    let result = handle
        .authenticate_publickey(ssh.user.as_str(), key)
        .await
        .map_err(lost)?;
    if result.success() {
        return Ok(());
    }
    Err(refused(
        ssh,
        format!(
            "user {} with the key {} was not accepted",
            ssh.user,
            ssh.key_fingerprint()
        ),
    ))
}

/// Writes the command's standard input, then its end.
async fn feed(write: Arc<ChannelWriteHalf<Msg>>, input: Vec<u8>) -> Result<(), russh::Error> {
    if !input.is_empty() {
        write.data_bytes(input).await?;
    }
    write.eof().await
}

/// Reads the command's output and exit status until the channel closes, which sshd does
/// once the command has exited and its output is closed. Output still held open
/// [`HELD_GRACE`] after the exit (by a process the command left behind) is
/// [`ExecError::OutputHeld`]; that process is not killed: sshd forgets the command's
/// process group once it has exited, and takes no `signal` request for it.
async fn collect(ssh: &Ssh, program: &str, read: &mut ChannelReadHalf) -> Result<Ran, ExecError> {
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let mut status = None;
    let mut held_by = None;
    loop {
        let message = match held_by {
            None => read.wait().await,
            Some(by) => timeout_at(by, read.wait())
                .await
                .map_err(|_| ExecError::OutputHeld {
                    program: program.to_string(),
                })?,
        };
        match message {
            Some(ChannelMsg::Data { data }) => keep(&mut stdout, &data),
            Some(ChannelMsg::ExtendedData { data, ext: 1 }) => keep(&mut stderr, &data),
            Some(ChannelMsg::ExitStatus { exit_status }) => {
                status = Some(i32::try_from(exit_status).ok());
            }
            Some(ChannelMsg::ExitSignal { .. }) => status = Some(None),
            Some(ChannelMsg::Failure) => {
                return Err(refused(ssh, "the server refused to run the command".into()))
            }
            Some(ChannelMsg::Close) | None => break,
            Some(_) => {}
        }
        if status.is_some() && held_by.is_none() {
            held_by = Some(Instant::now() + HELD_GRACE);
        }
    }
    let Some(code) = status else {
        return Err(unreachable(
            ssh,
            "the session ended without the command's exit status".into(),
        ));
    };
    Ok(Ran {
        code,
        stdout,
        stderr,
    })
}

/// Appends what fits within [`MAX_OUTPUT`]; the rest is read and dropped.
fn keep(buffer: &mut Vec<u8>, data: &[u8]) {
    let room = usize::try_from(MAX_OUTPUT)
        .unwrap_or(usize::MAX)
        .saturating_sub(buffer.len());
    buffer.extend_from_slice(&data[..data.len().min(room)]);
}

/// Kills the command's process group (sshd's `signal` request) and closes the channel,
/// waiting a little for the server to confirm.
async fn stop(write: &ChannelWriteHalf<Msg>, read: &mut ChannelReadHalf) {
    let _ = write.signal(Sig::KILL).await;
    let by = Instant::now() + STOP_GRACE;
    let _ = timeout_at(by, async {
        while let Some(message) = read.wait().await {
            if matches!(message, ChannelMsg::ExitSignal { .. } | ChannelMsg::Close) {
                break;
            }
        }
    })
    .await;
    let _ = write.close().await;
}

/// Says goodbye and waits, briefly, for the connection to end, so that what was sent
/// last (the kill, the close) reaches the server before the runtime is dropped.
async fn close(handle: Handle<Checker>) {
    let _ = handle.disconnect(Disconnect::ByApplication, "", "en").await;
    let _ = tokio::time::timeout(STOP_GRACE, handle).await;
}

fn unreachable(ssh: &Ssh, reason: String) -> ExecError {
    ExecError::Unreachable {
        place: super::Transport::place(ssh),
        reason,
    }
}

fn refused(ssh: &Ssh, reason: String) -> ExecError {
    ExecError::Refused {
        place: super::Transport::place(ssh),
        reason,
    }
}

/// The client's side of the handshake: trusts the server's key only by [`Trust`], keeping
/// the reason for a refusal.
struct Checker {
    trust: Arc<Trust>,
    host: String,
    port: u16,
    rejection: Arc<Mutex<Option<String>>>,
}

impl client::Handler for Checker {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        offered: &PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        let verdict = match offered {
            PublicKeyOrCertificate::PublicKey { key, .. } => {
                self.trust.check(&self.host, self.port, key)
            }
            PublicKeyOrCertificate::Certificate(certificate) => Err(format!(
                "it offers a host certificate (key {}); certificates are not accepted: pin \
                 the host key instead",
                hostkey::describe(&certificate.public_key().clone().into())
            )),
        };
        match verdict {
            Ok(()) => Ok(true),
            Err(reason) => {
                *self
                    .rejection
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner) = Some(reason);
                Ok(false)
            }
        }
    }
}
