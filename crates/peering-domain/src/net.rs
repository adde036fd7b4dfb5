//! IP addresses, interface addresses and MAC addresses as clients write them and as they are
//! stored: canonical text plus a sort key, so that ordering means the same on both databases.

use std::net::IpAddr;

use ipnet::IpNet;

/// An address family a field is restricted to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    V4,
    V6,
}

impl Family {
    fn of(addr: &IpAddr) -> Family {
        match addr {
            IpAddr::V4(_) => Family::V4,
            IpAddr::V6(_) => Family::V6,
        }
    }

    fn invalid(self) -> &'static str {
        match self {
            Family::V4 => "Enter a valid IPv4 address.",
            Family::V6 => "Enter a valid IPv6 address.",
        }
    }
}

/// Parses `address` or `address/length`, with the reference's messages.
fn parse_any(text: &str, family: Option<Family>) -> Result<IpNet, String> {
    let text = text.trim();
    let invalid = || {
        family
            .map(Family::invalid)
            .unwrap_or("Enter a valid IPv4 or IPv6 address.")
            .to_string()
    };
    let net = match text.parse::<IpNet>() {
        Ok(net) => net,
        Err(_) => text
            .parse::<IpAddr>()
            .map(IpNet::from)
            .map_err(|_| invalid())?,
    };
    match family {
        Some(f) if Family::of(&net.addr()) != f => Err(invalid()),
        _ => Ok(net),
    }
}

/// An interface address (host address and prefix length, e.g. `192.0.2.2/24`); a bare
/// address gets the full length (`/32`, `/128`).
pub fn parse_interface(text: &str, family: Option<Family>) -> Result<IpNet, String> {
    parse_any(text, family)
}

/// A host address; a prefix length given with it is dropped (`198.51.100.78/24` gives
/// `198.51.100.78`), as the reference does for sessions at internet exchanges.
pub fn parse_host(text: &str, family: Option<Family>) -> Result<IpAddr, String> {
    parse_any(text, family).map(|net| net.addr())
}

/// The text a write stores for an address given as `text`: an interface address
/// (`2001:db8::c8/128`), or with `host_only` the bare host (`2001:db8::c8`), lower-case and
/// shortened; `None` when `text` is not an address of `family`.
pub fn canonical(text: &str, family: Option<Family>, host_only: bool) -> Option<String> {
    if host_only {
        parse_host(text, family).ok().map(|a| a.to_string())
    } else {
        parse_interface(text, family).ok().map(|n| n.to_string())
    }
}

/// A key whose text order is the numeric order: IPv4 before IPv6, then the address, then
/// the prefix length.
pub fn sort_key(addr: &IpAddr, prefix_len: Option<u8>) -> String {
    let mut key = match addr {
        IpAddr::V4(a) => format!("4{:08x}", u32::from(*a)),
        IpAddr::V6(a) => format!("6{:032x}", u128::from(*a)),
    };
    if let Some(len) = prefix_len {
        key.push_str(&format!("/{len:03}"));
    }
    key
}

/// The sort key of a stored address (host or interface form).
pub fn sort_key_of(text: &str) -> Option<String> {
    if let Ok(net) = text.parse::<IpNet>() {
        return Some(sort_key(&net.addr(), Some(net.prefix_len())));
    }
    text.parse::<IpAddr>().ok().map(|a| sort_key(&a, None))
}

/// Whether `host` lies inside the network of the interface address `interface`.
pub fn in_network(host: &IpAddr, interface: &IpNet) -> bool {
    interface.trunc().contains(host)
}

/// A MAC address in any of the usual notations, as lower-case colon-separated octets.
pub fn parse_mac(text: &str) -> Result<String, String> {
    let trimmed = text.trim();
    let digits: String = trimmed
        .chars()
        .filter(|c| !matches!(c, ':' | '-' | '.'))
        .collect();
    let separators_ok = {
        let seps: Vec<char> = trimmed.chars().filter(|c| !c.is_ascii_hexdigit()).collect();
        seps.is_empty()
            || (seps.len() == 5
                && seps
                    .iter()
                    .all(|c| *c == seps[0] && (*c == ':' || *c == '-')))
            || (seps.len() == 2 && seps.iter().all(|c| *c == '.'))
    };
    if digits.len() != 12 || !digits.chars().all(|c| c.is_ascii_hexdigit()) || !separators_ok {
        return Err(format!("failed to detect EUI version: '{trimmed}'"));
    }
    let lower = digits.to_ascii_lowercase();
    let octets: Vec<&str> = (0..6).map(|i| &lower[i * 2..i * 2 + 2]).collect();
    Ok(octets.join(":"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interfaces_keep_their_length_and_bare_addresses_get_the_full_one() {
        assert_eq!(
            parse_interface("192.0.2.2/24", Some(Family::V4))
                .unwrap()
                .to_string(),
            "192.0.2.2/24"
        );
        assert_eq!(
            parse_interface("192.0.2.3", Some(Family::V4))
                .unwrap()
                .to_string(),
            "192.0.2.3/32"
        );
        assert_eq!(
            parse_interface("2001:DB8:10::1/64", Some(Family::V6))
                .unwrap()
                .to_string(),
            "2001:db8:10::1/64"
        );
        assert_eq!(
            parse_interface("192.0.2.2/24", Some(Family::V6)).unwrap_err(),
            "Enter a valid IPv6 address."
        );
        assert_eq!(
            parse_interface("nope", Some(Family::V4)).unwrap_err(),
            "Enter a valid IPv4 address."
        );
        assert!(parse_interface("192.0.2.2/33", None).is_err());
    }

    #[test]
    fn hosts_drop_a_prefix_length() {
        assert_eq!(
            parse_host("198.51.100.78/24", None).unwrap().to_string(),
            "198.51.100.78"
        );
        assert_eq!(
            parse_host(" 2001:db8::1 ", None).unwrap().to_string(),
            "2001:db8::1"
        );
    }

    #[test]
    fn sort_keys_order_numerically_and_by_family() {
        let key = |s: &str| {
            let net = parse_interface(s, None).unwrap();
            sort_key(&net.addr(), Some(net.prefix_len()))
        };
        assert!(key("192.0.2.9/32") < key("192.0.2.10/32"));
        assert!(key("10.0.0.1/32") < key("192.0.2.1/32"));
        assert!(key("255.255.255.255/32") < key("::1/128"));
        assert!(key("2001:db8::9/128") < key("2001:db8::10/128"));
    }

    #[test]
    fn membership_uses_the_interface_network() {
        let interface = parse_interface("192.0.2.2/24", None).unwrap();
        assert!(in_network(&"192.0.2.200".parse().unwrap(), &interface));
        assert!(!in_network(&"192.0.3.1".parse().unwrap(), &interface));
        assert!(!in_network(&"2001:db8::1".parse().unwrap(), &interface));
    }

    #[test]
    fn mac_notations() {
        for input in [
            "790e.0091.9c97",
            "79:0E:00:91:9C:97",
            "79-0e-00-91-9c-97",
            "790e00919c97",
        ] {
            assert_eq!(parse_mac(input).unwrap(), "79:0e:00:91:9c:97", "{input}");
        }
        assert_eq!(
            parse_mac("zz").unwrap_err(),
            "failed to detect EUI version: 'zz'"
        );
        assert!(parse_mac("79:0e-00:91:9c:97").is_err());
        assert!(parse_mac("79:0e:00:91:9c").is_err());
    }
}
