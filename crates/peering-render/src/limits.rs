//! Depth limits that keep a template from exhausting the stack of the thread that checks
//! or renders it.
//!
//! The engine parses an expression's chain of filters, attributes and operators in a loop
//! but builds a tree as deep as the chain, which it then compiles and frees recursively:
//! ten thousand `|lower` in one tag overflow an ordinary thread's stack. Values nested
//! deeply (lists in lists, built by a loop) are printed, serialised and compared
//! recursively. So a tag may hold at most [`MAX_TAG_OPERATORS`] operators, a value may be
//! printed or serialised only if it is nested at most [`MAX_VALUE_DEPTH`] levels, and
//! all of it runs on a thread with a stack of [`RENDER_STACK_BYTES`]. Every loop and
//! macro body ticks ([`with_ticks`]), so the render's bounds are checked at every turn.

use minijinja::value::{Value, ValueKind};

/// The most operators (filters, attribute and item lookups, calls, arithmetic and logic)
/// one `{{ … }}` or `{% … %}` tag may hold. A tag's tree is at most this deep; real
/// templates stay far below (the reference's longest chains hold a few dozen).
pub const MAX_TAG_OPERATORS: usize = 2_000;

/// How deeply a printed or serialised value may nest lists and maps.
pub const MAX_VALUE_DEPTH: usize = 500;

/// The stack of the thread a check or a render runs on. Only the pages a template
/// actually uses are ever touched, and they are given back when the thread ends; the
/// rest is address space. The engine frees, prints and compares values recursively, and
/// the memory budget caps how deep a value can nest: see [`budget_for_stack`].
pub const RENDER_STACK_BYTES: usize = 1024 * 1024 * 1024;

/// The stacks tried for a render's thread, largest first: a system that accounts memory
/// strictly, or has less than a gigabyte, may refuse to reserve the largest.
pub const RENDER_STACKS: [usize; 3] = [RENDER_STACK_BYTES, 256 * 1024 * 1024, 64 * 1024 * 1024];

/// Bytes of stack a byte of memory budget needs. A level of nesting holds about 80 bytes
/// and takes up to about 600 bytes of stack when printed or compared (measured on a
/// debug build: a list nested 1.7 million levels deep concatenated to a string on a
/// 1 GiB stack), so a budget of an eighth of the stack keeps the deepest value it allows
/// within the stack.
pub const STACK_PER_BUDGET_BYTE: usize = 8;

/// The memory budget a render gets on a thread with this stack: what it asks for, at
/// most an eighth of the stack (128 MiB on 1 GiB, the default's).
pub fn budget_for_stack(stack: usize, wanted: usize) -> usize {
    wanted.min(stack / STACK_PER_BUDGET_BYTE)
}

/// A tag that holds too many operators: its line and its count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooComplex {
    pub line: usize,
    pub operators: usize,
}

/// The first tag of `source` holding more than `limit` operators, if any.
///
/// The count is an upper bound of the tag's depth: every operator character and keyword
/// outside string literals counts once (`==` twice), whether it nests or not.
pub fn first_complex_tag(source: &str, limit: usize) -> Option<TooComplex> {
    tags(source)
        .into_iter()
        .find(|tag| tag.operators > limit)
        .map(|tag| TooComplex {
            line: 1 + source.as_bytes()[..tag.start]
                .iter()
                .filter(|&&b| b == b'\n')
                .count(),
            operators: tag.operators,
        })
}

/// The name of the function [`with_ticks`] calls.
pub const TICK_FUNCTION: &str = "__peeringd_tick";

/// The source with a call of [`TICK_FUNCTION`] at the start of every loop's body, every
/// macro's body and after every `{% set %}`, so that a render comes back to us at every
/// turn of a loop, every call and every assignment, whatever the template prints:
/// everything a template repeats goes through a loop or a macro, and what it keeps
/// through an assignment. The call is a `{% set %}` tag placed right after the tag, with
/// that tag's closing whitespace marker, so the output is unchanged; lines too.
pub fn with_ticks(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut copied = 0;
    for tag in tags(source) {
        if !tag.block {
            continue;
        }
        let text = &source[tag.start..tag.end];
        let inner = text[2..text.len() - 2]
            .trim_start_matches(['-', '+'])
            .trim_start();
        let keyword = inner
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .next();
        if !matches!(keyword, Some("for" | "macro" | "set")) {
            continue;
        }
        let marker = match text.as_bytes()[text.len() - 3] {
            m @ (b'-' | b'+') => char::from(m).to_string(),
            _ => String::new(),
        };
        out.push_str(&source[copied..tag.end]);
        out.push_str(&format!(
            "{{% set {TICK_FUNCTION}_ = {TICK_FUNCTION}() {marker}%}}"
        ));
        copied = tag.end;
    }
    out.push_str(&source[copied..]);
    out
}

