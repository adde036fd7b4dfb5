//! Commands on another host over SSH ([`Ssh`]), as operators reach routers: one session
//! per command, authenticated by a private key, with the server's host key checked against
//! a pinned key or a known_hosts file ([`HostKeyCheck`]) before anything is sent.
//!
//! The program and its arguments are sent as one command line, each single-quoted, for
//! the remote user's POSIX shell (`sh -c`, as sshd runs every command) to hand over
//! verbatim. No environment variable, terminal or agent is requested: the command sees
//! only what sshd gives it. Secrets (the key, its passphrase) never appear in a message,
//! an error or [`Debug`] output.
//!
//! The client (russh) is asynchronous: each [`Transport::run`] makes a small
//! current-thread tokio runtime of its own and blocks on it, on the calling thread, or on a
//! thread of its own when the caller is itself inside a tokio runtime. Calls may be made
//! from any thread, at the same time.

mod hostkey;
mod quote;
mod session;

use std::fmt;
use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use russh::keys::{PrivateKey, PublicKey};

use crate::{ExecError, Ran, Transport};

pub use quote::{command_line, quote};

/// The port SSH listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 22;

/// How long connecting, the SSH handshake and authentication may take, unless told.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The private key a session authenticates with. Its [`Debug`] never shows the key or the
/// passphrase.
#[derive(Clone)]
pub enum SshKey {
    /// The key's text: OpenSSH (`-----BEGIN OPENSSH PRIVATE KEY-----`), PEM or PuTTY.
    Text {
        text: String,
        passphrase: Option<String>,
    },
    /// A file holding such a key.
    File {
        path: PathBuf,
        passphrase: Option<String>,
    },
}

impl fmt::Debug for SshKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hidden = |p: &Option<String>| if p.is_some() { "<hidden>" } else { "none" };
        match self {
            SshKey::Text { passphrase, .. } => f
                .debug_struct("Text")
                .field("text", &"<hidden>")
                .field("passphrase", &hidden(passphrase))
                .finish(),
            SshKey::File { path, passphrase } => f
                .debug_struct("File")
                .field("path", path)
                .field("passphrase", &hidden(passphrase))
                .finish(),
        }
    }
}

/// Which host keys are trusted. There is no rule that trusts any key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum HostKeyCheck {
    /// Only these keys: OpenSSH public key lines (`ssh-ed25519 AAAA… comment`), one per
    /// line; a known_hosts line (`host ssh-ed25519 AAAA…`) is read too.
    Pinned(String),
    /// The keys this known_hosts file lists for the host (OpenSSH's format).
    KnownHostsFile(PathBuf),
    /// `$HOME/.ssh/known_hosts` of the user the server runs as.
    #[default]
    UserKnownHosts,
}

/// Where and as whom commands run. Its [`Debug`] hides the key.
#[derive(Debug, Clone)]
pub struct SshTarget {
    pub host: String,
    /// 22 ([`DEFAULT_PORT`]) unless told otherwise.
    pub port: u16,
    pub user: String,
    pub key: SshKey,
    pub host_key: HostKeyCheck,
    /// Bounds connecting, the handshake and authentication together.
    pub connect_timeout: Duration,
}

impl SshTarget {
    /// `user@host:22`, host keys from the server user's known_hosts, connected within
    /// [`DEFAULT_CONNECT_TIMEOUT`].
    pub fn new(host: impl Into<String>, user: impl Into<String>, key: SshKey) -> Self {
        SshTarget {
            host: host.into(),
            port: DEFAULT_PORT,
            user: user.into(),
            key,
            host_key: HostKeyCheck::default(),
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
        }
    }
}

/// The trusted host keys, resolved once.
#[derive(Debug)]
enum Trust {
    Pinned(Vec<PublicKey>),
    KnownHosts(PathBuf),
}

impl Trust {
    /// Accepts `offered` for `host`:`port`, or says why not.
    fn check(&self, host: &str, port: u16, offered: &PublicKey) -> Result<(), String> {
        match self {
            Trust::Pinned(keys) => hostkey::check_pinned(keys, offered),
            Trust::KnownHosts(path) => hostkey::check_known_hosts(path, host, port, offered),
        }
    }
}

