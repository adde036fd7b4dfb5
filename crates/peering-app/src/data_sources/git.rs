//! A Git source, through gix: a local repository read where it is; one over HTTP(S)
//! fetched into a temporary bare repository (depth one, no working tree, so nothing is
//! checked out and no hook exists to run). The files of the commit its branch (or HEAD)
//! names are read from the object database, each checked against the limits before it
//! is read. The fetch runs on its own thread under a deadline, stopped when the deadline
//! passes or the download grows past the limits. Credentials from the source's
//! `parameters` go to the source's own origin only, over HTTPS or over plain HTTP to a
//! loopback address, and redirects are not followed.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use super::files::{Found, Limits};
use super::SyncError;

/// What the source's `parameters` say about the repository.
#[derive(Debug, Clone, Default)]
pub(super) struct GitParameters {
    pub username: Option<String>,
    pub password: Option<String>,
    pub branch: Option<String>,
}

impl GitParameters {
    pub(super) fn of(parameters: &serde_json::Value) -> GitParameters {
        let text = |name: &str| {
            parameters
                .get(name)
                .and_then(serde_json::Value::as_str)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        };
        GitParameters {
            username: text("username"),
            password: text("password"),
            branch: text("branch"),
        }
    }
}

/// Reads the files of the repository `url` names into `found`: a local repository (a
/// path or `file://`) read where it is, one over HTTP(S) fetched into a temporary
/// directory first. Other transports (SSH, `git://`) would run programs: refused.
pub(super) fn read_repository(
    url: &str,
    parameters: GitParameters,
    found: &mut Found<'_>,
    deadline: Instant,
) -> Result<(), SyncError> {
    let scheme = url
        .split_once("://")
        .map(|(scheme, _)| scheme.to_ascii_lowercase());
    match scheme.as_deref() {
        None | Some("file") => {
            let path = super::files::local_path(url);
            let repo = open(Path::new(path))?;
            read_commit(&repo, parameters.branch.as_deref(), found)
        }
        Some("http" | "https") => {
            if parameters.username.is_some() && !may_carry_an_account(url) {
                return Err(SyncError::Fetch(
                    "A username and password are sent over HTTPS only (or over HTTP to this \
                     machine's loopback address): use an https:// URL"
                        .into(),
                ));
            }
            let dir = tempfile::tempdir()
                .map_err(|e| SyncError::Fetch(format!("temporary directory: {e}")))?;
            let limits = *found.limits();
            // The clone's HEAD is the branch asked for.
            let repo = fetch_bounded(url, parameters, dir.path(), &limits, deadline)?;
            read_commit(&repo, None, found)
        }
        Some(other) => Err(SyncError::Fetch(format!(
            "Git sources are read over HTTP(S) or from a local path, not {other}://"
        ))),
    }
}

/// The fetch on a thread of its own, stopped past the deadline or the size limit.
fn fetch_bounded(
    url: &str,
    parameters: GitParameters,
    into: &Path,
    limits: &Limits,
    deadline: Instant,
) -> Result<gix::Repository, SyncError> {
    let max_bytes = limits.max_total_bytes;
    let interrupt = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let (url_owned, into_owned, flag) = (url.to_string(), into.to_path_buf(), interrupt.clone());
    std::thread::Builder::new()
        .name("git-fetch".into())
        .spawn(move || {
            let result = fetch(&url_owned, &parameters, &into_owned, &flag);
            // The receiver may have given up on it already.
            let _ = tx.send(result);
        })
        .map_err(|e| SyncError::Fetch(format!("cannot start the fetch: {e}")))?;
    loop {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(result) => return result.and_then(|()| open(into)),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(SyncError::Fetch("the fetch ended without an answer".into()))
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        let stop = if Instant::now() > deadline {
            Some(SyncError::TimedOut(limits.timeout))
        } else if size_of(into) > max_bytes {
            Some(SyncError::TooLarge(format!(
                "the repository is more than the {max_bytes} bytes a source may hold"
            )))
        } else {
            None
        };
        if let Some(error) = stop {
            interrupt.store(true, Ordering::Relaxed);
            return Err(error);
        }
    }
}

