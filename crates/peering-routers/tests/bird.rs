//! Configuring a real BIRD 2: a refused configuration changes nothing, a check shows the
//! diff and changes nothing, a commit runs the new configuration and installs it as the
//! configuration file, and a commit with a roll-back time is undone by BIRD itself unless
//! confirmed. Each test runs its own BIRD on 127.0.2.x and ports 1140x.

use std::net::IpAddr;
use std::time::Duration;

use peering_routers::testing::{eventually, Daemon};
use peering_routers::{Router, RouterError};

/// A BIRD with one BGP neighbour (`127.0.2.200`, AS 65200), its BGP bound to
/// `address`:`port` only, and `extra` appended.
fn config(address: &str, port: u16, extra: &str) -> String {
    format!(
        r#"router id {address};
protocol device {{}}
protocol bgp upstream {{
  description "Upstream";
  local {address} port {port} as 65201;
  neighbor 127.0.2.200 port {port} as 65200;
  strict bind yes;
  multihop 2;
  ipv4 {{ import all; export none; }};
}}
{extra}"#
    )
}

/// A second BGP neighbour, `127.0.2.210` AS 65210, named `newpeer`.
fn new_neighbour(address: &str, port: u16) -> String {
    format!(
        r#"protocol bgp newpeer {{
  local {address} port {port} as 65201;
  neighbor 127.0.2.210 port {port} as 65210;
  strict bind yes;
  multihop 2;
  ipv4 {{ import none; export none; }};
}}
"#
    )
}

/// The addresses of the neighbours BIRD runs.
fn neighbours(router: &dyn Router) -> Vec<IpAddr> {
    let configured = router
        .configured_neighbours()
        .expect("configured neighbours");
    configured.iter().map(|n| n.address).collect()
}

fn has_new_neighbour(router: &dyn Router) -> bool {
    neighbours(router).contains(&"127.0.2.210".parse().expect("an address"))
}

fn candidate_left(bird: &Daemon) -> bool {
    bird.dir
        .path()
        .join("bird.conf.peeringd-candidate")
        .exists()
}

#[test]
fn a_broken_configuration_is_refused_and_changes_nothing() {
    let old = config("127.0.2.1", 11401, "");
    let bird = Daemon::bird(&old);
    let router = bird.router();
    let broken = format!("{old}protocol bgp broken {{ neighbor banana; }}\n");

    let error = router
        .configure(&broken, true, None)
        .expect_err("BIRD refuses it");
    let RouterError::Refused(message) = &error else {
        panic!("not a refusal: {error:?}");
    };
    assert!(message.contains("syntax error"), "{message}");
    assert!(
        message.contains("bird.conf.peeringd-candidate:11:"),
        "{message}"
    );
    assert_eq!(bird.config_on_disk(), old);
    assert!(!candidate_left(&bird));
    let configured = router.configured_neighbours().expect("BIRD still answers");
    assert_eq!(configured.len(), 1);
    assert_eq!(configured[0].remote_asn, 65200);
    assert_eq!(configured[0].description.as_deref(), Some("Upstream"));
}

#[test]
fn a_check_shows_the_diff_and_a_commit_runs_the_new_configuration() {
    let old = config("127.0.2.2", 11402, "");
    let new = config("127.0.2.2", 11402, &new_neighbour("127.0.2.2", 11402));
    let bird = Daemon::bird(&old);
    let router = bird.router();

    let checked = router.configure(&new, false, None).expect("BIRD takes it");
    assert!(!checked.committed);
    assert!(
        checked.diff.contains("\n+protocol bgp newpeer {\n"),
        "{}",
        checked.diff
    );
    assert!(checked.diff.starts_with("--- "), "{}", checked.diff);
    assert!(!has_new_neighbour(router.as_ref()));
    assert_eq!(bird.config_on_disk(), old);
    assert!(!candidate_left(&bird));

    let committed = router.configure(&new, true, None).expect("BIRD runs it");
    assert!(committed.committed);
    assert_eq!(committed.diff, checked.diff);
    assert!(has_new_neighbour(router.as_ref()));
    assert_eq!(bird.config_on_disk(), new);
    assert!(!candidate_left(&bird));

    let again = router.configure(&new, false, None).expect("BIRD takes it");
    assert_eq!(again.diff, "", "nothing left to change");
}

#[test]
fn an_unconfirmed_commit_is_rolled_back_by_bird() {
    let old = config("127.0.2.3", 11403, "");
    let new = config("127.0.2.3", 11403, &new_neighbour("127.0.2.3", 11403));
    let bird = Daemon::bird(&old);
    let router = bird.router();

    let within = Some(Duration::from_secs(2));
    let committed = router.configure(&new, true, within).expect("BIRD runs it");
    assert!(committed.committed);
    assert_eq!(committed.confirm_within, within);
    assert!(has_new_neighbour(router.as_ref()));
    assert_eq!(bird.config_on_disk(), old, "installed only once confirmed");

    eventually(Duration::from_secs(10), "BIRD rolls back", || {
        (!has_new_neighbour(router.as_ref())).then_some(())
    });
    assert_eq!(bird.config_on_disk(), old);
    let late = router.confirm().expect_err("nothing is left to confirm");
    assert!(matches!(late, RouterError::Daemon(_)), "{late:?}");
    assert_eq!(bird.config_on_disk(), old);
}

#[test]
fn a_confirmed_commit_is_kept() {
    let old = config("127.0.2.4", 11404, "");
    let new = config("127.0.2.4", 11404, &new_neighbour("127.0.2.4", 11404));
    let bird = Daemon::bird(&old);
    let router = bird.router();

    let within = Some(Duration::from_secs(2));
    router.configure(&new, true, within).expect("BIRD runs it");
    router.confirm().expect("BIRD keeps it");
    assert_eq!(bird.config_on_disk(), new);
    assert!(!candidate_left(&bird));

    std::thread::sleep(Duration::from_secs(4));
    assert!(
        has_new_neighbour(router.as_ref()),
        "still running after the roll-back time"
    );
}

#[test]
fn a_bird_that_is_not_there_is_an_error_naming_the_socket() {
    let bird = Daemon::bird(&config("127.0.2.5", 11405, ""));
    let router = bird.router();
    drop(std::fs::remove_file(&bird.socket));
    let error = router.identify().expect_err("no socket, no BIRD");
    assert!(error.to_string().contains("bird.ctl"), "{error}");
}
