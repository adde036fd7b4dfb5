//! What `birdc -v` answers, read. BIRD's control protocol gives every line a four-digit
//! reply code: `0xxx` for an action's outcome (`0003 Reconfigured`, `0018 Reconfiguration
//! confirmed`, `0020 Configuration OK`), `1xxx` for the lines of a table (`1000` the
//! version, `1002` a protocol's row, `1006` its details), `2xxx` for a table's heading,
//! `8xxx` for a run-time error (`8002` a configuration file that does not parse) and `9xxx`
//! for a command BIRD did not understand. A line continuing the previous reply starts with
//! a space instead of a code.

use std::net::IpAddr;
use std::time::Duration;

use chrono::{NaiveDate, NaiveDateTime, NaiveTime};

use crate::{BgpState, Identity};

/// One line of BIRD's answer with its reply code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Line {
    pub code: u16,
    pub text: String,
}

/// The lines of an answer, each with its code (a continuation takes its reply's code).
pub(crate) fn lines(output: &str) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    for raw in output.lines() {
        let head = raw.as_bytes();
        let coded = head.len() >= 5
            && head[..4].iter().all(u8::is_ascii_digit)
            && (head[4] == b'-' || head[4] == b' ');
        if coded {
            let code = raw[..4].parse().unwrap_or(0);
            lines.push(Line {
                code,
                text: raw[5..].to_string(),
            });
        } else if let Some(previous) = lines.last() {
            let code = previous.code;
            let text = raw.get(5..).unwrap_or_else(|| raw.trim_start()).to_string();
            lines.push(Line { code, text });
        }
    }
    lines
}

/// The first error of an answer, `8xxx` or `9xxx`: its code and message.
pub(crate) fn error(lines: &[Line]) -> Option<(u16, String)> {
    let first = lines.iter().find(|l| l.code >= 8000)?;
    let message: Vec<&str> = lines
        .iter()
        .filter(|l| l.code == first.code)
        .map(|l| l.text.trim())
        .collect();
    Some((first.code, message.join("\n")))
}

/// `show status`: the daemon and its version, its router id, and the server's time.
pub(crate) fn status(lines: &[Line]) -> Option<(Identity, Option<NaiveDateTime>)> {
    let banner = lines.iter().find(|l| l.code == 1000)?;
    let (daemon, version) = banner.text.trim().split_once(' ')?;
    let mut name = None;
    let mut now = None;
    for line in lines {
        let text = line.text.trim();
        if let Some(id) = text.strip_prefix("Router ID is ") {
            name = Some(id.trim().to_string());
        } else if let Some(time) = text.strip_prefix("Current server time is ") {
            now = NaiveDateTime::parse_from_str(time.trim(), "%Y-%m-%d %H:%M:%S%.f").ok();
        }
    }
    let identity = Identity {
        daemon: daemon.to_string(),
        version: version.trim().to_string(),
        name,
    };
    Some((identity, now))
}

/// When a protocol last changed state, as BIRD's `Since` column gives it: a time of day
/// for today's changes, a date for older ones, or both (`timeformat protocol iso long`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Since {
    Time(NaiveTime),
    Date(NaiveDate),
    DateTime(NaiveDateTime),
}

impl Since {
    /// How long before `now` (the server's time) the change was.
    pub fn before(self, now: NaiveDateTime) -> Option<Duration> {
        let then = match self {
            Since::DateTime(at) => at,
            Since::Date(day) => day.and_time(NaiveTime::MIN),
            Since::Time(time) => {
                let today = now.date().and_time(time);
                // A time of day later than now is yesterday's.
                if today > now {
                    today - chrono::Duration::days(1)
                } else {
                    today
                }
            }
        };
        (now - then).to_std().ok()
    }
}

fn date(token: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(token, "%Y-%m-%d").ok()
}

fn time(token: &str) -> Option<NaiveTime> {
    NaiveTime::parse_from_str(token, "%H:%M:%S%.f").ok()
}

