//! Size limits a reader can live with: no source file of a crate over 500 lines, no function
//! over 60 (from its `fn` line to its closing brace). A function may be longer when the line
//! before it (among its attributes and docs) says why: `// tidy: long fn: <reason>`.

/// Most lines a file of `crates/*/src` may have.
pub const MAX_FILE_LINES: usize = 500;
/// Most lines a function may have.
pub const MAX_FN_LINES: usize = 60;
/// The comment that lets the function after it be longer, followed by the reason.
const LONG_FN_MARK: &str = "// tidy: long fn:";

/// A function's name, first line and number of lines.
#[derive(Debug, PartialEq, Eq)]
pub struct FnSpan {
    pub name: String,
    pub line: usize,
    pub lines: usize,
}

/// The problems of one file: its length (when `check_file_length`) and its long functions.
pub fn problems(file: &str, text: &str, check_file_length: bool) -> Vec<String> {
    let mut problems = Vec::new();
    let count = text.lines().count();
    if check_file_length && count > MAX_FILE_LINES {
        problems.push(format!(
            "{file}: {count} lines (at most {MAX_FILE_LINES}: split it along its responsibilities)"
        ));
    }
    let lines: Vec<&str> = text.lines().collect();
    for span in functions(text) {
        if span.lines > MAX_FN_LINES && !excused(&lines, span.line) {
            problems.push(format!(
                "{file}:{}: fn {} has {} lines (at most {MAX_FN_LINES}, or say why with `{LONG_FN_MARK} …`)",
                span.line, span.name, span.lines
            ));
        }
    }
    problems
}

/// Whether the attributes and docs above line `line` (1-based) carry the long-fn mark.
fn excused(lines: &[&str], line: usize) -> bool {
    lines[..line.saturating_sub(1)]
        .iter()
        .rev()
        .map(|l| l.trim_start())
        .take_while(|l| l.starts_with("//") || l.starts_with("#[") || l.starts_with("#!["))
        .any(|l| l.starts_with(LONG_FN_MARK))
}

/// The functions with bodies in `text`, nested ones included.
pub fn functions(text: &str) -> Vec<FnSpan> {
    let mut scanner = Scanner::default();
    for (index, line) in text.lines().enumerate() {
        scanner.line(line, index + 1);
    }
    scanner.done
}

/// What the scanner is inside of, across lines.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum State {
    #[default]
    Code,
    BlockComment(usize),
    Str,
    RawStr(usize),
}

#[derive(Debug, Default)]
struct Scanner {
    state: State,
    depth: usize,
    /// A `fn` seen whose body has not opened yet: its name, line and the parentheses and
    /// angle brackets open in its signature.
    pending: Option<(String, usize, isize)>,
    /// Open bodies: name, first line, the depth their `{` opened at.
    open: Vec<(String, usize, usize)>,
    done: Vec<FnSpan>,
}

