//! What `vtysh` answers, read: the banner of `show version`, and the JSON of `show bgp
//! neighbors json` (FRR 8.4's field names: `remoteAs`, `nbrDesc`, `bgpState`,
//! `bgpTimerUpMsec`, and per address family `acceptedPrefixCounter` and
//! `sentPrefixCounter`).

use std::net::IpAddr;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::{BgpState, ConfiguredNeighbour, Identity, NeighbourState};

/// `show version`: `FRRouting 8.4.4 (edge1) on Linux(6.1.0).`, then the build options.
pub(crate) fn version(output: &str) -> Option<Identity> {
    let line = output.lines().find(|l| !l.trim().is_empty())?;
    let mut words = line.split_whitespace();
    let daemon = words.next()?.to_string();
    let version = words.next()?.to_string();
    let name = words
        .next()
        .and_then(|w| w.strip_prefix('('))
        .and_then(|w| w.strip_suffix(')'))
        .map(str::to_string);
    Some(Identity {
        daemon,
        version,
        name,
    })
}

/// One neighbour of `show bgp neighbors json`: its address and its fields.
pub(crate) type Neighbour = (IpAddr, Map<String, Value>);

/// The neighbours of `show bgp neighbors json` by address, in FRR's order. Neighbours
/// named by an interface (BGP unnumbered) have no address and are left out.
pub(crate) fn neighbours(json: &str) -> Result<Vec<Neighbour>, String> {
    let value: Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let Value::Object(all) = value else {
        return Err("not a JSON object".into());
    };
    Ok(all
        .into_iter()
        .filter_map(|(key, value)| match value {
            Value::Object(fields) => Some((key.parse().ok()?, fields)),
            _ => None,
        })
        .collect())
}

fn asn(fields: &Map<String, Value>) -> Option<u32> {
    fields.get("remoteAs")?.as_u64()?.try_into().ok()
}

/// FRR's `bgpState`; `Clearing` and `Deleted` (a session being torn down) are idle.
fn state(fields: &Map<String, Value>) -> BgpState {
    match fields.get("bgpState").and_then(Value::as_str).unwrap_or("") {
        "Established" => BgpState::Established,
        "Connect" => BgpState::Connect,
        "Active" => BgpState::Active,
        "OpenSent" => BgpState::OpenSent,
        "OpenConfirm" => BgpState::OpenConfirm,
        _ => BgpState::Idle,
    }
}

/// A counter summed over the neighbour's address families (`addressFamilyInfo`).
fn counter(fields: &Map<String, Value>, name: &str) -> Option<i64> {
    let families = fields.get("addressFamilyInfo")?.as_object()?;
    let counts: Vec<i64> = families
        .values()
        .filter_map(|family| family.get(name)?.as_i64())
        .collect();
    (!counts.is_empty()).then(|| counts.iter().sum())
}

/// A neighbour's state. FRR keeps no count of what a neighbour sent before the import
/// policy unless `soft-reconfiguration inbound` is set, so received is what was accepted.
pub(crate) fn neighbour_state(address: IpAddr, fields: &Map<String, Value>) -> NeighbourState {
    let state = state(fields);
    let accepted = counter(fields, "acceptedPrefixCounter");
    let established_for = match state {
        BgpState::Established => fields
            .get("bgpTimerUpMsec")
            .and_then(Value::as_u64)
            .map(Duration::from_millis),
        _ => None,
    };
    NeighbourState {
        address,
        remote_asn: asn(fields),
        state,
        received_prefix_count: accepted,
        accepted_prefix_count: accepted,
        advertised_prefix_count: counter(fields, "sentPrefixCounter"),
        established_for,
    }
}

/// A configured neighbour: its address, its AS (a neighbour without one, only in a peer
/// group without `remote-as`, is left out) and its description.
pub(crate) fn configured(
    address: IpAddr,
    fields: &Map<String, Value>,
) -> Option<ConfiguredNeighbour> {
    Some(ConfiguredNeighbour {
        address,
        remote_asn: asn(fields)?,
        description: fields
            .get("nbrDesc")
            .and_then(Value::as_str)
            .map(str::to_string),
    })
}

#[cfg(test)]
mod tests {
    //! Answers captured from FRR 8.4.4 (tests/data): sessions up with BIRD (IPv4, and
    //! IPv6 on `::1`), a neighbour shut down; the same with BIRD stopped.

    use super::*;

    const UP: &str = include_str!("../tests/data/frr-neighbors.json");
    const DOWN: &str = include_str!("../tests/data/frr-neighbors-down.json");

    fn states(json: &str) -> Vec<NeighbourState> {
        let all = neighbours(json).expect("FRR's JSON");
        all.iter().map(|(a, f)| neighbour_state(*a, f)).collect()
    }

    #[test]
    fn the_version_banner() {
        let identity = version(include_str!("../tests/data/frr-version.txt")).expect("a banner");
        assert_eq!(identity.daemon, "FRRouting");
        assert_eq!(identity.version, "8.4.4");
        assert_eq!(identity.name.as_deref(), Some("vm"));
    }

    #[test]
    fn established_sessions_with_their_counts_and_uptime() {
        let states = states(UP);
        let addresses: Vec<String> = states.iter().map(|s| s.address.to_string()).collect();
        assert_eq!(addresses, ["127.0.0.11", "127.0.0.99", "::1"]);
        let bird = &states[0];
        assert_eq!(bird.state, BgpState::Established);
        assert_eq!(bird.remote_asn, Some(65011));
        assert_eq!(bird.accepted_prefix_count, Some(3));
        assert_eq!(bird.received_prefix_count, Some(3));
        assert_eq!(bird.advertised_prefix_count, Some(5));
        assert_eq!(bird.established_for, Some(Duration::from_secs(274)));
        let v6 = &states[2];
        assert_eq!(v6.state, BgpState::Established);
        assert_eq!(
            v6.accepted_prefix_count,
            Some(1),
            "summed over IPv4 and IPv6"
        );
        assert_eq!(v6.advertised_prefix_count, Some(2));
    }

    #[test]
    fn a_shut_down_neighbour_is_idle_and_has_sent_nothing() {
        let shut = &states(UP)[1];
        assert_eq!(shut.state, BgpState::Idle);
        assert_eq!(shut.remote_asn, Some(65099));
        assert_eq!(shut.accepted_prefix_count, Some(0));
        assert_eq!(shut.advertised_prefix_count, None);
        assert_eq!(shut.established_for, None);
    }

    #[test]
    fn sessions_whose_neighbour_stopped_are_active() {
        for state in states(DOWN).iter().filter(|s| s.remote_asn == Some(65011)) {
            assert_eq!(state.state, BgpState::Active);
            assert_eq!(state.established_for, None);
        }
    }

    #[test]
    fn configured_neighbours_with_their_descriptions() {
        let all = neighbours(UP).expect("FRR's JSON");
        let configured: Vec<ConfiguredNeighbour> =
            all.iter().filter_map(|(a, f)| configured(*a, f)).collect();
        assert_eq!(configured.len(), 3);
        assert_eq!(configured[0].remote_asn, 65011);
        assert_eq!(configured[0].description.as_deref(), Some("The BIRD peer"));
        assert_eq!(configured[1].description, None);
    }

    #[test]
    fn interfaces_are_left_out_and_garbage_is_an_error() {
        let json = r#"{"eth0":{"remoteAs":65001,"bgpState":"Established"}}"#;
        assert_eq!(neighbours(json).expect("JSON").len(), 0);
        assert!(neighbours("% Unknown command").is_err());
    }
}
