//! Peering LAN addresses. Exchange `x` has one connection, with an IPv4 /20 carved from
//! 10.0.0.0/8 and the IPv6 /64 2001:db8:x::/64; the server accepts a session only inside
//! its connection's network of the same family, and once per (connection, address).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

pub const V4_PREFIX_LEN: u32 = 20;
pub const V6_PREFIX_LEN: u32 = 64;
/// 10.0.0.0/8 holds this many /20s.
pub const MAX_EXCHANGES: u64 = 1 << (V4_PREFIX_LEN - 8);
/// Our own router is host 1; hosts below this stay free as an exchange keeps some.
const FIRST_SESSION_HOST: u32 = 10;
/// The last host of a /20 before its broadcast address.
const LAST_V4_HOST: u32 = (1 << (32 - V4_PREFIX_LEN)) - 2;
/// Of every five sessions at an exchange, three are IPv4 and two IPv6: IPv4 space runs out
/// first, so the split bounds how many sessions an exchange holds.
const V4_PER_FIVE: u64 = 3;

/// The peering LAN of one exchange, as network addresses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lan {
    pub v4: Ipv4Addr,
    pub v6: Ipv6Addr,
}

impl Lan {
    pub fn of_exchange(exchange: u64) -> Lan {
        assert!(
            exchange < MAX_EXCHANGES,
            "exchange {exchange} beyond 10.0.0.0/8"
        );
        let v4 =
            u32::from(Ipv4Addr::new(10, 0, 0, 0)) + ((exchange as u32) << (32 - V4_PREFIX_LEN));
        let v6 = Ipv6Addr::new(0x2001, 0xdb8, exchange as u16, 0, 0, 0, 0, 0);
        Lan {
            v4: Ipv4Addr::from(v4),
            v6,
        }
    }

    /// Our connection's addresses on the LAN, with prefix lengths.
    pub fn connection_addresses(&self) -> (String, String) {
        (
            format!("{}/{V4_PREFIX_LEN}", Ipv4Addr::from(u32::from(self.v4) + 1)),
            format!(
                "{}/{V6_PREFIX_LEN}",
                Ipv6Addr::from(u128::from(self.v6) + 1)
            ),
        )
    }
}

/// Hands out session addresses: the `k`-th session goes to exchange `k % exchanges` and
/// takes the next free host of one family there, so addresses never repeat on a
/// connection and sessions spread evenly over the exchanges.
#[derive(Debug, Clone, Copy)]
pub struct SessionAddresses {
    exchanges: u64,
}

impl SessionAddresses {
    pub fn new(exchanges: u64) -> Result<Self, String> {
        if (1..=MAX_EXCHANGES).contains(&exchanges) {
            Ok(SessionAddresses { exchanges })
        } else {
            Err(format!(
                "{exchanges} exchanges: between 1 and {MAX_EXCHANGES} fit"
            ))
        }
    }

    /// Whether the first `count` sessions all get an address: checks the last five slots
    /// of every exchange, where the highest IPv4 host of each is.
    pub fn check_room_for(&self, count: u64) -> Result<(), String> {
        let mut last_slots = count.saturating_sub(self.exchanges * 5)..count;
        last_slots.try_for_each(|k| self.get(k).map(drop))
    }

