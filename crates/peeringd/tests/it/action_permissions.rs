//! Every action, at every path it is served on (both layouts), tried as anonymous, with a
//! superuser's read-only token, as a user holding no permission and as one holding exactly
//! what the action declares: the first three are refused (the read-only token only where the
//! action writes) before anything else, so a missing object answers 403 to them and 404 to
//! the holder, even with no router command configured (which would be a 503 after the
//! lookup). The actions come from the server's own table, so an action added later is tried
//! too, and one cannot be added without declaring what it needs (the field is required).

use crate::common::TestServer;
use peering_api::actions::{Action, Grant, Needs, Scope, ACTIONS};
use peering_api::{ExemptViews, Settings};
use peering_domain::permission::{self, Action as Permission};
use peering_domain::resources::ALIASES;
use serde_json::{json, Value as Json};

/// An id no object has.
const MISSING: i64 = 987_654;

/// Views enforced everywhere and a login required, so that every action has something to
/// refuse; PeeringDB on a closed loopback port, so that an enqueued synchronisation reaches
/// nothing outside.
fn strict_settings() -> Settings {
    Settings {
        login_required: true,
        exempt_view_permissions: ExemptViews::Only(Vec::new()),
        peeringdb: peering_peeringdb::Settings {
            url: "http://127.0.0.1:9/api".into(),
            ..Default::default()
        },
        ..Settings::default()
    }
}

/// Every path `action` is served at: its resource's, and the reference's later one.
fn paths_of(action: &Action) -> Vec<String> {
    let spec = action.spec;
    let mut bases = vec![(spec.app, spec.path)];
    bases.extend(
        ALIASES
            .iter()
            .filter(|alias| std::ptr::eq(alias.spec, spec))
            .map(|alias| (alias.app, alias.path)),
    );
    bases
        .into_iter()
        .map(|(app, path)| match action.scope {
            Scope::Object => format!("/api/{app}/{path}/{MISSING}/{}/", action.name),
            Scope::Collection => format!("/api/{app}/{path}/{}/", action.name),
            Scope::Under(segment) => format!("/api/{app}/{segment}/{}/", action.name),
        })
        .collect()
}

/// A body that gets past parsing to the object lookup, for the actions that take one.
fn body_of(action: &Action) -> Option<Json> {
    match action.body {
        None => None,
        Some("RoutersToConfigure") => Some(json!({"routers": [MISSING], "commit": false})),
        Some(_) => {
            Some(json!({"email": MISSING, "autonomous_system": MISSING, "network": MISSING}))
        }
    }
}

/// The permissions that satisfy `needs` for `action`, and whether staff status is needed.
fn holding(action: &Action) -> (Vec<String>, bool) {
    match action.needs {
        Needs::Read(specs) => (
            specs
                .iter()
                .map(|spec| permission::name(Permission::View, spec))
                .collect(),
            false,
        ),
        Needs::Hold(grants) => (
            grants.iter().map(|g: &Grant| g.name(action.spec)).collect(),
            false,
        ),
        Needs::Staff { .. } => (Vec::new(), true),
    }
}

fn status(s: &TestServer, action: &Action, path: &str, key: Option<&str>) -> (u16, String) {
    let r = s.send(action.method, path, body_of(action).as_ref(), key, &[]);
    (r.status, r.text)
}

fn make_staff(s: &TestServer, username: &str) {
    let id = s.store.users().user_id(username).unwrap().unwrap();
    let r = s.patch(
        &format!("/api/users/users/{id}/"),
        json!({"is_staff": true}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
}

#[test]
fn every_action_refuses_who_lacks_its_permission_before_anything_else() {
    let s = TestServer::start_with(strict_settings());
    let read_only_superuser = s.token("admin", true, false, None);
    let nobody = s.token("nobody", false, true, None);
    let mut tried = 0;
    for (n, action) in ACTIONS.iter().enumerate() {
        let (permissions, staff) = holding(action);
        let names: Vec<&str> = permissions.iter().map(String::as_str).collect();
        let holder_name = format!("holder{n}");
        let holder = s.user_with(&holder_name, &names, true);
        if staff {
            make_staff(&s, &holder_name);
        }
        for path in paths_of(action) {
            let what = format!("{} {path}", action.method);
            let (anonymous, text) = status(&s, action, &path, None);
            assert_eq!(anonymous, 403, "anonymous {what}: {text}");
            let (plain, text) = status(&s, action, &path, Some(&nobody));
            assert_eq!(plain, 403, "a user without permissions {what}: {text}");
            let (read_only, text) = status(&s, action, &path, Some(&read_only_superuser));
            if action.needs.writes() {
                assert_eq!(read_only, 403, "a read-only token {what}: {text}");
            } else {
                assert_ne!(read_only, 403, "a read-only token {what}: {text}");
            }
            let (held, text) = status(&s, action, &path, Some(&holder));
            assert_ne!(held, 403, "{names:?} {what}: {text}");
            assert!(held < 500, "{names:?} {what}: {held} {text}");
            if action.scope == Scope::Object || action.body == Some("RoutersToConfigure") {
                assert_eq!(held, 404, "{names:?} {what}: {text}");
            }
            tried += 1;
        }
    }
    assert!(tried > ACTIONS.len(), "aliases tried too: {tried}");
}

/// With the ordinary settings (views exempted, no login required), the actions that log in
/// to routers or write still refuse anonymous callers and read-only tokens, and the
/// PeeringDB copy cannot be emptied with a read-only token.
#[test]
fn router_actions_and_the_peeringdb_copy_need_a_write_token() {
    let s = TestServer::start_with(Settings {
        peeringdb: strict_settings().peeringdb,
        ..Settings::default()
    });
    let read_only = s.token("admin", true, false, None);
    let router = crate::common::network::network(&s).junos;
    for path in [
        format!("/api/peering/routers/{router}/test-napalm-connection/"),
        format!("/api/devices/routers/{router}/test-napalm-connection/"),
    ] {
        assert_eq!(s.send("GET", &path, None, None, &[]).status, 403, "{path}");
        assert_eq!(
            s.send("GET", &path, None, Some(&read_only), &[]).status,
            403,
            "{path}"
        );
    }
    for path in [
        "/api/peeringdb/cache/clear-local/",
        "/api/peeringdb/cache/update-local/",
    ] {
        let r = s.send("POST", path, None, Some(&read_only), &[]);
        assert_eq!(r.status, 403, "{path}: {}", r.text);
    }
    let jobs = s.get("/api/core/jobs/").json();
    assert_eq!(jobs["count"], 0, "no job was enqueued: {jobs}");
}
