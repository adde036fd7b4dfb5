//! User passwords, hashed with argon2 (PHC string format).

use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::Argon2;

#[derive(Debug, thiserror::Error)]
#[error("password hashing failed: {0}")]
pub struct HashError(String);

pub fn hash(password: &str) -> Result<String, HashError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| HashError(e.to_string()))
}

/// Whether `password` matches a stored hash; a malformed hash never matches.
pub fn verify(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored)
        .map(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_trip() {
        let h = super::hash("s3cret").unwrap();
        assert!(h.starts_with("$argon2"));
        assert!(super::verify("s3cret", &h));
        assert!(!super::verify("other", &h));
        assert!(!super::verify("s3cret", "not a hash"));
    }
}
