//! Sending that fails ends the job errored with what went wrong, and writes no journal
//! entry: a recipient refused, a login refused, no server on the port, a server that never
//! answers, a certificate nobody vouched for. The password never shows.

use std::net::TcpListener;
use std::time::{Duration, Instant};

use super::smtp::{Behaviour, SmtpServer};
use super::{email_settings, journal, peer, send, server_with};
use peering_app::email::{Settings as EmailSettings, Tls};
use serde_json::json;

/// The job ended errored, its output naming each of `expected`; no journal entry.
fn assert_errored(
    s: &crate::common::TestServer,
    system: i64,
    done: &serde_json::Value,
    expected: &[&str],
) {
    assert_eq!(done["status"]["value"], "errored", "{done}");
    let output = done["output"].as_str().unwrap_or_default();
    for text in expected {
        assert!(output.contains(text), "{text:?} in {output}");
    }
    assert!(journal(s, system).is_empty(), "no entry after {output}");
}

#[test]
fn a_refused_recipient_errs_and_records_nothing() {
    let smtp = SmtpServer::start(Behaviour {
        refuse: vec!["gone@peer-one.example".into()],
        ..Behaviour::default()
    });
    let s = server_with(email_settings(smtp.addr.port()));
    let p = peer(&s);
    let done = send(
        &s,
        p.system,
        json!({"email": p.template, "recipients": ["noc@peer-one.example", "gone@peer-one.example"]}),
    );
    let place = format!("127.0.0.1:{}", smtp.addr.port());
    assert_errored(&s, p.system, &done, &["not sent", &place, "refused", "550"]);
    assert!(smtp.received().is_empty());
}

#[test]
fn a_refused_login_errs_and_the_password_never_shows() {
    let smtp = SmtpServer::start(Behaviour {
        login: Some(("peering".into(), "right-password".into())),
        ..Behaviour::default()
    });
    let wrong = EmailSettings {
        username: Some("peering".into()),
        password: Some("wrong-password".into()),
        ..email_settings(smtp.addr.port())
    };
    let s = server_with(wrong);
    let p = peer(&s);
    let done = send(&s, p.system, json!({"email": p.template}));
    assert_errored(&s, p.system, &done, &["not sent", "535"]);
    assert!(!done.to_string().contains("wrong-password"), "{done}");
    assert!(smtp.received().is_empty());
    drop(s);

    let right = EmailSettings {
        username: Some("peering".into()),
        password: Some("right-password".into()),
        ..email_settings(smtp.addr.port())
    };
    let s = server_with(right);
    let p = peer(&s);
    let done = send(&s, p.system, json!({"email": p.template}));
    assert_eq!(done["status"]["value"], "completed", "{done}");
    assert!(!done.to_string().contains("right-password"), "{done}");
    assert_eq!(smtp.received().len(), 1);
}

#[test]
fn a_closed_port_errs_clearly() {
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let s = server_with(email_settings(port));
    let p = peer(&s);
    let done = send(&s, p.system, json!({"email": p.template}));
    let place = format!("127.0.0.1:{port}");
    assert_errored(
        &s,
        p.system,
        &done,
        &["not sent", &place, "onnection refused"],
    );
}

#[test]
fn a_server_that_never_answers_errs_at_the_timeout() {
    // Connections complete in the listener's backlog, and nothing ever greets them.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    let s = server_with(EmailSettings {
        timeout: Duration::from_secs(1),
        ..email_settings(port)
    });
    let p = peer(&s);
    let started = Instant::now();
    let done = send(&s, p.system, json!({"email": p.template}));
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert_errored(&s, p.system, &done, &["not sent", "no answer in time"]);
    drop(silent);
}

#[test]
fn starttls_without_trusting_the_servers_ca_errs() {
    let smtp = SmtpServer::start(Behaviour {
        starttls: true,
        ..Behaviour::default()
    });
    let s = server_with(EmailSettings {
        server: Some("localhost".into()),
        tls: Tls::StartTls,
        ..email_settings(smtp.addr.port())
    });
    let p = peer(&s);
    let done = send(&s, p.system, json!({"email": p.template}));
    assert_errored(&s, p.system, &done, &["not sent", "TLS"]);
    assert!(smtp.received().is_empty());
}
