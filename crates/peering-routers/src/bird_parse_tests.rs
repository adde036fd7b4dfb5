//! `birdc -v` answers captured from BIRD 2.0.12 (tests/data): two sessions up with FRR
//! (IPv4 with a filtered route kept, IPv6 on `::1`), one protocol disabled; the same
//! after FRR stopped (sessions in Active); and BIRD's own errors.

use super::*;

const ALL: &str = include_str!("../tests/data/bird-protocols-all.txt");
const DOWN: &str = include_str!("../tests/data/bird-protocols-down.txt");
const STATUS: &str = include_str!("../tests/data/bird-status.txt");

fn bgp(output: &str) -> Vec<Protocol> {
    protocols(&lines(output))
        .into_iter()
        .filter(|p| p.proto == "BGP")
        .collect()
}

fn at(text: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S%.f").expect("a time")
}

#[test]
fn continuation_lines_take_their_replys_code() {
    let lines = lines(STATUS);
    assert_eq!(
        lines[0],
        Line {
            code: 1,
            text: "BIRD 2.0.12 ready.".into()
        }
    );
    assert_eq!(
        lines[3],
        Line {
            code: 1011,
            text: "Hostname is vm".into()
        }
    );
    assert_eq!(lines.last().map(|l| l.code), Some(13));
    assert_eq!(error(&lines), None);
}

#[test]
fn an_error_reply_is_found_by_its_code() {
    let refused = "0001 BIRD 2.0.12 ready.\n0002-Reading configuration from /x.conf\n\
                   8002 /x.conf:1:1 syntax error, unexpected CF_SYM_UNDEFINED\n";
    let found = error(&lines(refused));
    let expected = "/x.conf:1:1 syntax error, unexpected CF_SYM_UNDEFINED";
    assert_eq!(found, Some((8002, expected.into())));
    let unknown = "0001 BIRD 2.0.12 ready.\n9001 syntax error, unexpected END\n";
    assert_eq!(error(&lines(unknown)).map(|e| e.0), Some(9001));
}

#[test]
fn the_status_gives_version_router_id_and_time() {
    let (identity, now) = status(&lines(STATUS)).expect("a status");
    assert_eq!(identity.daemon, "BIRD");
    assert_eq!(identity.version, "2.0.12");
    assert_eq!(identity.name.as_deref(), Some("127.0.0.11"));
    assert_eq!(now, Some(at("2026-12-06 18:07:54.510")));
}

#[test]
fn bgp_protocols_with_their_neighbours_and_routes() {
    let bgp = bgp(ALL);
    let names: Vec<&str> = bgp.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["peer_frr", "peer_v6", "peer_off"]);
    let frr = &bgp[0];
    assert_eq!(frr.description.as_deref(), Some("The FRR peer"));
    assert_eq!(frr.neighbour, "127.0.0.12".parse().ok());
    assert_eq!(frr.neighbour_as, Some(65012));
    assert_eq!(bgp_state(frr), BgpState::Established);
    let routes = Routes {
        imported: 1,
        filtered: 1,
        exported: 3,
    };
    assert_eq!(frr.routes, Some(routes));
    let v6 = &bgp[1];
    assert_eq!(v6.neighbour, "::1".parse().ok());
    assert_eq!(
        v6.routes,
        Some(Routes {
            imported: 1,
            filtered: 0,
            exported: 1
        })
    );
    let disabled = &bgp[2];
    assert_eq!(disabled.state, "down");
    assert_eq!(bgp_state(disabled), BgpState::Idle);
    assert_eq!(disabled.routes, None);
    assert_eq!(disabled.description, None);
}

#[test]
fn sessions_waiting_for_their_neighbour_are_active_without_routes() {
    let bgp = bgp(DOWN);
    assert_eq!(bgp.len(), 3);
    for protocol in &bgp[..2] {
        assert_eq!(protocol.state, "start");
        assert_eq!(bgp_state(protocol), BgpState::Active);
        assert_eq!(protocol.routes, None);
    }
    assert_eq!(bgp_state(&bgp[2]), BgpState::Idle);
}

#[test]
fn since_is_counted_from_the_servers_time() {
    let frr = &bgp(ALL)[0];
    let since = frr.since.expect("a since");
    let now = at("2026-12-06 18:07:54.510");
    assert_eq!(since.before(now), Some(Duration::from_millis(273_409)));
}

#[test]
fn a_time_of_day_later_than_now_was_yesterday() {
    let since = Since::Time(time("23:59:00").expect("a time"));
    let now = at("2026-12-07 00:01:00.000");
    assert_eq!(since.before(now), Some(Duration::from_secs(120)));
}

#[test]
fn since_may_be_a_date_or_a_date_and_time() {
    let row_date = row("p1 BGP --- up 2026-12-01 Established").expect("a row");
    assert_eq!(row_date.since, date("2026-12-01").map(Since::Date));
    let row_long = row("p1 BGP --- up 2026-12-01 10:00:00 Established").expect("a row");
    let now = at("2026-12-02 10:00:00.000");
    let since = row_long.since.expect("a since");
    assert_eq!(since.before(now), Some(Duration::from_secs(86_400)));
}

#[test]
fn a_link_local_neighbour_loses_its_interface() {
    assert_eq!(neighbour_address("fe80::1%eth0"), "fe80::1".parse().ok());
}
