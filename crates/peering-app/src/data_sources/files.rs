//! The files a synchronisation finds, within its bounds: which names are left out (hidden
//! ones and the source's ignore rules, fnmatch patterns as the reference's), how large a
//! file and all of them may be, and a directory read into those files.

use std::io::Read;
use std::path::Path;
use std::time::{Duration, Instant};

use peering_store::FoundFile;
use sha2::{Digest, Sha256};

use super::SyncError;

/// How much one synchronisation may take in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest file, in bytes.
    pub max_file_bytes: u64,
    /// All files together (and, for a Git repository, what is downloaded), in bytes.
    pub max_total_bytes: u64,
    /// The most files.
    pub max_files: usize,
    /// How long fetching may take.
    pub timeout: Duration,
}

impl Default for Limits {
    /// Templates are small: 4 MiB a file, 64 MiB and 10,000 files in all, two minutes.
    fn default() -> Self {
        Limits {
            max_file_bytes: 4 << 20,
            max_total_bytes: 64 << 20,
            max_files: 10_000,
            timeout: Duration::from_secs(120),
        }
    }
}

impl Limits {
    /// The default bounds but for the total size and the time, which the settings give;
    /// no file may be larger than all of them together.
    pub fn with(max_total_bytes: u64, timeout: Duration) -> Limits {
        let defaults = Limits::default();
        Limits {
            max_file_bytes: defaults.max_file_bytes.min(max_total_bytes),
            max_total_bytes,
            timeout,
            ..defaults
        }
    }
}

/// The files found so far, checked against the limits as each is added.
pub(super) struct Found<'a> {
    limits: &'a Limits,
    ignore_rules: Vec<&'a str>,
    deadline: Instant,
    total: u64,
    pub(super) files: Vec<FoundFile>,
}

impl<'a> Found<'a> {
    pub(super) fn new(limits: &'a Limits, ignore_rules: &'a str, deadline: Instant) -> Self {
        Found {
            limits,
            ignore_rules: ignore_rules
                .lines()
                .map(str::trim)
                .filter(|r| !r.is_empty())
                .collect(),
            deadline,
            total: 0,
            files: Vec::new(),
        }
    }

    /// The bounds the files are checked against.
    pub(super) fn limits(&self) -> &Limits {
        self.limits
    }

    /// Whether a file of this name is left out: hidden, or matched by an ignore rule.
    pub(super) fn ignores(&self, file_name: &str) -> bool {
        file_name.starts_with('.')
            || self
                .ignore_rules
                .iter()
                .any(|rule| fnmatch(rule, file_name))
    }

    /// Refuses a file of `size` bytes past the limits, or a synchronisation past its time.
    pub(super) fn admit(&mut self, path: &str, size: u64) -> Result<(), SyncError> {
        if Instant::now() > self.deadline {
            return Err(SyncError::TimedOut(self.limits.timeout));
        }
        if size > self.limits.max_file_bytes {
            return Err(SyncError::TooLarge(format!(
                "{path} is {size} bytes, more than the {} a file may have",
                self.limits.max_file_bytes
            )));
        }
        self.total = self.total.saturating_add(size);
        if self.total > self.limits.max_total_bytes {
            return Err(SyncError::TooLarge(format!(
                "the files are more than the {} bytes a source may hold",
                self.limits.max_total_bytes
            )));
        }
        if self.files.len() >= self.limits.max_files {
            return Err(SyncError::TooLarge(format!(
                "the source holds more than {} files",
                self.limits.max_files
            )));
        }
        Ok(())
    }

    /// Adds a file's content (already admitted).
    pub(super) fn push(&mut self, path: String, bytes: Vec<u8>) {
        let hash = hex::encode(Sha256::digest(&bytes));
        let size = i64::try_from(bytes.len()).unwrap_or(i64::MAX);
        self.files.push(FoundFile {
            path,
            size,
            hash,
            text: String::from_utf8(bytes).ok(),
        });
    }
}

/// The directory a local source names: `file:///path` or the path itself.
pub(super) fn local_path(source_url: &str) -> &str {
    source_url
        .strip_prefix("file://")
        .or_else(|| source_url.strip_prefix("FILE://"))
        .unwrap_or(source_url)
}

/// Reads the files under `root` (hidden and ignored ones left out, symbolic links not
/// followed: a source holds what is in it).
pub(super) fn read_directory(root: &Path, found: &mut Found<'_>) -> Result<(), SyncError> {
    let meta = std::fs::metadata(root).map_err(|e| {
        SyncError::Fetch(format!(
            "Local path does not exist: {} ({e})",
            root.display()
        ))
    })?;
    if !meta.is_dir() {
        return Err(SyncError::Fetch(format!(
            "Local path is not a directory: {}",
            root.display()
        )));
    }
    let mut pending = vec![(root.to_path_buf(), String::new())];
    while let Some((dir, prefix)) = pending.pop() {
        let entries = std::fs::read_dir(&dir)
            .map_err(|e| SyncError::Fetch(format!("{}: {e}", dir.display())))?;
        for entry in entries {
            let entry = entry.map_err(|e| SyncError::Fetch(format!("{}: {e}", dir.display())))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let kind = entry
                .file_type()
                .map_err(|e| SyncError::Fetch(e.to_string()))?;
            let path = format!("{prefix}{name}");
            if kind.is_dir() && !name.starts_with('.') {
                pending.push((entry.path(), format!("{path}/")));
            } else if kind.is_file() && !found.ignores(&name) {
                read_file(&entry.path(), path, found)?;
            }
        }
    }
    Ok(())
}

