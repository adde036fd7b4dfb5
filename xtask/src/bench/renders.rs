//! What heavy template renders cost the other requests: readers ask for random autonomous
//! systems alone, then while four clients render a heavy export template at once, inline,
//! without pause; with the server's default cap on inline renders
//! (`PEERING_MAX_INLINE_RENDERS`, the cores less one), with one render at a time, and with
//! a cap no load reaches, side by side. Each phase
//! reports the readers' p50 and p99, the renders answered and refused, and the server's
//! peak resident memory.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;

use super::database::Database;
use super::http;
use super::rss::RssMonitor;
use super::server::Server;
use super::Backend;

/// Autonomous systems the readers draw from.
const SYSTEMS: usize = 500;
const READERS: usize = 4;
const RENDERERS: usize = 4;
/// A render of about a second of CPU: five million empty loop turns, then one line.
const HEAVY: &str =
    "{% for i in range(100000) %}{% for j in range(50) %}{% endfor %}{% endfor %}done";

/// The caps compared: the server's default, one render at a time, and a cap no load of this
/// suite reaches.
const CAPS: [(&str, Option<&str>); 3] = [
    ("default cap", None),
    ("cap 1", Some("1")),
    ("no cap", Some("64")),
];

/// One phase's figures.
struct Phase {
    reads: usize,
    p50_ms: f64,
    p99_ms: f64,
    rendered: u64,
    refused: u64,
    peak_rss_mib: f64,
}

pub fn run(binary: &Path, seconds: u64) -> Result<(), String> {
    let mut rows = Vec::new();
    for (label, cap) in CAPS {
        let database = Database::create(Backend::Sqlite)?;
        let env: Vec<(&str, &str)> = cap
            .map(|c| vec![("PEERING_MAX_INLINE_RENDERS", c)])
            .unwrap_or_default();
        let server = Server::start_with(binary, database.url(), &env)?;
        let (ids, export) = prepare(server.addr, &server.token)?;
        let alone = phase(&server, &ids, None, seconds)?;
        let beside = phase(&server, &ids, Some(export), seconds)?;
        server.stop();
        rows.push((label, alone, beside));
    }
    print_table(&rows);
    Ok(())
}

/// The autonomous systems to read and the heavy export template's id.
fn prepare(addr: SocketAddr, token: &str) -> Result<(Vec<i64>, i64), String> {
    let systems: Vec<_> = (0..SYSTEMS)
        .map(|i| json!({"asn": 4_200_000_000u64 + i as u64, "name": format!("Reader {i}")}))
        .collect();
    let body = serde_json::Value::Array(systems).to_string();
    let r = http::request(
        addr,
        "POST",
        "/api/peering/autonomous-systems/",
        Some(token),
        Some(&body),
    )?;
    let created: serde_json::Value = serde_json::from_str(&r.body).map_err(|e| e.to_string())?;
    let ids: Vec<i64> = created
        .as_array()
        .map(|list| list.iter().filter_map(|o| o["id"].as_i64()).collect())
        .unwrap_or_default();
    if ids.len() != SYSTEMS {
        return Err(format!(
            "creating the autonomous systems: {} {}",
            r.status, r.body
        ));
    }
    let template =
        json!({"name": "heavy", "content_type": "peering.autonomoussystem", "template": HEAVY});
    let r = http::request(
        addr,
        "POST",
        "/api/extras/export-templates/",
        Some(token),
        Some(&template.to_string()),
    )?;
    let export: serde_json::Value = serde_json::from_str(&r.body).map_err(|e| e.to_string())?;
    let id = export["id"]
        .as_i64()
        .ok_or(format!("the export template: {}", r.body))?;
    Ok((ids, id))
}

/// Readers for `seconds`, beside renderers of `export` when given.
fn phase(server: &Server, ids: &[i64], export: Option<i64>, seconds: u64) -> Result<Phase, String> {
    let monitor = RssMonitor::start(server.pid());
    let stop = Arc::new(AtomicBool::new(false));
    let (rendered, refused) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let renderers: Vec<_> = export
        .map(|id| {
            (0..RENDERERS)
                .map(|_| {
                    let (addr, token) = (server.addr, server.token.clone());
                    let (stop, rendered, refused) =
                        (stop.clone(), rendered.clone(), refused.clone());
                    std::thread::spawn(move || {
                        let path = format!("/api/extras/export-templates/{id}/render-synchronous/");
                        while !stop.load(Ordering::Relaxed) {
                            match http::request(addr, "GET", &path, Some(&token), None) {
                                Ok(r) if r.status == 200 => {
                                    rendered.fetch_add(1, Ordering::Relaxed)
                                }
                                // Refused: the client waits as `Retry-After` says, shortened
                                // to a tenth so that the cap stays busy.
                                Ok(r) if r.status == 503 => {
                                    std::thread::sleep(Duration::from_millis(200));
                                    refused.fetch_add(1, Ordering::Relaxed)
                                }
                                _ => 0,
                            };
                        }
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let readers: Vec<_> = (0..READERS)
        .map(|n| {
            let (addr, token, ids) = (server.addr, server.token.clone(), ids.to_vec());
            std::thread::spawn(move || read_for(addr, &token, &ids, seconds, n as u64))
        })
        .collect();
    let mut latencies = Vec::new();
    for reader in readers {
        latencies.extend(reader.join().map_err(|_| "a reader panicked")??);
    }
    stop.store(true, Ordering::Relaxed);
    for renderer in renderers {
        let _ = renderer.join();
    }
    latencies.sort();
    let at = |q: f64| {
        latencies[((latencies.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1000.0
    };
    Ok(Phase {
        reads: latencies.len(),
        p50_ms: at(0.5),
        p99_ms: at(0.99),
        rendered: rendered.load(Ordering::Relaxed),
        refused: refused.load(Ordering::Relaxed),
        peak_rss_mib: monitor.overall_peak_mib(),
    })
}

/// GETs random autonomous systems for `seconds`; each answer's latency.
fn read_for(
    addr: SocketAddr,
    token: &str,
    ids: &[i64],
    seconds: u64,
    seed: u64,
) -> Result<Vec<Duration>, String> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64 ^ (seed + 1);
    let end = Instant::now() + Duration::from_secs(seconds);
    let mut latencies = Vec::new();
    while Instant::now() < end {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let id = ids[(state % ids.len() as u64) as usize];
        let started = Instant::now();
        let r = http::request(
            addr,
            "GET",
            &format!("/api/peering/autonomous-systems/{id}/"),
            Some(token),
            None,
        )?;
        if r.status != 200 {
            return Err(format!("GET autonomous system {id}: {}", r.status));
        }
        latencies.push(started.elapsed());
    }
    Ok(latencies)
}

fn print_table(rows: &[(&str, Phase, Phase)]) {
    println!("| inline renders | phase | reads | p50 ms | p99 ms | renders answered | renders refused (503) | peak RSS MiB |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    for (label, alone, beside) in rows {
        for (phase, p) in [("reads alone", alone), ("reads beside 4 renderers", beside)] {
            println!(
                "| {label} | {phase} | {} | {:.2} | {:.2} | {} | {} | {:.1} |",
                p.reads, p.p50_ms, p.p99_ms, p.rendered, p.refused, p.peak_rss_mib
            );
        }
    }
}