/// A host reached over SSH: each command in a session of its own, ended at its deadline
/// (see the [module](self)).
pub struct Ssh {
    host: String,
    port: u16,
    user: String,
    key: Arc<PrivateKey>,
    trust: Arc<Trust>,
    connect_timeout: Duration,
}

impl fmt::Debug for Ssh {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ssh")
            .field("place", &self.place())
            .field("key", &hostkey::describe(self.key.public_key()))
            .field("trust", &self.trust)
            .field("connect_timeout", &self.connect_timeout)
            .finish()
    }
}

impl Ssh {
    /// Reads the key (and the pinned host keys) now, so that a bad setting fails here
    /// rather than in each command. The error names no secret.
    pub fn new(target: SshTarget) -> Result<Ssh, ExecError> {
        let place = place(&target.user, &target.host, target.port);
        let invalid = |reason: String| ExecError::Other(format!("{place}: {reason}"));
        let key = read_key(&target.key).map_err(invalid)?;
        let trust = match &target.host_key {
            HostKeyCheck::Pinned(text) => {
                Trust::Pinned(hostkey::parse_pinned(text).map_err(invalid)?)
            }
            HostKeyCheck::KnownHostsFile(path) => Trust::KnownHosts(path.clone()),
            HostKeyCheck::UserKnownHosts => Trust::KnownHosts(user_known_hosts().map_err(invalid)?),
        };
        Ok(Ssh {
            host: target.host,
            port: target.port,
            user: target.user,
            key: Arc::new(key),
            trust: Arc::new(trust),
            connect_timeout: target.connect_timeout,
        })
    }

    /// The public half of the key it authenticates with, as `algorithm SHA256:…`.
    pub fn key_fingerprint(&self) -> String {
        hostkey::describe(self.key.public_key())
    }
}

impl Transport for Ssh {
    fn run(
        &self,
        program: &str,
        args: &[&str],
        input: &[u8],
        timeout: Duration,
    ) -> Result<Ran, ExecError> {
        let command = command_line(program, args);
        block_on(|| session::run(self, program, command, input, timeout))?
    }

    fn place(&self) -> String {
        place(&self.user, &self.host, self.port)
    }
}

fn place(user: &str, host: &str, port: u16) -> String {
    format!("ssh {user}@{host}:{port}")
}

/// The key, decrypted; the reason it cannot be read names neither its text nor its
/// passphrase.
fn read_key(key: &SshKey) -> Result<PrivateKey, String> {
    let read;
    let (text, passphrase) = match key {
        SshKey::Text { text, passphrase } => (text.as_str(), passphrase),
        SshKey::File { path, passphrase } => {
            read = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read the key file {}: {e}", path.display()))?;
            (read.as_str(), passphrase)
        }
    };
    russh::keys::decode_secret_key(text, passphrase.as_deref()).map_err(|e| match e {
        russh::keys::Error::KeyIsEncrypted => {
            "the private key is encrypted, and no passphrase was given".to_string()
        }
        _ => "the private key cannot be read: not an OpenSSH, PEM or PuTTY private key, or \
              a wrong passphrase"
            .to_string(),
    })
}

fn user_known_hosts() -> Result<PathBuf, String> {
    match std::env::var_os("HOME") {
        Some(home) if !home.is_empty() => Ok(PathBuf::from(home).join(".ssh/known_hosts")),
        _ => Err(
            "HOME is not set, so there is no known_hosts file to check the host key \
                  with: pin the host key or name a known_hosts file"
                .into(),
        ),
    }
}

/// Runs the future `make` returns to completion on a current-thread runtime of its own:
/// on this thread, or, if this thread is already in a tokio runtime (where blocking on
/// another is not allowed), on a scoped thread of its own.
fn block_on<F, Fut>(make: F) -> Result<Fut::Output, ExecError>
where
    F: FnOnce() -> Fut + Send,
    Fut: Future,
    Fut::Output: Send,
{
    let run = move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| ExecError::Other(format!("cannot start the SSH client: {e}")))?;
        Ok(runtime.block_on(make()))
    };
    if tokio::runtime::Handle::try_current().is_err() {
        return run();
    }
    std::thread::scope(|scope| {
        scope
            .spawn(run)
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}