/// A `{{ … }}` or `{% … %}` tag of a source.
struct Tag {
    start: usize,
    /// Just past its closer.
    end: usize,
    /// `{% … %}` rather than `{{ … }}`.
    block: bool,
    operators: usize,
}

/// The tags of `source` as the engine's lexer finds them: comments and the text of
/// `{% raw %}` blocks skipped, closers inside strings and brackets not taken as such.
fn tags(source: &str) -> Vec<Tag> {
    let bytes = source.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(offset) = find_tag_start(&bytes[at..]) {
        let start = at + offset;
        let opener = bytes[start + 1];
        if opener == b'#' {
            at = find(bytes, start + 2, b"#}").map_or(bytes.len(), |end| end + 2);
            continue;
        }
        let closer: &[u8] = if opener == b'{' { b"}}" } else { b"%}" };
        let scanned = scan_tag(bytes, start + 2, closer);
        at = scanned.end;
        let block = opener == b'%';
        found.push(Tag {
            start,
            end: at,
            block,
            operators: scanned.operators,
        });
        if block && is_raw_tag(&source[start..at]) {
            at = find_endraw(source, at);
        }
    }
    found
}

fn find_tag_start(bytes: &[u8]) -> Option<usize> {
    (0..bytes.len().saturating_sub(1))
        .find(|&i| bytes[i] == b'{' && matches!(bytes[i + 1], b'{' | b'%' | b'#'))
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| from + p)
}

fn is_raw_tag(tag: &str) -> bool {
    let inner = tag.trim_start_matches("{%").trim_end_matches("%}");
    inner.trim_matches(['-', '+']).trim() == "raw"
}

/// Where the text after a `{% raw %}` tag ends: after its `{% endraw %}`, or at the end.
fn find_endraw(source: &str, from: usize) -> usize {
    let mut at = from;
    while let Some(offset) = source[at..].find("{%") {
        let start = at + offset;
        let Some(end) = source[start..].find("%}").map(|e| start + e + 2) else {
            break;
        };
        let inner = source[start + 2..end - 2].trim_matches(['-', '+']).trim();
        if inner == "endraw" {
            return end;
        }
        at = start + 2;
    }
    source.len()
}

struct Scanned {
    /// Just past the tag's closer (or the end of the source).
    end: usize,
    operators: usize,
}

