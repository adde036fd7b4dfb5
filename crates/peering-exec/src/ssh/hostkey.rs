//! Whether a server's host key is trusted: it must equal a pinned key, or be listed for
//! the host in a known_hosts file (OpenSSH's format: patterns with `*`, `?` and `!`,
//! `[host]:port` for ports other than 22, hashed `|1|salt|hash` names, `@revoked` lines).
//! Anything else is refused with the key's SHA256 fingerprint, so an operator can check it
//! and pin it.

use std::path::Path;

use hmac::{Hmac, KeyInit, Mac};
use russh::keys::{HashAlg, PublicKey};
use sha1::Sha1;

/// `algorithm SHA256:…`, as `ssh-keygen -l` shows a key.
pub fn describe(key: &PublicKey) -> String {
    format!("{} {}", key.algorithm(), key.fingerprint(HashAlg::Sha256))
}

/// Parses pinned keys: one OpenSSH public key per line (`ssh-ed25519 AAAA… comment`), or a
/// known_hosts line (`host ssh-ed25519 AAAA…`). Blank lines and `#` comments are skipped.
pub fn parse_pinned(text: &str) -> Result<Vec<PublicKey>, String> {
    let mut keys = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let without_host = line.split_once(char::is_whitespace).map(|(_, rest)| rest);
        let key = PublicKey::from_openssh(line)
            .or_else(|e| without_host.map_or(Err(e), |rest| PublicKey::from_openssh(rest.trim())))
            .map_err(|e| format!("the pinned host key is not an OpenSSH public key: {e}"))?;
        keys.push(key);
    }
    if keys.is_empty() {
        return Err("the pinned host key is empty".into());
    }
    Ok(keys)
}

/// Accepts `offered` if it is one of the pinned keys.
pub fn check_pinned(pinned: &[PublicKey], offered: &PublicKey) -> Result<(), String> {
    if pinned.iter().any(|k| k.key_data() == offered.key_data()) {
        return Ok(());
    }
    let wanted: Vec<String> = pinned.iter().map(describe).collect();
    Err(format!(
        "its host key {} is not the pinned key ({}); if the router was reinstalled, check \
         the new fingerprint with its operator and pin the new key",
        describe(offered),
        wanted.join(", ")
    ))
}

/// The name known_hosts lists a host under: `host`, or `[host]:port` off port 22.
pub fn known_hosts_name(host: &str, port: u16) -> String {
    let host = host.to_ascii_lowercase();
    if port == 22 {
        host
    } else {
        format!("[{host}]:{port}")
    }
}

/// Accepts `offered` if the known_hosts file at `path` lists it for `host`:`port`, and
/// has not revoked it.
pub fn check_known_hosts(
    path: &Path,
    host: &str,
    port: u16,
    offered: &PublicKey,
) -> Result<(), String> {
    let name = known_hosts_name(host, port);
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let entries = entries_for(&text, &name);
    let same = |e: &&Entry| e.key.key_data() == offered.key_data();
    if let Some(entry) = entries.iter().filter(|e| e.revoked).find(same) {
        return Err(format!(
            "its host key {} is revoked in {} (line {})",
            describe(offered),
            path.display(),
            entry.line
        ));
    }
    let listed: Vec<&Entry> = entries.iter().filter(|e| !e.revoked).collect();
    if listed.iter().any(same) {
        return Ok(());
    }
    if let Some(other) = listed.first() {
        return Err(format!(
            "its host key has CHANGED: it offers {}, but {} lists {} for {name} (line {}); \
             someone may be intercepting the connection, or the router was reinstalled: \
             check the new fingerprint with its operator before replacing the line",
            describe(offered),
            path.display(),
            describe(&other.key),
            other.line
        ));
    }
    Err(format!(
        "its host key {} is not known: {} lists no key for {name}; check the fingerprint \
         with the router's operator, then pin the key or add it to that file",
        describe(offered),
        path.display()
    ))
}

/// A key a known_hosts line lists for the host looked up.
struct Entry {
    key: PublicKey,
    revoked: bool,
    line: usize,
}

