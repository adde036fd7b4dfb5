//! Juniper JunOS `$9$`: a 65-character alphabet split into four families; a salt character
//! whose family decides how many filler characters follow it (3, 2, 1 or 0); then each
//! plaintext byte written as 2–4 characters, each one's distance along the alphabet from the
//! previous character (starting at the salt) being a digit of the byte in a mixed radix that
//! cycles through seven fixed weight lists.

/// The alphabet, family by family: a salt in the first family is followed by 3 filler
/// characters, in the second by 2, in the third by 1, in the last by none.
pub const ALPHABET: &str = "QzF3n6/9CAtpu0OB1IREhcSyrleKvMW8LXx7N-dVbwsY2g4oaJZGUDjiHkq.mPf5T";

/// Alphabet positions are kept as `u8` (the alphabet has 65 characters).
pub(super) const ALPHABET_LEN: u8 = 65;
const ALPHA: &[u8; 65] = b"QzF3n6/9CAtpu0OB1IREhcSyrleKvMW8LXx7N-dVbwsY2g4oaJZGUDjiHkq.mPf5T";

/// Where each family after the first starts in [`ALPHABET`].
const FAMILY_STARTS: [u8; 3] = [15, 35, 55];

/// Byte `n` is written as digits `d` with `n = Σ d[i] * weights[i]`; the list used for the
/// k-th byte is `ENCODING[k % 7]`. Every digit of a byte value is at most 63, so the
/// distance `digit + 1` never wraps the 65-character alphabet and decoding is exact.
const ENCODING: [&[u8]; 7] = [
    &[1, 4, 32],
    &[1, 16, 32],
    &[1, 8, 32],
    &[1, 64],
    &[1, 32],
    &[1, 4, 16, 128],
    &[1, 32, 64],
];

const MAGIC: &str = "$9$";

fn index_of(c: char) -> Option<u8> {
    let byte = u8::try_from(c).ok()?;
    let position = ALPHA.iter().position(|&a| a == byte)?;
    u8::try_from(position).ok()
}

fn char_at(index: u8) -> char {
    char::from(ALPHA[usize::from(index % ALPHABET_LEN)])
}

fn filler_len_at(salt: u8) -> usize {
    3 - FAMILY_STARTS.iter().filter(|&&start| salt >= start).count()
}

/// How many filler characters must follow `salt`; `None` if it is not in [`ALPHABET`].
pub fn filler_len(salt: char) -> Option<usize> {
    index_of(salt).map(filler_len_at)
}

/// Encodes `plain` (its UTF-8 bytes) with the given salt and filler characters, so the
/// output is fully determined (the filler carries no information; devices pick it at
/// random). `None` unless `salt` is in [`ALPHABET`] and `filler` is exactly
/// [`filler_len`]`(salt)` characters of it.
pub fn encrypt_with(plain: &str, salt: char, filler: &str) -> Option<String> {
    let salt = index_of(salt)?;
    let filler = filler.chars().map(index_of).collect::<Option<Vec<u8>>>()?;
    if filler.len() != filler_len_at(salt) {
        return None;
    }
    Some(encode(plain.as_bytes(), salt, &filler))
}

/// `salt` and `filler` are alphabet positions (taken modulo 65); only the first
/// [`filler_len`] filler entries are used, so callers may pass more.
pub(super) fn encode(plain: &[u8], salt: u8, filler: &[u8]) -> String {
    let salt = salt % ALPHABET_LEN;
    let mut out = String::with_capacity(MAGIC.len() + 4 + 4 * plain.len());
    out.push_str(MAGIC);
    out.push(char_at(salt));
    out.extend(filler.iter().take(filler_len_at(salt)).map(|&i| char_at(i)));
    // Chaining starts from the salt: the filler is skipped entirely.
    let mut prev = salt;
    for (pos, &byte) in plain.iter().enumerate() {
        let weights = ENCODING[pos % ENCODING.len()];
        let mut digits = [0_u8; 4];
        let mut rest = byte;
        for (digit, &weight) in digits.iter_mut().zip(weights).rev() {
            *digit = rest / weight;
            rest %= weight;
        }
        for &digit in &digits[..weights.len()] {
            // At most 64 + 63 + 1, well within u8.
            prev = (prev + digit + 1) % ALPHABET_LEN;
            out.push(char_at(prev));
        }
    }
    out
}

/// Decodes a `$9$` string. `None` without the `$9$` prefix, with a character outside
/// [`ALPHABET`], with too few filler characters or a truncated last group, or when the bytes
/// are not UTF-8. Like the reference decoders, distances are taken modulo the alphabet and
/// the sum modulo 256, so hand-made strings no encoder would produce still decode.
pub fn decrypt(encoded: &str) -> Option<String> {
    let positions = encoded
        .strip_prefix(MAGIC)?
        .chars()
        .map(index_of)
        .collect::<Option<Vec<u8>>>()?;
    let (&salt, rest) = positions.split_first()?;
    let mut body = rest.get(filler_len_at(salt)..)?;
    let mut prev = salt;
    let mut plain = Vec::with_capacity(body.len() / 2);
    while !body.is_empty() {
        let weights = ENCODING[plain.len() % ENCODING.len()];
        if body.len() < weights.len() {
            return None;
        }
        let (group, tail) = body.split_at(weights.len());
        let mut value = 0_i32;
        for (&c, &weight) in group.iter().zip(weights) {
            // (c - prev) mod 65, minus one: -1 for a repeated character, as the references.
            let gap = i32::from((c + ALPHABET_LEN - prev) % ALPHABET_LEN) - 1;
            value += gap * i32::from(weight);
            prev = c;
        }
        plain.push(u8::try_from(value.rem_euclid(256)).ok()?);
        body = tail;
    }
    String::from_utf8(plain).ok()
}
