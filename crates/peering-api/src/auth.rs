//! Who is calling and what they may do: a token in `Authorization: Token <key>`, or the
//! session cookie of a person logged in with a browser; permissions per resource and action.

use std::sync::Arc;

use actix_web::http::Method;
use actix_web::{web, HttpMessage, HttpRequest};
use chrono::Utc;
use peering_auth::token::{hashes_match, KeyError, Refusal};
use peering_auth::{Access, TokenKey, TokenState};
use peering_domain::permission::{self, Action};
use peering_domain::ResourceSpec;
use peering_store::Principal;

use crate::error::ApiError;
use crate::AppState;

pub const NOT_PROVIDED: &str = "Authentication credentials were not provided.";
pub const NO_PERMISSION: &str = "You do not have permission to perform this action.";
pub const CSRF_FAILED: &str = "CSRF Failed: CSRF token missing or incorrect.";

/// The cookie holding a browser session's key.
pub const SESSION_COOKIE: &str = "sessionid";
/// The header a cookie-authenticated write carries its CSRF token in.
pub const CSRF_HEADER: &str = "X-CSRFToken";

/// The authenticated user behind a request, if any.
#[derive(Debug, Clone)]
pub struct Caller {
    pub user: Option<User>,
}

#[derive(Debug, Clone)]
pub struct User {
    pub id: i64,
    pub username: String,
    pub superuser: bool,
    pub staff: bool,
    /// Read-only tokens carry only view rights.
    pub access: Access,
    pub permissions: Arc<Vec<String>>,
    /// The session's CSRF token when authenticated by the session cookie.
    pub session_csrf: Option<String>,
}

impl User {
    fn from_principal(p: Principal, access: Access, session_csrf: Option<String>) -> User {
        User {
            id: p.user_id,
            username: p.username,
            superuser: p.is_superuser,
            staff: p.is_staff,
            access,
            permissions: Arc::new(p.permissions),
            session_csrf,
        }
    }

    /// Whether the user holds the permission to do `action` on `spec`'s objects.
    pub fn may(&self, action: Action, spec: &ResourceSpec) -> bool {
        if action != Action::View && self.access != Access::ReadWrite {
            return false;
        }
        self.superuser
            || self
                .permissions
                .iter()
                .any(|p| *p == permission::name(action, spec))
    }
}

/// Which of `spec`'s secrets the caller sees (those of what they may change, or own).
pub fn secret_view(caller: &Caller, spec: &ResourceSpec) -> peering_represent::SecretView {
    peering_represent::SecretView::of(
        caller.may(Action::Change, spec),
        caller.user.as_ref().map(|u| u.id),
        spec,
    )
}

impl Caller {
    pub fn anonymous() -> Caller {
        Caller { user: None }
    }

    /// Reads need a caller only when `LOGIN_REQUIRED` is set, and a view permission only
    /// for resources not exempted by `EXEMPT_VIEW_PERMISSIONS`.
    pub fn require_read(
        &self,
        state: &AppState,
        spec: Option<&ResourceSpec>,
    ) -> Result<(), ApiError> {
        if state.settings.login_required && self.user.is_none() {
            return Err(ApiError::Forbidden(NOT_PROVIDED.into()));
        }
        match spec {
            Some(spec) if !self.may_view(state, spec) => Err(ApiError::Forbidden(
                if self.user.is_none() {
                    NOT_PROVIDED
                } else {
                    NO_PERMISSION
                }
                .into(),
            )),
            _ => Ok(()),
        }
    }

    /// Whether the caller may list and read `spec`'s objects.
    pub fn may_view(&self, state: &AppState, spec: &ResourceSpec) -> bool {
        if state.settings.exempt_view_permissions.exempts(spec) {
            return !state.settings.login_required || self.user.is_some();
        }
        self.user
            .as_ref()
            .is_some_and(|u| u.may(Action::View, spec))
    }

    /// A write needs a caller holding the permission for it.
    pub fn require(&self, action: Action, spec: &ResourceSpec) -> Result<&User, ApiError> {
        let Some(user) = &self.user else {
            return Err(ApiError::Forbidden(NOT_PROVIDED.into()));
        };
        if !user.may(action, spec) {
            return Err(ApiError::Forbidden(NO_PERMISSION.into()));
        }
        Ok(user)
    }

    pub fn may(&self, action: Action, spec: &ResourceSpec) -> bool {
        self.user.as_ref().is_some_and(|u| u.may(action, spec))
    }

    /// A caller holding a permission by name (one of `permission::EXTRA`); `write` also
    /// needs a token that may write.
    pub fn require_named(&self, name: &str, write: bool) -> Result<&User, ApiError> {
        let user = self.require_user()?;
        let held = user.superuser || user.permissions.iter().any(|p| p == name);
        if !held || (write && user.access != Access::ReadWrite) {
            return Err(ApiError::Forbidden(NO_PERMISSION.into()));
        }
        Ok(user)
    }

    /// The caller, whoever they are, or a 403.
    pub fn require_user(&self) -> Result<&User, ApiError> {
        self.user
            .as_ref()
            .ok_or_else(|| ApiError::Forbidden(NOT_PROVIDED.into()))
    }
}

/// Resolves the request's token or session cookie; an unknown, expired or malformed key is
/// a 403, and so is a cookie-authenticated write without its CSRF token. The caller is also
/// left in the request's extensions, for the browsable API's page.
pub async fn authenticate(req: &HttpRequest, state: &AppState) -> Result<Caller, ApiError> {
    let caller = resolve(req, state).await?;
    req.extensions_mut().insert(caller.clone());
    Ok(caller)
}

