//! Realistic traffic, measured first: every request different (a random offset, id, filter
//! value or search term, drawn by wrk's Lua for each request), with a writer PATCHing at a
//! set rate alongside, so that the answer cache sees what it sees in use. Each scenario runs
//! with the cache on and off; the writer reports its own latency.

use serde_json::{json, Value};

use super::cpu::{self, CpuPerRequest};
use super::dataset;
use super::discover::{Discovered, AUTONOMOUS_SYSTEMS, SESSIONS};
use super::pgbench::Baseline;
use super::report::{r, thousands, Measurement, ScenarioResult};
use super::rss::RssMonitor;
use super::target::Target;
use super::writer::{Writable, Writer, WriterStats};
use super::wrk;

/// What the scenarios draw from, found on the loaded server.
#[derive(Debug, Clone)]
pub struct Population {
    pub autonomous_systems: u64,
    pub sessions: u64,
    /// The peer with the most sessions, and how many it has: automation pulls a network's
    /// sessions page by page, and a big peer's pages are where the filter's index pays.
    pub big_peer: (i64, u64),
    pub writable: Writable,
}

impl Population {
    /// What `discovered` found, the big peer's count and the sessions' ids through the API
    /// (from the first and the last one: the load creates them in one run of ids).
    pub fn find(
        target: &Target,
        discovered: &Discovered,
        peer_ids: &[i64],
    ) -> Result<Population, String> {
        let first_id = |ordering: &str| -> Result<i64, String> {
            let page =
                target.get_json(&format!("{SESSIONS}?brief=1&limit=1&ordering={ordering}"))?;
            page["results"][0]["id"]
                .as_i64()
                .ok_or_else(|| format!("{SESSIONS}: no session to write to"))
        };
        let (low, high) = (first_id("id")?, first_id("-id")?);
        let big_peer = discovered.big_peer_id;
        let big_peer_page = target.get_json(&format!(
            "{SESSIONS}?autonomous_system_id={big_peer}&brief=1&limit=1"
        ))?;
        Ok(Population {
            autonomous_systems: discovered.autonomous_systems,
            sessions: discovered.sessions,
            big_peer: (big_peer, big_peer_page["count"].as_u64().unwrap_or(0)),
            writable: Writable {
                peer_ids: peer_ids.to_vec(),
                session_ids: low..=high,
            },
        })
    }
}

/// One scenario: a name and the Lua expression that builds each request's path.
pub struct Mix {
    pub name: &'static str,
    /// What a request looks like, for the report.
    pub shape: &'static str,
    pub path_lua: String,
}

/// The scenarios of the issue's table. Offsets keep a full page; ids and filter values
/// come from the population; search terms are peers' names.
pub fn mixes(p: &Population) -> Vec<Mix> {
    let last_offset = |page: u64, total: u64| total.saturating_sub(page);
    let (ases, sessions) = (AUTONOMOUS_SYSTEMS, SESSIONS);
    let mix = |name, shape, path_lua: String| Mix {
        name,
        shape,
        path_lua,
    };
    vec![
        mix(
            "as_list_50",
            "GET autonomous-systems/?limit=50&offset=<random>",
            format!("'{ases}?limit=50&offset=' .. math.random(0, {})", last_offset(50, p.autonomous_systems)),
        ),
        mix(
            "as_list_50_brief",
            "GET autonomous-systems/?limit=50&brief=1&offset=<random>",
            format!("'{ases}?limit=50&brief=1&offset=' .. math.random(0, {})", last_offset(50, p.autonomous_systems)),
        ),
        mix(
            "as_detail",
            "GET autonomous-systems/<random peer>/",
            format!("'{ases}' .. pick(peers) .. '/'"),
        ),
        mix(
            "session_detail",
            "GET internet-exchange-peering-sessions/<random session>/",
            format!("'{sessions}' .. math.random(session_low, session_high) .. '/'"),
        ),
        mix(
            "session_list_1000",
            "GET internet-exchange-peering-sessions/?limit=1000&offset=<random>",
            format!("'{sessions}?limit=1000&offset=' .. math.random(0, {})", last_offset(1000, p.sessions)),
        ),
        mix(
            "session_filtered",
            "GET internet-exchange-peering-sessions/?autonomous_system_id=<random peer>&status=<random>&limit=50",
            format!("'{sessions}?autonomous_system_id=' .. pick(peers) .. '&status=' .. pick(statuses) .. '&limit=50'"),
        ),
        mix(
            "big_peer_sessions",
            "GET internet-exchange-peering-sessions/?autonomous_system_id=<the biggest peer>&limit=50&offset=<random>",
            format!(
                "'{sessions}?autonomous_system_id={}&limit=50&offset=' .. math.random(0, {})",
                p.big_peer.0,
                last_offset(50, p.big_peer.1)
            ),
        ),
        mix(
            "as_search",
            "GET autonomous-systems/?q=<a random peer's name>&limit=50",
            format!("'{ases}?q=' .. search_term() .. '&limit=50'"),
        ),
    ]
}