/// One protocol of `show protocols all`, with what the drivers read of a BGP one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Protocol {
    pub name: String,
    pub proto: String,
    /// `up`, `down`, `start`, `stop`.
    pub state: String,
    pub since: Option<Since>,
    pub description: Option<String>,
    /// `BGP state:`: `Down`, `Idle`, `Connect`, `Active`, `Passive`, `OpenSent`,
    /// `OpenConfirm`, `Established`, `Close`.
    pub bgp_state: Option<String>,
    pub neighbour: Option<IpAddr>,
    pub neighbour_as: Option<u32>,
    /// The channels' `Routes:` lines, summed; `None` when no channel shows them (down).
    pub routes: Option<Routes>,
}

/// A protocol's route counts, over its channels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Routes {
    pub imported: i64,
    pub filtered: i64,
    pub exported: i64,
}

/// Every protocol of `show protocols all`, in BIRD's order.
pub(crate) fn protocols(lines: &[Line]) -> Vec<Protocol> {
    let mut protocols: Vec<Protocol> = Vec::new();
    for line in lines {
        match line.code {
            1002 => protocols.extend(row(&line.text)),
            1006 => {
                if let Some(protocol) = protocols.last_mut() {
                    detail(protocol, line.text.trim());
                }
            }
            _ => {}
        }
    }
    protocols
}

/// A protocol's row: `name proto table state since info`.
fn row(text: &str) -> Option<Protocol> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let [name, proto, _table, state, rest @ ..] = tokens.as_slice() else {
        return None;
    };
    let since = match rest {
        [d, t, ..] if date(d).is_some() && time(t).is_some() => date(d)
            .zip(time(t))
            .map(|(d, t)| Since::DateTime(d.and_time(t))),
        [d, ..] if date(d).is_some() => date(d).map(Since::Date),
        [t, ..] => time(t).map(Since::Time),
        [] => None,
    };
    Some(Protocol {
        name: name.to_string(),
        proto: proto.to_string(),
        state: state.to_string(),
        since,
        ..Protocol::default()
    })
}

/// One line of a protocol's details.
fn detail(protocol: &mut Protocol, text: &str) {
    let Some((key, value)) = text.split_once(':') else {
        return;
    };
    let value = value.trim();
    match key {
        "Description" => protocol.description = Some(value.to_string()),
        "BGP state" => protocol.bgp_state = Some(value.to_string()),
        "Neighbor address" => protocol.neighbour = neighbour_address(value),
        "Neighbor AS" => protocol.neighbour_as = value.parse().ok(),
        "Routes" => {
            let counts = routes(value);
            let sum = protocol.routes.get_or_insert_with(Routes::default);
            sum.imported += counts.imported;
            sum.filtered += counts.filtered;
            sum.exported += counts.exported;
        }
        _ => {}
    }
}

/// `192.0.2.1`, or `fe80::1%eth0` for a link-local neighbour (its interface dropped).
fn neighbour_address(value: &str) -> Option<IpAddr> {
    value.split('%').next()?.trim().parse().ok()
}

/// `3 imported, 1 filtered, 5 exported, 3 preferred`.
fn routes(value: &str) -> Routes {
    let mut counts = Routes::default();
    for part in value.split(',') {
        let mut words = part.split_whitespace();
        let (Some(count), Some(what)) = (words.next(), words.next()) else {
            continue;
        };
        let Ok(count) = count.parse::<i64>() else {
            continue;
        };
        match what {
            "imported" => counts.imported += count,
            "filtered" => counts.filtered += count,
            "exported" => counts.exported += count,
            _ => {}
        }
    }
    counts
}

/// A BGP protocol's state, as peeringd stores it: a protocol that is down (disabled, or
/// stopped after an error) or closing is idle; BIRD's `Passive` (waiting for the neighbour
/// to connect) is active.
pub(crate) fn bgp_state(protocol: &Protocol) -> BgpState {
    match protocol.bgp_state.as_deref().unwrap_or("Down") {
        "Established" => BgpState::Established,
        "Connect" => BgpState::Connect,
        "Active" | "Passive" => BgpState::Active,
        "OpenSent" => BgpState::OpenSent,
        "OpenConfirm" => BgpState::OpenConfirm,
        _ => BgpState::Idle,
    }
}

#[cfg(test)]
#[path = "bird_parse_tests.rs"]
mod tests;
