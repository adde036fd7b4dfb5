//! The pages a person uses in a browser: log in and out, manage API tokens, and browse the
//! API as HTML. Server-rendered with maud; no scripts needed.
//!
//! Sessions: a random key in an HttpOnly, SameSite=Lax cookie (Secure over TLS), stored as
//! a hash. CSRF: every form carries a token checked against the session's (or, before
//! login, against a `csrftoken` cookie: double submit). The session cookie is
//! `crate::auth::SESSION_COOKIE`.

pub mod browsable;
mod login;
mod tokens;

use actix_web::cookie::{Cookie, SameSite};
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup, DOCTYPE};
use peering_auth::token::hashes_match;
use peering_auth::TokenKey;

use crate::auth::Caller;

/// The cookie the login form's CSRF token is double-submitted against.
const CSRF_COOKIE: &str = "csrftoken";
/// The form field carrying the CSRF token (Django's name, which tools expect).
const CSRF_FIELD: &str = "csrfmiddlewaretoken";
/// How long a browser session lasts (Django's default: two weeks).
const SESSION_DAYS: i64 = 14;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/login/", web::get().to(login::page))
        .route("/login/", web::post().to(login::submit))
        .route("/logout/", web::get().to(login::logout_page))
        .route("/logout/", web::post().to(login::logout))
        .service(
            crate::routes_below("/user/api-tokens")
                .route("/", web::get().to(tokens::page))
                .route("/", web::post().to(tokens::create))
                .route("/{id}/delete/", web::post().to(tokens::revoke)),
        );
}

fn is_tls(req: &HttpRequest) -> bool {
    crate::client::scheme(req) == "https"
}

/// A cookie as every cookie here is set: HttpOnly, SameSite=Lax, Secure over TLS, site-wide.
fn cookie(req: &HttpRequest, name: &'static str, value: String) -> Cookie<'static> {
    let mut c = Cookie::new(name, value);
    c.set_path("/");
    c.set_http_only(true);
    c.set_same_site(SameSite::Lax);
    c.set_secure(is_tls(req));
    c
}

fn expired_cookie(req: &HttpRequest, name: &'static str) -> Cookie<'static> {
    let mut c = cookie(req, name, String::new());
    c.make_removal();
    c
}

/// Whether a submitted form's CSRF token matches the session's, or before login the
/// `csrftoken` cookie's.
fn csrf_ok(req: &HttpRequest, caller: &Caller, submitted: &str) -> bool {
    let expected = match caller.user.as_ref().and_then(|u| u.session_csrf.clone()) {
        Some(token) => token,
        None => match req.cookie(CSRF_COOKIE) {
            Some(c) => c.value().to_string(),
            None => return false,
        },
    };
    !submitted.is_empty() && hashes_match(submitted, &expected)
}

/// A fresh random token (160 bits, hex).
fn random_token() -> String {
    TokenKey::generate().as_str().to_string()
}

/// A path to return to after login: only a local path, never another site.
fn local_path(base: &str, next: Option<&str>) -> String {
    match next {
        Some(p) if is_local_path(p) => p.to_string(),
        _ => format!("{base}/user/api-tokens/"),
    }
}

/// Whether `p` can only lead to a page of ours: an absolute path, not `//host`, made of
/// visible ASCII only. Browsers drop tabs and line breaks from a `Location` and read `\`
/// as `/`, so `/\t/host` or `/\\host` would leave the origin; and a line break would not
/// make a valid header at all.
pub(crate) fn is_local_path(p: &str) -> bool {
    p.starts_with('/')
        && !p.starts_with("//")
        && p.bytes().all(|b| b.is_ascii_graphic() && b != b'\\')
}

/// The frame of every page.
fn layout(title: &str, caller: &Caller, csrf: Option<&str>, base: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · peeringd" }
                style { (STYLE) }
            }
            body {
                header {
                    nav {
                        a.brand href={(base) "/api/"} { "peeringd" }
                        a href={(base) "/api/"} { "API" }
                        a href={(base) "/api/schema/swagger-ui/"} { "API docs" }
                        @if let Some(user) = &caller.user {
                            a href={(base) "/user/api-tokens/"} { "API tokens" }
                            span.user { "Logged in as " strong { (user.username) } }
                            @if let Some(token) = csrf {
                                form.inline method="post" action={(base) "/logout/"} {
                                    input type="hidden" name=(CSRF_FIELD) value=(token);
                                    button #logout type="submit" { "Log out" }
                                }
                            }
                        } @else {
                            a #login-link href={(base) "/login/"} { "Log in" }
                        }
                    }
                }
                main { h1 { (title) } (body) }
            }
        }
    }
}

fn html_response(status: actix_web::http::StatusCode, page: Markup) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header(("Cache-Control", "no-store"))
        .body(page.into_string())
}

/// The style sheet, written as text maud escapes: it holds none of `&<>"`, which a test
/// checks, so the browser reads it as written.
const STYLE: &str = "
body{font-family:system-ui,sans-serif;margin:0;color:#222;background:#fafafa}
header{background:#263238;padding:.6em 1em}
nav{display:flex;gap:1.2em;align-items:center;flex-wrap:wrap}
nav a{color:#eceff1;text-decoration:none}nav a.brand{font-weight:bold}
nav .user{color:#b0bec5;margin-left:auto}
form.inline{display:inline}
main{padding:1em 2em;max-width:80em}
table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #cfd8dc;padding:.35em .7em;text-align:left}
th{background:#eceff1}
.error{color:#b71c1c}.notice{background:#e8f5e9;border:1px solid #a5d6a7;padding:1em}
code.key{font-size:1.2em;background:#fff;padding:.2em .4em;border:1px solid #a5d6a7}
pre{background:#fff;border:1px solid #cfd8dc;padding:1em;overflow:auto}
label{display:block;margin:.6em 0}
.pager a{margin-right:1em}
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_style_sheet_needs_no_escaping() {
        assert!(!STYLE.contains(['&', '<', '>', '"']));
    }

    #[test]
    fn only_local_paths_are_followed_after_login() {
        assert_eq!(local_path("", Some("/api/")), "/api/");
        for bad in [
            "https://evil.example/",
            "//evil.example/",
            "/\\evil",
            "api/",
            "/\t/evil.example/",
            "/\n/evil.example/",
            "/\r\nSet-Cookie: a=b",
            "/ /evil.example/",
            "/\u{85}/evil",
        ] {
            assert_eq!(local_path("", Some(bad)), "/user/api-tokens/", "{bad}");
        }
        assert_eq!(local_path("/peering", None), "/peering/user/api-tokens/");
        assert_eq!(
            local_path("", Some("/api/peering/?q=a%2Fb&x=1")),
            "/api/peering/?q=a%2Fb&x=1"
        );
    }

    proptest::proptest! {
        /// Whatever is accepted stays on our origin the way a browser reads it: one
        /// leading slash, once tabs and line breaks are dropped and `\\` read as `/`,
        /// and it is a valid header value.
        #[test]
        fn an_accepted_path_stays_on_our_origin(p in "/[\t\n\r -~\u{85}]{0,12}") {
            if is_local_path(&p) {
                let browser: String = p
                    .chars()
                    .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
                    .map(|c| if c == '\\' { '/' } else { c })
                    .collect();
                proptest::prop_assert!(browser.starts_with('/') && !browser.starts_with("//"));
                proptest::prop_assert!(
                    actix_web::http::header::HeaderValue::from_str(&p).is_ok()
                );
            }
        }
    }
}
