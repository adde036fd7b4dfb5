//! The read scenarios, built from what discovery found on a server, and their measurement
//! with wrk.

use serde_json::Value;

use super::discover::{Discovered, AUTONOMOUS_SYSTEMS, SESSIONS};
use super::http;
use super::report::{Outcome, ScenarioResult};
use super::rss::RssMonitor;
use super::target::{truncate, Target};
use super::wrk;

/// Above this many sessions one `limit=0` answer is too big to repeat: skipped.
const LIMIT0_MAX_SESSIONS: u64 = 200_000;
/// Above this many, one connection and at least 30 s so that a few answers complete.
const LIMIT0_FEW_SESSIONS: u64 = 20_000;

pub struct ReadScenario {
    pub name: &'static str,
    pub path: String,
    pub plan: Plan,
}

pub enum Plan {
    Wrk(Run),
    Skip(String),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Run {
    pub connections: u32,
    pub duration_s: u64,
    pub timeout_s: u64,
}

/// Percent-encodes a query value.
fn encode(value: &str) -> String {
    form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

pub fn scenarios(d: &Discovered, normal: Run) -> Vec<ReadScenario> {
    let wrk = |name, path: String| ReadScenario {
        name,
        path,
        plan: Plan::Wrk(normal),
    };
    let (ases, sessions) = (AUTONOMOUS_SYSTEMS, SESSIONS);
    let deep_offset = d.autonomous_systems * 8 / 10;
    let filtered = format!(
        "{sessions}?status={}&autonomous_system_id={}&ip_address__isw={}&ordering=-ip_address&limit=50",
        encode(&d.session_status),
        d.big_peer_id,
        encode(&d.address_prefix)
    );
    vec![
        wrk("as_list_50", format!("{ases}?limit=50")),
        wrk("as_list_50_brief", format!("{ases}?limit=50&brief=1")),
        wrk("as_list_1000", format!("{ases}?limit=1000")),
        wrk(
            "as_deep_page",
            format!("{ases}?limit=50&offset={deep_offset}"),
        ),
        wrk(
            "as_search",
            format!("{ases}?q={}&limit=50", encode(&d.big_peer_name)),
        ),
        wrk("session_list_1000", format!("{sessions}?limit=1000")),
        wrk("session_filtered", filtered),
        wrk("session_detail", format!("{sessions}{}/", d.session_id)),
        ReadScenario {
            name: "session_limit0",
            path: format!("{sessions}?limit=0"),
            plan: limit0_plan(d.sessions, normal),
        },
    ]
}

/// `limit=0` returns every session in one answer (with no maximum page size): a few
/// connections at most, and none at all for a million sessions.
fn limit0_plan(sessions: u64, normal: Run) -> Plan {
    if sessions > LIMIT0_MAX_SESSIONS {
        Plan::Skip(format!(
            "{sessions} sessions in one answer (skipped above {LIMIT0_MAX_SESSIONS})"
        ))
    } else if sessions > LIMIT0_FEW_SESSIONS {
        Plan::Wrk(Run {
            connections: 1,
            duration_s: normal.duration_s.max(30),
            timeout_s: 300,
        })
    } else {
        Plan::Wrk(Run {
            connections: normal.connections.min(4),
            duration_s: normal.duration_s,
            timeout_s: 60,
        })
    }
}

/// Runs one scenario on `target`; `monitor` watches the server's memory when it is ours.
pub fn measure(
    target: &Target,
    scenario: &ReadScenario,
    script: &wrk::Script,
    monitor: Option<&RssMonitor>,
) -> Result<ScenarioResult, String> {
    let run = match &scenario.plan {
        Plan::Wrk(run) => *run,
        Plan::Skip(why) => {
            eprintln!("   {}: skipped, {why}", scenario.name);
            return Ok(ScenarioResult {
                name: scenario.name,
                request: format!("GET {}", scenario.path),
                connections: 0,
                outcome: Outcome::Skipped(why.clone()),
            });
        }
    };
    // One plain request first: a scenario that fails outright gets its answer shown.
    match target.send("GET", &scenario.path, None) {
        Ok(http::Response { status: 200, body }) => {
            let page: Option<Value> = serde_json::from_str(&body).ok();
            if page.is_some_and(|page| page["count"] == 0) {
                eprintln!("   warning: {} finds no objects", scenario.name);
            }
        }
        Ok(r) => eprintln!(
            "   warning: GET {} answers {}: {}",
            target.url(&scenario.path),
            r.status,
            truncate(&r.body, 1000)
        ),
        Err(e) => eprintln!("   warning: {e}"),
    }
    eprintln!(
        "   {} ({} connections, {} s) {}",
        scenario.name, run.connections, run.duration_s, scenario.path
    );
    if let Some(monitor) = monitor {
        monitor.take_window_peak_mib();
    }
    let result = wrk::run(
        script,
        &wrk::Load {
            url: &target.url(&scenario.path),
            token: &target.token,
            duration_s: run.duration_s,
            connections: run.connections,
            timeout_s: run.timeout_s,
        },
    )?;
    Ok(ScenarioResult {
        name: scenario.name,
        request: format!("GET {}", scenario.path),
        connections: run.connections,
        outcome: Outcome::Measured(
            result.measurement(monitor.map(RssMonitor::take_window_peak_mib)),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NORMAL: Run = Run {
        connections: 32,
        duration_s: 10,
        timeout_s: 10,
    };

    fn discovered(sessions: u64) -> Discovered {
        Discovered {
            autonomous_systems: 301,
            sessions,
            big_peer_id: 2,
            big_peer_name: "Example Networks 1".into(),
            session_id: 7,
            session_status: "enabled".into(),
            address_prefix: "2001:db8:".into(),
        }
    }

    #[test]
    fn paths_carry_what_discovery_found() {
        let all = scenarios(&discovered(1000), NORMAL);
        let path = |name| &all.iter().find(|s| s.name == name).unwrap().path;
        assert_eq!(
            path("session_filtered"),
            "/api/peering/internet-exchange-peering-sessions/?status=enabled&autonomous_system_id=2&ip_address__isw=2001%3Adb8%3A&ordering=-ip_address&limit=50"
        );
        assert_eq!(
            path("as_search"),
            "/api/peering/autonomous-systems/?q=Example+Networks+1&limit=50"
        );
        assert_eq!(
            path("as_deep_page"),
            "/api/peering/autonomous-systems/?limit=50&offset=240"
        );
        assert_eq!(
            path("session_detail"),
            "/api/peering/internet-exchange-peering-sessions/7/"
        );
    }

    #[test]
    fn limit0_shrinks_then_stops_with_the_data() {
        let plan = |sessions| match limit0_plan(sessions, NORMAL) {
            Plan::Wrk(run) => Some(run.connections),
            Plan::Skip(_) => None,
        };
        assert_eq!(plan(15_000), Some(4));
        assert_eq!(plan(100_000), Some(1));
        assert_eq!(plan(1_000_000), None);
    }
}