/// The Lua script of one scenario: the population as tables, a seed per wrk thread, the
/// request built from `mix`, and wrk's summary as one JSON line.
pub fn script(p: &Population, mix: &Mix) -> String {
    let list = |ids: &[i64]| {
        let items: Vec<String> = ids.iter().map(i64::to_string).collect();
        format!("{{{}}}", items.join(","))
    };
    let brands: Vec<String> = dataset::brand_names()
        .iter()
        .map(|b| format!("'{}'", b.replace(' ', "+")))
        .collect();
    let session_ids = &p.writable.session_ids;
    format!(
        r#"-- Written by cargo xtask bench: a different request each time.
local peers = {peers}
local statuses = {{'enabled','enabled','enabled','disabled','maintenance'}}
local brands = {{{brands}}}
local session_low, session_high = {low}, {high}
local function pick(t) return t[math.random(1, #t)] end
local function search_term()
  local i = math.random(0, #peers - 1)
  return brands[(i % #brands) + 1] .. '+' .. (i + 1)
end
{seeded}request = function()
  return wrk.format("GET", {path})
end
{done}"#,
        peers = list(&p.writable.peer_ids),
        brands = brands.join(","),
        low = session_ids.start(),
        high = session_ids.end(),
        path = mix.path_lua,
        seeded = wrk::SEEDED,
        done = wrk::DONE,
    )
}

/// What a scenario is measured on: the server, its state and what watches it.
pub struct Bench<'a> {
    pub target: &'a Target,
    pub cache: Cache,
    pub monitor: &'a RssMonitor,
    /// Whether the server's database is the local PostgreSQL, whose CPU is counted too.
    pub on_postgres: bool,
}

/// One scenario with its writer.
pub fn measure(
    bench: &Bench<'_>,
    p: &Population,
    mix: &Mix,
    run: &super::reads::Run,
    write_rate: u32,
) -> Result<Row, String> {
    let (target, monitor) = (bench.target, bench.monitor);
    let script = wrk::Script::with_text(&script(p, mix))?;
    monitor.take_window_peak_mib();
    let cpu_before = cpu::sample(monitor.pid(), bench.on_postgres);
    let writer = Writer::start(target, &p.writable, write_rate);
    let result = wrk::run(
        &script,
        &wrk::Load {
            url: &target.url("/"),
            token: &target.token,
            duration_s: run.duration_s,
            connections: run.connections,
            timeout_s: run.timeout_s,
        },
    );
    let cpu_after = cpu::sample(monitor.pid(), bench.on_postgres);
    let writes = writer.stop();
    let result = result?;
    let cpu = cpu_before.per_request(&cpu_after, result.requests);
    let scenario = ScenarioResult {
        name: mix.name,
        request: mix.shape.to_string(),
        connections: run.connections,
        outcome: super::report::Outcome::Measured(
            result.measurement(Some(monitor.take_window_peak_mib())),
        ),
    };
    Ok(Row {
        cache: bench.cache,
        scenario,
        writes,
        cpu,
    })
}

/// Whether the server kept its answer cache.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cache {
    On,
    Off,
}

impl Cache {
    pub fn name(self) -> &'static str {
        match self {
            Cache::On => "on",
            Cache::Off => "off",
        }
    }

    /// The server's environment for this state.
    pub fn env(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Cache::On => &[],
            Cache::Off => &[("PEERING_RESPONSE_CACHE_MIB", "0")],
        }
    }
}

/// One scenario measured in one cache state, with its writer's figures.
pub struct Row {
    pub cache: Cache,
    pub scenario: ScenarioResult,
    pub writes: WriterStats,
    /// CPU per request, of the server and of PostgreSQL (`cpu.rs`).
    pub cpu: CpuPerRequest,
}

pub fn json(rows: &[Row]) -> Value {
    let rows: Vec<Value> = rows
        .iter()
        .map(|row| {
            let m = row.scenario.measured();
            let w = &row.writes;
            json!({
                "scenario": row.scenario.name,
                "cache": row.cache.name(),
                "request": row.scenario.request,
                "requests_per_s": m.map(|m| r(m.requests_per_s, 1)),
                "p50_ms": m.map(|m| r(m.p50_ms, 2)),
                "p99_ms": m.map(|m| r(m.p99_ms, 2)),
                "errors": m.map(|m| m.errors),
                "non2xx": m.map(|m| m.non2xx),
                "peak_rss_mib": m.and_then(|m| m.peak_rss_mib).map(|x| r(x, 1)),
                "server_cpu_ms_per_request": r(row.cpu.server_ms, 3),
                "database_cpu_ms_per_request": row.cpu.database_ms.map(|x| r(x, 3)),
                "writes": {"planned": w.planned, "done": w.done, "failed": w.failed,
                           "p50_ms": r(w.p50_ms, 2), "p99_ms": r(w.p99_ms, 2)},
            })
        })
        .collect();
    Value::Array(rows)
}

/// The table the report leads with: each scenario with the cache on, then off, the first
/// with its rate ÷ the floor's (the same answers served from files, `floor.rs`).
pub fn markdown(rows: &[Row], floors: &[super::floor::Floor], write_rate: u32) -> String {
    let mut md = format!(
        "## Realistic traffic: every request different, {write_rate} PATCHes/s alongside\n\n"
    );
    md.push_str("| scenario | cache | ÷ floor | req/s | p50 ms | p99 ms | CPU ms/req (server + PostgreSQL) | non-2xx | writes done/due | write p50 ms | write p99 ms |\n");
    md.push_str("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for row in rows {
        let Some(m) = row.scenario.measured() else {
            continue;
        };
        let w = &row.writes;
        let to_floor = (row.cache == Cache::On)
            .then(|| super::floor::ratio(rows, floors, row.scenario.name))
            .flatten()
            .map_or("–".into(), |x| format!("{x:.3}"));
        md.push_str(&format!(
            "| {} | {} | {} | {} | {:.2} | {:.2} | {} | {} | {}/{} | {:.1} | {:.1} |\n",
            row.scenario.name,
            row.cache.name(),
            to_floor,
            thousands(m.requests_per_s),
            m.p50_ms,
            m.p99_ms,
            cpu_cell(&row.cpu),
            m.non2xx + m.errors,
            w.done,
            w.planned,
            w.p50_ms,
            w.p99_ms
        ));
    }
    md.push_str("\nRequests:\n\n");
    for row in rows.iter().filter(|row| row.cache == Cache::On) {
        md.push_str(&format!(
            "- {}: `{}`\n",
            row.scenario.name, row.scenario.request
        ));
    }
    md.push('\n');
    md
}

/// The CPU a request cost: the server's, plus PostgreSQL's when counted.
fn cpu_cell(cpu: &CpuPerRequest) -> String {
    match cpu.database_ms {
        Some(database) => format!("{:.3} + {database:.3}", cpu.server_ms),
        None => format!("{:.3}", cpu.server_ms),
    }
}

/// The server's rate for a detail with the cache off, beside PostgreSQL's own on the same
/// statements.
fn against_baseline<'a>(rows: &'a [Row], baseline: &Baseline) -> Option<&'a Measurement> {
    rows.iter()
        .find(|row| row.cache == Cache::Off && row.scenario.name == baseline.name)
        .and_then(|row| row.scenario.measured())
}

