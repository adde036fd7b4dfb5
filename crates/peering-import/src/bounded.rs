//! A source's answer parsed as it arrives, never read past a bound: memory holds one
//! bounded page whatever the source sends (a 480 MB page once took 2.7 GB).

use std::io::{self, BufReader, Read};

use serde_json::Value as Json;

/// The most an answer of the source may take: 64 MiB. A page of 1,000 objects takes a
/// few MB (a session about 1.5 KB); the bound leaves room for objects with long texts
/// (templates, comments) and stops a source that sends without end.
pub const MAX_PAGE_BYTES: u64 = 64 * 1024 * 1024;

/// Why an answer was not read.
#[derive(Debug)]
pub enum BodyError {
    /// It went on past the bound.
    TooLarge,
    /// The connection failed.
    Io(io::Error),
}

/// Passes on at most `left` bytes, and fails once the stream has one more.
struct Bounded<R> {
    inner: R,
    left: u64,
    passed: bool,
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.left == 0 {
            // One byte more tells an answer of exactly the bound from a longer one.
            let mut probe = [0u8; 1];
            if self.inner.read(&mut probe)? == 0 {
                return Ok(0);
            }
            self.passed = true;
            return Err(io::Error::other("the answer goes on past the bound"));
        }
        let room = buf
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..room])?;
        self.left -= n as u64;
        Ok(n)
    }
}

/// The JSON of an answer of at most `bound` bytes, parsed as it arrives (no copy of the
/// raw bytes is kept); `Null` when it is not JSON (an error page).
pub fn json_within(body: impl Read, bound: u64) -> Result<Json, BodyError> {
    let bounded = Bounded {
        inner: body,
        left: bound,
        passed: false,
    };
    let mut reader = BufReader::with_capacity(64 * 1024, bounded);
    match serde_json::from_reader::<_, Json>(&mut reader) {
        Ok(json) => Ok(json),
        Err(_) if reader.get_ref().passed => Err(BodyError::TooLarge),
        Err(e) if e.is_io() => Err(BodyError::Io(e.into())),
        Err(_) => Ok(Json::Null),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An endless stream of spaces around nothing: what a source that never ends sends.
    struct Endless {
        given: u64,
    }

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            buf.fill(b' ');
            self.given += buf.len() as u64;
            Ok(buf.len())
        }
    }

    #[test]
    fn an_answer_up_to_the_bound_is_read_and_one_byte_more_is_refused() {
        let answer = br#"{"results": [1, 2, 3]}"#;
        let exact = answer.len() as u64;
        let json = json_within(&answer[..], exact).unwrap();
        assert_eq!(json["results"][2], 3);
        let refused = json_within(&answer[..], exact - 1);
        assert!(matches!(refused, Err(BodyError::TooLarge)), "{refused:?}");
        // Whitespace after the value counts too: the whole answer is bounded.
        let padded = format!("{}  ", String::from_utf8_lossy(answer));
        let refused = json_within(padded.as_bytes(), exact + 1);
        assert!(matches!(refused, Err(BodyError::TooLarge)), "{refused:?}");
    }

    #[test]
    fn an_endless_answer_is_read_no_further_than_the_bound() {
        let mut endless = Endless { given: 0 };
        let refused = json_within(&mut endless, 1024 * 1024);
        assert!(matches!(refused, Err(BodyError::TooLarge)), "{refused:?}");
        assert!(endless.given <= 1024 * 1024 + 1, "read {}", endless.given);
    }

    #[test]
    fn an_answer_that_is_not_json_is_null_and_a_broken_one_an_error() {
        let page = json_within(&b"<html>Bad gateway</html>"[..], 1024).unwrap();
        assert_eq!(page, Json::Null);
        let broken = io::Cursor::new(b"{\"results\": [".to_vec()).chain(Failing);
        assert!(matches!(json_within(broken, 1024), Err(BodyError::Io(_))));
    }

    /// A connection that breaks.
    struct Failing;

    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::new(io::ErrorKind::ConnectionReset, "reset"))
        }
    }
}
