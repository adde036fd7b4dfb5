//! What is refused before any job: a body that cannot be sent (400 with a field error), no
//! SMTP server (503), and callers who may not send (the reference's `peering.send_email`,
//! with a token that may write).

use super::smtp::{Behaviour, SmtpServer};
use super::{email_settings, peer, send_as, send_path, server_with};
use crate::common::builders::autonomous_system;
use crate::common::TestServer;
use serde_json::{json, Value as Json};

fn jobs(s: &TestServer) -> i64 {
    s.get("/api/core/jobs/").json()["count"].as_i64().unwrap()
}

#[test]
fn bad_bodies_get_400_and_enqueue_nothing() {
    let smtp = SmtpServer::start(Behaviour::default());
    let s = server_with(email_settings(smtp.addr.port()));
    let p = peer(&s);
    let lonely = autonomous_system(64502, "No Contacts")
        .id(&s)
        .as_i64()
        .unwrap();
    let many: Vec<String> = (0..101).map(|i| format!("a{i}@example.net")).collect();
    let cases: Vec<(i64, Json, &str)> = vec![
        (p.system, json!({}), "email"),
        (p.system, json!({"email": "one"}), "email"),
        (p.system, json!({"email": 987_654}), "email"),
        (
            p.system,
            json!({"email": p.template, "recipients": "noc@peer-one.example"}),
            "recipients",
        ),
        (
            p.system,
            json!({"email": p.template, "recipients": ["not an address"]}),
            "recipients",
        ),
        (
            p.system,
            json!({"email": p.template, "recipients": [""]}),
            "recipients",
        ),
        (
            p.system,
            json!({"email": p.template, "recipients": [42]}),
            "recipients",
        ),
        (
            p.system,
            json!({"email": p.template, "cc": ["a@b@c"]}),
            "cc",
        ),
        (
            p.system,
            json!({"email": p.template, "recipients": many}),
            "recipients",
        ),
        (lonely, json!({"email": p.template}), "recipients"),
    ];
    for (system, body, field) in cases {
        let r = s.request("POST", &send_path(system), Some(&body), Some(&s.key), &[]);
        assert_eq!(r.status, 400, "{body}: {}", r.text);
        assert!(r.json()[field].is_array(), "{body}: {field} in {}", r.text);
    }
    let r = s.request(
        "POST",
        &send_path(987_654),
        Some(&json!({"email": p.template})),
        Some(&s.key),
        &[],
    );
    assert_eq!(r.status, 404, "{}", r.text);
    assert_eq!(jobs(&s), 0);
    assert!(smtp.received().is_empty());
}

#[test]
fn without_a_server_the_action_answers_503() {
    let s = TestServer::start();
    let p = peer(&s);
    // Who may not send is refused before the missing setting is told.
    let read_only = s.token("admin", true, false, None);
    let nobody = s.user_with("nobody", &["peering.view_autonomoussystem"], true);
    for (who, key) in [
        ("anonymous", None),
        ("a read-only token", Some(read_only.as_str())),
        ("a user without the permission", Some(nobody.as_str())),
    ] {
        let body = json!({"email": p.template});
        let r = s.request("POST", &send_path(p.system), Some(&body), key, &[]);
        assert!(
            r.status == 401 || r.status == 403,
            "{who}: {} {}",
            r.status,
            r.text
        );
    }
    let r = s.request(
        "POST",
        &send_path(p.system),
        Some(&json!({"email": p.template})),
        Some(&s.key),
        &[],
    );
    assert_eq!(r.status, 503, "{}", r.text);
    let detail = r.json()["detail"].as_str().unwrap().to_string();
    assert!(detail.contains("PEERING_EMAIL_SERVER"), "{detail}");
    assert_eq!(jobs(&s), 0);
}

#[test]
fn sending_needs_the_send_email_permission_and_a_write_token() {
    let smtp = SmtpServer::start(Behaviour::default());
    let s = server_with(email_settings(smtp.addr.port()));
    let p = peer(&s);
    let body = json!({"email": p.template});
    let path = send_path(p.system);
    let read_only = s.token("admin", true, false, None);
    let nobody = s.user_with(
        "nobody",
        &["peering.view_autonomoussystem", "messaging.view_email"],
        true,
    );
    let read_only_sender = s.user_with("reader", &["peering.send_email"], false);
    for (who, key) in [
        ("anonymous", None),
        ("a read-only superuser token", Some(read_only.as_str())),
        ("a user without the permission", Some(nobody.as_str())),
        (
            "a sender's read-only token",
            Some(read_only_sender.as_str()),
        ),
    ] {
        let r = s.request("POST", &path, Some(&body), key, &[]);
        assert!(
            r.status == 401 || r.status == 403,
            "{who}: {} {}",
            r.status,
            r.text
        );
    }
    assert_eq!(jobs(&s), 0);
    assert!(smtp.received().is_empty());
    let sender = s.user_with("sender", &["peering.send_email"], true);
    let done = send_as(&s, p.system, body, &sender);
    assert_eq!(done["status"]["value"], "completed", "{done}");
    let received = smtp.received();
    assert_eq!(received.len(), 1);
}

/// With view permissions enforced, a sender sees what they may read and nothing else: a
/// system or a template they may not read is not there, nor are the contacts the
/// recipients would default to.
#[test]
fn a_sender_sends_only_what_they_may_read() {
    let smtp = SmtpServer::start(Behaviour::default());
    let s = TestServer::start_with(peering_api::Settings {
        email: email_settings(smtp.addr.port()),
        exempt_view_permissions: peering_api::ExemptViews::Only(Vec::new()),
        ..peering_api::Settings::default()
    });
    let p = peer(&s);
    let body = json!({"email": p.template});
    let status = |key: &str, body: &Json| {
        let r = s.request("POST", &send_path(p.system), Some(body), Some(key), &[]);
        (r.status, r.text)
    };
    let blind = s.user_with("blind", &["peering.send_email"], true);
    let (code, text) = status(&blind, &body);
    assert_eq!(code, 404, "{text}");
    let no_template = s.user_with(
        "no-template",
        &["peering.send_email", "peering.view_autonomoussystem"],
        true,
    );
    let (code, text) = status(&no_template, &body);
    assert_eq!(code, 400, "{text}");
    assert!(text.contains("\"email\""), "{text}");
    let no_contacts = s.user_with(
        "no-contacts",
        &[
            "peering.send_email",
            "peering.view_autonomoussystem",
            "messaging.view_email",
        ],
        true,
    );
    let (code, text) = status(&no_contacts, &body);
    assert_eq!(code, 400, "{text}");
    assert!(text.contains("No recipients"), "{text}");
    assert_eq!(jobs(&s), 0);
    let with_recipient = json!({"email": p.template, "recipients": ["noc@peer-one.example"]});
    let done = send_as(&s, p.system, with_recipient, &no_contacts);
    assert_eq!(done["status"]["value"], "completed", "{done}");
    assert!(smtp.received()[0].data.contains("Hello Peer One"));
}
