//! Git sources over HTTP against Git's own smart-HTTP server (`git_server.rs`): a
//! repository feeding a configuration template, an account given to the source's server
//! and refused when wrong, an account never sent where the server redirects to, a server
//! that never answers and a repository past the size limit, each failure a job that says
//! why and writes nothing.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use peering_app::data_sources::Limits;
use serde_json::json;

use super::git_server::{Behaviour, GitServer};
use super::{feeds_a_configuration, files_of, git, paths, status, synchronise, write, SOURCES};
use crate::common::TestServer;

/// A directory served as the server's root, with a repository `repo.git` in it holding
/// the router's template (and a file the ignore rules leave out), committed.
struct Served {
    root: tempfile::TempDir,
}

impl Served {
    fn new() -> Served {
        let served = Served {
            root: tempfile::tempdir().unwrap(),
        };
        std::fs::create_dir(served.repository()).unwrap();
        git(&served.repository(), &["init", "-q"]);
        served.commit("templates/router.j2", super::VERSION_1);
        served.commit("templates/notes.txt", "ignored");
        served
    }

    fn root(&self) -> PathBuf {
        self.root.path().to_path_buf()
    }

    fn repository(&self) -> PathBuf {
        self.root.path().join("repo.git")
    }

    fn commit(&self, path: &str, text: &str) {
        let repository = self.repository();
        write(&repository, path, text);
        git(&repository, &["add", "."]);
        git(&repository, &["commit", "-q", "-m", path]);
    }
}

/// A Git source at `server`'s repository, with `parameters`.
fn source(s: &TestServer, server: &GitServer, parameters: serde_json::Value) -> i64 {
    let body = json!({"name": "over http", "type": "git", "source_url": format!("{}/repo.git", server.base),
                      "ignore_rules": "*.txt", "parameters": parameters});
    s.create(SOURCES, body)["id"].as_i64().unwrap()
}

fn output(job: &serde_json::Value) -> &str {
    job["output"].as_str().unwrap_or_default()
}

/// A job that errored saying `why`, the source left `failed` with the files it had.
fn failed(s: &TestServer, id: i64, job: &serde_json::Value, why: &str, files: &[&str]) {
    assert_eq!(status(job), "errored", "{job}");
    assert!(output(job).contains(why), "{why:?} not in {job}");
    let shown = s.get(&format!("{SOURCES}{id}/")).json();
    assert_eq!(shown["status"]["value"], "failed", "{shown}");
    assert_eq!(paths(&files_of(s, id)), files);
}

fn server_with(limits: Limits) -> TestServer {
    TestServer::start_with(peering_api::Settings {
        data_source_limits: limits,
        ..Default::default()
    })
}

#[test]
fn a_repository_over_http_feeds_a_configuration_template() {
    let served = Served::new();
    let server = GitServer::start(served.root(), Behaviour::Serve);
    let s = TestServer::start();
    let id = source(&s, &server, json!({}));
    feeds_a_configuration(&s, id, |text| served.commit("templates/router.j2", text));
    let seen = server.seen();
    assert!(
        seen.iter()
            .any(|r| r.method == "POST" && r.path.starts_with("/repo.git/git-upload-pack")),
        "{seen:?}"
    );
}

#[test]
fn an_account_goes_to_its_server_and_a_wrong_one_fails() {
    let served = Served::new();
    let server = GitServer::start(
        served.root(),
        Behaviour::Account("robot".into(), "hunter2".into()),
    );
    let s = TestServer::start();
    let id = source(
        &s,
        &server,
        json!({"username": "robot", "password": "hunter2"}),
    );
    let job = synchronise(&s, id);
    assert_eq!(status(&job), "completed", "{job}");
    assert_eq!(paths(&files_of(&s, id)), ["templates/router.j2"]);
    // Asked for after the server's 401, as Git clients do.
    let seen = server.seen();
    assert!(seen[0].authorization.is_none(), "{seen:?}");
    assert!(seen.iter().any(|r| r.authorization.is_some()), "{seen:?}");

    served.commit("templates/second.j2", "second");
    // A wrong password, then none: each sync fails and leaves the files as they were.
    let wrong = json!({"parameters": {"username": "robot", "password": "not-the-password"}});
    for parameters in [wrong, json!({"parameters": {}})] {
        let r = s.patch(&format!("{SOURCES}{id}/"), parameters);
        assert_eq!(r.status, 200, "{}", r.text);
        let job = synchronise(&s, id);
        failed(
            &s,
            id,
            &job,
            "Fetching remote data failed",
            &["templates/router.j2"],
        );
        assert!(!output(&job).contains("not-the-password"), "{job}");
    }

    // An account crosses a network over HTTPS only: refused before anything is asked.
    let body = json!({"source_url": "http://192.0.2.1/repo.git",
                      "parameters": {"username": "robot", "password": "hunter2"}});
    let r = s.patch(&format!("{SOURCES}{id}/"), body);
    assert_eq!(r.status, 200, "{}", r.text);
    let job = synchronise(&s, id);
    failed(&s, id, &job, "over HTTPS only", &["templates/router.j2"]);
}

#[test]
fn an_account_is_not_sent_where_the_server_redirects() {
    let served = Served::new();
    let elsewhere = GitServer::start(served.root(), Behaviour::Serve);
    let server = GitServer::start(
        served.root(),
        Behaviour::RedirectTo("robot".into(), "hunter2".into(), elsewhere.base.clone()),
    );
    let s = TestServer::start();
    let id = source(
        &s,
        &server,
        json!({"username": "robot", "password": "hunter2"}),
    );
    let job = synchronise(&s, id);
    failed(&s, id, &job, "Fetching remote data failed", &[]);
    // The source's server had the account and answered with the redirect...
    let seen = server.seen();
    assert!(seen.iter().any(|r| r.authorization.is_some()), "{seen:?}");
    // ...which was not followed with it (nor, here, at all).
    let elsewhere_seen = elsewhere.seen();
    assert!(
        elsewhere_seen.iter().all(|r| r.authorization.is_none()),
        "{elsewhere_seen:?}"
    );
}

#[test]
fn a_server_that_never_answers_ends_at_the_timeout() {
    let served = Served::new();
    let server = GitServer::start(served.root(), Behaviour::Never);
    let s = server_with(Limits::with(
        Limits::default().max_total_bytes,
        Duration::from_secs(2),
    ));
    let id = source(&s, &server, json!({}));
    let started = Instant::now();
    let job = synchronise(&s, id);
    failed(&s, id, &job, "longer than the 2 s allowed", &[]);
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    assert!(!server.seen().is_empty());
}

#[test]
fn a_repository_past_the_size_limit_fails() {
    let served = Served::new();
    served.commit("templates/large.j2", &noise(256 << 10));
    let server = GitServer::start(served.root(), Behaviour::Serve);
    let s = server_with(Limits::with(64 << 10, Limits::default().timeout));
    let id = source(&s, &server, json!({}));
    let job = synchronise(&s, id);
    failed(&s, id, &job, "Too large", &[]);
}

/// `len` characters that do not compress, so that the download is as large as the file.
fn noise(len: usize) -> String {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            char::from(b'!' + (state % 90) as u8)
        })
        .collect()
}