/// The keys listed for `name`, with their line numbers. Lines that do not parse, and
/// `@cert-authority` lines (certificates are not accepted), are skipped, as OpenSSH does.
fn entries_for(text: &str, name: &str) -> Vec<Entry> {
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let mut fields = line.split_whitespace().peekable();
        let marker = fields.next_if(|f| f.starts_with('@'));
        let (Some(patterns), Some(kind), Some(data)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        if patterns.starts_with('#') || marker.is_some_and(|m| m != "@revoked") {
            continue;
        }
        if !host_matches(patterns, name) {
            continue;
        }
        if let Ok(key) = PublicKey::from_openssh(&format!("{kind} {data}")) {
            entries.push(Entry {
                key,
                revoked: marker.is_some(),
                line: index + 1,
            });
        }
    }
    entries
}

/// Whether a line's comma-separated patterns match `name`: one hashed name equal to it,
/// or a pattern matching it and no negated (`!`) pattern matching it.
fn host_matches(patterns: &str, name: &str) -> bool {
    if patterns.starts_with("|1|") {
        return hashed_matches(patterns, name);
    }
    let mut matched = false;
    for pattern in patterns.split(',') {
        let pattern = pattern.to_ascii_lowercase();
        if let Some(negated) = pattern.strip_prefix('!') {
            if wildcard(negated.as_bytes(), name.as_bytes()) {
                return false;
            }
        } else if wildcard(pattern.as_bytes(), name.as_bytes()) {
            matched = true;
        }
    }
    matched
}

/// `|1|base64(salt)|base64(HMAC-SHA1(salt, name))`, as `ssh-keygen -H` writes.
fn hashed_matches(entry: &str, name: &str) -> bool {
    let mut parts = entry.trim_start_matches("|1|").split('|');
    let (Some(salt), Some(hash)) = (parts.next(), parts.next()) else {
        return false;
    };
    let base64 = data_encoding::BASE64;
    let (Ok(salt), Ok(hash)) = (
        base64.decode(salt.as_bytes()),
        base64.decode(hash.as_bytes()),
    ) else {
        return false;
    };
    let Ok(mac) = Hmac::<Sha1>::new_from_slice(&salt) else {
        return false;
    };
    mac.chain_update(name.as_bytes())
        .verify_slice(&hash)
        .is_ok()
}

/// `*` (any run of characters) and `?` (one character) matching, as in OpenSSH patterns.
fn wildcard(pattern: &[u8], text: &[u8]) -> bool {
    match pattern.split_first() {
        None => text.is_empty(),
        Some((b'*', rest)) => (0..=text.len()).any(|skip| wildcard(rest, &text[skip..])),
        Some((b'?', rest)) => !text.is_empty() && wildcard(rest, &text[1..]),
        Some((c, rest)) => text.first() == Some(c) && wildcard(rest, &text[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_off_port_22_are_bracketed() {
        assert_eq!(known_hosts_name("Edge1", 22), "edge1");
        assert_eq!(known_hosts_name("127.0.0.1", 2222), "[127.0.0.1]:2222");
    }

    #[test]
    fn patterns_match_as_in_openssh() {
        assert!(host_matches("edge1,edge2", "edge2"));
        assert!(host_matches("*.example.net", "r1.example.net"));
        assert!(host_matches("r?.example.net", "r1.example.net"));
        assert!(!host_matches("r?.example.net", "r10.example.net"));
        assert!(!host_matches(
            "*.example.net,!bad.example.net",
            "bad.example.net"
        ));
        assert!(host_matches("[127.0.0.1]:2222", "[127.0.0.1]:2222"));
        assert!(!host_matches("127.0.0.1", "[127.0.0.1]:2222"));
    }

    #[test]
    fn hashed_names_match_only_their_host() {
        let mac = Hmac::<Sha1>::new_from_slice(b"0123456789abcdefghij").expect("a key");
        let hash = mac.chain_update(b"edge1").finalize().into_bytes();
        let base64 = data_encoding::BASE64;
        let made = format!(
            "|1|{}|{}",
            base64.encode(b"0123456789abcdefghij"),
            base64.encode(&hash)
        );
        assert!(hashed_matches(&made, "edge1"));
        assert!(!hashed_matches(&made, "edge2"));
        assert!(!hashed_matches("|1|not base64|", "edge1"));
    }
}
