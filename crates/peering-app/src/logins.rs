//! Logging in with a password (the login page, token provisioning) and making API tokens:
//! how many attempts a client and an account get, a check that takes the same time whether
//! the account exists or not, and a new token of which only the hash is kept.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::OnceLock;

use chrono::{DateTime, Utc};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use peering_auth::TokenKey;
use peering_store::{Error, NewToken, Store, TokenInfo};

/// Password attempts, per client address and per account: a burst of ten, then one every
/// six seconds. Counting per account too stops a guesser who spreads their attempts over
/// many addresses.
pub struct LoginLimiter {
    by_address: DefaultKeyedRateLimiter<IpAddr>,
    by_account: DefaultKeyedRateLimiter<String>,
}

impl Default for LoginLimiter {
    fn default() -> Self {
        let per_minute = NonZeroU32::new(10).unwrap_or(NonZeroU32::MIN);
        LoginLimiter {
            by_address: RateLimiter::keyed(Quota::per_minute(per_minute)),
            by_account: RateLimiter::keyed(Quota::per_minute(per_minute)),
        }
    }
}

impl std::fmt::Debug for LoginLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LoginLimiter")
    }
}

/// Keys of a limiter are forgotten once there are this many (they refill within a minute).
const MAX_LIMITER_KEYS: usize = 100_000;

impl LoginLimiter {
    /// Takes one attempt for a client address; `false` when it has none left.
    pub fn allow_address(&self, address: IpAddr) -> bool {
        if self.by_address.len() > MAX_LIMITER_KEYS {
            self.by_address.retain_recent();
        }
        self.by_address.check_key(&address).is_ok()
    }

    /// Takes one attempt for the account named `username`.
    pub fn allow_account(&self, username: &str) -> bool {
        if self.by_account.len() > MAX_LIMITER_KEYS {
            self.by_account.retain_recent();
        }
        self.by_account.check_key(&username.to_lowercase()).is_ok()
    }
}

/// The id of the active user whose password this is. Blocks for the hash check, which an
/// unknown name spends too, so that timing does not tell names apart.
pub fn check_password(store: &Store, username: &str, password: &str) -> Result<Option<i64>, Error> {
    let Some(login) = store.users().login_record(username)? else {
        let _ = peering_auth::password::verify(password, dummy_hash());
        return Ok(None);
    };
    let ok = login.is_active && peering_auth::password::verify(password, &login.password_hash);
    Ok(ok.then_some(login.user_id))
}

/// A hash of a random password, checked against when the username is unknown.
fn dummy_hash() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| {
        peering_auth::password::hash(TokenKey::generate().as_str()).unwrap_or_default()
    })
}

/// What a new token is made of.
#[derive(Debug)]
pub struct TokenRequest {
    pub expires: Option<DateTime<Utc>>,
    pub write_enabled: bool,
    pub description: String,
    /// A key the user chose; one is drawn at random otherwise.
    pub key: Option<TokenKey>,
}

/// Creates a token for `user_id`: its listing and its key, which is shown this once. A
/// chosen key already in use is refused (`Error::Config`).
pub fn issue_token(
    store: &Store,
    user_id: i64,
    request: TokenRequest,
) -> Result<(TokenInfo, TokenKey), Error> {
    let key = request.key.unwrap_or_else(TokenKey::generate);
    let id = store.users().create_token(&NewToken {
        user_id,
        key_hash: key.hash(),
        key_suffix: key.suffix().to_string(),
        expires: request.expires,
        write_enabled: request.write_enabled,
        description: request.description,
    })?;
    let info = store.users().token(id)?.ok_or(Error::NotFound)?;
    Ok((info, key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dummy_hash_is_a_real_hash_of_nothing_guessable() {
        assert!(dummy_hash().starts_with("$argon2"));
        assert!(!peering_auth::password::verify("", dummy_hash()));
    }

    #[test]
    fn an_account_runs_out_of_attempts_whatever_its_spelling() {
        let limiter = LoginLimiter::default();
        let allowed = (0..20)
            .filter(|i| limiter.allow_account(if i % 2 == 0 { "Ann" } else { "ann" }))
            .count();
        assert_eq!(allowed, 10);
        assert!(limiter.allow_account("bob"));
    }
}
