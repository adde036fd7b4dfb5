//! The reference's include tags for stored templates, which Jinja2 takes as extensions:
//! `{% include_configuration "name" %}`, `{% include_email 3 %}` (by id) and
//! `{% include_exporttemplate name %}` (a bare word is a name). They are rewritten, on
//! the same lines, into what the engine knows: an `include` of `configuration::name`,
//! and a call rendering the export template (whose output is included, not its source).

use crate::source::StoredKind;

/// The name under which the loader finds a stored template.
pub fn loader_name(kind: StoredKind, identifier: &str) -> String {
    format!("{}::{identifier}", kind.tag())
}

/// The kind and identifier of a loader name.
pub fn parse_loader_name(name: &str) -> Option<(StoredKind, &str)> {
    let (tag, identifier) = name.split_once("::")?;
    Some((StoredKind::from_tag(tag)?, identifier))
}

/// The function that renders an export template for `include_exporttemplate`.
pub const EXPORT_FUNCTION: &str = "__include_exporttemplate";

/// The source with every include tag rewritten; anything else is left as it is.
pub fn rewrite(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut rest = source;
    while let Some(start) = rest.find("{%") {
        out.push_str(&rest[..start]);
        let tag = &rest[start..];
        match rewrite_tag(tag) {
            Some((replacement, consumed)) => {
                out.push_str(&replacement);
                rest = &tag[consumed..];
            }
            None => {
                out.push_str("{%");
                rest = &tag[2..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// `{%[-+] include_KIND IDENT [-+]%}` at the start of `tag`, rewritten, with the length
/// it spans.
fn rewrite_tag(tag: &str) -> Option<(String, usize)> {
    let end = tag.find("%}")? + 2;
    let inner = &tag[2..end - 2];
    let (open, inner) = split_marker_front(inner);
    let (inner, close) = split_marker_back(inner);
    let body = inner.trim();
    let (name, argument) = body.split_once(char::is_whitespace)?;
    let kind = StoredKind::from_tag(name.strip_prefix("include_")?)?;
    let identifier = identifier(argument.trim())?;
    if identifier.contains(['\n', '"', '\\']) {
        return None;
    }
    let target = loader_name(kind, &identifier);
    let replacement = if kind == StoredKind::ExportTemplate {
        format!("{{{{{open} {EXPORT_FUNCTION}(\"{identifier}\") {close}}}}}")
    } else {
        format!("{{%{open} include \"{target}\" {close}%}}")
    };
    Some((replacement, end))
}

fn split_marker_front(inner: &str) -> (&str, &str) {
    match inner.strip_prefix(['-', '+']) {
        Some(rest) => (&inner[..1], rest),
        None => ("", inner),
    }
}

fn split_marker_back(inner: &str) -> (&str, &str) {
    match inner.strip_suffix(['-', '+']) {
        Some(rest) => (rest, &inner[inner.len() - 1..]),
        None => (inner, ""),
    }
}

/// The identifier an include names: a quoted string, a number (an id) or a bare word (a
/// name), as the reference's extension reads the expression.
fn identifier(argument: &str) -> Option<String> {
    for quote in ['"', '\''] {
        if let Some(inner) = argument
            .strip_prefix(quote)
            .and_then(|a| a.strip_suffix(quote))
        {
            return Some(inner.to_string());
        }
    }
    let word = argument.chars().all(|c| c.is_alphanumeric() || c == '_');
    (word && !argument.is_empty()).then(|| argument.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_become_includes_and_calls_on_the_same_line() {
        assert_eq!(
            rewrite("a {% include_configuration \"bgp\" %} b"),
            "a {% include \"configuration::bgp\" %} b"
        );
        assert_eq!(
            rewrite("{%- include_email 3 -%}"),
            "{%- include \"email::3\" -%}"
        );
        assert_eq!(
            rewrite("{% include_exporttemplate peers %}"),
            "{{ __include_exporttemplate(\"peers\") }}"
        );
        assert_eq!(rewrite("{% if x %}{% endif %}"), "{% if x %}{% endif %}");
        assert_eq!(
            rewrite("{% include_nothing x %}"),
            "{% include_nothing x %}"
        );
        assert_eq!(rewrite("{% unfinished"), "{% unfinished");
    }

    #[test]
    fn loader_names_round_trip() {
        let name = loader_name(StoredKind::Email, "welcome");
        assert_eq!(
            parse_loader_name(&name),
            Some((StoredKind::Email, "welcome"))
        );
        assert_eq!(parse_loader_name("other::x"), None);
    }
}
