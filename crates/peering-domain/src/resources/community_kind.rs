//! Which notation a BGP community value is written in (1.10's `kind` of a community):
//! standard (`65000:100`), extended (`target:65000:100`, `origin:192.0.2.1:100`) or large
//! (`65000:1:2`), by the reference's rules; none for a value in no notation.

use std::net::Ipv4Addr;

use crate::record::Record;
use crate::spec::ResourceSpec;
use crate::value::Value;

const MAX_16: u64 = u16::MAX as u64;
const MAX_32: u64 = u32::MAX as u64;

/// The `kind` of a community, from its `value`.
pub fn derive(spec: &ResourceSpec, record: &Record) -> Value {
    kind_of(record.text(spec, "value")).map_or(Value::Null, |kind| Value::Text(kind.into()))
}

/// `standard`, `extended` or `large`, tried in that order.
pub fn kind_of(value: &str) -> Option<&'static str> {
    let parts: Vec<&str> = value.split(':').collect();
    if parts.len() < 2 {
        return None;
    }
    if is_standard(&parts) {
        Some("standard")
    } else if is_extended(&parts) {
        Some("extended")
    } else if is_large(&parts) {
        Some("large")
    } else {
        None
    }
}

/// A number written in decimal digits only (no sign, no space).
fn number(part: &str) -> Option<u64> {
    if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Too many digits for any bound is out of every range.
    part.parse().ok().or(Some(u64::MAX))
}

fn is_standard(parts: &[&str]) -> bool {
    match parts {
        [asn, value] => matches!(
            (number(asn), number(value)),
            (Some(asn), Some(value)) if (1..=MAX_16).contains(&asn) && value <= MAX_16
        ),
        _ => false,
    }
}

fn is_extended(parts: &[&str]) -> bool {
    let [kind, administrator, assigned] = parts else {
        return false;
    };
    if !matches!(*kind, "origin" | "target") {
        return false;
    }
    let administrator = match number(administrator) {
        Some(n) => n,
        None => match administrator.parse::<Ipv4Addr>() {
            Ok(address) => u64::from(u32::from(address)),
            Err(_) => return false,
        },
    };
    let most = if administrator > MAX_16 {
        MAX_16
    } else {
        MAX_32
    };
    number(assigned).is_some_and(|n| (1..=most).contains(&n))
}

fn is_large(parts: &[&str]) -> bool {
    match parts {
        [administrator, first, second] => matches!(
            (number(administrator), number(first), number(second)),
            (Some(a), Some(f), Some(s)) if (1..=MAX_32).contains(&a) && f <= MAX_32 && s <= MAX_32
        ),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::kind_of;

    #[test]
    fn each_notation_is_told_apart_as_the_reference_does() {
        for (value, kind) in [
            ("65000:100", Some("standard")),
            ("65535:65535", Some("standard")),
            ("0:100", None),
            ("65536:1", None),
            ("target:65000:100", Some("extended")),
            ("origin:192.0.2.1:100", Some("extended")),
            ("origin:192.0.2.1:65536", None),
            ("target:65000:4294967295", Some("extended")),
            ("target:70000:65536", None),
            ("target:65000:0", None),
            ("other:65000:1", None),
            ("65000:1:2", Some("large")),
            ("4294967295:4294967295:0", Some("large")),
            ("4294967296:1:2", None),
            ("0:1:2", None),
            ("65000:1:2:3", None),
            ("65000", None),
            ("no:pe", None),
            ("65000:+1", None),
            ("", None),
        ] {
            assert_eq!(kind_of(value), kind, "{value}");
        }
    }
}