    /// The exchange and address of the `k`-th session.
    pub fn get(&self, k: u64) -> Result<(u64, IpAddr), String> {
        let exchange = k % self.exchanges;
        let slot = k / self.exchanges;
        let lan = Lan::of_exchange(exchange);
        let (round, place) = (slot / 5, slot % 5);
        let address = if place < V4_PER_FIVE {
            let host = round * V4_PER_FIVE + place + u64::from(FIRST_SESSION_HOST);
            if host > u64::from(LAST_V4_HOST) {
                return Err(format!(
                    "session {k}: exchange {exchange}'s IPv4 /{V4_PREFIX_LEN} is full"
                ));
            }
            IpAddr::V4(Ipv4Addr::from(u32::from(lan.v4) + host as u32))
        } else {
            let host = round * (5 - V4_PER_FIVE) + (place - V4_PER_FIVE);
            let host = u128::from(host) + u128::from(FIRST_SESSION_HOST);
            IpAddr::V6(Ipv6Addr::from(u128::from(lan.v6) + host))
        };
        Ok((exchange, address))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::bench::scale::Scale;
    use crate::bench::writes::WRITE_SESSIONS;

    fn in_lan(lan: &Lan, ip: IpAddr) -> bool {
        match ip {
            IpAddr::V4(a) => {
                let host = u32::from(a) ^ u32::from(lan.v4);
                (1..=LAST_V4_HOST).contains(&host)
            }
            IpAddr::V6(a) => (u128::from(a) ^ u128::from(lan.v6)) >> (128 - V6_PREFIX_LEN) == 0,
        }
    }

    #[test]
    fn lans_and_connection_addresses() {
        let lan = Lan::of_exchange(17);
        assert_eq!(lan.v4, Ipv4Addr::new(10, 1, 16, 0));
        assert_eq!(
            lan.connection_addresses(),
            ("10.1.16.1/20".into(), "2001:db8:11::1/64".into())
        );
        assert_eq!(
            Lan::of_exchange(MAX_EXCHANGES - 1).v4,
            Ipv4Addr::new(10, 255, 240, 0)
        );
    }

    #[test]
    fn addresses_stay_in_their_lan_and_never_repeat() {
        // One exchange up to its full IPv4 /20, more exchanges part-way.
        for (exchanges, sessions) in [(1, 6_807), (4, 20_000), (6, 20_000), (40, 20_000)] {
            let addresses = SessionAddresses::new(exchanges).unwrap();
            let mut seen = HashSet::new();
            for k in 0..sessions {
                let (exchange, ip) = addresses.get(k).unwrap();
                assert!(exchange < exchanges);
                let lan = Lan::of_exchange(exchange);
                assert!(in_lan(&lan, ip), "{k}: {ip}");
                let own = lan.connection_addresses();
                assert!(![own.0, own.1]
                    .iter()
                    .any(|a| a.starts_with(&format!("{ip}/"))));
                assert!(seen.insert((exchange, ip)), "{k}: {ip} repeats");
            }
        }
    }

    #[test]
    fn three_of_five_sessions_are_ipv4() {
        let addresses = SessionAddresses::new(4).unwrap();
        let v4 = (0..1000)
            .filter(|&k| addresses.get(k).unwrap().1.is_ipv4())
            .count();
        assert_eq!(v4, 600);
    }

    #[test]
    fn a_full_lan_is_an_error_not_a_wrong_address() {
        let addresses = SessionAddresses::new(1).unwrap();
        let last_fitting = (0..10_000)
            .take_while(|&k| addresses.get(k).is_ok())
            .last()
            .unwrap();
        // 4,085 IPv4 hosts (10 to 4,094) are the limit.
        assert_eq!(
            addresses.get(last_fitting).unwrap().1,
            IpAddr::V4(Ipv4Addr::new(10, 0, 15, 254))
        );
        assert!(addresses.get(last_fitting + 1).is_err());
        assert!(SessionAddresses::new(0).is_err());
        assert!(SessionAddresses::new(MAX_EXCHANGES + 1).is_err());
    }

    #[test]
    fn every_scale_fits_with_the_write_scenarios() {
        for scale in [Scale::Small, Scale::Medium, Scale::Large, Scale::OneMillion] {
            let addresses = SessionAddresses::new(scale.exchanges()).unwrap();
            assert_eq!(
                addresses.check_room_for(scale.sessions() + WRITE_SESSIONS),
                Ok(())
            );
        }
        let one = SessionAddresses::new(1).unwrap();
        assert_eq!(one.check_room_for(6_806), Ok(()));
        assert!(one.check_room_for(6_808).is_err());
    }
}