/// The repository at `path`, its configuration isolated from the machine's.
fn open(path: &Path) -> Result<gix::Repository, SyncError> {
    gix::open_opts(path, gix::open::Options::isolated())
        .map_err(|e| SyncError::Fetch(format!("No Git repository at {}: {e}", path.display())))
}

/// The bytes of the files under `dir`.
fn size_of(dir: &Path) -> u64 {
    let mut total = 0;
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            match entry.metadata() {
                Ok(meta) if meta.is_dir() => pending.push(entry.path()),
                Ok(meta) => total += meta.len(),
                Err(_) => {}
            }
        }
    }
    total
}

/// A bare clone of depth one, its configuration isolated from the machine's (no system or
/// user configuration, no environment, no credential helper, no prompt).
fn fetch(
    url: &str,
    parameters: &GitParameters,
    into: &Path,
    interrupt: &AtomicBool,
) -> Result<(), SyncError> {
    let failed =
        |e: gix::Error| SyncError::Fetch(format!("Fetching remote data failed: {}", causes(&e)));
    // reqwest's rustls takes the process's provider: ring, as the rest of peeringd uses.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let open = gix::open::Options::isolated().config_overrides(["http.followRedirects=false"]);
    let mut prepare = gix::clone::PrepareFetch::new(
        url,
        into,
        gix::create::Kind::Bare,
        gix::create::Options::default(),
        open,
    )
    .map_err(failed)?
    .with_shallow(gix::remote::fetch::Shallow::DepthAtRemote(
        std::num::NonZeroU32::MIN,
    ));
    if let Some(branch) = &parameters.branch {
        prepare = prepare
            .with_ref_name(Some(branch.as_str()))
            .map_err(failed)?;
    }
    let origin = origin_of(url);
    let account = match (&parameters.username, &parameters.password) {
        (Some(user), password) => Some((user.clone(), password.clone().unwrap_or_default())),
        _ => None,
    };
    prepare = prepare.configure_connection(move |connection| {
        let (origin, account) = (origin.clone(), account.clone());
        connection.set_credentials(move |action| credentials(&origin, account.as_ref(), action));
        Ok(())
    });
    prepare
        .fetch_only(gix::progress::Discard, interrupt)
        .map_err(failed)?;
    Ok(())
}

/// An error with its causes, each once: gix's outer errors ("Transport handshake failed")
/// do not say what went wrong.
fn causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let said = cause.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        source = cause.source();
    }
    text
}

/// Whether an account may travel to `url`: over HTTPS, or over plain HTTP to this machine
/// (`localhost` or a loopback address), where it crosses no network.
fn may_carry_an_account(url: &str) -> bool {
    let Ok(parsed) = gix::url::parse(gix::bstr::BStr::new(url)) else {
        return false;
    };
    let host = parsed.host().unwrap_or_default().to_ascii_lowercase();
    let address = host.trim_start_matches('[').trim_end_matches(']');
    match parsed.scheme {
        gix::url::Scheme::Https => true,
        gix::url::Scheme::Http => {
            host == "localhost"
                || address
                    .parse::<std::net::IpAddr>()
                    .is_ok_and(|a| a.is_loopback())
        }
        _ => false,
    }
}

/// `scheme://host:port` of a URL (lower-cased), none for a local path.
fn origin_of(url: &str) -> Option<String> {
    let parsed = gix::url::parse(gix::bstr::BStr::new(url)).ok()?;
    let host = parsed.host()?.to_ascii_lowercase();
    let port = parsed.port_or_default().unwrap_or(0);
    Some(format!("{}://{host}:{port}", parsed.scheme.as_str()))
}

