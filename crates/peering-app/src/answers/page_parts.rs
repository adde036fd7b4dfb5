//! A page assembled from objects kept rendered, held as its parts: the head, then the
//! objects' texts shared with the kept ones, not copied into a text of its own.
//!
//! A page of 1,000 sessions is 1.3 MB. Copied whole, it was a megabyte-sized block for each
//! page being built or still being sent, which under a stream of such pages stayed resident
//! beside the texts themselves; held as parts, it is a thousand pointers, and its bytes are
//! copied a piece at a time as the connection takes them (docs/performance.md, "Large pages
//! sent from the kept texts").

use std::sync::Arc;

use super::texts::KeptText;

/// The page's parts, in order: `head` (which opens the results' array), the objects'
/// texts separated by commas, then `]}`.
#[derive(Debug, Default)]
pub struct PageParts {
    head: String,
    texts: Vec<Arc<KeptText>>,
}

/// Where a copy of a page, piece after piece, has got to.
#[derive(Debug, Default, Clone, Copy)]
pub struct Cursor {
    piece: usize,
    /// Bytes of that piece already copied.
    at: usize,
}

const SEPARATOR: &[u8] = b",";
const TAIL: &[u8] = b"]}";

impl PageParts {
    pub fn new(head: String) -> PageParts {
        PageParts {
            head,
            texts: Vec::new(),
        }
    }

    pub(super) fn push(&mut self, text: Arc<KeptText>) {
        self.texts.push(text);
    }

    /// The page's length in bytes.
    pub fn len(&self) -> usize {
        let texts: usize = self.texts.iter().map(|t| t.text.len()).sum();
        let separators = self.texts.len().saturating_sub(1);
        self.head.len() + texts + separators + TAIL.len()
    }

    /// Never: a page has at least its head and tail.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The page's `n`th piece, in order (`None` past the last): the head, then each text
    /// with a separator between two, then the tail.
    pub fn piece(&self, n: usize) -> Option<&[u8]> {
        // Pieces 1, 3, 5… are the texts, 2, 4… the separators between them.
        let tail = (2 * self.texts.len()).max(1);
        match n {
            0 => Some(self.head.as_bytes()),
            n if n == tail => Some(TAIL),
            n if n > tail => None,
            n if n % 2 == 1 => self.texts.get(n / 2).map(|t| t.text.as_bytes()),
            _ => Some(SEPARATOR),
        }
    }

    /// Appends to `out` the page's bytes from `cursor` on, up to `most` of them, and moves
    /// the cursor past them; appends nothing once the page is all copied.
    pub fn copy_next(&self, cursor: &mut Cursor, out: &mut Vec<u8>, most: usize) {
        let mut room = most;
        while room > 0 {
            let Some(piece) = self.piece(cursor.piece) else {
                return;
            };
            let rest = &piece[cursor.at.min(piece.len())..];
            if rest.len() <= room {
                out.extend_from_slice(rest);
                room -= rest.len();
                *cursor = Cursor {
                    piece: cursor.piece + 1,
                    at: 0,
                };
            } else {
                out.extend_from_slice(&rest[..room]);
                cursor.at += room;
                room = 0;
            }
        }
    }

    /// The whole page in one text.
    pub fn into_text(self) -> String {
        let mut out = String::with_capacity(self.len());
        out.push_str(&self.head);
        for (i, text) in self.texts.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&text.text);
        }
        out.push_str("]}");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(texts: &[&str]) -> PageParts {
        let mut page = PageParts::new("{\"results\":[".into());
        for text in texts {
            page.push(Arc::new(KeptText::for_tests(text)));
        }
        page
    }

    impl PageParts {
        fn joined_text(&self) -> String {
            String::from_utf8(joined(self)).expect("UTF-8")
        }
    }

    fn joined(page: &PageParts) -> Vec<u8> {
        (0..)
            .map_while(|n| page.piece(n))
            .flatten()
            .copied()
            .collect()
    }

    #[test]
    fn pieces_make_the_page_and_its_length() {
        for texts in [
            &[][..],
            &["{\"id\":1}"],
            &["{\"id\":1}", "{}", "{\"id\":3}"],
        ] {
            let page = parts(texts);
            let whole = format!("{{\"results\":[{}]}}", texts.join(","));
            assert_eq!(joined(&page), whole.as_bytes());
            assert_eq!(page.len(), whole.len());
            assert_eq!(page.into_text(), whole);
        }
    }

    #[test]
    fn copies_in_bounded_steps_make_the_page() {
        let long = "x".repeat(1000);
        let page = parts(&["{}", &long, "{\"id\":2}", &long]);
        let whole = page.joined_text();
        for most in [1, 7, 999, 1000, 1001, 4096] {
            let (mut cursor, mut copied, mut steps) = (Cursor::default(), Vec::new(), 0);
            loop {
                let before = copied.len();
                page.copy_next(&mut cursor, &mut copied, most);
                let step = copied.len() - before;
                assert!(step <= most);
                if step == 0 {
                    break;
                }
                steps += 1;
            }
            assert_eq!(copied, whole.as_bytes(), "{most} at a time");
            assert_eq!(steps, whole.len().div_ceil(most));
        }
    }
}
