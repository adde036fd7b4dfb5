//! A BIRD router and an FRR router peering on loopback (BIRD on 127.0.1.1 port 11301,
//! FRR on 127.0.1.2 port 11302, and over IPv6 on ::1 at the same ports; another pair on
//! 127.0.1.11 and .12, ports 11311 and 11312): both reach Established, and each reports the other's
//! AS and exactly the prefixes the other announces.

use std::net::IpAddr;
use std::time::Duration;

use peering_routers::testing::{eventually, Daemon};
use peering_routers::{BgpState, NeighbourState, Router};

/// Where a BIRD and an FRR peering with each other listen.
struct Pair {
    bird: &'static str,
    bird_port: u16,
    frr: &'static str,
    frr_port: u16,
}

const PEERING: Pair = Pair {
    bird: "127.0.1.1",
    bird_port: 11301,
    frr: "127.0.1.2",
    frr_port: 11302,
};
const IDENTIFY: Pair = Pair {
    bird: "127.0.1.11",
    bird_port: 11311,
    frr: "127.0.1.12",
    frr_port: 11312,
};

/// BIRD announcing three prefixes to FRR.
fn bird_config(p: &Pair) -> String {
    let Pair {
        bird,
        bird_port,
        frr,
        frr_port,
    } = p;
    format!(
        r#"router id {bird};
protocol device {{}}
protocol static announced {{
  ipv4;
  route 10.101.1.0/24 blackhole;
  route 10.101.2.0/24 blackhole;
  route 10.101.3.0/24 blackhole;
}}
protocol static announced6 {{
  ipv6;
  route 2001:db8:101::/48 blackhole;
}}
protocol bgp frr {{
  description "FRR on {frr}";
  local {bird} port {bird_port} as 65101;
  neighbor {frr} port {frr_port} as 65102;
  strict bind yes;
  multihop 2;
  connect delay time 1;
  connect retry time 1;
  error wait time 1, 2;
  ipv4 {{ import all; export where proto = "announced"; next hop address 192.0.2.1; }};
}}
protocol bgp frr6 {{
  local ::1 port {bird_port} as 65101;
  neighbor ::1 port {frr_port} as 65102;
  strict bind yes;
  multihop 2;
  connect delay time 1;
  connect retry time 1;
  error wait time 1, 2;
  ipv6 {{ import all; export where proto = "announced6"; next hop address 2001:db8:ffff::1; }};
}}
"#
    )
}

/// FRR announcing two prefixes to BIRD.
fn frr_config(p: &Pair) -> String {
    let Pair {
        bird,
        bird_port,
        frr,
        ..
    } = p;
    let neighbour6 = "neighbor ::1";
    format!(
        "frr defaults traditional
hostname frr-peering
bgp no-rib
!
router bgp 65102
 bgp router-id {frr}
 no bgp ebgp-requires-policy
 no bgp network import-check
 neighbor {bird} remote-as 65101
 neighbor {bird} port {bird_port}
 neighbor {bird} update-source {frr}
 neighbor {bird} ebgp-multihop 2
 neighbor {bird} timers connect 1
 {neighbour6} remote-as 65101
 {neighbour6} port {bird_port}
 {neighbour6} ebgp-multihop 2
 {neighbour6} timers connect 1
 !
 address-family ipv4 unicast
  network 10.102.1.0/24
  network 10.102.2.0/24
  neighbor {bird} route-map NEXT-HOP out
  no {neighbour6} activate
 exit-address-family
 address-family ipv6 unicast
  network 2001:db8:102::/48
  {neighbour6} activate
  {neighbour6} route-map NEXT-HOP6 out
 exit-address-family
exit
!
route-map NEXT-HOP permit 10
 set ip next-hop 192.0.2.2
exit
!
route-map NEXT-HOP6 permit 10
 set ipv6 next-hop global 2001:db8:ffff::2
exit
!
"
    )
}

/// The one neighbour `router` reports at `address`, once it is established and has
/// received `prefixes` prefixes.
fn established(router: &dyn Router, address: &str, prefixes: i64) -> NeighbourState {
    let address: IpAddr = address.parse().expect("an address");
    eventually(
        Duration::from_secs(25),
        "the session is established",
        || {
            let neighbours = router.neighbours().expect("neighbours");
            let neighbour = neighbours.into_iter().find(|n| n.address == address)?;
            let ready = neighbour.state == BgpState::Established
                && neighbour.accepted_prefix_count == Some(prefixes);
            ready.then_some(neighbour)
        },
    )
}

#[test]
fn bird_and_frr_peer_and_count_each_others_prefixes() {
    let frr = Daemon::frr(
        &frr_config(&PEERING),
        &[PEERING.frr, "::1"],
        PEERING.frr_port,
    );
    let bird = Daemon::bird(&bird_config(&PEERING));
    let (bird_router, frr_router) = (bird.router(), frr.router());

    let seen_by_bird = established(bird_router.as_ref(), "127.0.1.2", 2);
    assert_eq!(seen_by_bird.remote_asn, Some(65102));
    assert_eq!(seen_by_bird.received_prefix_count, Some(2));
    assert_eq!(seen_by_bird.advertised_prefix_count, Some(3));
    let up = seen_by_bird.established_for.expect("BIRD says since when");
    assert!(up < Duration::from_secs(60), "{up:?}");

    let seen_by_frr = established(frr_router.as_ref(), "127.0.1.1", 3);
    assert_eq!(seen_by_frr.remote_asn, Some(65101));
    assert_eq!(seen_by_frr.received_prefix_count, Some(3));
    // FRR counts what it sent the neighbour, its own two networks and BIRD's three
    // (which BIRD drops on receipt: its own AS is in their path).
    assert!(seen_by_frr.advertised_prefix_count >= Some(2));
    let up = seen_by_frr.established_for.expect("FRR says since when");
    assert!(up < Duration::from_secs(60), "{up:?}");

    let seen_by_bird = established(bird_router.as_ref(), "::1", 1);
    assert_eq!(seen_by_bird.remote_asn, Some(65102));
    assert_eq!(seen_by_bird.advertised_prefix_count, Some(1));
    let seen_by_frr = established(frr_router.as_ref(), "::1", 1);
    assert_eq!(seen_by_frr.remote_asn, Some(65101));
    let configured = bird_router
        .configured_neighbours()
        .expect("BIRD's neighbours");
    let descriptions: Vec<_> = configured
        .iter()
        .map(|n| n.description.as_deref())
        .collect();
    assert_eq!(descriptions, [Some("FRR on 127.0.1.2"), Some("frr6")]);
}

#[test]
fn each_daemon_says_what_it_is() {
    let bird = Daemon::bird(&bird_config(&IDENTIFY));
    let frr = Daemon::frr(
        &frr_config(&IDENTIFY),
        &[IDENTIFY.frr, "::1"],
        IDENTIFY.frr_port,
    );

    let identity = bird.router().identify().expect("BIRD identifies itself");
    assert_eq!(identity.daemon, "BIRD");
    assert!(identity.version.starts_with("2."), "{identity:?}");
    assert_eq!(identity.name.as_deref(), Some(IDENTIFY.bird));

    let identity = frr.router().identify().expect("FRR identifies itself");
    assert_eq!(identity.daemon, "FRRouting");
    assert!(
        identity
            .version
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit()),
        "{identity:?}"
    );
    assert!(identity.name.is_some(), "{identity:?}");
}
