//! `/api/users/tokens/`: a user lists, creates and revokes their own API tokens (superusers
//! everyone's); `/api/users/tokens/provision/` exchanges a username and password for a new
//! token. A key is shown once, in the response that creates it; only its hash is stored.

use std::net::IpAddr;

use actix_web::http::{Method, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use chrono::{DateTime, Utc};
use peering_app::logins::{self, TokenRequest};
use peering_auth::{Access, TokenKey};
use peering_store::TokenInfo;
use serde_json::{json, Map, Value as Json};

use crate::auth::{authenticate, Caller, User, NO_PERMISSION};
use crate::body::read_json;
use crate::error::ApiError;
use crate::respond::{base_url, respond};
use crate::AppState;

/// Takes one password attempt for the request's client address; `false` when it has none
/// left. Called before the request's body is read.
pub fn allow_attempt(state: &AppState, req: &HttpRequest) -> bool {
    let address = crate::client::address(req).unwrap_or(IpAddr::from([0, 0, 0, 0]));
    state.login_limiter.allow_address(address)
}

/// The message of a text field holding a NUL character, which no database column takes.
pub const NULL_CHARACTERS: &str = "Null characters are not allowed.";

/// The largest body a password exchange takes: a username, a password and a few options.
pub const CREDENTIALS_BODY_BYTES: usize = 4096;

pub const TOO_MANY_ATTEMPTS: &str = "Too many login attempts; try again in a minute.";

/// Checks a username and password; the user's id when they match an active user.
pub async fn verify_password(
    state: &AppState,
    username: String,
    password: String,
) -> Result<Option<i64>, ApiError> {
    let store = state.store.clone();
    Ok(web::block(move || logins::check_password(&store, &username, &password)).await??)
}

/// What a new token is made of, from a request body.
fn token_request(body: &Map<String, Json>) -> Result<TokenRequest, ApiError> {
    let mut errors = Map::new();
    let expires = member(body, &mut errors, "expires", parse_expires);
    let write_enabled = member(body, &mut errors, "write_enabled", |v| {
        v.as_bool()
            .ok_or_else(|| json!(["Must be a valid boolean."]))
    })
    .unwrap_or(true);
    let description =
        member(body, &mut errors, "description", parse_description).unwrap_or_default();
    let key = member(body, &mut errors, "key", |v| match v {
        Json::String(k) => TokenKey::parse_chosen(k).map_err(|e| json!([e.to_string()])),
        _ => Err(json!(["Not a valid string."])),
    });
    if !errors.is_empty() {
        return Err(ApiError::BadRequest(Json::Object(errors)));
    }
    Ok(TokenRequest {
        expires,
        write_enabled,
        description,
        key,
    })
}

/// Member `name` of a body as `parse` reads it: `None` when absent or null, or when it
/// does not parse, its messages then noted in `errors`.
fn member<T>(
    body: &Map<String, Json>,
    errors: &mut Map<String, Json>,
    name: &str,
    parse: impl FnOnce(&Json) -> Result<T, Json>,
) -> Option<T> {
    let value = body.get(name).filter(|v| !v.is_null())?;
    parse(value)
        .map_err(|messages| errors.insert(name.into(), messages))
        .ok()
}

fn parse_expires(value: &Json) -> Result<DateTime<Utc>, Json> {
    match value {
        Json::String(text) => DateTime::parse_from_rfc3339(text)
            .map(|t| t.with_timezone(&Utc))
            .map_err(|_| json!(["Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."])),
        _ => Err(json!(["Expected a date and time."])),
    }
}

fn parse_description(value: &Json) -> Result<String, Json> {
    match value {
        Json::String(s) if s.contains('\0') => Err(json!([NULL_CHARACTERS])),
        Json::String(s) if s.chars().count() <= 200 => Ok(s.clone()),
        Json::String(_) => Err(json!([
            "Ensure this field has no more than 200 characters."
        ])),
        _ => Err(json!(["Not a valid string."])),
    }
}

/// Creates a token for `user_id`; returns its listing and its key.
pub async fn issue(
    state: &AppState,
    user_id: i64,
    request: TokenRequest,
) -> Result<(TokenInfo, TokenKey), ApiError> {
    let store = state.store.clone();
    web::block(move || logins::issue_token(&store, user_id, request))
        .await?
        .map_err(|e| match e {
            peering_store::Error::Config(message) => {
                ApiError::BadRequest(json!({ "key": [message] }))
            }
            other => other.into(),
        })
}

fn time_json(t: Option<DateTime<Utc>>) -> Json {
    t.map_or(Json::Null, |t| {
        json!(t.to_rfc3339_opts(chrono::SecondsFormat::Micros, true))
    })
}

/// A token as the API shows it; `key` only when it was just created.
pub fn token_json(base: &str, t: &TokenInfo, key: Option<&TokenKey>) -> Json {
    let mut o = Map::new();
    o.insert("id".into(), json!(t.id));
    o.insert(
        "url".into(),
        json!(format!("{base}/api/users/tokens/{}/", t.id)),
    );
    o.insert(
        "display".into(),
        json!(format!("{} ({})", t.key_suffix, t.username)),
    );
    o.insert(
        "user".into(),
        json!({
            "id": t.user_id,
            "url": format!("{base}/api/users/users/{}/", t.user_id),
            "display": t.username,
            "username": t.username,
        }),
    );
    o.insert("created".into(), time_json(Some(t.created)));
    o.insert("expires".into(), time_json(t.expires));
    o.insert("last_used".into(), time_json(t.last_used));
    if let Some(key) = key {
        o.insert("key".into(), json!(key.as_str()));
    }
    o.insert("write_enabled".into(), json!(t.write_enabled));
    o.insert("description".into(), json!(t.description));
    Json::Object(o)
}

/// Writes to tokens need a write-enabled token or a browser session: a read-only token
/// must not mint a write-enabled one.
fn require_token_writer(caller: &Caller) -> Result<&User, ApiError> {
    let user = caller.require_user()?;
    if user.access != Access::ReadWrite {
        return Err(ApiError::Forbidden(NO_PERMISSION.into()));
    }
    Ok(user)
}

/// `/api/users/tokens/`
pub async fn collection(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let caller = authenticate(&req, &state).await?;
    let base = base_url(&req);
    match *req.method() {
        Method::GET | Method::HEAD => {
            let user = caller.require_user()?;
            let owner = (!user.superuser).then_some(user.id);
            let store = state.store.clone();
            let tokens = web::block(move || store.users().list_tokens(owner)).await??;
            let results: Vec<Json> = tokens.iter().map(|t| token_json(&base, t, None)).collect();
            Ok(respond(
                &req,
                StatusCode::OK,
                &json!({"count": results.len(), "next": null, "previous": null, "results": results}),
            ))
        }
        Method::POST => {
            let user = require_token_writer(&caller)?.clone();
            let (body, _turn) =
                read_json(&req, payload, &state, state.settings.max_body_bytes).await?;
            let Json::Object(fields) = body else {
                return Err(ApiError::BadRequest(
                    json!({"non_field_errors": ["Invalid data. Expected a dictionary."]}),
                ));
            };
            // Superusers may create a token for someone else.
            let owner = match fields.get("user") {
                Some(Json::Number(n)) if user.superuser => n.as_i64().unwrap_or(user.id),
                Some(Json::Object(o)) if user.superuser => {
                    o.get("id").and_then(Json::as_i64).unwrap_or(user.id)
                }
                _ => user.id,
            };
            let request = token_request(&fields)?;
            if owner != user.id {
                let store = state.store.clone();
                if web::block(move || store.users().principal(owner))
                    .await??
                    .is_none()
                {
                    return Err(ApiError::BadRequest(json!({"user": [format!(
                        "Related object not found using the provided numeric ID: {owner}"
                    )]})));
                }
            }
            let (info, key) = issue(&state, owner, request).await?;
            Ok(respond(
                &req,
                StatusCode::CREATED,
                &token_json(&base, &info, Some(&key)),
            ))
        }
        ref other => Err(ApiError::MethodNotAllowed(other.to_string())),
    }
}

/// `/api/users/tokens/{id}/`
pub async fn detail(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let caller = authenticate(&req, &state).await?;
    let id: i64 = path.into_inner().parse().map_err(|_| ApiError::NotFound)?;
    let user = caller.require_user()?.clone();
    let store = state.store.clone();
    let token = web::block(move || store.users().token(id))
        .await??
        // Someone else's token does not exist, as far as this caller can tell.
        .filter(|t| user.superuser || t.user_id == user.id)
        .ok_or(ApiError::NotFound)?;
    match *req.method() {
        Method::GET | Method::HEAD => Ok(respond(
            &req,
            StatusCode::OK,
            &token_json(&base_url(&req), &token, None),
        )),
        Method::DELETE => {
            require_token_writer(&caller)?;
            let store = state.store.clone();
            web::block(move || store.users().delete_token(id)).await??;
            // The revoked token stops working at once here (other instances within the
            // cache's few seconds).
            state.tokens.clear();
            Ok(HttpResponse::NoContent().finish())
        }
        ref other => Err(ApiError::MethodNotAllowed(other.to_string())),
    }
}

/// `/api/users/tokens/provision/`: `{"username", "password", …}` → a new token (201).
pub async fn provision(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    if req.method() != Method::POST {
        return Err(ApiError::MethodNotAllowed(req.method().to_string()));
    }
    // Before anything is read: a caller out of attempts costs nothing more.
    if !allow_attempt(&state, &req) {
        return Err(ApiError::TooManyRequests(TOO_MANY_ATTEMPTS.into()));
    }
    let (body, _turn) = read_json(&req, payload, &state, CREDENTIALS_BODY_BYTES).await?;
    let Json::Object(fields) = body else {
        return Err(ApiError::BadRequest(
            json!({"non_field_errors": ["Invalid data. Expected a dictionary."]}),
        ));
    };
    let mut invalid = Map::new();
    let mut text = |name: &str| match fields.get(name) {
        Some(Json::String(s)) if s.contains('\0') => {
            invalid.insert(name.into(), json!([NULL_CHARACTERS]));
            String::new()
        }
        Some(Json::String(s)) if !s.is_empty() => s.clone(),
        _ => {
            invalid.insert(name.into(), json!(["This field is required."]));
            String::new()
        }
    };
    let (username, password) = (text("username"), text("password"));
    if !invalid.is_empty() {
        return Err(ApiError::BadRequest(Json::Object(invalid)));
    }
    let request = token_request(&fields)?;
    if !state.login_limiter.allow_account(&username) {
        return Err(ApiError::TooManyRequests(TOO_MANY_ATTEMPTS.into()));
    }
    let Some(user_id) = verify_password(&state, username, password).await? else {
        return Err(ApiError::Forbidden("Invalid username/password".into()));
    };
    let (info, key) = issue(&state, user_id, request).await?;
    Ok(respond(
        &req,
        StatusCode::CREATED,
        &token_json(&base_url(&req), &info, Some(&key)),
    ))
}

/// `/api/users/userpref/`: the caller's preferences; PATCH merges into them.
pub async fn preferences(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let caller = authenticate(&req, &state).await?;
    let user = caller.require_user()?.clone();
    let store = state.store.clone();
    match *req.method() {
        Method::GET | Method::HEAD => {
            let prefs = web::block(move || store.users().preferences(user.id)).await??;
            Ok(respond(&req, StatusCode::OK, &prefs))
        }
        Method::PATCH => {
            require_token_writer(&caller)?;
            let (body, _turn) =
                read_json(&req, payload, &state, state.settings.max_body_bytes).await?;
            if !body.is_object() {
                return Err(ApiError::BadRequest(
                    json!({"non_field_errors": ["Invalid data. Expected a dictionary."]}),
                ));
            }
            let merged = web::block(move || -> Result<Json, peering_store::Error> {
                let mut prefs = store.users().preferences(user.id)?;
                merge(&mut prefs, body);
                store.users().set_preferences(user.id, &prefs)?;
                Ok(prefs)
            })
            .await??;
            Ok(respond(&req, StatusCode::OK, &merged))
        }
        ref other => Err(ApiError::MethodNotAllowed(other.to_string())),
    }
}

/// Deep merge: objects merge key by key, anything else replaces.
fn merge(into: &mut Json, from: Json) {
    match (into, from) {
        (Json::Object(a), Json::Object(b)) => {
            for (k, v) in b {
                merge(a.entry(k).or_insert(Json::Null), v);
            }
        }
        (slot, value) => *slot = value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preferences_merge_deeply() {
        let mut prefs = json!({"context": {"as": 1, "keep": true}, "x": [1]});
        merge(
            &mut prefs,
            json!({"context": {"as": 2}, "x": [2], "new": null}),
        );
        assert_eq!(
            prefs,
            json!({"context": {"as": 2, "keep": true}, "x": [2], "new": null})
        );
    }
}
