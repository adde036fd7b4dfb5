//! The canonical query-string text form that `Display` writes and [`split_query`] reads back.
//!
//! This is not an HTTP layer: it only makes the canonical form unambiguous, so that
//! values holding `&`, `=`, `%`, `+`, spaces or non-ASCII text survive a round trip.

use std::fmt;

/// Writes `text`, percent-encoding bytes that would break `key=value&...` splitting.
pub(crate) fn write_encoded(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    for byte in text.bytes() {
        // Printable ASCII stays readable; separators, `%`, `+` (a space in forms) and
        // everything else, including UTF-8 continuation bytes, is escaped.
        let plain = byte.is_ascii_graphic() && !matches!(byte, b'%' | b'&' | b'=' | b'+' | b'#');
        if plain {
            write!(f, "{}", char::from(byte))?;
        } else {
            write!(f, "%{byte:02X}")?;
        }
    }
    Ok(())
}

/// Writes `key=value` pairs joined by `&`, percent-encoded.
pub(crate) fn write_pairs<'a>(
    f: &mut fmt::Formatter<'_>,
    pairs: impl IntoIterator<Item = (&'a str, String)>,
) -> fmt::Result {
    for (index, (key, value)) in pairs.into_iter().enumerate() {
        if index > 0 {
            f.write_str("&")?;
        }
        write_encoded(f, key)?;
        f.write_str("=")?;
        write_encoded(f, &value)?;
    }
    Ok(())
}

/// Splits a query string (with or without a leading `?`) into decoded `(key, value)` pairs.
///
/// It decodes `+` as a space and `%XX` escapes; malformed escapes are kept verbatim and
/// invalid UTF-8 is replaced, so it never fails. Empty segments (`a=1&&b=2`) are skipped.
/// It is the inverse of the `Display` forms of [`crate::Filter`] and [`crate::Predicate`].
pub fn split_query(query: &str) -> Vec<(String, String)> {
    let query = query.strip_prefix('?').unwrap_or(query);
    query
        .split('&')
        .filter(|segment| !segment.is_empty())
        .map(|segment| {
            let (key, value) = segment.split_once('=').unwrap_or((segment, ""));
            (decode(key), decode(value))
        })
        .collect()
}

/// Decodes `+` and `%XX` escapes.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'+' => out.push(b' '),
            b'%' => {
                let escaped = bytes
                    .get(index + 1..index + 3)
                    // `from_str_radix` alone would also take a sign such as `%+1`.
                    .filter(|hex| hex.iter().all(u8::is_ascii_hexdigit))
                    .and_then(|hex| std::str::from_utf8(hex).ok())
                    .and_then(|hex| u8::from_str_radix(hex, 16).ok());
                if let Some(byte) = escaped {
                    out.push(byte);
                    index += 2;
                } else {
                    out.push(b'%');
                }
            }
            other => out.push(other),
        }
        index += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Encoded<'a>(&'a str);

    impl fmt::Display for Encoded<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write_encoded(f, self.0)
        }
    }

    #[test]
    fn encoding_escapes_separators_and_non_ascii() {
        assert_eq!(
            Encoded("a&b=c%d+e f#é").to_string(),
            "a%26b%3Dc%25d%2Be%20f%23%C3%A9"
        );
        assert_eq!(Encoded("-asn,name:1").to_string(), "-asn,name:1");
    }

    #[test]
    fn splitting_decodes_and_tolerates_garbage() {
        assert_eq!(
            split_query("?a=1&&b=x+y%2B%zz%+1%4&c&=v"),
            [
                ("a".to_owned(), "1".to_owned()),
                ("b".to_owned(), "x y+%zz% 1%4".to_owned()),
                ("c".to_owned(), String::new()),
                (String::new(), "v".to_owned()),
            ]
        );
        assert_eq!(split_query("k=%C3%A9%FF")[0].1, "é\u{FFFD}");
        assert!(split_query("").is_empty());
    }

    #[test]
    fn split_inverts_encoding() {
        let text = "weird &=%+# ✓ value";
        let encoded = format!("k={}", Encoded(text));
        assert_eq!(split_query(&encoded), [("k".to_owned(), text.to_owned())]);
    }
}
