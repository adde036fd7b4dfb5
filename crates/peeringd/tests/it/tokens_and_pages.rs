//! API tokens (the tokens API, provisioning, revocation, last use), user preferences, and
//! the web pages: login and logout with CSRF-protected forms and a session cookie, the API
//! tokens page, and the browsable API.

use std::collections::HashMap;

use crate::common::{TestServer, AS};
use serde_json::{json, Value as Json};

const TOKENS: &str = "/api/users/tokens/";
const PROVISION: &str = "/api/users/tokens/provision/";

fn set_password(s: &TestServer, username: &str, password: &str) {
    let hash = peering_auth::password::hash(password).unwrap();
    assert!(s.store.users().set_password(username, &hash).unwrap());
}

#[test]
fn tokens_are_listed_created_and_revoked_by_their_owner() {
    let s = TestServer::start();
    let alice = s.token("alice", false, true, None);
    s.token("bob", false, true, None);

    // A user sees their own tokens only; the superuser sees everyone's.
    let mine = s.request("GET", TOKENS, None, Some(&alice), &[]).json();
    assert_eq!(mine["count"], 1);
    assert_eq!(mine["results"][0]["user"]["username"], "alice");
    assert!(
        mine["results"][0].get("key").is_none(),
        "an existing key is never shown"
    );
    let all = s.get(TOKENS).json();
    assert_eq!(all["count"], 3);

    // Create: the key (40 hex) is in this response only, and only its hash is stored.
    let r = s.request(
        "POST",
        TOKENS,
        Some(&json!({"description": "automation", "write_enabled": false, "expires": "2099-01-01T00:00:00Z"})),
        Some(&alice),
        &[],
    );
    assert_eq!(r.status, 201, "{}", r.text);
    let created = r.json();
    let key = created["key"].as_str().unwrap().to_string();
    assert_eq!(key.len(), 40);
    assert!(key
        .chars()
        .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
    assert_eq!(created["write_enabled"], false);
    assert_eq!(created["expires"], "2099-01-01T00:00:00.000000Z");
    assert_eq!(created["display"], format!("{} (alice)", &key[34..]));
    let stored = s
        .store
        .users()
        .token_by_hash(&peering_auth::TokenKey::parse(&key).unwrap().hash())
        .unwrap()
        .unwrap();
    assert_ne!(stored.key_hash, key);
    let listed = s.request("GET", TOKENS, None, Some(&alice), &[]).json();
    assert_eq!(listed["count"], 2);
    assert!(!listed.to_string().contains(&key));
    // The new token works, read-only.
    assert_eq!(s.request("GET", AS, None, Some(&key), &[]).status, 200);

    // An explicit key restores a token; the same key twice is refused.
    let restored = "9b2e47c01f5a83d6e7c4b1a0f92d3e8c5a6b7d41";
    let r = s.request(
        "POST",
        TOKENS,
        Some(&json!({"key": restored})),
        Some(&alice),
        &[],
    );
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.json()["key"], restored);
    let again = s.request(
        "POST",
        TOKENS,
        Some(&json!({"key": restored})),
        Some(&alice),
        &[],
    );
    assert_eq!(again.status, 400, "{}", again.text);
    let bad = s.request(
        "POST",
        TOKENS,
        Some(&json!({"key": "short"})),
        Some(&alice),
        &[],
    );
    assert_eq!(bad.status, 400);

    // Revoke: someone else's token does not exist for alice; her own goes at once.
    let bobs = all["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["user"]["username"] == "bob")
        .unwrap()["id"]
        .clone();
    let r = s.request(
        "DELETE",
        &format!("{TOKENS}{bobs}/"),
        None,
        Some(&alice),
        &[],
    );
    assert_eq!(r.status, 404);
    let r = s.request(
        "DELETE",
        &format!("{TOKENS}{}/", created["id"]),
        None,
        Some(&alice),
        &[],
    );
    assert_eq!(r.status, 204);
    let gone = s.request("GET", AS, None, Some(&key), &[]);
    assert_eq!(
        (gone.status, gone.json()),
        (403, json!({"detail": "Invalid token"}))
    );
    // Anonymous callers have no tokens.
    assert_eq!(s.request("GET", TOKENS, None, None, &[]).status, 403);

    // A superuser may make a token for another user, who must exist.
    let alice_id = s.store.users().user_id("alice").unwrap().unwrap();
    let r = s.post(
        TOKENS,
        json!({"user": alice_id, "description": "for alice"}),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.json()["user"]["username"], "alice");
    let r = s.post(TOKENS, json!({"user": 0}));
    assert_eq!(
        (r.status, r.json()),
        (
            400,
            json!({"user": ["Related object not found using the provided numeric ID: 0"]})
        )
    );
    // Anyone else's `user` is ignored: the token is their own.
    let r = s.request("POST", TOKENS, Some(&json!({"user": 1})), Some(&alice), &[]);
    assert_eq!(r.json()["user"]["username"], "alice");
}

#[test]
fn last_use_is_recorded_at_most_once_a_minute() {
    let s = TestServer::start();
    let key = s.token("carol", false, true, None);
    let last_used = || {
        s.request("GET", TOKENS, None, Some(&key), &[]).json()["results"][0]["last_used"].clone()
    };
    assert_eq!(s.request("GET", AS, None, Some(&key), &[]).status, 200);
    // The write happens in the background.
    let mut first = Json::Null;
    for _ in 0..50 {
        first = last_used();
        if !first.is_null() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(first.is_string(), "last use recorded");
    for _ in 0..5 {
        assert_eq!(s.request("GET", AS, None, Some(&key), &[]).status, 200);
    }
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert_eq!(last_used(), first, "no write per request");
}

#[test]
fn provisioning_exchanges_a_password_for_a_token_and_is_rate_limited() {
    let s = TestServer::start();
    s.token("dora", false, true, None);
    set_password(&s, "dora", "correct horse");
    let r = s.request(
        "POST",
        PROVISION,
        Some(&json!({"username": "dora", "password": "correct horse", "write_enabled": false})),
        None,
        &[],
    );
    assert_eq!(r.status, 201, "{}", r.text);
    let token = r.json();
    assert_eq!(token["user"]["username"], "dora");
    assert_eq!(token["write_enabled"], false);
    let key = token["key"].as_str().unwrap();
    assert_eq!(s.request("GET", AS, None, Some(key), &[]).status, 200);

    let r = s.request(
        "POST",
        PROVISION,
        Some(&json!({"username": "dora"})),
        None,
        &[],
    );
    assert_eq!(
        (r.status, r.json()),
        (400, json!({"password": ["This field is required."]}))
    );
    let wrong = json!({"username": "dora", "password": "wrong"});
    let r = s.request("POST", PROVISION, Some(&wrong), None, &[]);
    assert_eq!(r.status, 403);
    let unknown = json!({"username": "nobody", "password": "wrong"});
    assert_eq!(
        s.request("POST", PROVISION, Some(&unknown), None, &[])
            .status,
        403
    );
    // Ten attempts a minute per address: the rest are refused.
    let mut statuses = Vec::new();
    for _ in 0..10 {
        statuses.push(s.request("POST", PROVISION, Some(&wrong), None, &[]).status);
    }
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    let r = s.request(
        "POST",
        PROVISION,
        Some(&json!({"username": "dora", "password": "correct horse"})),
        None,
        &[],
    );
    assert_eq!(r.status, 429, "even the right password waits");
}

#[test]
fn expired_tokens_are_refused() {
    let s = TestServer::start();
    let key = s.token(
        "erin",
        false,
        true,
        Some(chrono::Utc::now() - chrono::Duration::seconds(1)),
    );
    let r = s.request("GET", AS, None, Some(&key), &[]);
    assert_eq!(
        (r.status, r.json()),
        (403, json!({"detail": "Token expired"}))
    );
}

#[test]
fn preferences_are_read_and_merged() {
    let s = TestServer::start();
    let path = "/api/users/userpref/";
    assert_eq!(s.get(path).json(), json!({}));
    let r = s.patch(
        path,
        json!({"context": {"as": 3}, "pagination": {"per_page": 50}}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let r = s.patch(path, json!({"context": {"as": 4}}));
    assert_eq!(
        r.json(),
        json!({"context": {"as": 4}, "pagination": {"per_page": 50}})
    );
    assert_eq!(s.get(path).json()["context"]["as"], 4);
    assert_eq!(s.request("GET", path, None, None, &[]).status, 403);
}

// ---------------------------------------------------------------------------------------
// A browser, as far as these pages need one: cookies and forms.
// ---------------------------------------------------------------------------------------

struct Browser<'a> {
    s: &'a TestServer,
    cookies: HashMap<String, String>,
    /// The `Set-Cookie` lines of the last response.
    set_cookies: Vec<String>,
}

struct Page {
    status: u16,
    location: Option<String>,
    body: String,
}

impl<'a> Browser<'a> {
    fn new(s: &'a TestServer) -> Self {
        Browser {
            s,
            cookies: HashMap::new(),
            set_cookies: Vec::new(),
        }
    }

    fn send(
        &mut self,
        method: &str,
        path: &str,
        form: Option<&[(&str, &str)]>,
        headers: &[(&str, &str)],
        json_body: Option<&Json>,
    ) -> Page {
        let agent = ureq::AgentBuilder::new().redirects(0).build();
        let mut req = agent
            .request(method, &format!("{}{path}", self.s.base))
            .set("Accept", "text/html,application/xhtml+xml");
        let cookie_line: Vec<String> = self
            .cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        if !cookie_line.is_empty() {
            req = req.set("Cookie", &cookie_line.join("; "));
        }
        for (k, v) in headers {
            req = req.set(k, v);
        }
        let result = match (form, json_body) {
            (Some(fields), _) => req.send_form(fields),
            (None, Some(body)) => req
                .set("Content-Type", "application/json")
                .send_string(&body.to_string()),
            (None, None) => req.call(),
        };
        let resp = match result {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{method} {path}: {e}"),
        };
        self.set_cookies = resp
            .all("set-cookie")
            .into_iter()
            .map(str::to_string)
            .collect();
        for line in &self.set_cookies {
            let pair = line.split(';').next().unwrap_or_default();
            if let Some((name, value)) = pair.split_once('=') {
                if line.contains("Max-Age=0") || value.is_empty() {
                    self.cookies.remove(name);
                } else {
                    self.cookies.insert(name.to_string(), value.to_string());
                }
            }
        }
        Page {
            status: resp.status(),
            location: resp.header("Location").map(str::to_string),
            body: resp.into_string().unwrap_or_default(),
        }
    }

    fn get(&mut self, path: &str) -> Page {
        self.send("GET", path, None, &[], None)
    }

    fn post(&mut self, path: &str, form: &[(&str, &str)]) -> Page {
        self.send("POST", path, Some(form), &[], None)
    }
}

/// The value of the first hidden CSRF field of a page.
fn csrf_of(body: &str) -> String {
    let marker = "name=\"csrfmiddlewaretoken\" value=\"";
    let start = body.find(marker).expect("a CSRF field") + marker.len();
    body[start..start + 40].to_string()
}

fn element_text(body: &str, id: &str) -> Option<String> {
    let start = body.find(&format!("id=\"{id}\""))?;
    let open = body[start..].find('>')? + start + 1;
    let close = body[open..].find('<')? + open;
    Some(body[open..close].to_string())
}

fn log_in(b: &mut Browser, username: &str, password: &str) -> Page {
    log_in_to(b, username, password, "/user/api-tokens/")
}

#[test]
fn logging_in_uses_a_csrf_protected_form_and_a_safe_session_cookie() {
    let s = TestServer::start();
    s.token("fay", false, true, None);
    set_password(&s, "fay", "open sesame");
    let mut b = Browser::new(&s);

    // The form sets its CSRF cookie; a post without the token is refused.
    let form = b.get("/login/");
    let csrf_cookie = b
        .set_cookies
        .iter()
        .find(|c| c.starts_with("csrftoken="))
        .unwrap()
        .clone();
    assert!(
        csrf_cookie.contains("HttpOnly") && csrf_cookie.contains("SameSite=Lax"),
        "{csrf_cookie}"
    );
    assert!(form.body.contains("id=\"login-form\""));
    let refused = b.post(
        "/login/",
        &[("username", "fay"), ("password", "open sesame")],
    );
    assert_eq!(refused.status, 403);
    assert!(!b.cookies.contains_key("sessionid"));

    // A wrong password shows the form again with an error.
    let form = b.get("/login/");
    let wrong = b.post(
        "/login/",
        &[
            ("csrfmiddlewaretoken", &csrf_of(&form.body)),
            ("username", "fay"),
            ("password", "nope"),
        ],
    );
    assert_eq!(wrong.status, 200);
    assert!(element_text(&wrong.body, "login-error")
        .unwrap()
        .contains("correct username and password"));

    // The right one: a session cookie (HttpOnly, SameSite=Lax, not Secure over plain HTTP)
    // and a redirect to a local page only.
    let ok = log_in(&mut b, "fay", "open sesame");
    assert_eq!(ok.status, 302);
    assert_eq!(ok.location.as_deref(), Some("/user/api-tokens/"));
    let session = b
        .set_cookies
        .iter()
        .find(|c| c.starts_with("sessionid="))
        .unwrap()
        .clone();
    assert!(
        session.contains("HttpOnly") && session.contains("SameSite=Lax"),
        "{session}"
    );
    assert!(!session.contains("Secure"), "{session}");
    assert_eq!(
        b.get("/login/?next=https://evil.example/")
            .location
            .as_deref(),
        Some("/user/api-tokens/")
    );

    // The session reads the API; writes with it need the CSRF token in X-CSRFToken.
    let html = b.get("/api/peering/autonomous-systems/");
    assert_eq!(html.status, 200);
    assert!(html.body.contains("Logged in as <strong>fay</strong>"));
    let body = json!({"asn": 64500, "name": "A"});
    let refused = b.send("POST", AS, None, &[], Some(&body));
    assert_eq!(refused.status, 403);
    assert!(refused.body.contains("CSRF"));
    let csrf = b.cookies["csrftoken"].clone();
    let refused = b.send("POST", AS, None, &[("X-CSRFToken", &csrf)], Some(&body));
    assert_eq!(refused.status, 403, "fay holds no add permission");
    let fay = s.store.users().user_id("fay").unwrap().unwrap();
    s.patch(
        &format!("/api/users/users/{fay}/"),
        json!({"permissions": ["peering.add_autonomoussystem"]}),
    );
    let created = b.send("POST", AS, None, &[("X-CSRFToken", &csrf)], Some(&body));
    assert_eq!(created.status, 201, "{}", created.body);

    // Log out: the session stops working.
    let page = b.get("/user/api-tokens/");
    let out = b.post("/logout/", &[("csrfmiddlewaretoken", &csrf_of(&page.body))]);
    assert_eq!(out.status, 302);
    assert_eq!(
        b.get("/user/api-tokens/").location.as_deref(),
        Some("/login/?next=/user/api-tokens/")
    );
}

#[test]
fn login_attempts_are_limited_per_address() {
    let s = TestServer::start();
    s.token("gus", false, true, None);
    set_password(&s, "gus", "right");
    let mut b = Browser::new(&s);
    let mut statuses = Vec::new();
    for _ in 0..11 {
        statuses.push(log_in(&mut b, "gus", "wrong").status);
    }
    assert_eq!(statuses[0], 200);
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
}

#[test]
fn the_tokens_page_creates_shows_once_and_revokes() {
    let s = TestServer::start();
    s.token("hana", false, true, None);
    set_password(&s, "hana", "pass phrase");
    let mut b = Browser::new(&s);
    // Anonymous: to the login page and back.
    assert_eq!(
        b.get("/user/api-tokens/").location.as_deref(),
        Some("/login/?next=/user/api-tokens/")
    );
    assert_eq!(log_in(&mut b, "hana", "pass phrase").status, 302);

    let page = b.get("/user/api-tokens/");
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains("id=\"tokens\""),
        "her CLI-made token is listed"
    );
    let csrf = csrf_of(&page.body);
    let refused = b.post(
        "/user/api-tokens/",
        &[("description", "no csrf"), ("write_enabled", "on")],
    );
    assert_eq!(refused.status, 403);
    let created = b.post(
        "/user/api-tokens/",
        &[
            ("csrfmiddlewaretoken", &csrf),
            ("description", "from the page"),
            ("write_enabled", "on"),
            ("expires", "2099-12-31T23:59"),
        ],
    );
    assert_eq!(created.status, 201);
    let key = element_text(&created.body, "new-token-key").expect("the new key is shown");
    assert_eq!(key.len(), 40);
    // The key works with any HTTP client; it is never shown again.
    assert_eq!(s.request("GET", AS, None, Some(&key), &[]).status, 200);
    let again = b.get("/user/api-tokens/");
    assert!(!again.body.contains(&key));
    assert!(again.body.contains("from the page"));
    assert!(again.body.contains("2099-12-31 23:59 UTC"));

    // Revoke it from the page.
    let mine = s.request("GET", TOKENS, None, Some(&key), &[]).json();
    let id = mine["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["description"] == "from the page")
        .unwrap()["id"]
        .clone();
    let revoked = b.post(
        &format!("/user/api-tokens/{id}/delete/"),
        &[("csrfmiddlewaretoken", &csrf)],
    );
    assert_eq!(revoked.status, 303);
    assert_eq!(s.request("GET", AS, None, Some(&key), &[]).status, 403);
    // Someone else's token cannot be revoked from hana's page.
    let admin_tokens = s.get(TOKENS).json();
    let admins = admin_tokens["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["user"]["username"] == "admin")
        .unwrap()["id"]
        .clone();
    assert_eq!(
        b.post(
            &format!("/user/api-tokens/{admins}/delete/"),
            &[("csrfmiddlewaretoken", &csrf)]
        )
        .status,
        404
    );
}

#[test]
fn the_browsable_api_renders_pages_with_links() {
    let s = TestServer::start();
    let items: Vec<Json> = (1..=3)
        .map(|i| json!({"asn": 64500 + i, "name": format!("Peer <{i}>")}))
        .collect();
    s.create(AS, Json::Array(items));
    let mut b = Browser::new(&s);
    let page = b.get("/api/peering/autonomous-systems/?limit=1&offset=1");
    assert_eq!(page.status, 200);
    assert!(page.body.starts_with("<!DOCTYPE html>"));
    assert!(page.body.contains("id=\"next\""), "next page link");
    assert!(page.body.contains("id=\"previous\""), "previous page link");
    assert!(page.body.contains("Peer &lt;2&gt;"), "data escaped");
    assert!(page.body.contains(&format!(
        "<a href=\"{}/api/peering/autonomous-systems/",
        s.base
    )));
    assert!(page.body.contains("id=\"login-link\""), "anonymous");
    // The root and application roots too; `format=json` gets JSON.
    assert!(b
        .get("/api/")
        .body
        .contains(&format!("<a href=\"{}/api/peering/\"", s.base)));
    let json_page = b.get("/api/peering/autonomous-systems/?format=json");
    assert!(json_page.body.starts_with('{'));
    // Errors are pages too.
    let missing = b.get("/api/peering/autonomous-systems/999/");
    assert_eq!(missing.status, 404);
    assert!(missing.body.contains("Not found."));
    // Non-browsers get JSON.
    assert!(s
        .get("/api/peering/autonomous-systems/")
        .text
        .starts_with('{'));
}

#[test]
fn cookies_are_secure_when_served_over_tls() {
    // Anyone can send X-Forwarded-Proto: it counts only from a trusted proxy.
    let untrusted = TestServer::start();
    let mut b = Browser::new(&untrusted);
    let https = [("X-Forwarded-Proto", "https")];
    b.send("GET", "/login/", None, &https, None);
    assert!(b.set_cookies.iter().all(|c| !c.contains("; Secure")));

    let s = TestServer::start_with(peering_api::Settings {
        trusted_proxies: vec!["127.0.0.1/32".parse().unwrap()],
        ..peering_api::Settings::default()
    });
    s.token("ivy", false, true, None);
    set_password(&s, "ivy", "behind a proxy");
    let mut b = Browser::new(&s);
    // A TLS-terminating proxy says so in X-Forwarded-Proto.
    let form = b.send("GET", "/login/", None, &https, None);
    assert!(
        b.set_cookies.iter().all(|c| c.contains("; Secure")),
        "{:?}",
        b.set_cookies
    );
    let csrf = csrf_of(&form.body);
    let fields = [
        ("csrfmiddlewaretoken", csrf.as_str()),
        ("username", "ivy"),
        ("password", "behind a proxy"),
    ];
    let ok = b.send("POST", "/login/", Some(&fields), &https, None);
    assert_eq!(ok.status, 302);
    let session = b
        .set_cookies
        .iter()
        .find(|c| c.starts_with("sessionid="))
        .unwrap();
    assert!(
        session.contains("; Secure") && session.contains("HttpOnly"),
        "{session}"
    );
}

/// Logs in with `next` as the page after; the answer.
fn log_in_to(b: &mut Browser, username: &str, password: &str, next: &str) -> Page {
    let form = b.get("/login/");
    let csrf = csrf_of(&form.body);
    b.post(
        "/login/",
        &[
            ("csrfmiddlewaretoken", &csrf),
            ("username", username),
            ("password", password),
            ("next", next),
        ],
    )
}

#[test]
fn after_login_the_browser_stays_on_this_server() {
    let s = TestServer::start();
    s.token("lea", false, true, None);
    set_password(&s, "lea", "correct horse");
    for next in [
        "/\t/evil.example/",
        "/\r\n/evil.example/",
        "/\\evil.example/",
        "//evil.example/",
        "https://evil.example/",
    ] {
        let mut b = Browser::new(&s);
        let page = log_in_to(&mut b, "lea", "correct horse", next);
        assert_eq!(page.status, 302, "{next:?}");
        assert_eq!(
            page.location.as_deref(),
            Some("/user/api-tokens/"),
            "{next:?}"
        );
        // The login page itself never carries such a target either.
        let encoded: String = next.bytes().map(|b| format!("%{b:02X}")).collect();
        let form = b.get(&format!("/login/?next={encoded}"));
        assert!(form.status == 200 || form.status == 302, "{next:?}");
        assert!(!form.body.contains("evil.example"), "{next:?}");
    }
    let mut b = Browser::new(&s);
    let page = log_in_to(&mut b, "lea", "correct horse", "/api/peering/?limit=5");
    assert_eq!(page.location.as_deref(), Some("/api/peering/?limit=5"));
}

#[test]
fn a_new_password_ends_the_users_browser_sessions() {
    let s = TestServer::start();
    s.token("max", false, true, None);
    set_password(&s, "max", "correct horse");
    let mut b = Browser::new(&s);
    assert_eq!(log_in(&mut b, "max", "correct horse").status, 302);
    assert_eq!(b.get("/user/api-tokens/").status, 200);
    let id = s.store.users().user_id("max").unwrap().unwrap();
    let r = s.patch(
        &format!("/api/users/users/{id}/"),
        json!({"password": "battery staple"}),
    );
    assert_eq!(r.status, 200);
    let page = b.get("/user/api-tokens/");
    assert_eq!(page.status, 302, "the session ended");
    // Changing something else keeps a new session alive.
    assert_eq!(log_in(&mut b, "max", "battery staple").status, 302);
    let r = s.patch(
        &format!("/api/users/users/{id}/"),
        json!({"first_name": "Max"}),
    );
    assert_eq!(r.status, 200);
    assert_eq!(b.get("/user/api-tokens/").status, 200);
}

#[test]
fn login_refuses_nul_bytes_with_400() {
    let s = TestServer::start();
    let mut b = Browser::new(&s);
    let page = log_in(&mut b, "ad\u{0}min", "whatever");
    assert_eq!(page.status, 400);
    assert!(page.body.contains("Null characters are not allowed."));
}

#[test]
fn pages_carry_security_headers() {
    let s = TestServer::start();
    let agent = ureq::AgentBuilder::new().redirects(0).build();
    let get = |path: &str| {
        let r = agent.get(&format!("{}{path}", s.base)).call().unwrap();
        let header = |n: &str| r.header(n).map(str::to_string);
        (
            header("X-Content-Type-Options"),
            header("X-Frame-Options"),
            header("Content-Security-Policy"),
            header("Cache-Control"),
        )
    };
    for path in ["/login/", "/api/schema/swagger-ui/"] {
        let (nosniff, frame, csp, _) = get(path);
        assert_eq!(nosniff.as_deref(), Some("nosniff"), "{path}");
        assert_eq!(frame.as_deref(), Some("DENY"), "{path}");
        let csp = csp.unwrap_or_default();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
    }
    assert_eq!(get("/login/").3.as_deref(), Some("no-store"));
    let (nosniff, frame, _, _) = get("/api/");
    assert_eq!(nosniff.as_deref(), Some("nosniff"));
    assert_eq!(frame, None);
    // Swagger UI starts from a script file of ours: no inline script to allow.
    let page = agent
        .get(&format!("{}/api/schema/swagger-ui/", s.base))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(!page.contains("<script>"));
    let init = agent
        .get(&format!(
            "{}/api/schema/swagger-ui/swagger-initializer.js",
            s.base
        ))
        .call()
        .unwrap();
    assert_eq!(init.status(), 200);
}

#[test]
fn paths_below_routes_of_their_own_that_none_takes_get_the_generic_answers() {
    let s = TestServer::start();
    // The token routes, the token pages and the schema's UI each sit in a scope: what their
    // routes do not take goes on to the generic routes, as it would without the scope.
    for path in [
        "/api/users/tokens/1/nothing/",
        "/api/schema/swagger-ui/a/b/",
    ] {
        let r = s.get(path);
        assert_eq!(r.status, 404, "{path}");
        assert!(r.json()["detail"].is_string(), "{path}: a JSON error");
    }
    let users = s.get("/api/users/users/");
    assert_eq!(users.status, 200, "a generic route beside the token routes");
    let page = s.request("GET", "/user/api-tokens/1/delete/", None, None, &[]);
    assert_eq!(
        page.status,
        s.get("/user/nothing/").status,
        "as any other page"
    );
}
