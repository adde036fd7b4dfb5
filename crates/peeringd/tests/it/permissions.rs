//! Who may do what: per-resource permissions granted to users directly or through groups,
//! read-only tokens, view permissions when not exempted, `LOGIN_REQUIRED`, and what OPTIONS
//! and `Allow` tell each caller.

use crate::common::{TestServer, AS};
use peering_api::{ExemptViews, Settings};
use serde_json::{json, Value as Json};

const NO_PERMISSION: &str = "You do not have permission to perform this action.";
const NOT_PROVIDED: &str = "Authentication credentials were not provided.";
const GROUPS: &str = "/api/peering/bgp-groups/";

/// A user without any permission, and a write-enabled token of theirs.
fn plain_user(s: &TestServer, name: &str) -> (i64, String) {
    let key = s.token(name, false, true, None);
    (s.store.users().user_id(name).unwrap().unwrap(), key)
}

fn grant(s: &TestServer, user_id: i64, permissions: &[&str]) {
    let r = s.patch(
        &format!("/api/users/users/{user_id}/"),
        json!({ "permissions": permissions }),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    // A token's permissions are cached with it for a few seconds: the tests use tokens
    // created after a grant.
}

fn call(
    s: &TestServer,
    method: &str,
    path: &str,
    body: Option<Json>,
    key: Option<&str>,
) -> (u16, Json) {
    let r = s.request(method, path, body.as_ref(), key, &[]);
    let json = if r.text.is_empty() {
        Json::Null
    } else {
        r.json()
    };
    (r.status, json)
}

fn allow(s: &TestServer, path: &str, key: Option<&str>) -> String {
    s.request("OPTIONS", path, None, key, &[])
        .header("Allow")
        .unwrap_or_default()
        .to_string()
}

#[test]
fn writes_need_the_permission_for_their_action_and_resource() {
    let s = TestServer::start();
    let (alice, _) = plain_user(&s, "alice");
    grant(&s, alice, &["peering.add_autonomoussystem"]);
    let key = s.token("alice", false, true, None);

    // Reads are free by default; writes need their permission.
    assert_eq!(call(&s, "GET", AS, None, Some(&key)).0, 200);
    let (status, created) = call(
        &s,
        "POST",
        AS,
        Some(json!({"asn": 64500, "name": "A"})),
        Some(&key),
    );
    assert_eq!(status, 201, "{created}");
    let one = format!("{AS}{}/", created["id"]);
    for (method, path, body) in [
        ("PATCH", one.as_str(), Some(json!({"name": "B"}))),
        (
            "PUT",
            one.as_str(),
            Some(json!({"asn": 64500, "name": "B"})),
        ),
        ("DELETE", one.as_str(), None),
        (
            "PATCH",
            AS,
            Some(json!([{"id": created["id"], "name": "B"}])),
        ),
        ("DELETE", AS, Some(json!([{"id": created["id"]}]))),
        ("POST", GROUPS, Some(json!({"name": "G", "slug": "g"}))),
    ] {
        assert_eq!(
            call(&s, method, path, body, Some(&key)),
            (403, json!({"detail": NO_PERMISSION})),
            "{method} {path}"
        );
    }
    // OPTIONS and Allow show what this caller may do.
    let options = call(&s, "OPTIONS", AS, None, Some(&key)).1;
    assert!(options["actions"]["POST"].is_object());
    assert_eq!(allow(&s, AS, Some(&key)), "GET, POST, HEAD, OPTIONS");
    let detail_options = call(&s, "OPTIONS", &one, None, Some(&key)).1;
    assert!(detail_options.get("actions").is_none(), "{detail_options}");
    assert_eq!(allow(&s, &one, Some(&key)), "GET, HEAD, OPTIONS");
    assert!(call(&s, "OPTIONS", GROUPS, None, Some(&key))
        .1
        .get("actions")
        .is_none());

    // Change and delete, once granted.
    grant(
        &s,
        alice,
        &[
            "peering.change_autonomoussystem",
            "peering.delete_autonomoussystem",
        ],
    );
    let key = s.token("alice", false, true, None);
    assert_eq!(
        call(&s, "PATCH", &one, Some(json!({"name": "B"})), Some(&key)).0,
        200
    );
    assert_eq!(
        allow(&s, AS, Some(&key)),
        "GET, PUT, PATCH, DELETE, HEAD, OPTIONS"
    );
    let options = call(&s, "OPTIONS", &one, None, Some(&key)).1;
    assert!(options["actions"]["PUT"].is_object());
    // Add is gone with the new grant.
    assert_eq!(
        call(
            &s,
            "POST",
            AS,
            Some(json!({"asn": 64501, "name": "C"})),
            Some(&key)
        )
        .0,
        403
    );
    assert_eq!(call(&s, "DELETE", &one, None, Some(&key)).0, 204);

    // Anonymous writes are refused as not authenticated.
    assert_eq!(
        call(
            &s,
            "POST",
            AS,
            Some(json!({"asn": 64502, "name": "D"})),
            None
        ),
        (403, json!({"detail": NOT_PROVIDED}))
    );
    // The superuser holds every permission.
    assert_eq!(
        allow(&s, AS, Some(&s.key)),
        "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS"
    );
}

#[test]
fn groups_grant_their_permissions_to_their_members() {
    let s = TestServer::start();
    let (status, group) = call(
        &s,
        "POST",
        "/api/users/groups/",
        Some(
            json!({"name": "Peering team", "permissions": ["peering.add_bgpgroup", "peering.change_bgpgroup"]}),
        ),
        Some(&s.key),
    );
    assert_eq!(status, 201, "{group}");
    let (status, bob) = call(
        &s,
        "POST",
        "/api/users/users/",
        Some(json!({"username": "bob", "password": "long enough", "groups": [group["id"]]})),
        Some(&s.key),
    );
    assert_eq!(status, 201, "{bob}");
    assert!(bob.get("password").is_none(), "passwords are never shown");
    assert_eq!(
        bob["groups"],
        json!([{"id": group["id"], "url": group["url"], "name": "Peering team"}])
    );
    let group_now = call(
        &s,
        "GET",
        &format!("/api/users/groups/{}/", group["id"]),
        None,
        Some(&s.key),
    )
    .1;
    assert_eq!(group_now["user_count"], 1);

    let key = s.token("bob", false, true, None);
    let (status, created) = call(
        &s,
        "POST",
        GROUPS,
        Some(json!({"name": "G", "slug": "g"})),
        Some(&key),
    );
    assert_eq!(status, 201, "{created}");
    let one = format!("{GROUPS}{}/", created["id"]);
    assert_eq!(
        call(&s, "PATCH", &one, Some(json!({"name": "H"})), Some(&key)).0,
        200
    );
    assert_eq!(call(&s, "DELETE", &one, None, Some(&key)).0, 403);
    assert_eq!(
        call(
            &s,
            "POST",
            AS,
            Some(json!({"asn": 1, "name": "x"})),
            Some(&key)
        )
        .0,
        403
    );

    // A group's permissions must name real resources and actions.
    let (status, errors) = call(
        &s,
        "POST",
        "/api/users/groups/",
        Some(json!({"name": "Bad", "permissions": ["peering.fly_bgpgroup"]})),
        Some(&s.key),
    );
    assert_eq!(status, 400);
    assert!(errors["permissions"][0]
        .as_str()
        .unwrap()
        .contains("peering.fly_bgpgroup"));
    // Filter users by group.
    let members = call(
        &s,
        "GET",
        &format!("/api/users/users/?group_id={}", group["id"]),
        None,
        Some(&s.key),
    )
    .1;
    assert_eq!(members["count"], 1);
    assert_eq!(members["results"][0]["username"], "bob");
}

#[test]
fn a_read_only_token_carries_only_the_view_rights() {
    let s = TestServer::start();
    let (carol, _) = plain_user(&s, "carol");
    grant(
        &s,
        carol,
        &[
            "peering.add_autonomoussystem",
            "peering.view_autonomoussystem",
        ],
    );
    let read_only = s.token("carol", false, false, None);
    assert_eq!(call(&s, "GET", AS, None, Some(&read_only)).0, 200);
    assert_eq!(
        call(
            &s,
            "POST",
            AS,
            Some(json!({"asn": 64500, "name": "A"})),
            Some(&read_only)
        ),
        (403, json!({"detail": NO_PERMISSION}))
    );
    assert!(call(&s, "OPTIONS", AS, None, Some(&read_only))
        .1
        .get("actions")
        .is_none());
    assert_eq!(allow(&s, AS, Some(&read_only)), "GET, HEAD, OPTIONS");
    // Nor can it mint a write-enabled token.
    assert_eq!(
        call(
            &s,
            "POST",
            "/api/users/tokens/",
            Some(json!({})),
            Some(&read_only)
        )
        .0,
        403
    );
}

#[test]
fn view_permissions_are_enforced_for_resources_not_exempted() {
    let s = TestServer::start_with(Settings {
        exempt_view_permissions: "peering.autonomoussystem".parse::<ExemptViews>().unwrap(),
        ..Settings::default()
    });
    let (dave, _) = plain_user(&s, "dave");
    let key = s.token("dave", false, true, None);
    // Exempted: anyone reads it.
    assert_eq!(call(&s, "GET", AS, None, Some(&key)).0, 200);
    assert_eq!(call(&s, "GET", AS, None, None).0, 200);
    // Not exempted: a view permission is needed, for lists, objects and OPTIONS.
    let (status, created) = call(
        &s,
        "POST",
        GROUPS,
        Some(json!({"name": "G", "slug": "g"})),
        Some(&s.key),
    );
    assert_eq!(status, 201);
    let one = format!("{GROUPS}{}/", created["id"]);
    for path in [GROUPS, one.as_str()] {
        assert_eq!(
            call(&s, "GET", path, None, Some(&key)),
            (403, json!({"detail": NO_PERMISSION})),
            "{path}"
        );
        assert_eq!(call(&s, "OPTIONS", path, None, Some(&key)).0, 403, "{path}");
        assert_eq!(
            call(&s, "GET", path, None, None),
            (403, json!({"detail": NOT_PROVIDED})),
            "{path}"
        );
        assert_eq!(call(&s, "GET", path, None, Some(&s.key)).0, 200, "{path}");
    }
    grant(&s, dave, &["peering.view_bgpgroup"]);
    let key = s.token("dave", false, false, None);
    assert_eq!(call(&s, "GET", GROUPS, None, Some(&key)).0, 200);
    assert_eq!(call(&s, "GET", &one, None, Some(&key)).0, 200);

    // An empty setting enforces view permissions everywhere.
    let s = TestServer::start_with(Settings {
        exempt_view_permissions: "".parse::<ExemptViews>().unwrap(),
        ..Settings::default()
    });
    let key = s.token("erin", false, true, None);
    assert_eq!(call(&s, "GET", AS, None, Some(&key)).0, 403);
    assert_eq!(call(&s, "GET", AS, None, Some(&s.key)).0, 200);
    // The setting names real resources.
    assert!("peering.nothing".parse::<ExemptViews>().is_err());
    assert_eq!("*".parse::<ExemptViews>().unwrap(), ExemptViews::All);
}

#[test]
fn login_required_refuses_anonymous_reads() {
    let open = TestServer::start();
    assert_eq!(call(&open, "GET", AS, None, None).0, 200);
    let closed = TestServer::start_with(Settings {
        login_required: true,
        ..Settings::default()
    });
    assert_eq!(
        call(&closed, "GET", AS, None, None),
        (403, json!({"detail": NOT_PROVIDED}))
    );
    assert_eq!(call(&closed, "OPTIONS", AS, None, None).0, 403);
    let key = closed.token("frank", false, false, None);
    assert_eq!(call(&closed, "GET", AS, None, Some(&key)).0, 200);
}

#[test]
fn users_are_managed_through_the_api_with_hashed_passwords() {
    let s = TestServer::start();
    let (status, user) = call(
        &s,
        "POST",
        "/api/users/users/",
        Some(
            json!({"username": "gina", "password": "s3cret pass", "first_name": "Gina", "last_name": "Lopez"}),
        ),
        Some(&s.key),
    );
    assert_eq!(status, 201, "{user}");
    assert_eq!(user["display"], "gina (Gina Lopez)");
    // The password is stored hashed and works for provisioning a token.
    let login = s.store.users().login_record("gina").unwrap().unwrap();
    assert!(
        login.password_hash.starts_with("$argon2"),
        "{}",
        login.password_hash
    );
    let (status, token) = call(
        &s,
        "POST",
        "/api/users/tokens/provision/",
        Some(json!({"username": "gina", "password": "s3cret pass"})),
        None,
    );
    assert_eq!(status, 201, "{token}");
    // A new password through PATCH is hashed too.
    let path = format!("/api/users/users/{}/", user["id"]);
    assert_eq!(
        call(
            &s,
            "PATCH",
            &path,
            Some(json!({"password": "another one"})),
            Some(&s.key)
        )
        .0,
        200
    );
    let login = s.store.users().login_record("gina").unwrap().unwrap();
    assert!(peering_auth::password::verify(
        "another one",
        &login.password_hash
    ));
    // Missing password on create, duplicate username.
    let (status, errors) = call(
        &s,
        "POST",
        "/api/users/users/",
        Some(json!({"username": "hal"})),
        Some(&s.key),
    );
    assert_eq!(
        (status, errors),
        (400, json!({"password": ["This field is required."]}))
    );
    let (status, errors) = call(
        &s,
        "POST",
        "/api/users/users/",
        Some(json!({"username": "gina", "password": "long enough password"})),
        Some(&s.key),
    );
    assert_eq!(status, 400);
    assert!(errors["username"].is_array(), "{errors}");
    // Users need their own permissions to be managed.
    let key = s.token("ivan", false, true, None);
    assert_eq!(
        call(
            &s,
            "POST",
            "/api/users/users/",
            Some(json!({"username": "x", "password": "y"})),
            Some(&key)
        )
        .0,
        403
    );
}
