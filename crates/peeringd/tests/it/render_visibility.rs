//! A render shows only what the user asking for it may read through the API: export
//! templates over users, or reaching users through change records, render nothing of them
//! for a caller who may not view users, at once, as a job and over a list (`?export=`);
//! and a password is in no template's context, whoever asks.

use crate::common::network::{finished, one};
use crate::common::TestServer;
use peering_domain::resources::USER;
use serde_json::json;

/// A user who may write and read export templates, and nothing about users.
fn template_author(s: &TestServer) -> String {
    s.user_with(
        "author",
        &["extras.add_exporttemplate", "extras.view_exporttemplate"],
        true,
    )
}

fn admin_password_hash(s: &TestServer) -> String {
    let id = s.store.users().user_id("admin").unwrap().unwrap();
    let (user, _) = s.store.get(&USER, id).unwrap().unwrap();
    user.text(&USER, "password").to_string()
}

#[test]
fn an_export_over_users_shows_nothing_to_whoever_may_not_view_them() {
    let s = TestServer::start();
    // A password, so that there is a hash to look for.
    let admin = s.store.users().user_id("admin").unwrap().unwrap();
    let r = s.patch(
        &format!("/api/users/users/{admin}/"),
        json!({"password": "correct horse battery staple"}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let hash = admin_password_hash(&s);
    assert!(hash.len() > 20, "a stored hash: {hash:?}");
    let changes = s.get("/api/extras/object-changes/?limit=0").text;
    assert!(
        !changes.contains(&hash),
        "no change record keeps it: {changes}"
    );
    let author = template_author(&s);
    let template = "{% for u in dataset %}[{{ u.username }}|{{ u.password }}|{{ u.is_superuser }}|{{ u.as_json() if u.as_json is defined }}]{% endfor %}";
    let r = s.send(
        "POST",
        "/api/extras/export-templates/",
        Some(&json!({"name": "users", "content_type": "users.user", "template": template})),
        Some(&author),
        &[],
    );
    assert_eq!(r.status, 201, "{}", r.text);
    let export = r.json()["id"].as_i64().unwrap();
    let path = format!("/api/extras/export-templates/{export}/render-synchronous/");

    let r = s.send("GET", &path, None, Some(&author), &[]);
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["rendered"], "", "no user is seen: {}", r.text);

    let job = s.send(
        "GET",
        &format!("/api/extras/export-templates/{export}/render/"),
        None,
        Some(&author),
        &[],
    );
    assert_eq!(job.status, 202, "{}", job.text);
    let done = finished(&s, &job.json());
    assert_eq!(done["status"]["value"], "completed", "{done}");
    let output = s.get(&format!("/api/core/jobs/{}/", done["id"])).json()["output"].clone();
    assert_eq!(output, "", "the job sees no user either: {output}");

    // The superuser sees the users, never a password.
    let r = s.get(&path);
    let rendered = r.json()["rendered"].as_str().unwrap().to_string();
    assert!(rendered.contains("[admin|"), "{rendered}");
    assert!(!rendered.contains(&hash), "{rendered}");
    assert!(!rendered.contains("argon2"), "{rendered}");
}

#[test]
fn change_records_lead_to_no_user_the_caller_may_not_view() {
    let s = TestServer::start();
    one(
        &s,
        "/api/peering/autonomous-systems/",
        json!({"asn": 64501, "name": "Someone"}),
    );
    let author = template_author(&s);
    let template = "{% for c in dataset %}<{{ c.user.username }}|{{ c.user.email }}>{% endfor %}";
    let r = s.send(
        "POST",
        "/api/extras/export-templates/",
        Some(&json!({"name": "who", "content_type": "extras.objectchange", "template": template})),
        Some(&author),
        &[],
    );
    assert_eq!(r.status, 201, "{}", r.text);
    let r = s.send(
        "GET",
        "/api/core/object-changes/?export=who",
        None,
        Some(&author),
        &[],
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(
        r.text.contains("<|>"),
        "a change record is listed: {}",
        r.text
    );
    assert!(!r.text.contains("admin"), "its user is not: {}", r.text);
    // The superuser sees who made it.
    let r = s.get("/api/core/object-changes/?export=who");
    assert!(r.text.contains("<admin|"), "{}", r.text);
}
