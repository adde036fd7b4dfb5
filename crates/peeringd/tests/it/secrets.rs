//! Secrets (BGP session and NAPALM passwords, IX-API keys, webhook secrets) are shown only
//! to callers who may change their object, and never kept in change records.

use crate::common::builders::autonomous_system;
use crate::common::{TestServer, AS};
use serde_json::{json, Value as Json};

const ROUTERS: &str = "/api/peering/routers/";
const SESSIONS: &str = "/api/peering/direct-peering-sessions/";
const IX_API: &str = "/api/extras/ix-api/";
const WEBHOOKS: &str = "/api/extras/webhooks/";

/// An object with secrets: its list's path, its own path, its secret fields and values.
type WithSecrets = (&'static str, String, Vec<(&'static str, &'static str)>);

/// One object of each resource with secrets, as the superuser made them.
fn objects_with_secrets(s: &TestServer) -> Vec<WithSecrets> {
    let local = s.create(
        AS,
        json!({"asn": 64500, "name": "Local", "affiliated": true}),
    );
    let peer = autonomous_system(65001, "Peer").create(s);
    let platform = s.create(
        "/api/devices/platforms/",
        json!({"name": "IOS", "slug": "ios", "password_algorithm": "cisco-type7"}),
    );
    let router = s.create(
        ROUTERS,
        json!({"name": "r1", "hostname": "r1", "platform": platform["id"], "encrypt_passwords": true,
               "local_autonomous_system": local["id"], "napalm_password": "napalm-pw"}),
    );
    let relationship = s.create(
        "/api/bgp/relationships/",
        json!({"name": "Transit", "slug": "transit"}),
    );
    let session = s.create(
        SESSIONS,
        json!({"local_autonomous_system": local["id"], "autonomous_system": peer["id"],
               "relationship": relationship["id"], "ip_address": "192.0.2.1", "router": router["id"],
               "password": "bgp-pw"}),
    );
    let account = s.create(
        IX_API,
        json!({"name": "IX", "url": "https://ixapi.example.net/v2/", "api_key": "the-key",
               "api_secret": "the-secret", "identity": "1234"}),
    );
    let hook = s.create(
        WEBHOOKS,
        json!({"name": "Sync", "content_types": ["peering.router"], "type_create": true,
               "payload_url": "http://127.0.0.1:9/hook", "secret": "hook-secret"}),
    );
    let at = |list: &str, o: &Json| format!("{list}{}/", o["id"]);
    vec![
        (
            ROUTERS,
            at(ROUTERS, &router),
            vec![("napalm_password", "napalm-pw")],
        ),
        (
            SESSIONS,
            at(SESSIONS, &session),
            vec![("password", "bgp-pw")],
        ),
        (
            IX_API,
            at(IX_API, &account),
            vec![("api_key", "the-key"), ("api_secret", "the-secret")],
        ),
        (
            WEBHOOKS,
            at(WEBHOOKS, &hook),
            vec![("secret", "hook-secret")],
        ),
    ]
}

fn get(s: &TestServer, path: &str, key: Option<&str>) -> Json {
    let r = s.request("GET", path, None, key, &[]);
    assert_eq!(r.status, 200, "{path}: {}", r.text);
    r.json()
}

#[test]
fn secrets_are_shown_only_to_callers_who_may_change_the_object() {
    let s = TestServer::start();
    let objects = objects_with_secrets(&s);
    let reader = s.token("reader", false, true, None);
    for (list, path, secrets) in &objects {
        // The superuser first, so that a cached answer with secrets would be found by the
        // others if answers were not kept apart.
        let shown = get(&s, path, Some(&s.key));
        let listed = get(&s, list, Some(&s.key));
        for (field, value) in secrets {
            assert_eq!(shown[field], *value, "{path} {field}");
            assert_eq!(listed["results"][0][field], *value, "{list} {field}");
        }
        for key in [None, Some(reader.as_str())] {
            let hidden = get(&s, path, key);
            let listed = get(&s, list, key);
            let streamed = get(&s, &format!("{list}?limit=0"), key);
            for (field, _) in secrets {
                assert_eq!(hidden[field], Json::Null, "{path} {field} {key:?}");
                assert_eq!(listed["results"][0][field], Json::Null, "{list} {field}");
                assert_eq!(streamed["results"][0][field], Json::Null, "{list} {field}");
            }
            assert!(!hidden["id"].is_null());
        }
    }
    // The encrypted form of a session's password is as much a secret as the password.
    let session = get(&s, &objects[1].1, None);
    assert_eq!(session["encrypted_password"], Json::Null);
    assert!(get(&s, &objects[1].1, Some(&s.key))["encrypted_password"]
        .as_str()
        .is_some_and(|e| !e.is_empty()));
}

#[test]
fn a_change_permission_shows_that_resources_secrets_only() {
    let s = TestServer::start();
    let objects = objects_with_secrets(&s);
    s.token("operator", false, true, None);
    let id = s.store.users().user_id("operator").unwrap().unwrap();
    let r = s.patch(
        &format!("/api/users/users/{id}/"),
        json!({"permissions": ["peering.change_router"]}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let key = s.token("operator", false, true, None);
    assert_eq!(
        get(&s, &objects[0].1, Some(&key))["napalm_password"],
        "napalm-pw"
    );
    assert_eq!(get(&s, &objects[1].1, Some(&key))["password"], Json::Null);
    // A read-only token of the same user may change nothing, so it sees nothing.
    let read_only = s.token("operator", false, false, None);
    assert_eq!(
        get(&s, &objects[0].1, Some(&read_only))["napalm_password"],
        Json::Null
    );
}

#[test]
fn change_records_keep_a_mark_instead_of_a_secret() {
    let s = TestServer::start();
    let objects = objects_with_secrets(&s);
    let (_, session, _) = &objects[1];
    let renamed = s.patch(session, json!({"comments": "moved"}));
    assert_eq!(renamed.status, 200);
    let changed = s.patch(session, json!({"password": "new-bgp-pw"}));
    assert_eq!(changed.status, 200);
    let deleted = s.delete(session, None);
    assert_eq!(deleted.status, 204);

    let renamed = &s.changes_of(&renamed)[0];
    assert_eq!(renamed["prechange_data"]["password"], "********");
    assert_eq!(renamed["postchange_data"]["password"], "********");
    let changed = &s.changes_of(&changed)[0];
    assert_eq!(changed["prechange_data"]["password"], "********");
    assert_eq!(changed["postchange_data"]["password"], "******** (changed)");
    assert_eq!(
        changed["postchange_data"]["encrypted_password"],
        "******** (changed)"
    );
    assert_eq!(
        s.changes_of(&deleted)[0]["prechange_data"]["password"],
        "********"
    );

    // No record anywhere holds a secret's value.
    let all = s.get("/api/extras/object-changes/?limit=1000").text;
    for value in [
        "napalm-pw",
        "bgp-pw",
        "the-key",
        "the-secret",
        "hook-secret",
    ] {
        assert!(!all.contains(value), "{value} found in the change records");
    }
}
