//! Cisco IOS "type 7": two decimal digits giving an offset (the seed) into a fixed 53-byte key,
//! then each plaintext byte XORed with the key byte at `(seed + index) mod 53`, as two
//! upper-case hex digits. Example: seed 2 and `cisco` give `02050D480809`.

const KEY: &[u8; 53] = b"dsfd;kfoA,.iyewrkldJKDHSUBsgvca69834ncxv9873254k;fg87";

/// The largest seed IOS emits; [`encrypt_with_seed`] never writes a larger one.
pub const MAX_SEED: u8 = 15;

/// The largest seed [`decrypt`] accepts. Seeds past 15 never come from a device, but the
/// key table is 53 bytes long and passlib accepts any offset into it, so we do too.
pub const MAX_DECODE_SEED: u8 = 52;

const HEX: &[u8; 16] = b"0123456789ABCDEF";

fn key_stream(seed: u8) -> impl Iterator<Item = u8> {
    KEY.iter().copied().cycle().skip(usize::from(seed))
}

/// Encodes `plain` (its UTF-8 bytes) with `seed`. Seeds above [`MAX_SEED`] are taken
/// modulo 16, so the result is always something every device and decoder accepts.
pub fn encrypt_with_seed(plain: &str, seed: u8) -> String {
    let seed = seed % (MAX_SEED + 1);
    let mut out = String::with_capacity(2 + 2 * plain.len());
    out.push(char::from(b'0' + seed / 10));
    out.push(char::from(b'0' + seed % 10));
    for (byte, key) in plain.bytes().zip(key_stream(seed)) {
        let x = byte ^ key;
        out.push(char::from(HEX[usize::from(x >> 4)]));
        out.push(char::from(HEX[usize::from(x & 0x0f)]));
    }
    out
}

fn hex_value(digit: u8) -> Option<u8> {
    match digit {
        b'0'..=b'9' => Some(digit - b'0'),
        b'A'..=b'F' => Some(digit - b'A' + 10),
        b'a'..=b'f' => Some(digit - b'a' + 10),
        _ => None,
    }
}

/// Decodes a type 7 string (no `7 ` prefix, no surrounding spaces). Hex digits may be in
/// either case, like passlib. `None` for a missing or out-of-range seed, a non-hex digit,
/// an odd number of digits, or bytes that are not UTF-8.
pub fn decrypt(encoded: &str) -> Option<String> {
    let bytes = encoded.as_bytes();
    let (seed, body) = match bytes {
        [tens @ b'0'..=b'9', units @ b'0'..=b'9', body @ ..] => {
            ((tens - b'0') * 10 + (units - b'0'), body)
        }
        _ => return None,
    };
    if seed > MAX_DECODE_SEED || body.len() % 2 != 0 {
        return None;
    }
    let plain = body
        .chunks_exact(2)
        .zip(key_stream(seed))
        .map(|(pair, key)| Some((hex_value(pair[0])? << 4 | hex_value(pair[1])?) ^ key))
        .collect::<Option<Vec<u8>>>()?;
    String::from_utf8(plain).ok()
}
