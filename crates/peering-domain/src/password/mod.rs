//! Reversible router password encodings (Cisco type 7, Juniper `$9$`) used to fill a BGP
//! session's `encrypted_password` when its router asks for it.
//!
//! Neither scheme is encryption in any real sense: both are fixed, keyless obfuscations that
//! exist only so configurations can carry the secret in the form the device itself would
//! print. What matters is that the output is byte-for-byte what the devices (and the usual
//! tools: passlib's `cisco_type7`, Crypt::Juniper and its ports) produce and accept.
//!
//! Both schemes work on bytes. Plaintext is taken as its UTF-8 bytes, which is what passlib
//! does for type 7 and what a device does with whatever bytes it is given; for ASCII (the only
//! thing routers let you type) every implementation agrees. Decoding that does not yield valid
//! UTF-8 is reported as malformed (`None`) rather than guessed at.

use rand::Rng;

/// A platform's `password_algorithm` choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    CiscoType7,
    JuniperType9,
}

impl Algorithm {
    /// Maps the stored choice value (`cisco-type7`, `juniper-type9`) to an algorithm.
    pub fn from_choice(value: &str) -> Option<Algorithm> {
        match value {
            "cisco-type7" => Some(Algorithm::CiscoType7),
            "juniper-type9" => Some(Algorithm::JuniperType9),
            _ => None,
        }
    }

    /// The stored choice value, the inverse of [`Algorithm::from_choice`].
    pub fn as_choice(self) -> &'static str {
        match self {
            Algorithm::CiscoType7 => "cisco-type7",
            Algorithm::JuniperType9 => "juniper-type9",
        }
    }
}

/// Encodes `plain` with a fresh random salt, as a device would.
pub fn encrypt(algorithm: Algorithm, plain: &str) -> String {
    encrypt_with_rng(algorithm, plain, &mut rand::thread_rng())
}

/// [`encrypt`] with the caller's random source, so that a seeded generator gives repeatable
/// output.
pub fn encrypt_with_rng<R: Rng + ?Sized>(algorithm: Algorithm, plain: &str, rng: &mut R) -> String {
    match algorithm {
        // Devices only ever pick seeds 0..=15.
        Algorithm::CiscoType7 => {
            cisco7::encrypt_with_seed(plain, rng.gen_range(0..=cisco7::MAX_SEED))
        }
        Algorithm::JuniperType9 => {
            let salt = rng.gen_range(0..juniper9::ALPHABET_LEN);
            let filler: [u8; 3] = std::array::from_fn(|_| rng.gen_range(0..juniper9::ALPHABET_LEN));
            juniper9::encode(plain.as_bytes(), salt, &filler)
        }
    }
}

/// Decodes `encoded`; `None` when it is not a well-formed encoding of UTF-8 text.
pub fn decrypt(algorithm: Algorithm, encoded: &str) -> Option<String> {
    match algorithm {
        Algorithm::CiscoType7 => cisco7::decrypt(encoded),
        Algorithm::JuniperType9 => juniper9::decrypt(encoded),
    }
}

pub mod cisco7;
pub mod juniper9;

#[cfg(test)]
mod tests;
