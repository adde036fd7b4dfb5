//! The daemons of these tests, on loopback, at a [`Site`] of each test's own: BIRD as
//! router A (AS 65001), managed by peeringd, and FRR as peer C (AS 65003) announcing two
//! prefixes. A's configuration by hand also names a neighbour on the exchange that never
//! answers (`.4` of A's /24, AS 65004) and one off the exchange (AS 65009).

/// Where a test's daemons listen: A at `.1` and C at `.3` of `lan` (a loopback /24), on
/// ports of their own, so that tests run side by side.
pub struct Site {
    pub lan: &'static str,
    pub a_port: u16,
    pub c_port: u16,
}

impl Site {
    pub fn a(&self) -> String {
        format!("{}.1", self.lan)
    }

    pub fn c(&self) -> String {
        format!("{}.3", self.lan)
    }

    pub fn silent(&self) -> String {
        format!("{}.4", self.lan)
    }
}

/// The prefixes C announces.
pub const ANNOUNCED: i64 = 2;

/// One BGP protocol of A's configuration.
fn bird_neighbour(site: &Site, name: &str, address: &str, port: u16, asn: u32) -> String {
    let (a, a_port) = (site.a(), site.a_port);
    format!(
        r#"protocol bgp {name} {{
  local {a} port {a_port} as 65001;
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
pub fn bird_by_hand(site: &Site) -> String {
    format!(
        "router id {};\nprotocol device {{}}\n{}{}{}",
        site.a(),
        bird_neighbour(site, "peer_c", &site.c(), site.c_port, 65003),
        bird_neighbour(site, "silent", &site.silent(), site.c_port + 1, 65004),
        bird_neighbour(site, "elsewhere", "127.0.99.9", site.c_port + 2, 65009),
    )
}

/// A configuration template for A rendering C alone, plus `extra` verbatim.
pub fn bird_template(site: &Site, extra: &str) -> String {
    format!(
        "router id {};\nprotocol device {{}}\n{}{extra}",
        site.a(),
        bird_neighbour(site, "peer_c", &site.c(), site.c_port, 65003)
    )
}

/// C's configuration: A as its neighbour, two networks announced.
pub fn frr_config(site: &Site) -> String {
    let (a, a_port, c) = (site.a(), site.a_port, site.c());
    format!(
        "frr defaults traditional
hostname peer-c
bgp no-rib
!
router bgp 65003
 bgp router-id {c}
 no bgp ebgp-requires-policy
 no bgp network import-check
 neighbor {a} remote-as 65001
 neighbor {a} port {a_port}
 neighbor {a} update-source {c}
 neighbor {a} ebgp-multihop 2
 neighbor {a} timers connect 1
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
