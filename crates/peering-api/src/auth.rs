//! Who is calling: the token in `Authorization: Token <key>`, checked against the store.

use actix_web::{web, HttpRequest};
use chrono::Utc;
use peering_auth::token::{hashes_match, Refusal};
use peering_auth::{Access, TokenKey, TokenState};

use crate::error::ApiError;
use crate::AppState;

const NOT_PROVIDED: &str = "Authentication credentials were not provided.";
const NO_PERMISSION: &str = "You do not have permission to perform this action.";

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
    pub access: Access,
}

impl Caller {
    /// Reads need a token only when `LOGIN_REQUIRED` is set.
    pub fn require_read(&self, state: &AppState) -> Result<(), ApiError> {
        if state.settings.login_required && self.user.is_none() {
            return Err(ApiError::Forbidden(NOT_PROVIDED.into()));
        }
        Ok(())
    }

    /// Writes always need a write-enabled token of a user allowed to change objects.
    pub fn require_write(&self) -> Result<&User, ApiError> {
        let Some(user) = &self.user else {
            return Err(ApiError::Forbidden(NOT_PROVIDED.into()));
        };
        if !self.can_write() {
            return Err(ApiError::Forbidden(NO_PERMISSION.into()));
        }
        Ok(user)
    }

    /// Until per-model permissions exist, only superusers hold add/change/delete rights.
    pub fn can_write(&self) -> bool {
        self.user
            .as_ref()
            .is_some_and(|u| u.access == Access::ReadWrite && u.superuser)
    }
}

/// Resolves the request's token; an unknown, expired or malformed key is a 403.
pub async fn authenticate(req: &HttpRequest, state: &AppState) -> Result<Caller, ApiError> {
    let Some(header) = req.headers().get("Authorization") else {
        return Ok(Caller { user: None });
    };
    let Ok(header) = header.to_str() else {
        return Err(ApiError::Forbidden(Refusal::Invalid.to_string()));
    };
    let key = match TokenKey::from_header(header) {
        // Another scheme (e.g. Bearer) leaves the request anonymous, as in the reference.
        None => return Ok(Caller { user: None }),
        Some(Err(_)) => return Err(ApiError::Forbidden(Refusal::Invalid.to_string())),
        Some(Ok(key)) => key,
    };
    let hash = key.hash();
    let record = match state.tokens.get(&hash) {
        Some(cached) => Some(cached),
        None => {
            let store = state.store.clone();
            let lookup = hash.clone();
            let found = web::block(move || store.token_by_hash(&lookup)).await??;
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
        user_active: token.is_active,
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
            let _ = web::block(move || store.touch_token(id)).await;
        });
    }
    Ok(Caller {
        user: Some(User {
            id: token.user_id,
            username: token.username,
            superuser: token.is_superuser,
            access,
        }),
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
