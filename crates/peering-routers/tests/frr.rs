//! Configuring a real FRR (bgpd without zebra): a configuration vtysh refuses changes
//! nothing, a check shows the diff and changes nothing, a commit runs the new
//! configuration and installs it as the configuration file, and a commit with a roll-back
//! time is not something FRR offers. Each test runs its own bgpd on 127.0.3.x.

use std::net::IpAddr;
use std::time::Duration;

use peering_routers::testing::Daemon;
use peering_routers::{Router, RouterError};

/// An FRR with one neighbour (`127.0.3.200`, AS 65300, shut down) and `extra` lines in
/// its `router bgp`.
fn config(router_id: &str, extra: &str) -> String {
    format!(
        "frr defaults traditional
hostname frr-config
bgp no-rib
!
router bgp 65301
 bgp router-id {router_id}
 no bgp ebgp-requires-policy
 neighbor 127.0.3.200 remote-as 65300
 neighbor 127.0.3.200 description Upstream
 neighbor 127.0.3.200 shutdown
{extra}exit
!
"
    )
}

const NEW_NEIGHBOUR: &str =
    " neighbor 127.0.3.210 remote-as 65310\n neighbor 127.0.3.210 shutdown\n";

fn neighbours(router: &dyn Router) -> Vec<IpAddr> {
    let configured = router
        .configured_neighbours()
        .expect("configured neighbours");
    configured.iter().map(|n| n.address).collect()
}

fn has_new_neighbour(router: &dyn Router) -> bool {
    neighbours(router).contains(&"127.0.3.210".parse().expect("an address"))
}

fn candidate_left(frr: &Daemon) -> bool {
    frr.dir.path().join("frr.conf.peeringd-candidate").exists()
}

#[test]
fn a_broken_configuration_is_refused_and_changes_nothing() {
    let old = config("127.0.3.1", "");
    let frr = Daemon::frr(&old, &["127.0.3.1"], 11501);
    let router = frr.router();
    let broken = config("127.0.3.1", " neighbor 127.0.3.220 remote-as banana\n");

    let error = router
        .configure(&broken, true, None)
        .expect_err("vtysh refuses it");
    let RouterError::Refused(message) = &error else {
        panic!("not a refusal: {error:?}");
    };
    assert!(message.contains("Unknown command"), "{message}");
    assert!(message.contains("remote-as banana"), "{message}");
    assert!(!message.contains("vtysh.conf"), "{message}");
    assert_eq!(frr.config_on_disk(), old);
    assert!(!candidate_left(&frr));
    let configured = router.configured_neighbours().expect("FRR still answers");
    assert_eq!(configured.len(), 1);
    assert_eq!(configured[0].remote_asn, 65300);
    assert_eq!(configured[0].description.as_deref(), Some("Upstream"));
}

#[test]
fn a_configuration_bgpd_refuses_while_applying_it_is_undone() {
    let old = config("127.0.3.4", "");
    let frr = Daemon::frr(&old, &["127.0.3.4"], 11504);
    let router = frr.router();
    // vtysh's parser takes it; bgpd refuses the second line, after taking the first.
    let extra = " neighbor 127.0.3.230 remote-as 65330\n neighbor 127.0.3.240 peer-group NOPE\n";
    let refused = config("127.0.3.4", extra);

    let error = router
        .configure(&refused, true, None)
        .expect_err("bgpd refuses it");
    let RouterError::Refused(message) = &error else {
        panic!("not a refusal: {error:?}");
    };
    assert!(
        message.contains("Configure the peer-group first"),
        "{message}"
    );
    let addresses = neighbours(router.as_ref());
    assert_eq!(
        addresses,
        ["127.0.3.200".parse::<IpAddr>().expect("an address")]
    );
    assert_eq!(frr.config_on_disk(), old);
    assert!(!candidate_left(&frr));
    assert!(!frr.dir.path().join("frr.conf.peeringd-restore").exists());
}

#[test]
fn a_check_shows_the_diff_and_a_commit_runs_the_new_configuration() {
    let old = config("127.0.3.2", "");
    let new = config("127.0.3.2", NEW_NEIGHBOUR);
    let frr = Daemon::frr(&old, &["127.0.3.2"], 11502);
    let router = frr.router();

    let checked = router.configure(&new, false, None).expect("vtysh takes it");
    assert!(!checked.committed);
    assert!(
        checked
            .diff
            .contains("\n+ neighbor 127.0.3.210 remote-as 65310\n"),
        "{}",
        checked.diff
    );
    assert!(!has_new_neighbour(router.as_ref()));
    assert_eq!(frr.config_on_disk(), old);
    assert!(!candidate_left(&frr));

    let committed = router.configure(&new, true, None).expect("FRR runs it");
    assert!(committed.committed);
    assert_eq!(committed.diff, checked.diff);
    assert!(has_new_neighbour(router.as_ref()));
    assert_eq!(frr.config_on_disk(), new);
    assert!(!candidate_left(&frr));
    let shown = router.neighbours().expect("neighbours");
    assert_eq!(shown.len(), 2);
}

#[test]
fn a_commit_with_a_roll_back_time_is_unsupported_and_changes_nothing() {
    let old = config("127.0.3.3", "");
    let new = config("127.0.3.3", NEW_NEIGHBOUR);
    let frr = Daemon::frr(&old, &["127.0.3.3"], 11503);
    let router = frr.router();

    let error = router
        .configure(&new, true, Some(Duration::from_secs(60)))
        .expect_err("FRR cannot roll back by itself");
    assert!(matches!(error, RouterError::Unsupported(_)), "{error:?}");
    assert!(error.to_string().contains("roll-back"), "{error}");
    assert!(!has_new_neighbour(router.as_ref()));
    assert_eq!(frr.config_on_disk(), old);
    let error = router.confirm().expect_err("nothing to confirm");
    assert!(matches!(error, RouterError::Unsupported(_)), "{error:?}");
}
