//! The write rules hold on the paths that are not the API: accounts made on the command
//! line, and objects brought in by `peeringd import`, whose source may hold what peeringd
//! refuses (here, a template written straight into the source's store, as a tool that
//! bypasses the rules would).

use std::io::Write;
use std::process::{Command, Output, Stdio};

use crate::common::{output_text, TestServer};
use peering_domain::input::{parse, Mode};
use peering_domain::resources::{CONFIGURATION, USER};
use peering_store::testing::TestDatabase;
use peering_store::{ChangeContext, Store};
use serde_json::json;

fn peeringd(database: &str, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_peeringd"))
        .env_clear()
        .env("PEERING_DATABASE_URL", database)
        .env("PEERING_MIN_PASSWORD_LENGTH", "12")
        .env("RUST_LOG", "warn")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("peeringd runs");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(stdin.as_bytes()).expect("stdin written");
    drop(input);
    child.wait_with_output().expect("peeringd ends")
}

#[test]
fn the_command_line_checks_passwords_and_stores_only_hashes() {
    let db = TestDatabase::new();
    let create = ["user", "create", "--username", "dana", "--password-stdin"];
    let short = peeringd(&db.url, &create, "eleven char\n");
    assert!(!short.status.success(), "{}", output_text(&short));
    assert!(
        output_text(&short).contains("at least 12 characters"),
        "{}",
        output_text(&short)
    );
    let store = Store::open(&db.url, 1).expect("store opens");
    assert!(store.users().user_id("dana").expect("read").is_none());

    let made = peeringd(&db.url, &create, "twelve chars!\n");
    assert!(made.status.success(), "{}", output_text(&made));
    let stored = store
        .users()
        .login_record("dana")
        .expect("read")
        .expect("dana");
    assert!(stored.password_hash.starts_with("$argon2"));
    assert!(peering_auth::password::verify(
        "twelve chars!",
        &stored.password_hash
    ));

    let set = peeringd(
        &db.url,
        &["user", "set-password", "--username", "dana"],
        "too short\n",
    );
    assert!(!set.status.success(), "{}", output_text(&set));
    let kept = store
        .users()
        .login_record("dana")
        .expect("read")
        .expect("dana");
    assert_eq!(kept.password_hash, stored.password_hash);
}

#[test]
fn an_import_leaves_out_a_template_that_does_not_parse_and_takes_no_password() {
    let source = TestServer::start();
    source.create(
        "/api/users/users/",
        json!({"username": "erin", "password": "erin's long password"}),
    );
    let ctx = ChangeContext {
        request_id: "bypass".into(),
        user_id: None,
        user_name: "a tool".into(),
        authority: peering_domain::grants::Authority::operator(),
    };
    let templates = [
        json!({"name": "broken", "template": "{% for x in %}"}),
        json!({"name": "fine", "template": "{{ router.hostname }}"}),
    ];
    let drafts = templates
        .iter()
        .map(|body| parse(&CONFIGURATION, body, Mode::Create).expect("parses"))
        .collect();
    source
        .store
        .create(&CONFIGURATION, drafts, &ctx)
        .expect("the store itself takes what it is given");

    let target = TestDatabase::new();
    let out = peeringd(
        &target.url,
        &[
            "import",
            "peering-manager",
            "--url",
            &source.base,
            "--token",
            &source.key,
        ],
        "",
    );
    let report = output_text(&out);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("Invalid template"), "{report}");

    let store = Store::open(&target.url, 1).expect("store opens");
    let names: Vec<String> = store
        .everything(&CONFIGURATION)
        .expect("read")
        .iter()
        .map(|r| r.text(&CONFIGURATION, "name").to_string())
        .collect();
    assert_eq!(names, ["fine"]);
    let erin = store
        .users()
        .login_record("erin")
        .expect("read")
        .expect("erin");
    assert!(!erin.password_hash.starts_with("$argon2"));
    assert!(!peering_auth::password::verify(
        "erin's long password",
        &erin.password_hash
    ));
    assert_eq!(store.everything(&USER).expect("read").len(), 2);
}