pub fn baselines_json(rows: &[Row], baselines: &[Baseline]) -> Value {
    let items: Vec<Value> = baselines
        .iter()
        .map(|b| {
            let ours = against_baseline(rows, b).map(|m| m.requests_per_s);
            json!({
                "scenario": b.name,
                "statements": b.statements,
                "pgbench_tps": r(b.tps, 1),
                "peeringd_cache_off_per_s": ours.map(|x| r(x, 1)),
                "ratio": ours.map(|x| r(x / b.tps.max(1e-9), 3)),
            })
        })
        .collect();
    Value::Array(items)
}

pub fn baselines_markdown(rows: &[Row], baselines: &[Baseline]) -> String {
    if baselines.is_empty() {
        return String::new();
    }
    let mut md = String::from(
        "PostgreSQL's own limit: the statements of one detail request, captured from the \
         server's SQL trace log and replayed by `pgbench -M prepared` with the same \
         connections and a random id per transaction:\n\n",
    );
    md.push_str("| scenario | statements | pgbench/s | peeringd/s (cache off) | ratio |\n");
    md.push_str("|---|---:|---:|---:|---:|\n");
    for b in baselines {
        let ours = against_baseline(rows, b).map(|m| m.requests_per_s);
        md.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            b.name,
            b.statements.len(),
            thousands(b.tps),
            ours.map_or("–".into(), thousands),
            ours.map_or("–".into(), |x| format!("{:.2}", x / b.tps.max(1e-9)))
        ));
    }
    md.push('\n');
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    fn population() -> Population {
        Population {
            autonomous_systems: 301,
            sessions: 1000,
            big_peer: (2, 120),
            writable: Writable {
                peer_ids: vec![2, 3, 4],
                session_ids: 10..=1009,
            },
        }
    }

    #[test]
    fn offsets_keep_a_full_page_and_ids_come_from_the_population() {
        let p = population();
        let all = mixes(&p);
        let path = |name| &all.iter().find(|m| m.name == name).unwrap().path_lua;
        assert!(path("as_list_50").ends_with("math.random(0, 251)"));
        assert!(path("session_list_1000").ends_with("math.random(0, 0)"));
        assert!(path("big_peer_sessions").contains("?autonomous_system_id=2&limit=50&offset="));
        assert!(path("big_peer_sessions").ends_with("math.random(0, 70)"));
        let text = script(&p, all.iter().find(|m| m.name == "session_detail").unwrap());
        assert!(text.contains("local peers = {2,3,4}"));
        assert!(text.contains("local session_low, session_high = 10, 1009"));
        assert!(text.contains("'Example+Networks'"));
        assert!(text.contains("RESULT"), "the summary line is printed");
    }
}
