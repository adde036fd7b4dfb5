//! Nobody grants what they do not hold: a user allowed to change users cannot take over a
//! superuser, set another user's password, make anyone staff, or give themselves (directly
//! or through a group) a permission they lack. Only a superuser does those.

use crate::common::TestServer;
use serde_json::{json, Value as Json};

const USERS: &str = "/api/users/users/";
const GROUPS: &str = "/api/users/groups/";

fn user_path(id: i64) -> String {
    format!("{USERS}{id}/")
}

/// A user holding `permissions` (granted by the superuser), and a fresh token of theirs.
fn user_with(s: &TestServer, name: &str, permissions: &[&str]) -> (i64, String) {
    s.token(name, false, true, None);
    let id = s.store.users().user_id(name).unwrap().unwrap();
    let r = s.patch(&user_path(id), json!({ "permissions": permissions }));
    assert_eq!(r.status, 200, "{}", r.text);
    (id, s.token(name, false, true, None))
}

fn as_user(s: &TestServer, key: &str, method: &str, path: &str, body: Json) -> (u16, Json) {
    let r = s.request(method, path, Some(&body), Some(key), &[]);
    let json = if r.text.is_empty() {
        Json::Null
    } else {
        r.json()
    };
    (r.status, json)
}

fn stored(s: &TestServer, id: i64) -> Json {
    let r = s.get(&user_path(id));
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()
}

#[test]
fn a_user_manager_cannot_take_over_the_superuser() {
    let s = TestServer::start();
    let admin = s.store.users().user_id("admin").unwrap().unwrap();
    let (_, key) = user_with(&s, "alice", &["users.change_user", "users.delete_user"]);
    let before = stored(&s, admin);
    for body in [
        json!({"password": "a-long-enough-password"}),
        json!({"is_active": false}),
        json!({"first_name": "Mallory"}),
    ] {
        let (status, answer) = as_user(&s, &key, "PATCH", &user_path(admin), body.clone());
        assert_eq!(status, 403, "{body}: {answer}");
        assert_eq!(answer["detail"], "Only a superuser may change a superuser.");
    }
    let (status, _) = as_user(&s, &key, "DELETE", &user_path(admin), Json::Null);
    assert_eq!(status, 403);
    assert_eq!(stored(&s, admin), before);
    // The superuser's token still works: no password or status was changed.
    assert_eq!(s.get("/api/users/tokens/").status, 200);
}

