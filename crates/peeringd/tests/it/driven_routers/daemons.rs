//! The daemons of these tests, on loopback: BIRD as router A (AS 65001, 127.0.3.1 port
//! 11401), managed by peeringd, and FRR as peer C (AS 65003, 127.0.3.3 port 11403),
//! announcing two prefixes. A's configuration also names a neighbour on the exchange that
//! never answers (127.0.3.4, AS 65004) and one off the exchange (127.0.4.9, AS 65009).

pub const A: &str = "127.0.3.1";
pub const A_PORT: u16 = 11401;
pub const C: &str = "127.0.3.3";
pub const C_PORT: u16 = 11403;
/// The prefixes C announces.
pub const ANNOUNCED: i64 = 2;

/// One BGP protocol of A's configuration.
fn bird_neighbour(name: &str, address: &str, port: u16, asn: u32) -> String {
    format!(
        r#"protocol bgp {name} {{
  local {A} port {A_PORT} as 65001;
  neighbor {address} port {port} as {asn};
  strict bind yes;
  multihop 2;
  connect delay time 1;
  connect retry time 1;
  error wait time 1, 2;
  ipv4 {{ import all; export none; }};
}}
"#
    )
}

/// A's configuration by hand, as an operator left it: C and two more neighbours.
pub fn bird_by_hand() -> String {
    format!(
        "router id {A};\nprotocol device {{}}\n{}{}{}",
        bird_neighbour("peer_c", C, C_PORT, 65003),
        bird_neighbour("silent", "127.0.3.4", 11404, 65004),
        bird_neighbour("elsewhere", "127.0.4.9", 11409, 65009),
    )
}

/// A configuration template for A rendering C alone, plus `extra` verbatim.
pub fn bird_template(extra: &str) -> String {
    format!(
        "router id {A};\nprotocol device {{}}\n{}{extra}",
        bird_neighbour("peer_c", C, C_PORT, 65003)
    )
}

/// C's configuration: A as its neighbour, two networks announced.
pub fn frr_config() -> String {
    format!(
        "frr defaults traditional
hostname peer-c
bgp no-rib
!
router bgp 65003
 bgp router-id {C}
 no bgp ebgp-requires-policy
 no bgp network import-check
 neighbor {A} remote-as 65001
 neighbor {A} port {A_PORT}
 neighbor {A} update-source {C}
 neighbor {A} ebgp-multihop 2
 neighbor {A} timers connect 1
 !
 address-family ipv4 unicast
  network 10.203.1.0/24
  network 10.203.2.0/24
 exit-address-family
exit
!
"
    )
}
