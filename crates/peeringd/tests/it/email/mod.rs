//! E-mails sent to a peer (`autonomous-systems/{id}/send-email/`) through an SMTP server
//! on 127.0.0.1 that speaks real SMTP (`smtp.rs`): what arrives (envelope, headers, the
//! rendered body), the journal entry that records it, the failures that end the job
//! errored with no entry (a refused recipient or login, no server, no answer, TLS that
//! cannot be trusted), bodies refused before any job, the 503 without a server, who may
//! send, and the binary's settings by their variables (`binary.rs`).

mod binary;
mod failures;
mod requests;
mod smtp;

use std::time::Duration;

use crate::common::builders::autonomous_system;
use crate::common::network::finished;
use crate::common::{TestServer, AS};
use peering_app::email::{Settings as EmailSettings, Tls};
use serde_json::{json, Value as Json};

use smtp::{Behaviour, SmtpServer};

/// The sender every test sends from.
const FROM: &str = "peering@example.net";

/// E-mail settings toward `port` on 127.0.0.1.
fn email_settings(port: u16) -> EmailSettings {
    EmailSettings {
        server: Some("127.0.0.1".into()),
        port,
        from: Some(format!("Peering Team <{FROM}>")),
        timeout: Duration::from_secs(5),
        ..EmailSettings::default()
    }
}

fn server_with(email: EmailSettings) -> TestServer {
    TestServer::start_with(peering_api::Settings {
        email,
        ..peering_api::Settings::default()
    })
}

/// What the tests send: a peer with a NOC contact, and a template naming it.
struct Peer {
    system: i64,
    template: i64,
}

fn peer(s: &TestServer) -> Peer {
    let system = autonomous_system(64501, "Peer One").id(s).as_i64().unwrap();
    let role = s.create(
        "/api/messaging/contact-roles/",
        json!({"name": "NOC", "slug": "noc"}),
    )["id"]
        .clone();
    let contact = s.create(
        "/api/messaging/contacts/",
        json!({"name": "Peer One NOC", "email": "noc@peer-one.example"}),
    )["id"]
        .clone();
    s.create(
        "/api/messaging/contact-assignments/",
        json!({"content_type": "peering.autonomoussystem", "object_id": system,
               "role": role, "contact": contact}),
    );
    let template = s.create(
        "/api/messaging/emails/",
        json!({"name": "Request", "subject": "Peering with AS{{ autonomous_system.asn }}",
               "template": "Hello {{ autonomous_system.name }},\nlet us peer.\n"}),
    )["id"]
        .as_i64()
        .unwrap();
    Peer { system, template }
}

fn send_path(system: i64) -> String {
    format!("{AS}{system}/send-email/")
}

/// Asks for the e-mail as `key` and waits for its job to end; the job.
fn send_as(s: &TestServer, system: i64, body: Json, key: &str) -> Json {
    let r = s.request("POST", &send_path(system), Some(&body), Some(key), &[]);
    assert_eq!(r.status, 202, "{}", r.text);
    let job = r.json();
    assert_eq!(job["name"], peering_app::jobs::SEND_EMAIL, "{job}");
    finished(s, &job)
}

fn send(s: &TestServer, system: i64, body: Json) -> Json {
    send_as(s, system, body, &s.key.clone())
}

/// The journal entries on the autonomous system.
fn journal(s: &TestServer, system: i64) -> Vec<Json> {
    let page = s
        .get(&format!(
            "/api/extras/journal-entries/?assigned_object_type=peering.autonomoussystem\
             &assigned_object_id={system}"
        ))
        .json();
    page["results"].as_array().expect("a list").clone()
}

/// A header of a received message's data (unfolded).
fn header<'a>(data: &'a str, name: &str) -> Option<&'a str> {
    let head = data.split("\r\n\r\n").next()?;
    head.split("\r\n")
        .find_map(|line| line.strip_prefix(&format!("{name}: ")))
}

#[test]
fn an_email_arrives_as_rendered_and_is_journaled() {
    let smtp = SmtpServer::start(Behaviour::default());
    let s = server_with(email_settings(smtp.addr.port()));
    let p = peer(&s);
    let done = send(
        &s,
        p.system,
        json!({"email": p.template, "recipients": ["noc@peer-one.example", "Ops <ops@peer-one.example>"],
               "cc": ["boss@example.net"]}),
    );
    assert_eq!(done["status"]["value"], "completed", "{done}");
    let output = done["output"].as_str().unwrap();
    assert!(output.contains("Peering with AS64501"), "{output}");
    let received = smtp.received();
    assert_eq!(received.len(), 1, "{received:?}");
    let message = &received[0];
    assert_eq!(message.from, FROM);
    assert_eq!(
        message.to,
        [
            "noc@peer-one.example",
            "ops@peer-one.example",
            "boss@example.net"
        ]
    );
    let data = &message.data;
    assert_eq!(
        header(data, "Subject"),
        Some("Peering with AS64501"),
        "{data}"
    );
    assert_eq!(
        header(data, "From"),
        Some("\"Peering Team\" <peering@example.net>")
    );
    let to = header(data, "To").unwrap();
    assert!(
        to.contains("noc@peer-one.example") && to.contains("Ops <ops@peer-one.example>"),
        "{to}"
    );
    assert_eq!(header(data, "Cc"), Some("boss@example.net"), "{data}");
    assert!(data.contains("Hello Peer One,\r\nlet us peer."), "{data}");

    let entries = journal(&s, p.system);
    assert_eq!(entries.len(), 1, "{entries:?}");
    let entry = &entries[0];
    assert_eq!(entry["kind"]["value"], "info", "{entry}");
    assert_eq!(entry["created_by"]["username"], "admin", "{entry}");
    let comments = entry["comments"].as_str().unwrap();
    for expected in [
        "by admin",
        "noc@peer-one.example, Ops <ops@peer-one.example>",
        "boss@example.net",
        "Peering with AS64501",
        FROM,
    ] {
        assert!(comments.contains(expected), "{expected:?} in {comments}");
    }
    // Written as any write: a change record in the name of who asked.
    let changes = s
        .get("/api/extras/object-changes/?changed_object_type=extras.journalentry")
        .json();
    assert_eq!(changes["count"], 1, "{changes}");
    assert_eq!(changes["results"][0]["user_name"], "admin", "{changes}");
}

