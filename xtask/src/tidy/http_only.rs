//! The API crate holds only HTTP: every module of `crates/peering-api/src` names something
//! of HTTP (actix, a request, an answer, a status, a header, or the crate's HTTP error). A
//! module that names none of it does work that is not HTTP's, and belongs in the
//! application layer, the representation crate or the domain.

use std::fs;
use std::path::Path;

/// Words that show a module does HTTP work.
const HTTP_WORDS: &[&str] = &[
    "actix",
    "HttpRequest",
    "HttpResponse",
    "StatusCode",
    "http::",
    "header",
    "ApiError",
];

/// The API crate's modules that name nothing of HTTP.
pub fn problems(api_src: &Path) -> Result<Vec<String>, String> {
    let mut found = Vec::new();
    for file in super::rust_files(api_src)? {
        let text = fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        if let Some(problem) = problem(&file.display().to_string(), &text) {
            found.push(problem);
        }
    }
    Ok(found)
}

fn problem(file: &str, text: &str) -> Option<String> {
    let http = HTTP_WORDS.iter().any(|word| text.contains(word));
    (!http).then(|| {
        format!("{file}: names nothing of HTTP; move it out of peering-api (docs/ARCHITECTURE.md)")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_module_without_http_is_named() {
        let plain = "//! Counting.\npub fn count() -> usize { 0 }\n";
        assert!(problem("counts.rs", plain).is_some());
        let handler = "//! A page.\nuse actix_web::HttpResponse;\n";
        assert!(problem("page.rs", handler).is_none());
    }
}