fn read_file(on_disk: &Path, path: String, found: &mut Found<'_>) -> Result<(), SyncError> {
    let failed = |e: std::io::Error| SyncError::Fetch(format!("{path}: {e}"));
    let file = std::fs::File::open(on_disk).map_err(failed)?;
    let size = file.metadata().map_err(failed)?.len();
    found.admit(&path, size)?;
    // The file may have grown since: never read more than it was admitted with.
    let mut bytes = Vec::new();
    file.take(size).read_to_end(&mut bytes).map_err(failed)?;
    found.push(path, bytes);
    Ok(())
}

/// Whether `name` matches the shell pattern `pattern`, case-sensitively, as Python's
/// `fnmatchcase`: `*` any run, `?` one character, `[seq]` and `[!seq]` (with ranges). In
/// time proportional to the product of their lengths, whatever the pattern.
pub fn fnmatch(pattern: &str, name: &str) -> bool {
    let tokens = tokens(&pattern.chars().collect::<Vec<_>>());
    let name: Vec<char> = name.chars().collect();
    let (mut t, mut n) = (0, 0);
    // The last `*` seen, and where in the name it was last tried to end.
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match tokens.get(t) {
            Some(Token::Star) => {
                star = Some((t, n));
                t += 1;
            }
            Some(token) if token.matches(name[n]) => {
                t += 1;
                n += 1;
            }
            _ => match star {
                Some((star_at, tried)) => {
                    t = star_at + 1;
                    n = tried + 1;
                    star = Some((star_at, tried + 1));
                }
                None => return false,
            },
        }
    }
    tokens[t..].iter().all(|token| matches!(token, Token::Star))
}

/// One element of a pattern.
enum Token {
    Star,
    Any,
    Char(char),
    /// `[…]`: its members (ranges as pairs), and whether it is negated.
    Set(bool, Vec<(char, char)>),
}

impl Token {
    fn matches(&self, c: char) -> bool {
        match self {
            Token::Star | Token::Any => true,
            Token::Char(p) => *p == c,
            Token::Set(negated, members) => {
                members.iter().any(|(low, high)| *low <= c && c <= *high) != *negated
            }
        }
    }
}

fn tokens(pattern: &[char]) -> Vec<Token> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < pattern.len() {
        match pattern[i] {
            '*' => out.push(Token::Star),
            '?' => out.push(Token::Any),
            '[' => match set_end(&pattern[i..]) {
                Some(end) => {
                    out.push(set(&pattern[i + 1..i + end]));
                    i += end;
                }
                // An unclosed `[` is a plain character, as in Python.
                None => out.push(Token::Char('[')),
            },
            c => out.push(Token::Char(c)),
        }
        i += 1;
    }
    out
}

/// The index of the `]` closing the set that opens `pattern` (a `]` first in the set, or
/// after `!`, is a member).
fn set_end(pattern: &[char]) -> Option<usize> {
    let mut i = 1;
    if pattern.get(i) == Some(&'!') {
        i += 1;
    }
    if pattern.get(i) == Some(&']') {
        i += 1;
    }
    (i..pattern.len()).find(|&j| pattern[j] == ']')
}

fn set(inside: &[char]) -> Token {
    let (negated, inside) = match inside.split_first() {
        Some(('!', rest)) => (true, rest),
        _ => (false, inside),
    };
    let mut members = Vec::new();
    let mut i = 0;
    while i < inside.len() {
        if i + 2 < inside.len() && inside[i + 1] == '-' {
            members.push((inside[i], inside[i + 2]));
            i += 3;
        } else {
            members.push((inside[i], inside[i]));
            i += 1;
        }
    }
    Token::Set(negated, members)
}

#[cfg(test)]
mod tests {
    use super::fnmatch;

    #[test]
    fn patterns_match_as_fnmatchcase() {
        assert!(fnmatch("*.txt", "notes.txt"));
        assert!(!fnmatch("*.txt", "notes.txt.bak"));
        assert!(fnmatch("README*", "README.md"));
        assert!(!fnmatch("readme*", "README.md"));
        assert!(fnmatch("file?.j2", "file1.j2"));
        assert!(!fnmatch("file?.j2", "file10.j2"));
        assert!(fnmatch("[abc]*", "bird.conf"));
        assert!(!fnmatch("[!abc]*", "bird.conf"));
        assert!(fnmatch("v[0-9].j2", "v7.j2"));
        assert!(fnmatch("[]]x", "]x"));
        assert!(fnmatch("a[b", "a[b"));
        assert!(fnmatch("*", ""));
        assert!(!fnmatch("?", ""));
        assert!(fnmatch("a*b*c", "aXXbYYc"));
        assert!(!fnmatch("a*b*c", "aXXbYY"));
        let long = "a".repeat(255);
        assert!(!fnmatch("*a*a*a*a*a*a*a*a*a*b", &long));
    }
}