async fn resolve(req: &HttpRequest, state: &AppState) -> Result<Caller, ApiError> {
    match req.headers().get("Authorization") {
        Some(header) => {
            let Ok(header) = header.to_str() else {
                return Err(ApiError::Forbidden(Refusal::Invalid.to_string()));
            };
            match TokenKey::from_header(header) {
                // Another scheme (e.g. Bearer) leaves the request anonymous, as in the
                // reference.
                None => session_caller(req, state, true).await,
                // A malformed `Token` header is refused with DRF's words.
                Some(Err(e @ (KeyError::NoCredentials | KeyError::Spaces))) => {
                    Err(ApiError::Forbidden(e.to_string()))
                }
                Some(Err(_)) => Err(ApiError::Forbidden(Refusal::Invalid.to_string())),
                Some(Ok(key)) => token_caller(state, &key, writes(req)).await,
            }
        }
        None => session_caller(req, state, true).await,
    }
}

/// The browser session's user, for web pages, whose forms carry their CSRF token in a
/// field checked by the page itself.
pub async fn session_user(req: &HttpRequest, state: &AppState) -> Result<Caller, ApiError> {
    session_caller(req, state, false).await
}

/// Whether the request may write (its method is not a safe one): its reads before the write
/// go on the write threads, and a browser's needs the CSRF header.
fn writes(req: &HttpRequest) -> bool {
    !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS)
}

async fn token_caller(
    state: &AppState,
    key: &TokenKey,
    for_write: bool,
) -> Result<Caller, ApiError> {
    let hash = key.hash();
    let record = match state.tokens.get(&hash) {
        Some(cached) => Some(cached),
        None => {
            let lookup = hash.clone();
            let found = if for_write {
                // Not behind the reads queued on the blocking pool and its connections.
                let store = state.store.on_write_connections();
                state
                    .writes
                    .run(move || store.users().token_by_hash(&lookup))
                    .await??
            } else {
                let store = state.store.clone();
                web::block(move || store.users().token_by_hash(&lookup)).await??
            };
            if let Some(t) = &found {
                state.tokens.put(t.clone());
            }
            found
        }
    };
    let Some(token) = record.filter(|t| hashes_match(&hash, &t.key_hash)) else {
        return Err(ApiError::Forbidden(Refusal::Invalid.to_string()));
    };
    let now = Utc::now();
    let access = TokenState {
        expires: token.expires,
        write_enabled: token.write_enabled,
        user_active: token.principal.is_active,
    }
    .check(now)
    .map_err(|r| ApiError::Forbidden(r.to_string()))?;
    // Recording the last use at most once a minute keeps reads free of writes.
    if token
        .last_used
        .is_none_or(|t| (now - t).num_seconds() >= 60)
    {
        state.tokens.put(peering_store::TokenRecord {
            last_used: Some(now),
            ..token.clone()
        });
        let store = state.store.clone();
        let id = token.id;
        actix_web::rt::spawn(async move {
            let _ = web::block(move || store.users().touch_token(id)).await;
        });
    }
    Ok(Caller {
        user: Some(User::from_principal(token.principal, access, None)),
    })
}

/// The session cookie's user; no cookie, or an unknown or expired one, is anonymous. API
/// writes with the cookie must carry the session's CSRF token in `X-CSRFToken`.
async fn session_caller(
    req: &HttpRequest,
    state: &AppState,
    check_csrf_header: bool,
) -> Result<Caller, ApiError> {
    let Some(cookie) = req.cookie(SESSION_COOKIE) else {
        return Ok(Caller::anonymous());
    };
    let Ok(key) = TokenKey::parse(cookie.value()) else {
        return Ok(Caller::anonymous());
    };
    let hash = key.hash();
    let store = state.store.clone();
    let found = web::block(move || store.users().session_by_hash(&hash)).await??;
    let Some(session) = found.filter(|s| s.expires > Utc::now() && s.principal.is_active) else {
        return Ok(Caller::anonymous());
    };
    if writes(req) && check_csrf_header {
        let sent = req
            .headers()
            .get(CSRF_HEADER)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        if !hashes_match(sent, &session.csrf_token) {
            return Err(ApiError::Forbidden(CSRF_FAILED.into()));
        }
    }
    Ok(Caller {
        user: Some(User::from_principal(
            session.principal,
            Access::ReadWrite,
            Some(session.csrf_token),
        )),
    })
}

/// Tokens recently looked up, kept a few seconds so that a burst of requests with one token
/// costs one query. A revoked token stops working within `TTL` on every instance.
#[derive(Debug, Default)]
pub struct TokenCache {
    entries: std::sync::Mutex<
        std::collections::HashMap<String, (std::time::Instant, peering_store::TokenRecord)>,
    >,
}

impl TokenCache {
    const TTL: std::time::Duration = std::time::Duration::from_secs(5);
    const MAX_ENTRIES: usize = 10_000;

    fn get(&self, hash: &str) -> Option<peering_store::TokenRecord> {
        let entries = self.entries.lock().ok()?;
        let (at, token) = entries.get(hash)?;
        (at.elapsed() < Self::TTL).then(|| token.clone())
    }

    fn put(&self, token: peering_store::TokenRecord) {
        if let Ok(mut entries) = self.entries.lock() {
            if entries.len() >= Self::MAX_ENTRIES {
                entries.retain(|_, (at, _)| at.elapsed() < Self::TTL);
                if entries.len() >= Self::MAX_ENTRIES {
                    entries.clear();
                }
            }
            entries.insert(token.key_hash.clone(), (std::time::Instant::now(), token));
        }
    }

    /// Forgets every cached token (after a token is revoked or changed).
    pub fn clear(&self) {
        if let Ok(mut entries) = self.entries.lock() {
            entries.clear();
        }
    }
}
