//! `/user/api-tokens/`: a person's API tokens. Lists them (never an existing key), creates
//! one (its key shown once, on the page that follows), revokes one.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use chrono::{DateTime, NaiveDateTime, Utc};
use maud::html;
use peering_auth::TokenKey;
use peering_store::TokenInfo;
use serde::Deserialize;

use super::{csrf_ok, html_response, layout, CSRF_FIELD};
use crate::auth::{session_user, Caller, CSRF_FAILED};
use crate::error::ApiError;
use crate::tokens::issue;
use crate::AppState;
use peering_app::logins::TokenRequest;

const PAGE: &str = "/user/api-tokens/";

fn to_login(base: &str) -> HttpResponse {
    HttpResponse::Found()
        .insert_header((header::LOCATION, format!("{base}/login/?next={base}{PAGE}")))
        .finish()
}

fn when(t: Option<DateTime<Utc>>) -> String {
    t.map_or_else(
        || "never".to_string(),
        |t| t.format("%Y-%m-%d %H:%M UTC").to_string(),
    )
}

/// The page: the user's tokens, a form for a new one, and a just-created key if any.
fn render(
    base: &str,
    caller: &Caller,
    csrf: &str,
    tokens: &[TokenInfo],
    created: Option<(&TokenInfo, &TokenKey)>,
    error: Option<&str>,
) -> maud::Markup {
    layout(
        "API tokens",
        caller,
        Some(csrf),
        base,
        html! {
            @if let Some((info, key)) = created {
                div.notice #new-token {
                    p { "Token created. Copy its key now: it is not stored and will not be shown again." }
                    p { code.key #new-token-key { (key.as_str()) } }
                    p { "Use it as: " code { "Authorization: Token " (key.as_str()) } }
                    @if !info.write_enabled { p { "This token is read-only." } }
                }
            }
            @if let Some(message) = error { p.error #token-error { (message) } }
            @if tokens.is_empty() {
                p #no-tokens { "You have no API tokens." }
            } @else {
                table #tokens {
                    thead { tr { th { "Key" } th { "Description" } th { "Write enabled" } th { "Created" } th { "Expires" } th { "Last used" } th {} } }
                    tbody {
                        @for t in tokens {
                            tr {
                                td { "…" (t.key_suffix) }
                                td { (t.description) }
                                td { @if t.write_enabled { "yes" } @else { "no" } }
                                td { (when(Some(t.created))) }
                                td { (when(t.expires)) }
                                td { (when(t.last_used)) }
                                td {
                                    form.inline method="post" action=(format!("{base}{PAGE}{}/delete/", t.id)) {
                                        input type="hidden" name=(CSRF_FIELD) value=(csrf);
                                        button.revoke type="submit" { "Revoke" }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            h2 { "Create a token" }
            form #create-token method="post" action={(base) (PAGE)} {
                input type="hidden" name=(CSRF_FIELD) value=(csrf);
                label { "Description " input #description type="text" name="description" maxlength="200"; }
                label { "Expires (UTC, optional) " input #expires type="datetime-local" name="expires"; }
                label { input #write_enabled type="checkbox" name="write_enabled" value="on" checked; " Write enabled" }
                button #create type="submit" { "Create token" }
            }
        },
    )
}

async fn tokens_of(state: &AppState, user_id: i64) -> Result<Vec<TokenInfo>, ApiError> {
    let store = state.store.clone();
    Ok(web::block(move || store.users().list_tokens(Some(user_id))).await??)
}

pub async fn page(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = session_user(&req, &state).await?;
    let Some((user_id, csrf)) = session_of(&caller) else {
        return Ok(to_login(crate::respond::base_path(&req)));
    };
    let tokens = tokens_of(&state, user_id).await?;
    Ok(html_response(
        StatusCode::OK,
        render(
            crate::respond::base_path(&req),
            &caller,
            &csrf,
            &tokens,
            None,
            None,
        ),
    ))
}

fn session_of(caller: &Caller) -> Option<(i64, String)> {
    let user = caller.user.as_ref()?;
    Some((user.id, user.session_csrf.clone()?))
}

#[derive(Debug, Deserialize)]
pub struct CreateForm {
    #[serde(default)]
    csrfmiddlewaretoken: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    expires: String,
    write_enabled: Option<String>,
}

/// A `datetime-local` value (taken as UTC), or an RFC 3339 time.
fn parse_expiry(text: &str) -> Result<Option<DateTime<Utc>>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Ok(Some(t.with_timezone(&Utc)));
    }
    ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"]
        .iter()
        .find_map(|f| NaiveDateTime::parse_from_str(text, f).ok())
        .map(|t| Some(t.and_utc()))
        .ok_or_else(|| format!("{text:?} is not a date and time."))
}

pub async fn create(
    req: HttpRequest,
    state: web::Data<AppState>,
    form: web::Form<CreateForm>,
) -> Result<HttpResponse, ApiError> {
    let caller = session_user(&req, &state).await?;
    let Some((user_id, csrf)) = session_of(&caller) else {
        return Ok(to_login(crate::respond::base_path(&req)));
    };
    if !csrf_ok(&req, &caller, &form.csrfmiddlewaretoken) {
        return Err(ApiError::Forbidden(CSRF_FAILED.into()));
    }
    let (status, created, message) = match requested(&form) {
        Ok(parts) => (
            StatusCode::CREATED,
            Some(issue(&state, user_id, parts).await?),
            None,
        ),
        Err(message) => (StatusCode::BAD_REQUEST, None, Some(message)),
    };
    let tokens = tokens_of(&state, user_id).await?;
    Ok(html_response(
        status,
        render(
            crate::respond::base_path(&req),
            &caller,
            &csrf,
            &tokens,
            created.as_ref().map(|(info, key)| (info, key)),
            message.as_deref(),
        ),
    ))
}

/// The token the form asks for, or what is wrong with the form.
fn requested(form: &CreateForm) -> Result<TokenRequest, String> {
    if form.description.contains('\0') {
        return Err(crate::tokens::NULL_CHARACTERS.to_string());
    }
    Ok(TokenRequest {
        expires: parse_expiry(&form.expires)?,
        write_enabled: form.write_enabled.is_some(),
        description: form.description.chars().take(200).collect(),
        key: None,
    })
}

#[derive(Debug, Deserialize)]
pub struct RevokeForm {
    #[serde(default)]
    csrfmiddlewaretoken: String,
}

pub async fn revoke(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<RevokeForm>,
) -> Result<HttpResponse, ApiError> {
    let caller = session_user(&req, &state).await?;
    let Some((user_id, _)) = session_of(&caller) else {
        return Ok(to_login(crate::respond::base_path(&req)));
    };
    if !csrf_ok(&req, &caller, &form.csrfmiddlewaretoken) {
        return Err(ApiError::Forbidden(CSRF_FAILED.into()));
    }
    let id: i64 = path.into_inner().parse().map_err(|_| ApiError::NotFound)?;
    let store = state.store.clone();
    let revoked = web::block(move || -> Result<bool, peering_store::Error> {
        // Only one's own tokens, whoever one is.
        match store.users().token(id)? {
            Some(t) if t.user_id == user_id => store.users().delete_token(id),
            _ => Ok(false),
        }
    })
    .await??;
    if !revoked {
        return Err(ApiError::NotFound);
    }
    state.tokens.clear();
    Ok(HttpResponse::SeeOther()
        .insert_header((
            header::LOCATION,
            format!("{}{PAGE}", crate::respond::base_path(&req)),
        ))
        .finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expiry_from_a_browser_or_rfc_3339() {
        assert_eq!(parse_expiry(""), Ok(None));
        let t = parse_expiry("2030-01-02T03:04").unwrap().unwrap();
        assert_eq!(t.to_rfc3339(), "2030-01-02T03:04:00+00:00");
        let t = parse_expiry("2030-01-02T03:04:05+02:00").unwrap().unwrap();
        assert_eq!(t.to_rfc3339(), "2030-01-02T01:04:05+00:00");
        assert!(parse_expiry("tomorrow").is_err());
    }
}
