//! The write rules hold for a program that writes through the application layer, with no
//! HTTP in between: passwords are checked and stored only as hashes, templates must parse,
//! and a session's password is encrypted when its router says so.

use peering_app::accounts::{self, AccountError};
use peering_app::edits::{Edits, WriteRules};
use peering_app::sessions::{encrypt_password, Encryption};
use peering_domain::grants::Authority;
use peering_domain::input::{parse, Draft, Mode};
use peering_domain::resources::{
    AUTONOMOUS_SYSTEM, CONFIGURATION, DIRECT_PEERING_SESSION, PLATFORM, RELATIONSHIP, ROUTER, USER,
};
use peering_domain::ResourceSpec;
use peering_store::testing::TestDatabase;
use peering_store::{ChangeContext, Error, Store};
use serde_json::{json, Value as Json};

const RULES: WriteRules = WriteRules {
    min_password_length: 10,
};

struct App {
    edits: Edits,
    store: Store,
    ctx: ChangeContext,
    // Dropped last: the store's connections close before the database goes.
    _db: TestDatabase,
}

fn app() -> App {
    let db = TestDatabase::new();
    let store = Store::open(&db.url, 2).expect("store opens");
    App {
        edits: Edits::new(store.clone(), RULES),
        store,
        ctx: ChangeContext {
            request_id: "write-rules".into(),
            user_id: None,
            user_name: "a tool".into(),
            authority: Authority::operator(),
        },
        _db: db,
    }
}

fn draft(spec: &ResourceSpec, body: Json) -> Draft {
    parse(spec, &body, Mode::Create).expect("the body parses")
}

impl App {
    fn create(&self, spec: &'static ResourceSpec, body: Json) -> Result<i64, Error> {
        let (records, _) = self
            .edits
            .create(spec, vec![draft(spec, body)], &self.ctx)?;
        Ok(records[0].id)
    }

    fn stored_hash(&self, username: &str) -> String {
        self.store
            .users()
            .login_record(username)
            .expect("read")
            .expect("the user exists")
            .password_hash
    }
}

