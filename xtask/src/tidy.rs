//! `cargo xtask tidy`: checks the architecture invariants docs/ARCHITECTURE.md states, so that
//! they hold by construction rather than by review: the domain, filter, client and OpenAPI
//! crates build without a database or web framework, the API crate never names diesel, the
//! store never names actix, the application layer and the OpenAPI crate name neither, every
//! module says what it is for, every module of the API crate does HTTP work
//! (`http_only.rs`), no library code panics on `unwrap()`, files and functions stay short
//! enough to read (`lengths.rs`), and so do commit subjects (`subjects.rs`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{cargo, project_root};

mod http_only;
mod lengths;
mod subjects;

/// Crates other tools reuse alone: nothing of a database or a web framework in their tree.
const STANDALONE: &[&str] = &[
    "peering-domain",
    "peering-filter",
    "peering-client",
    "peering-openapi",
    "peering-represent",
    // Children and routers: usable by a tool of its own, with no database or HTTP.
    "peering-exec",
    "peering-routers",
];
/// Packages those crates must not pull in, even indirectly.
const HEAVY: &[&str] = &["diesel", "libsqlite3-sys", "pq-sys", "actix"];
/// (crate directory, word it must never name, in its manifest or its source).
const NEVER_NAMED: &[(&str, &str)] = &[
    ("peering-api", "diesel"),
    ("peering-store", "actix"),
    // The application layer knows neither HTTP nor SQL: `peeringd worker` runs it alone.
    ("peering-app", "actix"),
    ("peering-app", "diesel"),
    // What the API serves, said apart from HTTP: the document builds without a server.
    ("peering-openapi", "actix"),
    ("peering-openapi", "diesel"),
    // Objects as the API shows them know the domain alone: related objects come through
    // the domain's `RelatedLookup`, not the store's types.
    ("peering-represent", "peering_store"),
    ("peering-represent", "peering-store"),
];

pub fn run() -> Result<(), String> {
    let root = project_root();
    let mut problems = Vec::new();
    for name in STANDALONE {
        problems.extend(heavy_dependencies(name)?);
    }
    for (dir, word) in NEVER_NAMED {
        problems.extend(names_word(&root.join("crates").join(dir), word)?);
    }
    for file in rust_sources(root)? {
        let text = fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let shown = file
            .strip_prefix(root)
            .unwrap_or(&file)
            .display()
            .to_string();
        problems.extend(source_problems(&shown, &text));
        if shown.starts_with("crates/") {
            problems.extend(lengths::problems(&shown, &text, true));
        }
    }
    problems.extend(http_only::problems(
        &root.join("crates").join("peering-api").join("src"),
    )?);
    problems.extend(subjects::problems());
    if problems.is_empty() {
        println!("tidy: the architecture invariants hold");
        Ok(())
    } else {
        Err(format!("tidy:\n  {}", problems.join("\n  ")))
    }
}

/// The heavy packages in a crate's normal dependency tree.
fn heavy_dependencies(name: &str) -> Result<Vec<String>, String> {
    let output = Command::new(cargo())
        .args(["tree", "-p", name, "-e", "normal", "--prefix", "none"])
        .args(["--format", "{p}"])
        .current_dir(project_root())
        .output()
        .map_err(|e| format!("cargo tree: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(format!("cargo tree -p {name}: {stderr}"));
    }
    let tree = String::from_utf8_lossy(&output.stdout);
    Ok(heavy_in_tree(name, &tree))
}

fn heavy_in_tree(name: &str, tree: &str) -> Vec<String> {
    let mut found: Vec<String> = tree
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|package| HEAVY.iter().any(|heavy| package.starts_with(heavy)))
        .map(|package| format!("{name} depends on {package} (it must build without it)"))
        .collect();
    found.sort();
    found.dedup();
    found
}

/// Where a crate's manifest or source names a word it must not.
fn names_word(dir: &Path, word: &str) -> Result<Vec<String>, String> {
    let mut files = vec![dir.join("Cargo.toml")];
    files.extend(rust_files(&dir.join("src"))?);
    let mut found = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        for (number, line) in text.lines().enumerate() {
            if line.contains(word) {
                found.push(format!("{}:{}: names {word}", file.display(), number + 1));
            }
        }
    }
    Ok(found)
}

/// Every crate's and xtask's source files.
fn rust_sources(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = rust_files(&root.join("xtask").join("src"))?;
    let crates = fs::read_dir(root.join("crates")).map_err(|e| format!("crates/: {e}"))?;
    for entry in crates.flatten() {
        files.extend(rust_files(&entry.path().join("src"))?);
    }
    files.sort();
    Ok(files)
}

fn rust_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return Ok(files);
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path)?);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    Ok(files)
}

/// A module without its doc line, and `unwrap()` in code that is not a test.
fn source_problems(file: &str, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if !text.trim_start().starts_with("//!") {
        problems.push(format!(
            "{file}: no `//!` line saying what the module is for"
        ));
    }
    let is_test_module = file.ends_with("/tests.rs") || file.contains("/tests/");
    if is_test_module {
        return problems;
    }
    // Test modules sit at the end of a file, after their `#[cfg(test)]`.
    let code = text.split("#[cfg(test)]").next().unwrap_or(text);
    for (number, line) in code.lines().enumerate() {
        let comment = line.trim_start().starts_with("//");
        if line.contains(".unwrap()") && !comment {
            problems.push(format!(
                "{file}:{}: unwrap() outside tests (return an error, or say why it cannot fail with expect)",
                number + 1
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heavy_packages_are_found_at_any_depth() {
        let tree = "peering-domain v0.1.0\nserde v1.0.0\ndiesel v2.3.0\nlibsqlite3-sys v0.38.2\nserde v1.0.0";
        assert_eq!(
            heavy_in_tree("peering-domain", tree),
            [
                "peering-domain depends on diesel (it must build without it)",
                "peering-domain depends on libsqlite3-sys (it must build without it)"
            ]
        );
        assert!(heavy_in_tree("x", "serde v1\nchrono v0.4").is_empty());
    }

    #[test]
    fn modules_need_a_doc_line_and_no_unwrap_outside_tests() {
        let good =
            "//! Does one thing.\nfn f() {}\n#[cfg(test)]\nmod tests { fn t() { x.unwrap(); } }";
        assert!(source_problems("crates/a/src/f.rs", good).is_empty());
        let bad = "use x;\nfn f() { y.unwrap(); }\n// z.unwrap() in a comment\n";
        let problems = source_problems("crates/a/src/f.rs", bad);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("no `//!`"));
        assert!(problems[1].starts_with("crates/a/src/f.rs:2: unwrap()"));
        // A file that is a test module may unwrap.
        let test_module = "//! Tests.\nfn t() { x.unwrap(); }";
        assert!(source_problems("crates/a/src/openapi/tests.rs", test_module).is_empty());
    }
}
