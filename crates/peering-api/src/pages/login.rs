//! `/login/` and `/logout/`.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use chrono::{Duration, Utc};
use maud::html;
use peering_auth::TokenKey;
use serde::Deserialize;

use super::{
    cookie, csrf_ok, expired_cookie, html_response, layout, local_path, random_token, CSRF_COOKIE,
    CSRF_FIELD, SESSION_DAYS,
};
use crate::auth::{session_user, Caller, CSRF_FAILED, SESSION_COOKIE};
use crate::body::read_limited;
use crate::error::ApiError;
use crate::tokens::{verify_password, CREDENTIALS_BODY_BYTES, NULL_CHARACTERS, TOO_MANY_ATTEMPTS};
use crate::AppState;

#[derive(Debug, Deserialize)]
pub struct LoginForm {
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    csrfmiddlewaretoken: String,
    #[serde(default)]
    next: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct NextQuery {
    next: Option<String>,
}

fn redirect(location: &str) -> HttpResponse {
    HttpResponse::Found()
        .insert_header((header::LOCATION, location.to_string()))
        .finish()
}

/// The login form, with a fresh CSRF cookie when there is none.
fn form_page(
    req: &HttpRequest,
    status: StatusCode,
    next: &str,
    username: &str,
    error: Option<&str>,
) -> HttpResponse {
    let token = req
        .cookie(CSRF_COOKIE)
        .map(|c| c.value().to_string())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(random_token);
    let base = crate::respond::base_path(req);
    let page = layout(
        "Log in",
        &Caller::anonymous(),
        None,
        base,
        html! {
            @if let Some(message) = error {
                p.error #login-error { (message) }
            }
            form #login-form method="post" action={(base) "/login/"} {
                input type="hidden" name=(CSRF_FIELD) value=(token);
                input type="hidden" name="next" value=(next);
                label { "Username " input #username type="text" name="username" value=(username) autofocus required autocomplete="username"; }
                label { "Password " input #password type="password" name="password" required autocomplete="current-password"; }
                button #login type="submit" { "Log in" }
            }
        },
    );
    let mut res = html_response(status, page);
    let _ = res.add_cookie(&cookie(req, CSRF_COOKIE, token));
    res
}

pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    query: web::Query<NextQuery>,
) -> Result<HttpResponse, ApiError> {
    let next = local_path(crate::respond::base_path(&req), query.next.as_deref());
    if session_user(&req, &state).await?.user.is_some() {
        return Ok(redirect(&next));
    }
    Ok(form_page(&req, StatusCode::OK, &next, "", None))
}

pub async fn submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    // Before the body is read: a caller out of attempts costs nothing more.
    if !crate::tokens::allow_attempt(&state, &req) {
        return Ok(form_page(
            &req,
            StatusCode::TOO_MANY_REQUESTS,
            &format!("{}/user/api-tokens/", crate::respond::base_path(&req)),
            "",
            Some(TOO_MANY_ATTEMPTS),
        ));
    }
    let (body, _turn) = read_limited(payload, &state, CREDENTIALS_BODY_BYTES).await?;
    let form: LoginForm = serde_urlencoded::from_bytes(&body)
        .map_err(|_| ApiError::Detail400("Malformed form.".into()))?;
    let next = local_path(crate::respond::base_path(&req), form.next.as_deref());
    if let Some(refused) = refused(&req, &state, &form, &next) {
        return Ok(refused);
    }
    let Some(user_id) = verify_password(&state, form.username.clone(), form.password).await? else {
        return Ok(form_page(
            &req,
            StatusCode::OK,
            &next,
            &form.username,
            Some("Please enter a correct username and password. Note that both fields may be case-sensitive."),
        ));
    };
    start_session(&req, &state, user_id, &next).await
}

/// The form page answering a login refused before the password is checked: a failed
/// CSRF check, null characters, or an account out of attempts.
fn refused(
    req: &HttpRequest,
    state: &AppState,
    form: &LoginForm,
    next: &str,
) -> Option<HttpResponse> {
    if !csrf_ok(req, &Caller::anonymous(), &form.csrfmiddlewaretoken) {
        return Some(form_page(
            req,
            StatusCode::FORBIDDEN,
            next,
            &form.username,
            Some("The form expired (CSRF check failed); please try again."),
        ));
    }
    if form.username.contains('\0') || form.password.contains('\0') {
        return Some(form_page(
            req,
            StatusCode::BAD_REQUEST,
            next,
            "",
            Some(NULL_CHARACTERS),
        ));
    }
    if !state.login_limiter.allow_account(&form.username) {
        return Some(form_page(
            req,
            StatusCode::TOO_MANY_REQUESTS,
            next,
            &form.username,
            Some(TOO_MANY_ATTEMPTS),
        ));
    }
    None
}

/// A new browser session for `user_id`: its cookies, and a redirect to `next`.
async fn start_session(
    req: &HttpRequest,
    state: &AppState,
    user_id: i64,
    next: &str,
) -> Result<HttpResponse, ApiError> {
    let key = TokenKey::generate();
    let csrf = random_token();
    let store = state.store.clone();
    let (hash, session_csrf) = (key.hash(), csrf.clone());
    let expires = Utc::now() + Duration::days(SESSION_DAYS);
    web::block(move || {
        store
            .users()
            .create_session(&hash, user_id, &session_csrf, expires)
    })
    .await??;
    let mut res = redirect(next);
    let mut session = cookie(req, SESSION_COOKIE, key.as_str().to_string());
    session.set_max_age(actix_web::cookie::time::Duration::days(SESSION_DAYS));
    let _ = res.add_cookie(&session);
    let _ = res.add_cookie(&cookie(req, CSRF_COOKIE, csrf));
    Ok(res)
}

#[derive(Debug, Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    csrfmiddlewaretoken: String,
}

pub async fn logout_page(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let caller = session_user(&req, &state).await?;
    let Some(csrf) = caller.user.as_ref().and_then(|u| u.session_csrf.clone()) else {
        return Ok(redirect(&format!(
            "{}/login/",
            crate::respond::base_path(&req)
        )));
    };
    let page = layout(
        "Log out",
        &caller,
        Some(&csrf),
        crate::respond::base_path(&req),
        html! { p { "Use the Log out button above to end this session." } },
    );
    Ok(html_response(StatusCode::OK, page))
}

pub async fn logout(
    req: HttpRequest,
    state: web::Data<AppState>,
    form: web::Form<CsrfForm>,
) -> Result<HttpResponse, ApiError> {
    let caller = session_user(&req, &state).await?;
    if caller.user.is_none() {
        return Ok(redirect(&format!(
            "{}/login/",
            crate::respond::base_path(&req)
        )));
    }
    if !csrf_ok(&req, &caller, &form.csrfmiddlewaretoken) {
        return Err(ApiError::Forbidden(CSRF_FAILED.into()));
    }
    if let Some(key) = req
        .cookie(SESSION_COOKIE)
        .and_then(|c| TokenKey::parse(c.value()).ok())
    {
        let store = state.store.clone();
        let hash = key.hash();
        web::block(move || store.users().delete_session(&hash)).await??;
    }
    let mut res = redirect(&format!("{}/login/", crate::respond::base_path(&req)));
    let _ = res.add_cookie(&expired_cookie(&req, SESSION_COOKIE));
    let _ = res.add_cookie(&expired_cookie(&req, CSRF_COOKIE));
    Ok(res)
}
