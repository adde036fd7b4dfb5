//! API token keys: generation, parsing, hashing for storage, and use checks.

use chrono::{DateTime, Utc};
use rand::rngs::OsRng;
use rand::RngCore;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// A token key as a client holds it: 40 lowercase hexadecimal characters (160 bits).
#[derive(Clone, PartialEq, Eq)]
pub struct TokenKey(String);

impl std::fmt::Debug for TokenKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The key is a secret: only its last characters are ever shown.
        write!(f, "TokenKey(…{})", self.suffix())
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KeyError {
    #[error("A token key is 40 hexadecimal characters.")]
    Malformed,
    #[error("This key is too easy to guess: use 40 random hexadecimal characters, or leave the key out and one is made for you.")]
    Weak,
    /// `Authorization: Token` with no key.
    #[error("Invalid token header. No credentials provided.")]
    NoCredentials,
    /// `Authorization: Token a b`.
    #[error("Invalid token header. Token string should not contain spaces.")]
    Spaces,
}

impl TokenKey {
    /// A fresh key from the operating system's cryptographic generator.
    pub fn generate() -> Self {
        let mut bytes = [0u8; 20];
        OsRng.fill_bytes(&mut bytes);
        TokenKey(hex::encode(bytes))
    }

    /// Accepts a key given explicitly (for example to restore a deleted token).
    pub fn parse(text: &str) -> Result<Self, KeyError> {
        let text = text.trim();
        if text.len() == 40 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
            Ok(TokenKey(text.to_ascii_lowercase()))
        } else {
            Err(KeyError::Malformed)
        }
    }

    /// A key a client or an operator chose for a new token: well-formed, and not one of
    /// the keys a guesser tries first (few distinct characters, or a short pattern
    /// repeated). A generated key fails this with a probability far below 10^-20.
    pub fn parse_chosen(text: &str) -> Result<Self, KeyError> {
        let key = Self::parse(text)?;
        let bytes = key.0.as_bytes();
        let distinct = bytes
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        let repeats = (1..=20).any(|period| (period..40).all(|i| bytes[i] == bytes[i - period]));
        if distinct < 8 || repeats {
            return Err(KeyError::Weak);
        }
        Ok(key)
    }

    /// The key from an `Authorization` header value of the form `Token <key>`.
    /// `None` when the header uses another scheme (the request is then anonymous, as in
    /// the reference); `Token` alone, or followed by more than one word, is malformed.
    pub fn from_header(value: &str) -> Option<Result<Self, KeyError>> {
        let mut words = value.split_ascii_whitespace();
        if !words.next()?.eq_ignore_ascii_case("token") {
            return None;
        }
        Some(match (words.next(), words.next()) {
            (None, _) => Err(KeyError::NoCredentials),
            (Some(_), Some(_)) => Err(KeyError::Spaces),
            (Some(key), None) => Self::parse(key),
        })
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The hash stored in place of the key.
    pub fn hash(&self) -> String {
        hex::encode(Sha256::digest(self.0.as_bytes()))
    }

    /// The last six characters, kept to help a user tell tokens apart.
    pub fn suffix(&self) -> &str {
        &self.0[self.0.len().saturating_sub(6)..]
    }
}

/// Compares a computed hash with a stored one in constant time.
pub fn hashes_match(computed: &str, stored: &str) -> bool {
    computed.as_bytes().ct_eq(stored.as_bytes()).into()
}

/// What is known of a stored token and its user when a request presents it.
#[derive(Debug, Clone)]
pub struct TokenState {
    pub expires: Option<DateTime<Utc>>,
    pub write_enabled: bool,
    pub user_active: bool,
}

/// What a request authenticated by a token may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    ReadWrite,
}

/// Why a presented token is refused, with the reference system's messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("Invalid token")]
    Invalid,
    #[error("Token expired")]
    Expired,
    #[error("User inactive")]
    UserInactive,
}

impl TokenState {
    /// Decides whether the token may be used at `now`, and for what.
    pub fn check(&self, now: DateTime<Utc>) -> Result<Access, Refusal> {
        if self.expires.is_some_and(|e| now >= e) {
            return Err(Refusal::Expired);
        }
        if !self.user_active {
            return Err(Refusal::UserInactive);
        }
        Ok(if self.write_enabled {
            Access::ReadWrite
        } else {
            Access::Read
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn chosen_keys_must_not_be_easy_to_guess() {
        for weak in [
            "0".repeat(40),
            "ab".repeat(20),
            "0123456789abcdef0123456789abcdef01234567".to_string(),
            "0000000000000000000000000000000000000001".to_string(),
        ] {
            assert_eq!(TokenKey::parse_chosen(&weak), Err(KeyError::Weak), "{weak}");
        }
        for _ in 0..1000 {
            let key = TokenKey::generate();
            assert!(TokenKey::parse_chosen(key.as_str()).is_ok());
        }
        assert_eq!(TokenKey::parse_chosen("xyz"), Err(KeyError::Malformed));
    }

    use super::*;
    use chrono::Duration;

    #[test]
    fn generated_keys_are_40_hex_and_distinct() {
        let a = TokenKey::generate();
        let b = TokenKey::generate();
        assert_eq!(a.as_str().len(), 40);
        assert!(a.as_str().bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn header_parsing() {
        let key = "0123456789abcdef0123456789abcdef01234567";
        assert_eq!(
            TokenKey::from_header(&format!("Token {key}")),
            Some(Ok(TokenKey(key.into())))
        );
        assert_eq!(TokenKey::from_header(&format!("Bearer {key}")), None);
        assert_eq!(
            TokenKey::from_header("Token abc"),
            Some(Err(KeyError::Malformed))
        );
        assert_eq!(
            TokenKey::from_header("Token"),
            Some(Err(KeyError::NoCredentials))
        );
        assert_eq!(
            TokenKey::from_header(&format!("token  {key} {key}")),
            Some(Err(KeyError::Spaces))
        );
        assert_eq!(TokenKey::from_header(""), None);
    }

    #[test]
    fn hash_is_stable_and_not_the_key() {
        let key = TokenKey::parse("0123456789ABCDEF0123456789abcdef01234567").unwrap();
        assert_eq!(key.hash(), key.hash());
        assert_eq!(key.hash().len(), 64);
        assert!(!key.hash().contains(key.as_str()));
        assert!(hashes_match(&key.hash(), &key.hash()));
        assert!(!hashes_match(&key.hash(), &TokenKey::generate().hash()));
        assert!(!format!("{key:?}").contains(key.as_str()));
    }

    #[test]
    fn expiry_activity_and_write() {
        let now = Utc::now();
        let mut s = TokenState {
            expires: None,
            write_enabled: true,
            user_active: true,
        };
        assert_eq!(s.check(now), Ok(Access::ReadWrite));
        s.write_enabled = false;
        assert_eq!(s.check(now), Ok(Access::Read));
        s.expires = Some(now - Duration::seconds(1));
        assert_eq!(s.check(now), Err(Refusal::Expired));
        s.expires = Some(now + Duration::seconds(60));
        s.user_active = false;
        assert_eq!(s.check(now), Err(Refusal::UserInactive));
    }
}