impl Scanner {
    fn line(&mut self, line: &str, number: usize) {
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            i = match self.state {
                State::Code => self.code(&chars, i, number),
                State::BlockComment(depth) => self.block_comment(&chars, i, depth),
                State::Str => self.string(&chars, i),
                State::RawStr(hashes) => self.raw_string(&chars, i, hashes),
            };
        }
    }

    fn block_comment(&mut self, chars: &[char], i: usize, depth: usize) -> usize {
        match (chars[i], chars.get(i + 1)) {
            ('*', Some('/')) if depth == 1 => self.state = State::Code,
            ('*', Some('/')) => self.state = State::BlockComment(depth - 1),
            ('/', Some('*')) => self.state = State::BlockComment(depth + 1),
            _ => return i + 1,
        }
        i + 2
    }

    fn string(&mut self, chars: &[char], i: usize) -> usize {
        match chars[i] {
            '\\' => i + 2,
            '"' => {
                self.state = State::Code;
                i + 1
            }
            _ => i + 1,
        }
    }

    fn raw_string(&mut self, chars: &[char], i: usize, hashes: usize) -> usize {
        let closes = chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#'));
        if closes {
            self.state = State::Code;
            return i + 1 + hashes;
        }
        i + 1
    }

    fn code(&mut self, chars: &[char], i: usize, number: usize) -> usize {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let after_ident = i > 0 && is_ident(chars[i - 1]);
        match c {
            '/' if next == Some('/') => chars.len(),
            '/' if next == Some('*') => {
                self.state = State::BlockComment(1);
                i + 2
            }
            '"' => {
                self.state = State::Str;
                i + 1
            }
            'r' if !after_ident && raw_string_start(chars, i + 1).is_some() => {
                let hashes = raw_string_start(chars, i + 1).unwrap_or(0);
                self.state = State::RawStr(hashes);
                i + 2 + hashes
            }
            '\'' => skip_char_literal(chars, i),
            'f' if !after_ident
                && next == Some('n')
                && chars.get(i + 2).is_some_and(|c| c.is_whitespace()) =>
            {
                self.pending = Some((fn_name(chars, i + 2), number, 0));
                i + 2
            }
            _ => {
                self.punctuation(c, number);
                i + 1
            }
        }
    }

    fn punctuation(&mut self, c: char, number: usize) {
        if let Some((_, _, nesting)) = &mut self.pending {
            match c {
                '(' | '<' => *nesting += 1,
                ')' | '>' => *nesting -= 1,
                ';' if *nesting <= 0 => self.pending = None,
                _ => {}
            }
        }
        match c {
            '{' => {
                let opens_body = self.pending.as_ref().is_some_and(|(_, _, n)| *n <= 0);
                if opens_body {
                    if let Some((name, line, _)) = self.pending.take() {
                        self.open.push((name, line, self.depth));
                    }
                }
                self.depth += 1;
            }
            '}' => {
                self.depth = self.depth.saturating_sub(1);
                if self.open.last().is_some_and(|(_, _, at)| *at == self.depth) {
                    if let Some((name, line, _)) = self.open.pop() {
                        let lines = number + 1 - line;
                        self.done.push(FnSpan { name, line, lines });
                    }
                }
            }
            _ => {}
        }
    }
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The number of `#` of a raw string whose `r` is just before `at`, if one starts there.
fn raw_string_start(chars: &[char], at: usize) -> Option<usize> {
    let hashes = chars[at.min(chars.len())..]
        .iter()
        .take_while(|c| **c == '#')
        .count();
    (chars.get(at + hashes) == Some(&'"')).then_some(hashes)
}

/// Past a character literal at `i` (`'x'`, `'\n'`, `'\u{..}'`), or past the quote of a
/// lifetime.
fn skip_char_literal(chars: &[char], i: usize) -> usize {
    if chars.get(i + 1) == Some(&'\\') {
        let close = chars[i + 2..].iter().position(|c| *c == '\'');
        return close.map_or(chars.len(), |p| i + 3 + p);
    }
    if chars.get(i + 2) == Some(&'\'') {
        return i + 3;
    }
    i + 1
}

fn fn_name(chars: &[char], from: usize) -> String {
    chars[from..]
        .iter()
        .skip_while(|c| c.is_whitespace())
        .take_while(|c| is_ident(**c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_are_measured_from_fn_to_closing_brace() {
        let text = "fn a() {\n    let s = \"}\";\n    let c = '}';\n}\n\nimpl X {\n    pub fn b<'a>(x: &'a str) -> Option<&'a str>\n    where\n        'a: 'a,\n    {\n        // }\n        /* { */\n        Some(r#\"{\"#)\n    }\n    fn decl();\n}\n";
        let spans = functions(text);
        assert_eq!(
            spans,
            [
                FnSpan {
                    name: "a".into(),
                    line: 1,
                    lines: 4
                },
                FnSpan {
                    name: "b".into(),
                    line: 7,
                    lines: 8
                },
            ]
        );
    }

    #[test]
    fn nested_functions_are_measured_alone() {
        let text = "fn outer() {\n    fn inner() {\n    }\n    let x = 1;\n}\n";
        let spans = functions(text);
        assert_eq!(
            spans[0],
            FnSpan {
                name: "inner".into(),
                line: 2,
                lines: 2
            }
        );
        assert_eq!(
            spans[1],
            FnSpan {
                name: "outer".into(),
                line: 1,
                lines: 5
            }
        );
    }

    #[test]
    fn long_functions_need_a_reason() {
        let body = "    x();\n".repeat(MAX_FN_LINES);
        let long = format!("//! M.\nfn long() {{\n{body}}}\n");
        let problems = problems("f.rs", &long, true);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].starts_with("f.rs:2: fn long has 62 lines"));
        let excused =
            format!("//! M.\n// tidy: long fn: one table\n#[test]\nfn long() {{\n{body}}}\n");
        assert!(super::problems("f.rs", &excused, true).is_empty());
        let many = "x\n".repeat(MAX_FILE_LINES + 1);
        assert_eq!(super::problems("f.rs", &many, true).len(), 1);
        assert!(super::problems("f.rs", &many, false).is_empty());
    }
}
