//! What the read scenarios need to know about a server's data, found through its API so
//! that a server loaded by someone else is measured the same way as ours.

use serde_json::Value;

use super::target::Target;

pub const AUTONOMOUS_SYSTEMS: &str = "/api/peering/autonomous-systems/";
pub const SESSIONS: &str = "/api/peering/internet-exchange-peering-sessions/";
/// Sessions looked at to find a big peer.
const SAMPLE: usize = 1000;

#[derive(Debug, PartialEq)]
pub struct Discovered {
    pub autonomous_systems: u64,
    pub sessions: u64,
    /// The peer with the most sessions in the sample (the first sessions in the server's
    /// order; our loader writes the biggest peer's sessions first).
    pub big_peer_id: i64,
    pub big_peer_name: String,
    /// One of the big peer's sessions, enabled if it has one.
    pub session_id: i64,
    pub session_status: String,
    /// The start of that session's address, for an `ip_address__isw` filter that matches.
    pub address_prefix: String,
}

pub fn discover(target: &Target) -> Result<Discovered, String> {
    let systems = target.get_json(&format!("{AUTONOMOUS_SYSTEMS}?limit=1&brief=1"))?;
    let sessions = target.get_json(&format!("{SESSIONS}?limit={SAMPLE}"))?;
    from_pages(&systems, &sessions).map_err(|e| format!("{}: {e}", target.url("")))
}

fn from_pages(systems: &Value, sessions: &Value) -> Result<Discovered, String> {
    let count = |page: &Value, what: &str| {
        page["count"]
            .as_u64()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("the server has no {what} (or its list has no count)"))
    };
    let autonomous_systems = count(systems, "autonomous systems")?;
    let session_count = count(sessions, "internet exchange peering sessions")?;
    let sample = sessions["results"].as_array().cloned().unwrap_or_default();
    let peer_of = |s: &Value| s["autonomous_system"]["id"].as_i64();

    let mut tally: Vec<(i64, usize)> = Vec::new();
    for peer in sample.iter().filter_map(peer_of) {
        match tally.iter_mut().find(|(id, _)| *id == peer) {
            Some((_, n)) => *n += 1,
            None => tally.push((peer, 1)),
        }
    }
    // Ties go to the peer seen first.
    let (big_peer_id, _) = tally
        .iter()
        .copied()
        .reduce(|best, next| if next.1 > best.1 { next } else { best })
        .ok_or("no session in the sample names its autonomous system")?;
    let of_big_peer = || sample.iter().filter(|s| peer_of(s) == Some(big_peer_id));
    let status = |s: &Value| {
        s["status"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let session = of_big_peer()
        .find(|s| status(s) == "enabled")
        .or_else(|| of_big_peer().next())
        .expect("the big peer was counted from its sessions");
    let address = session["ip_address"]
        .as_str()
        .ok_or("a session without an ip_address")?;
    Ok(Discovered {
        autonomous_systems,
        sessions: session_count,
        big_peer_id,
        big_peer_name: session["autonomous_system"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        session_id: session["id"].as_i64().ok_or("a session without an id")?,
        session_status: status(session),
        address_prefix: address_prefix(address),
    })
}

/// The first half of an address as written: two IPv4 octets or two IPv6 groups, with the
/// separator after them (`10.0.` of `10.0.3.7`, `2001:db8:` of `2001:db8:5::a`).
pub fn address_prefix(address: &str) -> String {
    let separator = if address.contains(':') { ':' } else { '.' };
    match address.match_indices(separator).nth(1) {
        Some((i, _)) => address[..=i].to_string(),
        None => address.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn session(id: i64, peer: i64, status: &str, ip: &str) -> Value {
        json!({"id": id, "ip_address": ip, "status": {"value": status, "label": status},
               "autonomous_system": {"id": peer, "name": format!("Peer {peer}")}})
    }

    #[test]
    fn prefixes_of_addresses() {
        assert_eq!(address_prefix("10.0.3.7"), "10.0.");
        assert_eq!(address_prefix("2001:db8:5::a"), "2001:db8:");
        assert_eq!(address_prefix("::1"), "::");
        assert_eq!(address_prefix("odd"), "odd");
    }

    #[test]
    fn finds_the_peer_with_most_sessions_and_an_enabled_one() {
        let systems = json!({"count": 300, "results": []});
        let sessions = json!({"count": 1000, "results": [
            session(1, 7, "enabled", "10.0.0.10"),
            session(2, 9, "disabled", "10.0.16.10"),
            session(3, 9, "enabled", "2001:db8:1::a"),
            session(4, 9, "enabled", "10.0.32.10"),
        ]});
        assert_eq!(
            from_pages(&systems, &sessions),
            Ok(Discovered {
                autonomous_systems: 300,
                sessions: 1000,
                big_peer_id: 9,
                big_peer_name: "Peer 9".into(),
                session_id: 3,
                session_status: "enabled".into(),
                address_prefix: "2001:db8:".into(),
            })
        );
    }

    #[test]
    fn empty_servers_are_an_error() {
        let systems = json!({"count": 0, "results": []});
        let sessions = json!({"count": 0, "results": []});
        assert!(from_pages(&systems, &sessions).is_err());
        let systems = json!({"count": 5, "results": []});
        assert!(from_pages(&systems, &sessions).is_err());
    }
}
