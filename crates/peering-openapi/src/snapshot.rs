//! The document as committed beside this crate's manifest, so that a change of the API
//! shows in review: `openapi.json` as the server serves it with the spec's field names (the
//! default), `openapi-peeringdb-names.json` with the reference's (`PEERING_FIELD_NAMES=
//! peeringdb`). Both hold every path of the 1.8 layout and, for resources that moved, of
//! 1.10. The served text is compact; these are the same values indented, keys in the
//! document's order. `cargo xtask openapi` writes them, `--check` and the test below fail
//! when they are stale.
//!
//! A plain comparison, as `cargo xtask codegen --check` does, rather than an insta
//! snapshot: the committed file is the document itself, which client generators and
//! validators read as it is (an insta file carries a header), and updating it needs only
//! the xtask, not `cargo insta`.

use peering_domain::names::FieldNames;

/// Each committed file, by name in this crate's directory, and the field names it is for.
pub const FILES: [(&str, FieldNames); 2] = [
    ("openapi.json", FieldNames::Spec),
    ("openapi-peeringdb-names.json", FieldNames::PeeringDb),
];

/// What each of [`FILES`] must hold: its name and its text.
pub fn files() -> Result<Vec<(&'static str, String)>, String> {
    FILES
        .iter()
        .map(|(name, names)| Ok((*name, pretty(*names)?)))
        .collect()
}

/// The served JSON of the document, indented, with a final newline.
pub fn pretty(names: FieldNames) -> Result<String, String> {
    let text = crate::json_for(names).ok_or("the document cannot be serialised")?;
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("the document's JSON: {e}"))?;
    let mut pretty =
        serde_json::to_string_pretty(&value).map_err(|e| format!("the document's JSON: {e}"))?;
    pretty.push('\n');
    Ok(pretty)
}

/// Where `committed` first differs from `current`, by line, for a message that says what
/// changed without printing a whole document.
pub fn first_difference(committed: &str, current: &str) -> String {
    let mut committed_lines = committed.lines();
    let mut current_lines = current.lines();
    for number in 1.. {
        match (committed_lines.next(), current_lines.next()) {
            (None, None) => break,
            (a, b) if a == b => continue,
            (a, b) => {
                return format!(
                    "line {number}: committed {:?}, now {:?}",
                    a.unwrap_or("(end)"),
                    b.unwrap_or("(end)")
                )
            }
        }
    }
    "no line differs (line endings?)".into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fails when the document differs from the committed files: an API change must show in
    /// review. Run `cargo xtask openapi`, then read and commit the diff.
    #[test]
    fn committed_document_is_current() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for (name, current) in files().expect("the document") {
            let committed = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
            assert!(
                committed == current,
                "crates/peering-openapi/{name} is stale ({}): run `cargo xtask openapi`, \
                 then review and commit the diff",
                first_difference(&committed, &current)
            );
        }
    }
}