/// The source's account, given only to the origin the source names; anything else asked
/// for gets nothing, and nothing is stored or erased.
fn credentials(
    origin: &Option<String>,
    account: Option<&(String, String)>,
    action: gix::credentials::helper::Action,
) -> gix::Result<Option<gix::credentials::protocol::Outcome>> {
    let gix::credentials::helper::Action::Get(context) = action else {
        return Ok(None);
    };
    let asked = context.url.as_ref().and_then(|u| origin_of(&u.to_string()));
    match (account, origin, asked) {
        (Some((username, password)), Some(origin), Some(asked)) if *origin == asked => {
            Ok(Some(gix::credentials::protocol::Outcome {
                credentials: gix::sec::identity::Credentials::UsernamePassword {
                    username: username.clone(),
                    password: password.clone(),
                    oauth_refresh_token: None,
                },
                next: context.into(),
            }))
        }
        _ => Ok(None),
    }
}

/// The files of the commit `branch` (or HEAD) names, each admitted before its content is
/// read.
fn read_commit(
    repo: &gix::Repository,
    branch: Option<&str>,
    found: &mut Found<'_>,
) -> Result<(), SyncError> {
    let failed = |e: gix::Error| SyncError::Fetch(format!("Reading the repository failed: {e}"));
    let commit = match branch {
        None => repo.head_commit().map_err(failed)?,
        Some(branch) => repo
            .find_reference(format!("refs/heads/{branch}").as_str())
            .map_err(|e| SyncError::Fetch(format!("No branch {branch}: {e}")))?
            .peel_to_commit()
            .map_err(failed)?,
    };
    let tree = commit.tree().map_err(failed)?;
    let entries = tree.traverse().breadthfirst.files().map_err(failed)?;
    for entry in entries {
        if !entry.mode.is_blob() {
            continue;
        }
        let path = entry.filepath.to_string();
        let hidden_dir = path
            .split('/')
            .rev()
            .skip(1)
            .any(|part| part.starts_with('.'));
        let name = path.rsplit('/').next().unwrap_or(&path);
        if hidden_dir || found.ignores(name) {
            continue;
        }
        let size = repo.find_header(entry.oid).map_err(failed)?.size();
        found.admit(&path, size)?;
        let blob = repo.find_blob(entry.oid).map_err(failed)?;
        found.push(path, blob.data.clone());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use gix::credentials::helper::Action;

    fn given(origin: &str, asked: &str) -> bool {
        let account = ("robot".to_string(), "hunter2".to_string());
        let outcome = credentials(
            &origin_of(origin),
            Some(&account),
            Action::get_for_url(asked),
        );
        outcome.expect("no error").is_some()
    }

    #[test]
    fn credentials_go_to_the_sources_origin_only() {
        assert_eq!(
            origin_of("https://Git.Example.net/team/repo.git").as_deref(),
            Some("https://git.example.net:443")
        );
        assert!(given(
            "https://git.example.net/r.git",
            "https://git.example.net/r.git/info/refs"
        ));
        assert!(given(
            "https://git.example.net/r.git",
            "https://git.example.net:443/other"
        ));
        assert!(!given(
            "https://git.example.net/r.git",
            "https://evil.example.org/r.git"
        ));
        assert!(!given(
            "https://git.example.net/r.git",
            "http://git.example.net/r.git"
        ));
        assert!(!given(
            "https://git.example.net/r.git",
            "https://git.example.net:8443/r.git"
        ));
        assert!(origin_of("/srv/repo").is_none());
        assert!(may_carry_an_account("https://git.example.net/r.git"));
        assert!(may_carry_an_account("http://127.0.0.1:8080/r.git"));
        assert!(may_carry_an_account("http://[::1]:8080/r.git"));
        assert!(may_carry_an_account("http://LOCALHOST/r.git"));
        assert!(!may_carry_an_account("http://git.example.net/r.git"));
        assert!(!may_carry_an_account("http://192.0.2.1/r.git"));
        assert!(!may_carry_an_account("http://127.0.0.1.example.net/r.git"));
        let none = credentials(
            &origin_of("https://a.example/"),
            None,
            Action::get_for_url("https://a.example/"),
        );
        assert!(none.expect("no error").is_none());
    }
}
