//! The canonical query-string text form that `Display` writes and [`split_query`] reads back.
//!
//! This is not an HTTP layer: it only makes the canonical form unambiguous, so that
//! values holding `&`, `=`, `%`, `+`, spaces or non-ASCII text survive a round trip.

use std::fmt;

/// Writes `text` as a form value (`application/x-www-form-urlencoded`): separators, `%`,
/// `+`, spaces (as `+`) and non-ASCII bytes escaped.
pub(crate) fn write_encoded(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    form_urlencoded::byte_serialize(text.as_bytes()).try_for_each(|part| f.write_str(part))
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
    form_urlencoded::parse(query.as_bytes())
        .map(|(key, value)| (key.into_owned(), value.into_owned()))
        .collect()
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
            "a%26b%3Dc%25d%2Be+f%23%C3%A9"
        );
        assert_eq!(Encoded("-asn,name:1").to_string(), "-asn%2Cname%3A1");
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
