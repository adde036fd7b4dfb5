//! Data sources: a directory and a local Git repository (made here with the `git` command)
//! synchronised through `synchronise/` as jobs, their files served as data files, a
//! configuration template that follows a file rendering the new text after each
//! synchronisation; and the failures (a missing directory, no repository, a file too
//! large, a template that does not parse), each a job that says why and writes nothing.
//! Repositories over HTTP, from Git's own server: `over_http.rs`. The action's permission
//! is tried with every other action in `action_permissions.rs`.

mod git_server;
mod over_http;

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value as Json};

use crate::common::builders::{autonomous_system, router};
use crate::common::network::finished;
use crate::common::TestServer;

const SOURCES: &str = "/api/core/data-sources/";
const FILES: &str = "/api/core/data-files/";

fn write(dir: &Path, path: &str, text: &str) {
    let file = dir.join(path);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(file, text).unwrap();
}

fn source(s: &TestServer, name: &str, kind: &str, url: &str) -> i64 {
    let body = json!({"name": name, "type": kind, "source_url": url, "ignore_rules": "*.txt"});
    s.create(SOURCES, body)["id"].as_i64().unwrap()
}

/// Synchronises through the action; the job once it ended.
fn synchronise(s: &TestServer, id: i64) -> Json {
    let r = s.post(&format!("{SOURCES}{id}/synchronise/"), json!({}));
    assert_eq!(r.status, 202, "{}", r.text);
    assert_eq!(r.json()["name"], "core.datasource.synchronisation");
    finished(s, &r.json())
}

fn status(job: &Json) -> &str {
    job["status"]["value"].as_str().unwrap_or_default()
}

fn files_of(s: &TestServer, id: i64) -> Vec<Json> {
    let r = s.get(&format!("{FILES}?source_id={id}"));
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()["results"].as_array().unwrap().clone()
}

fn paths(files: &[Json]) -> Vec<&str> {
    files.iter().map(|f| f["path"].as_str().unwrap()).collect()
}

/// A router whose configuration template follows the data file `file`; the router's id.
fn follower(s: &TestServer, file: i64) -> (i64, i64) {
    let body = json!({"name": "from a file", "template": "replaced", "data_file": file,
                      "auto_synchronisation_enabled": true});
    let template = s.create("/api/devices/configurations/", body);
    let us = autonomous_system(64500, "Us").id(s);
    let platform = s.create(
        "/api/devices/platforms/",
        json!({"name": "Junos", "slug": "junos"}),
    );
    let router = router("edge", &us)
        .with("platform", platform["id"].clone())
        .with("configuration_template", template["id"].clone())
        .id(s);
    (template["id"].as_i64().unwrap(), router.as_i64().unwrap())
}

fn rendered(s: &TestServer, router: i64) -> String {
    let r = s.get(&format!(
        "/api/peering/routers/{router}/configuration/?format=text"
    ));
    assert_eq!(r.status, 200, "{}", r.text);
    r.text
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=Test", "-c", "user.email=test@example.net"])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .env_remove("GIT_DIR")
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

/// Checks one source feeding a router's configuration: synchronised, followed, changed
/// by `change` and synchronised again.
fn feeds_a_configuration(s: &TestServer, id: i64, change: impl Fn(&str)) {
    let job = synchronise(s, id);
    assert_eq!(status(&job), "completed", "{job}");
    let files = files_of(s, id);
    // Hidden files and those an ignore rule matches are left out.
    assert_eq!(paths(&files), ["templates/router.j2"], "{files:?}");
    assert_eq!(files[0]["hash"].as_str().unwrap().len(), 64);
    assert_eq!(files[0]["source"]["id"], id);
    let shown = s.get(&format!("{SOURCES}{id}/")).json();
    assert_eq!(shown["status"]["value"], "completed", "{shown}");
    assert_eq!(shown["file_count"], 1);
    assert!(shown["last_synchronised"].is_string(), "{shown}");

    let (template, router) = follower(s, files[0]["id"].as_i64().unwrap());
    let before = s
        .get(&format!("/api/devices/configurations/{template}/"))
        .json();
    assert_eq!(before["data_path"], "templates/router.j2");
    assert_eq!(before["data_source"]["id"], id, "{before}");
    assert_eq!(rendered(s, router).trim(), "hostname edge, version 1");

    change("hostname {{ router.name }}, version 2\n");
    let job = synchronise(s, id);
    assert_eq!(status(&job), "completed", "{job}");
    assert_eq!(rendered(s, router).trim(), "hostname edge, version 2");
    assert_eq!(files_of(s, id).len(), 1);
    // A template that does not parse: the job says so, and nothing changes.
    change("hostname {% if %}\n");
    let job = synchronise(s, id);
    assert_eq!(status(&job), "errored", "{job}");
    assert!(
        job["output"].as_str().unwrap().contains("invalid template"),
        "{job}"
    );
    assert_eq!(rendered(s, router).trim(), "hostname edge, version 2");
    let shown = s.get(&format!("{SOURCES}{id}/")).json();
    assert_eq!(shown["status"]["value"], "failed", "{shown}");
}

const VERSION_1: &str = "hostname {{ router.name }}, version 1\n";

#[test]
fn a_directory_feeds_a_configuration_template() {
    let s = TestServer::start();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "templates/router.j2", VERSION_1);
    write(dir.path(), "templates/notes.txt", "ignored");
    write(dir.path(), ".hidden", "hidden");
    let url = format!("file://{}", dir.path().display());
    let id = source(&s, "directory", "local", &url);
    assert_eq!(
        s.get(&format!("{SOURCES}{id}/")).json()["status"]["value"],
        "new"
    );
    feeds_a_configuration(&s, id, |text| {
        write(dir.path(), "templates/router.j2", text)
    });
}

