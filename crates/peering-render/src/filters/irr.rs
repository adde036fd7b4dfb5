//! Filters over an autonomous system's IRR objects: the AS-SETs it names
//! (`strip_irr_sources`) and the AS list they resolve to (`as_list`).

use minijinja::value::{Value, ValueKind};
use minijinja::Error;
use peering_domain::resources::AUTONOMOUS_SYSTEM;

use super::invalid;
use crate::model::model_of;

/// The IRR sources a set's name may be prefixed with (`RIPE::AS-EXAMPLE`): the reference's
/// default `BGPQ3_SOURCES`, which are also the server's default IRR sources.
pub const IRR_SOURCES: &[&str] = &[
    "RPKI",
    "RIPE",
    "ARIN",
    "APNIC",
    "AFRINIC",
    "LACNIC",
    "RIPE-NONAUTH",
    "RADB",
    "ALTDB",
    "NTTCOM",
    "LEVEL3",
    "TC",
];

/// The sets an `irr_as_set` names, as the reference parses it: split at `/`, `,`, `&` and
/// white space, each without a `SOURCE:` (or `SOURCE::`) prefix naming a known source
/// nor an `ipv4:`/`ipv6:` one; `AS{asn}` when it names none.
pub fn as_set_names(asn: i64, irr_as_set: &str) -> Vec<String> {
    if irr_as_set.trim().is_empty() {
        return vec![format!("AS{asn}")];
    }
    irr_as_set
        .split(|c: char| matches!(c, '/' | ',' | '&') || c.is_whitespace())
        .filter(|item| !item.is_empty())
        .map(|item| {
            let name = without_source(item);
            let name = ["ipv4:", "ipv6:"]
                .iter()
                .find_map(|family| name.strip_prefix(family))
                .unwrap_or(name);
            name.trim().to_string()
        })
        .collect()
}

/// The name after a known source and its colons (and the blanks after them), when what
/// follows is not empty; the item itself otherwise. Sources are matched as written.
fn without_source(item: &str) -> &str {
    for source in IRR_SOURCES {
        if let Some(rest) = item.strip_prefix(source) {
            if rest.starts_with(':') {
                let name = rest.trim_start_matches(':').trim_start();
                if !name.is_empty() {
                    return name;
                }
            }
        }
    }
    item
}

/// The AS-SETs of an autonomous system (or of a text holding an `irr_as_set`) without
/// their sources, each once, in the order they are named.
pub fn strip_irr_sources(value: Value) -> Result<Value, Error> {
    let names = match model_of(&value) {
        Some(model) if model.is(&AUTONOMOUS_SYSTEM) => {
            as_set_names(model.int("asn").unwrap_or(0), model.text("irr_as_set"))
        }
        Some(_) => return Err(invalid("value has no IRR AS-SET")),
        None if value.kind() == ValueKind::String => as_set_names(0, value.as_str().unwrap_or("")),
        None => return Err(invalid("value has no IRR AS-SET")),
    };
    let mut unique: Vec<String> = Vec::with_capacity(names.len());
    for name in names {
        if !unique.contains(&name) {
            unique.push(name);
        }
    }
    Ok(Value::from(unique))
}

/// An autonomous system's AS list: the AS numbers its AS-SETs hold, as last stored by an
/// IRR refresh (a render never asks the IRR itself); an empty list when none is stored.
pub fn as_list(value: Value) -> Result<Value, Error> {
    let model = model_of(&value)
        .filter(|m| m.is(&AUTONOMOUS_SYSTEM))
        .ok_or_else(|| invalid("value has no AS list"))?;
    Ok(match model.attribute("as_list") {
        Some(stored) if stored.kind() == ValueKind::Seq => stored,
        _ => Value::from(Vec::<Value>::new()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_are_split_and_stripped_as_the_reference_does() {
        assert_eq!(as_set_names(64500, "  "), ["AS64500"]);
        assert_eq!(
            as_set_names(
                0,
                "RIPE::AS-EXAMPLE RADB:AS-EXAMPLE,ipv6:AS-SIX/AS-TWO&AS65000"
            ),
            ["AS-EXAMPLE", "AS-EXAMPLE", "AS-SIX", "AS-TWO", "AS65000"]
        );
        // RIPE-NONAUTH is a source of its own, an unknown or lower-case one stays.
        assert_eq!(
            as_set_names(0, "RIPE-NONAUTH::AS-A ripe::AS-B FOO::AS-C RIPE:"),
            ["AS-A", "ripe::AS-B", "FOO::AS-C", "RIPE:"]
        );
    }
}
