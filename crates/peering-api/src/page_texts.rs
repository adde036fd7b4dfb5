//! The texts of large pages, kept for the next large page instead of freed.
//!
//! A page of 1,000 objects is a text of more than a megabyte, built on a blocking thread
//! and freed on the worker that sent it. The allocator keeps freed memory a while before
//! it reuses or returns it, so under a stream of such pages each new text lands in fresh
//! memory that is faulted in again, and the kept memory stays resident: at a million
//! sessions, most of the server's peak (docs/performance.md, thirty-seventh round). A text
//! taken here goes back to a few spare buffers once its answer is sent, and the next large
//! page is written into one of them. Pages assembled from objects kept rendered take none:
//! they are sent from their parts (`respond.rs::respond_parts`).

use std::sync::Mutex;

use actix_web::web::Bytes;

/// Texts smaller than this come from the allocator and go back to it: it serves them well.
const SMALLEST_KEPT: usize = 256 * 1024;
/// A text that grew past this (a page of a thousand objects with long comments, say) is
/// freed rather than kept, so the spares stay a few megabytes whatever was asked.
const LARGEST_KEPT: usize = 4 * 1024 * 1024;
/// Spare texts kept at most: as many as large pages are built at once, and one more for
/// a page whose answer is still being sent when the next is built.
const SPARES: usize = crate::list::LARGE_PAGES_AT_ONCE + 1;

static SPARE_TEXTS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// An empty text that holds `capacity` bytes without growing: a spare one when the text
/// is large and a spare is left.
pub fn with_capacity(capacity: usize) -> String {
    if capacity < SMALLEST_KEPT {
        return String::with_capacity(capacity);
    }
    let spare = lock().pop();
    match spare {
        Some(mut text) => {
            text.reserve(capacity);
            text
        }
        None => String::with_capacity(capacity),
    }
}

/// The answer's bytes, without a copy; a large text goes back to the spares once the last
/// holder of these bytes (the connection that sends them, the answer cache) lets go.
pub fn into_bytes(text: String) -> Bytes {
    if is_kept_size(text.capacity()) {
        Bytes::from_owner(Returned(text))
    } else {
        Bytes::from(text)
    }
}

fn is_kept_size(capacity: usize) -> bool {
    (SMALLEST_KEPT..=LARGEST_KEPT).contains(&capacity)
}

/// The spares, whichever thread panicked while holding them: they hold no invariant a
/// panic could break.
fn lock() -> std::sync::MutexGuard<'static, Vec<String>> {
    SPARE_TEXTS.lock().unwrap_or_else(|e| e.into_inner())
}

/// A text whose bytes are an answer; on drop, it goes back to the spares if there is room.
struct Returned(String);

impl AsRef<[u8]> for Returned {
    fn as_ref(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

impl Drop for Returned {
    fn drop(&mut self) {
        let mut text = std::mem::take(&mut self.0);
        text.clear();
        let mut spares = lock();
        if spares.len() < SPARES {
            spares.push(text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spares are shared by the whole process: the tests touching them take turns.
    static TURN: Mutex<()> = Mutex::new(());

    #[test]
    fn a_large_text_sent_is_the_next_large_page_s_buffer() {
        let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
        lock().clear();
        let mut text = with_capacity(SMALLEST_KEPT * 2);
        text.push_str("{\"count\":1}");
        let address = text.as_ptr();
        let bytes = into_bytes(text);
        assert_eq!(&bytes[..], b"{\"count\":1}");
        let held = bytes.clone();
        drop(bytes);
        assert!(
            lock().is_empty(),
            "taken back while the answer is still held"
        );
        drop(held);
        let next = with_capacity(SMALLEST_KEPT);
        assert_eq!(next.as_ptr(), address);
        assert!(next.is_empty());
        assert!(next.capacity() >= SMALLEST_KEPT * 2);
    }

    #[test]
    fn small_and_oversized_texts_are_never_kept_and_spares_are_bounded() {
        let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
        lock().clear();
        drop(into_bytes(String::with_capacity(1024)));
        drop(into_bytes(String::with_capacity(LARGEST_KEPT + 1)));
        assert!(lock().is_empty());
        let texts: Vec<_> = (0..SPARES + 3)
            .map(|_| with_capacity(SMALLEST_KEPT))
            .collect();
        for text in texts {
            drop(into_bytes(text));
        }
        assert_eq!(lock().len(), SPARES);
        lock().clear();
    }
}