#[test]
fn a_git_repository_feeds_a_configuration_template() {
    let s = TestServer::start();
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"]);
    write(dir.path(), "templates/router.j2", VERSION_1);
    write(dir.path(), "templates/notes.txt", "ignored");
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-q", "-m", "first"]);
    // A file written but not committed is not the repository's.
    write(dir.path(), "templates/draft.j2", "not committed");
    let id = source(&s, "repository", "git", &dir.path().display().to_string());
    feeds_a_configuration(&s, id, |text| {
        write(dir.path(), "templates/router.j2", text);
        git(dir.path(), &["commit", "-q", "-a", "-m", "change"]);
    });
}

#[test]
fn failures_say_why_and_write_nothing() {
    let s = TestServer::start();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "one.j2", "one");
    let id = source(&s, "directory", "local", &dir.path().display().to_string());
    assert_eq!(status(&synchronise(&s, id)), "completed");
    let before = files_of(&s, id);

    // A file past the size limit: the others are not taken either.
    write(dir.path(), "two.j2", "two");
    write(dir.path(), "large.j2", &"x".repeat(5 << 20));
    let job = synchronise(&s, id);
    assert_eq!(status(&job), "errored", "{job}");
    assert!(
        job["output"].as_str().unwrap().contains("Too large"),
        "{job}"
    );
    assert_eq!(files_of(&s, id), before);

    let missing = dir.path().join("nowhere").display().to_string();
    let gone = source(&s, "missing", "local", &missing);
    let job = synchronise(&s, gone);
    assert_eq!(status(&job), "errored", "{job}");
    assert!(
        job["output"].as_str().unwrap().contains("does not exist"),
        "{job}"
    );
    assert!(files_of(&s, gone).is_empty());

    let no_repository = source(&s, "no repository", "git", &missing);
    let job = synchronise(&s, no_repository);
    assert_eq!(status(&job), "errored", "{job}");
    assert!(
        job["output"]
            .as_str()
            .unwrap()
            .contains("No Git repository"),
        "{job}"
    );
    let shown = s.get(&format!("{SOURCES}{no_repository}/")).json();
    assert_eq!(shown["status"]["value"], "failed");

    let ssh = source(&s, "over ssh", "git", "ssh://git@example.net/repo.git");
    let job = synchronise(&s, ssh);
    assert!(
        job["output"].as_str().unwrap().contains("not ssh://"),
        "{job}"
    );

    let disabled = s.patch(&format!("{SOURCES}{id}/"), json!({"enabled": false}));
    assert_eq!(disabled.status, 200, "{}", disabled.text);
    let job = synchronise(&s, id);
    assert!(
        job["output"].as_str().unwrap().contains("disabled"),
        "{job}"
    );
    assert_eq!(files_of(&s, id), before);
}

#[test]
fn sources_are_checked_and_files_only_read() {
    let s = TestServer::start();
    let r = s.post(
        SOURCES,
        json!({"name": "web", "type": "local", "source_url": "https://example.net/x"}),
    );
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(r.json()["source_url"].is_array(), "{}", r.text);
    let r = s.post(
        SOURCES,
        json!({"name": "odd", "type": "svn", "source_url": "/srv"}),
    );
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(r.json()["type"].is_array(), "{}", r.text);
    let r = s.post(FILES, json!({"path": "x"}));
    assert_eq!(r.status, 405, "{}", r.text);
    // A template may not follow a file that does not exist.
    let r = s.post(
        "/api/devices/configurations/",
        json!({"name": "t", "template": "x", "data_file": 4242}),
    );
    assert_eq!(r.status, 400, "{}", r.text);
}

#[test]
fn credentials_are_secrets() {
    let s = TestServer::start();
    let body = json!({"name": "private", "type": "git", "source_url": "https://example.net/r.git",
                      "parameters": {"username": "robot", "password": "hunter2"}});
    let r = s.post(SOURCES, body);
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json()["id"].as_i64().unwrap();
    // Those who may change the source see them; a reader does not.
    assert_eq!(r.json()["parameters"]["password"], "hunter2");
    let reader = s.user_with("reader", &["core.view_datasource"], false);
    let shown = s.request("GET", &format!("{SOURCES}{id}/"), None, Some(&reader), &[]);
    assert_eq!(shown.status, 200, "{}", shown.text);
    assert!(!shown.text.contains("hunter2"), "{}", shown.text);
    assert!(shown.json()["parameters"].is_null(), "{}", shown.text);
    // Nor do change records hold them.
    let changes = s.changes_of(&r);
    assert!(!changes.is_empty());
    for change in changes {
        assert!(!change.to_string().contains("hunter2"), "{change}");
    }
}