#[test]
fn without_recipients_the_contacts_get_it() {
    let smtp = SmtpServer::start(Behaviour::default());
    let s = server_with(email_settings(smtp.addr.port()));
    let p = peer(&s);
    let done = send(&s, p.system, json!({"email": p.template}));
    assert_eq!(done["status"]["value"], "completed", "{done}");
    let received = smtp.received();
    assert_eq!(received[0].to, ["noc@peer-one.example"], "{received:?}");
    assert!(header(&received[0].data, "Cc").is_none());
    assert_eq!(journal(&s, p.system).len(), 1);
}

#[test]
fn starttls_reaches_a_server_a_private_ca_signed() {
    let smtp = SmtpServer::start(Behaviour {
        starttls: true,
        ..Behaviour::default()
    });
    let trusting = EmailSettings {
        server: Some("localhost".into()),
        tls: Tls::StartTls,
        ca_file: Some(smtp::ca_file()),
        ..email_settings(smtp.addr.port())
    };
    let s = server_with(trusting);
    let p = peer(&s);
    let done = send(&s, p.system, json!({"email": p.template}));
    assert_eq!(done["status"]["value"], "completed", "{done}");
    assert_eq!(smtp.received().len(), 1);
    assert_eq!(journal(&s, p.system).len(), 1);
}

#[test]
fn the_typed_client_sends_too() {
    use crate::common::client::{block_on, client};
    use peering_domain::bodies::EmailToSend;
    let smtp = SmtpServer::start(Behaviour::default());
    let s = server_with(email_settings(smtp.addr.port()));
    let p = peer(&s);
    let request = EmailToSend {
        email: p.template,
        recipients: vec!["noc@peer-one.example".into()],
        cc: Vec::new(),
    };
    let job = block_on(client(&s).send_email(p.system, &request)).expect("a job");
    assert_eq!(job.name, peering_app::jobs::SEND_EMAIL);
    let done = finished(&s, &json!({"id": job.id}));
    assert_eq!(done["status"]["value"], "completed", "{done}");
    assert_eq!(smtp.received()[0].to, ["noc@peer-one.example"]);
}

/// The reference's form also offers the contacts PeeringDB lists for the network: so do
/// the default recipients, after those assigned to the system.
#[test]
fn without_recipients_the_peeringdb_contacts_get_it_too() {
    use peeringdb_fake::{Dataset, FakePeeringDb, Sizes};
    let fake = FakePeeringDb::start(Dataset::new(Sizes::scaled(0.001)));
    let db = peering_store::testing::TestDatabase::new();
    crate::common::peeringdb_sync(&db, &fake.url);
    let smtp = SmtpServer::start(Behaviour::default());
    let s = TestServer::start_on(
        db,
        peering_api::Settings {
            email: email_settings(smtp.addr.port()),
            ..peering_api::Settings::default()
        },
    );
    let contact = s.get("/api/peeringdb/network-contacts/?limit=1").json()["results"][0].clone();
    let net = contact["net"]["id"].as_i64().expect("a contact's network");
    let asn = s.get(&format!("/api/peeringdb/networks/{net}/")).json()["asn"].clone();
    let listed = s
        .get(&format!(
            "/api/peeringdb/network-contacts/?net_id={net}&limit=1000"
        ))
        .json();
    let mut expected: Vec<String> = crate::common::column(&listed, "email")
        .iter()
        .filter_map(|e| e.as_str().filter(|e| !e.is_empty()).map(str::to_string))
        .collect();
    expected.sort();
    expected.dedup();
    assert!(!expected.is_empty(), "{listed}");

    let system = s.create(AS, json!({"asn": asn, "name": "Listed"}))["id"]
        .as_i64()
        .unwrap();
    let template = s.create(
        "/api/messaging/emails/",
        json!({"name": "Hi", "subject": "Hi", "template": "Hello"}),
    )["id"]
        .clone();
    let done = send(&s, system, json!({"email": template}));
    assert_eq!(done["status"]["value"], "completed", "{done}");
    let received = smtp.received();
    let mut got = received[0].to.clone();
    got.sort();
    assert_eq!(got, expected);
}