#[test]
fn only_a_superuser_sets_another_users_password_or_staff_status() {
    let s = TestServer::start();
    let (alice, key) = user_with(&s, "alice", &["users.change_user", "users.add_user"]);
    let (bob, _) = user_with(&s, "bob", &[]);
    let password = json!({"password": "a-long-enough-password"});
    let (status, answer) = as_user(&s, &key, "PATCH", &user_path(bob), password.clone());
    assert_eq!(status, 403, "{answer}");
    assert_eq!(
        answer["detail"],
        "Only a superuser may change another user's password."
    );
    // Their own password, and a new user's first one, are theirs to set.
    assert_eq!(
        as_user(&s, &key, "PATCH", &user_path(alice), password).0,
        200
    );
    let (status, _) = as_user(
        &s,
        &key,
        "POST",
        USERS,
        json!({"username": "carol", "password": "a-long-enough-password"}),
    );
    assert_eq!(status, 201);
    for (method, path, body) in [
        ("PATCH", user_path(alice), json!({"is_staff": true})),
        ("PATCH", user_path(bob), json!({"is_staff": true})),
        (
            "POST",
            USERS.to_string(),
            json!({"username": "dave", "password": "a-long-enough-password", "is_staff": true}),
        ),
    ] {
        let (status, answer) = as_user(&s, &key, method, &path, body);
        assert_eq!(status, 403, "{method} {path}: {answer}");
    }
    assert_eq!(stored(&s, alice)["is_staff"], false);
    assert!(s.get(&format!("{USERS}?username=dave")).json()["results"]
        .as_array()
        .unwrap()
        .is_empty());
    // The superuser may do all of it.
    let r = s.patch(
        &user_path(bob),
        json!({"is_staff": true, "password": "another-long-password"}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
}

#[test]
fn nobody_grants_a_permission_they_do_not_hold() {
    let s = TestServer::start();
    let (alice, key) = user_with(&s, "alice", &["users.change_user", "peering.view_router"]);
    let (bob, _) = user_with(&s, "bob", &[]);
    let (status, answer) = as_user(
        &s,
        &key,
        "PATCH",
        &user_path(alice),
        json!({"permissions": ["users.change_user", "peering.view_router", "peering.delete_router"]}),
    );
    assert_eq!(status, 403, "{answer}");
    assert_eq!(
        answer["detail"],
        "You may not grant the permission peering.delete_router, which you do not hold."
    );
    assert_eq!(
        stored(&s, alice)["permissions"],
        json!(["users.change_user", "peering.view_router"])
    );
    // What alice holds she may pass on; a bulk write that also grants more is refused
    // whole.
    let (status, _) = as_user(
        &s,
        &key,
        "PATCH",
        &user_path(bob),
        json!({"permissions": ["peering.view_router"]}),
    );
    assert_eq!(status, 200);
    let (status, _) = as_user(
        &s,
        &key,
        "PATCH",
        USERS,
        json!([
            {"id": bob, "first_name": "Bob"},
            {"id": alice, "permissions": ["peering.add_router"]},
        ]),
    );
    assert_eq!(status, 403);
    assert_eq!(stored(&s, bob)["first_name"], "");
}

#[test]
fn nobody_grants_a_permission_through_a_group() {
    let s = TestServer::start();
    let (alice, key) = user_with(
        &s,
        "alice",
        &["users.change_user", "users.add_group", "users.change_group"],
    );
    // A group of her own with a permission she lacks: refused.
    let (status, _) = as_user(
        &s,
        &key,
        "POST",
        GROUPS,
        json!({"name": "mine", "permissions": ["peering.delete_router"]}),
    );
    assert_eq!(status, 403);
    let (status, mine) = as_user(
        &s,
        &key,
        "POST",
        GROUPS,
        json!({"name": "mine", "permissions": ["users.add_group"]}),
    );
    assert_eq!(status, 201, "{mine}");
    let (status, _) = as_user(
        &s,
        &key,
        "PATCH",
        &format!("{GROUPS}{}/", mine["id"]),
        json!({"permissions": ["users.add_group", "peering.delete_router"]}),
    );
    assert_eq!(status, 403);
    // Joining a group the superuser made, which holds more than she does: refused.
    let admins = s.create(
        GROUPS,
        json!({"name": "admins", "permissions": ["peering.delete_router"]}),
    );
    let (status, answer) = as_user(
        &s,
        &key,
        "PATCH",
        &user_path(alice),
        json!({"groups": [admins["id"]]}),
    );
    assert_eq!(status, 403, "{answer}");
    assert_eq!(stored(&s, alice)["groups"], json!([]));
    // Her own group, whose permissions she holds, she may join.
    let (status, _) = as_user(
        &s,
        &key,
        "PATCH",
        &user_path(alice),
        json!({"groups": [mine["id"]]}),
    );
    assert_eq!(status, 200);
}

#[test]
fn users_and_groups_are_read_only_with_their_view_permission() {
    let s = TestServer::start();
    let (_, plain) = user_with(&s, "alice", &[]);
    let (_, viewer) = user_with(&s, "bob", &["users.view_user"]);
    for path in [USERS, GROUPS] {
        assert_eq!(
            s.request("GET", path, None, None, &[]).status,
            403,
            "{path}"
        );
        assert_eq!(
            s.request("GET", path, None, Some(&plain), &[]).status,
            403,
            "{path}"
        );
    }
    assert_eq!(
        s.request("GET", USERS, None, Some(&viewer), &[]).status,
        200
    );
    // Other resources stay readable by anyone, as in the reference.
    let r = s.request("GET", "/api/peering/autonomous-systems/", None, None, &[]);
    assert_eq!(r.status, 200);
}
