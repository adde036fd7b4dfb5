//! Rust names for resources, choice sets and their values.

use peering_domain::ResourceSpec;

/// `Autonomous System` → `AutonomousSystem`; `BGP Group` → `BgpGroup`; copies of PeeringDB
/// objects take `Pdb` before their name (`PdbNetwork`).
pub fn type_name(spec: &ResourceSpec) -> String {
    let name = spec.name.strip_prefix("PDB").unwrap_or(spec.name);
    let camel = camel(name);
    if spec.app == "peeringdb" {
        format!("Pdb{camel}")
    } else {
        camel
    }
}

/// The module of a resource's models: `AutonomousSystem` → `autonomous_system`.
pub fn module_name(spec: &ResourceSpec) -> String {
    let mut out = String::new();
    for (i, c) in type_name(spec).chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 && !out.ends_with('_') {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// Words split on anything but letters and digits; an all-capitals word is capitalised
/// (`BGP` → `Bgp`), a mixed one kept (`IXLan`).
pub fn camel(text: &str) -> String {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(|word| {
            let all_caps = word.chars().all(|c| !c.is_ascii_lowercase());
            let mut chars = word.chars();
            let first = chars.next().map(|c| c.to_ascii_uppercase());
            let rest: String = if all_caps || word.chars().all(|c| !c.is_ascii_uppercase()) {
                chars.as_str().to_ascii_lowercase()
            } else {
                chars.as_str().to_string()
            };
            first.into_iter().collect::<String>() + &rest
        })
        .collect()
}

/// A choice value as an enum variant: `import-policy` → `ImportPolicy`, `4` → `V4`, the
/// blank value → `Blank`.
pub fn variant(value: &str) -> String {
    let name = camel(value);
    match name.chars().next() {
        None => "Blank".into(),
        Some(c) if c.is_ascii_digit() => format!("V{name}"),
        Some(_) => name,
    }
}

/// A field name as a Rust identifier (`type` → `r#type`; serde strips the `r#`).
pub fn field_ident(name: &str) -> String {
    const KEYWORDS: &[&str] = &[
        "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum",
        "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move",
        "mut", "pub", "ref", "return", "static", "struct", "super", "trait", "true", "type",
        "unsafe", "use", "where", "while",
    ];
    if KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_as_rust() {
        assert_eq!(camel("Autonomous System"), "AutonomousSystem");
        assert_eq!(camel("BGP Group"), "BgpGroup");
        assert_eq!(camel("IX-API"), "IxApi");
        assert_eq!(camel("IXLan"), "IXLan");
        assert_eq!(camel("SESSION_STATUS"), "SessionStatus");
        assert_eq!(variant("import-export-policy"), "ImportExportPolicy");
        assert_eq!(variant("6"), "V6");
        assert_eq!(variant(""), "Blank");
        assert_eq!(field_ident("type"), "r#type");
    }
}