/// Counts the operators of the tag whose body starts at `from`, up to its closer outside
/// brackets and strings, as the engine's lexer finds it.
fn scan_tag(bytes: &[u8], from: usize, closer: &[u8]) -> Scanned {
    let (mut i, mut balance, mut operators) = (from, 0isize, 0usize);
    while i < bytes.len() {
        let b = bytes[i];
        if balance <= 0 && ends_tag(bytes, i, closer) {
            let skip = if bytes[i] == closer[0] { 2 } else { 3 };
            return Scanned {
                end: i + skip,
                operators,
            };
        }
        match b {
            b'"' | b'\'' => {
                i = skip_string(bytes, i);
                continue;
            }
            b'(' | b'[' | b'{' => {
                balance += 1;
                operators += 1;
            }
            b')' | b']' | b'}' => balance -= 1,
            b'|' | b'.' | b'+' | b'-' | b'*' | b'/' | b'%' | b'~' | b'<' | b'>' | b'=' | b'!' => {
                operators += 1
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let word_end = (i..bytes.len())
                    .find(|&j| !(bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_'))
                    .unwrap_or(bytes.len());
                if is_keyword_operator(&bytes[i..word_end]) {
                    operators += 1;
                }
                i = word_end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Scanned {
        end: bytes.len(),
        operators,
    }
}

/// Whether the tag's closer (`}}`, `%}`, or either after a `-`/`+` marker) starts at `i`.
fn ends_tag(bytes: &[u8], i: usize, closer: &[u8]) -> bool {
    let rest = &bytes[i..];
    rest.starts_with(closer)
        || (matches!(rest.first(), Some(b'-' | b'+')) && rest[1..].starts_with(closer))
}

fn is_keyword_operator(word: &[u8]) -> bool {
    matches!(
        word,
        b"not" | b"and" | b"or" | b"is" | b"in" | b"if" | b"else"
    )
}

/// Just past the string literal that starts at `start` (its quote), escapes skipped.
fn skip_string(bytes: &[u8], start: usize) -> usize {
    let quote = bytes[start];
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// Whether `value` nests lists and maps more than `limit` levels deep. The walk keeps
/// its own stack and stops at the first path past the limit; objects other than
/// sequences and maps (stored objects, namespaces) count as leaves.
pub fn nested_deeper_than(value: &Value, limit: usize) -> bool {
    let is_container = |v: &Value| matches!(v.kind(), ValueKind::Seq | ValueKind::Map);
    if !is_container(value) {
        return false;
    }
    // Only containers are kept to visit: a long list of numbers or objects costs nothing.
    let mut pending: Vec<(Value, usize)> = vec![(value.clone(), 1)];
    while let Some((container, depth)) = pending.pop() {
        if depth > limit {
            return true;
        }
        let Ok(items) = container.try_iter() else {
            continue;
        };
        let is_map = container.kind() == ValueKind::Map;
        for item in items {
            if is_map {
                if let Ok(inner) = container.get_item(&item) {
                    if is_container(&inner) {
                        pending.push((inner, depth + 1));
                    }
                }
            }
            if is_container(&item) {
                pending.push((item, depth + 1));
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_chains_are_found_on_their_line() {
        let chain = format!("ok\n{{{{ x }}}}\n{{{{ x{} }}}}", "|lower".repeat(30));
        assert_eq!(first_complex_tag(&chain, 100), None);
        assert_eq!(
            first_complex_tag(&chain, 20),
            Some(TooComplex {
                line: 3,
                operators: 30
            })
        );
        let ops = format!("{{% if 1{} %}}{{% endif %}}", " and 1".repeat(50));
        // `if` counts too.
        assert_eq!(first_complex_tag(&ops, 50).map(|t| t.operators), Some(51));
    }

    #[test]
    fn strings_comments_and_raw_text_hold_no_operators() {
        let quoted = format!("{{{{ \"{}\" ~ '}}}}|' }}}}", "|".repeat(500));
        assert_eq!(first_complex_tag(&quoted, 1).map(|t| t.operators), None);
        let comment = format!("{{# {} #}}{{{{ a }}}}", "|a".repeat(500));
        assert_eq!(first_complex_tag(&comment, 0), None);
        let raw = format!("{{% raw %}}{{{{ {} }}}}{{% endraw %}}", "|a".repeat(500));
        assert_eq!(first_complex_tag(&raw, 0), None);
    }

    #[test]
    fn a_closer_inside_brackets_does_not_end_the_tag() {
        let dict = format!("{{{{ {{'a': {{'b': 1}}}}{} }}}}", "|x".repeat(10));
        assert_eq!(first_complex_tag(&dict, 11).map(|t| t.operators), Some(12));
    }

    #[test]
    fn loops_macros_and_assignments_tick_with_their_whitespace_markers() {
        let source = "{% for i in x %}a{% endfor %}\n{%- macro m(a) -%} b {%+ endmacro %}";
        assert_eq!(
            with_ticks(source),
            "{% for i in x %}{% set __peeringd_tick_ = __peeringd_tick() %}a{% endfor %}\n\
             {%- macro m(a) -%}{% set __peeringd_tick_ = __peeringd_tick() -%} b {%+ endmacro %}"
        );
        assert_eq!(
            with_ticks("{%- set a = 1 +%}"),
            "{%- set a = 1 +%}{% set __peeringd_tick_ = __peeringd_tick() +%}"
        );
        let untouched = "{% raw %}{% for i in x %}{% endraw %}{# {% for %} #}{{ 'for' }}\
                         {% if formal %}{% endif %}{% settle %}{{ set }}";
        assert_eq!(with_ticks(untouched), untouched);
    }

    #[test]
    fn smaller_stacks_get_smaller_budgets() {
        let mib = 1024 * 1024;
        assert_eq!(budget_for_stack(RENDER_STACKS[0], 128 * mib), 128 * mib);
        assert_eq!(budget_for_stack(RENDER_STACKS[0], 512 * mib), 128 * mib);
        assert_eq!(budget_for_stack(RENDER_STACKS[1], 128 * mib), 32 * mib);
        assert_eq!(budget_for_stack(RENDER_STACKS[2], 4 * mib), 4 * mib);
    }

    #[test]
    fn nesting_is_measured_without_recursion() {
        let mut deep = Value::from(1);
        for _ in 0..100_000 {
            deep = Value::from(vec![deep]);
        }
        assert!(nested_deeper_than(&deep, MAX_VALUE_DEPTH));
        let flat = Value::from(vec![Value::from(vec![1, 2]), Value::from(3)]);
        assert!(!nested_deeper_than(&flat, 2));
        assert!(nested_deeper_than(&flat, 1));
        // Freeing the deep value recurses in the engine: give it room.
        std::thread::Builder::new()
            .stack_size(RENDER_STACK_BYTES)
            .spawn(move || drop(deep))
            .expect("thread")
            .join()
            .expect("freed");
    }
}