/// The errors of a refused write, by field.
fn refused(result: Result<impl std::fmt::Debug, Error>) -> Json {
    match result {
        Err(Error::Invalid { errors, .. }) => errors.into_json(),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_password_written_through_the_application_is_checked_and_hashed() {
    let app = app();
    let short = app.create(&USER, json!({"username": "ann", "password": "short"}));
    assert!(refused(short)["password"][0]
        .as_str()
        .is_some_and(|m| m.contains("at least 10 characters")));
    assert!(app.store.users().user_id("ann").expect("read").is_none());

    app.create(
        &USER,
        json!({"username": "ann", "password": "a long enough secret"}),
    )
    .expect("created");
    let hash = app.stored_hash("ann");
    assert!(hash.starts_with("$argon2"), "stored as a hash: {hash}");
    assert!(peering_auth::password::verify(
        "a long enough secret",
        &hash
    ));
}

#[test]
fn an_update_that_sets_a_password_obeys_the_same_rule() {
    let app = app();
    let id = app
        .create(
            &USER,
            json!({"username": "bob", "password": "first secret!"}),
        )
        .expect("created");
    let change = |password: &str| {
        let body = json!({ "password": password });
        let draft = parse(&USER, &body, Mode::Partial).expect("parses");
        app.edits.update(&USER, vec![(id, draft)], &app.ctx)
    };
    refused(change("tiny"));
    assert!(peering_auth::password::verify(
        "first secret!",
        &app.stored_hash("bob")
    ));
    change("second secret!").expect("changed");
    assert!(peering_auth::password::verify(
        "second secret!",
        &app.stored_hash("bob")
    ));
}

#[test]
fn a_template_that_does_not_parse_is_refused_and_names_its_line() {
    let app = app();
    let broken = app.create(
        &CONFIGURATION,
        json!({"name": "broken", "template": "line one\n{% if %}"}),
    );
    let message = refused(broken)["template"][0].as_str().map(str::to_string);
    assert!(
        message
            .as_deref()
            .is_some_and(|m| m.starts_with("Invalid template at line 2")),
        "{message:?}"
    );
    assert_eq!(app.store.count_of(&CONFIGURATION).expect("count"), 0);
    app.create(
        &CONFIGURATION,
        json!({"name": "fine", "template": "{{ router.hostname }}"}),
    )
    .expect("a template that parses is taken");
}

#[test]
fn a_refused_item_of_a_list_is_named_by_its_index_and_nothing_is_written() {
    let app = app();
    let drafts = vec![
        draft(&CONFIGURATION, json!({"name": "a", "template": "ok"})),
        draft(&CONFIGURATION, json!({"name": "b", "template": "{{"})),
    ];
    match app.edits.create(&CONFIGURATION, drafts, &app.ctx) {
        Err(Error::Invalid { index, .. }) => assert_eq!(index, Some(1)),
        other => panic!("expected the second item refused, got {other:?}"),
    }
    assert_eq!(app.store.count_of(&CONFIGURATION).expect("count"), 0);
}

#[test]
fn accounts_made_outside_the_api_obey_the_password_rule() {
    let app = app();
    let short = accounts::create_user(&app.store, &RULES, "cid", Some("short"), false);
    assert!(matches!(short, Err(AccountError::Password(_))), "{short:?}");
    assert!(app.store.users().user_id("cid").expect("read").is_none());

    accounts::create_user(&app.store, &RULES, "cid", Some("a fine secret"), false)
        .expect("created");
    assert!(peering_auth::password::verify(
        "a fine secret",
        &app.stored_hash("cid")
    ));
    let again = accounts::set_password(&app.store, &RULES, "cid", "short");
    assert!(matches!(again, Err(AccountError::Password(_))));
    let nobody = accounts::set_password(&app.store, &RULES, "nobody", "long enough secret");
    assert!(matches!(nobody, Err(AccountError::NoSuchUser(_))));
}

#[test]
fn a_session_password_is_encrypted_when_its_router_encrypts() {
    let app = app();
    let local = app
        .create(
            &AUTONOMOUS_SYSTEM,
            json!({"asn": 64500, "name": "Local", "affiliated": true}),
        )
        .expect("local");
    let peer = app
        .create(&AUTONOMOUS_SYSTEM, json!({"asn": 65001, "name": "Peer"}))
        .expect("peer");
    let platform = app
        .create(
            &PLATFORM,
            json!({"name": "IOS", "slug": "ios", "password_algorithm": "cisco-type7"}),
        )
        .expect("platform");
    let router = app
        .create(
            &ROUTER,
            json!({"name": "r1", "hostname": "r1", "platform": platform,
                   "local_autonomous_system": local, "encrypt_passwords": true}),
        )
        .expect("router");
    let relationship = app
        .create(&RELATIONSHIP, json!({"name": "Transit", "slug": "transit"}))
        .expect("relationship");
    let session = app
        .create(
            &DIRECT_PEERING_SESSION,
            json!({"local_autonomous_system": local, "autonomous_system": peer,
                   "relationship": relationship, "ip_address": "192.0.2.1",
                   "router": router, "password": "bgp-secret"}),
        )
        .expect("session");
    let stored = |app: &App| {
        let (record, _) = app
            .store
            .get(&DIRECT_PEERING_SESSION, session)
            .expect("read")
            .expect("the session exists");
        record
            .text(&DIRECT_PEERING_SESSION, "encrypted_password")
            .to_string()
    };
    let encrypted = stored(&app);
    assert!(
        !encrypted.is_empty() && encrypted != "bgp-secret",
        "{encrypted:?}"
    );
    let asked = encrypt_password(&app.edits, &DIRECT_PEERING_SESSION, session, &app.ctx);
    assert_eq!(asked.expect("encrypted"), Encryption::Encrypted);
    let missing = encrypt_password(&app.edits, &DIRECT_PEERING_SESSION, 999, &app.ctx);
    assert_eq!(missing.expect("answered"), Encryption::NoSuchSession);
}
