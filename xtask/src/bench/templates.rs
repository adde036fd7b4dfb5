//! The template scenarios, timed by the harness itself: the configuration of a router with
//! 5,000 sessions at 10 exchanges, rendered after a write each time (every render reads
//! the data anew) and without (renders share what they loaded); then 1,000 e-mails, each
//! to a different peer, from four clients.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::load::Loaded;
use super::report::{Measurement, Outcome, ScenarioResult};
use super::rss::RssMonitor;
use super::target::{ids_of, truncate, Target};

const EXCHANGES: u64 = 10;
const SESSIONS_PER_EXCHANGE: u64 = 500;
const RENDERS: usize = 15;
const EMAILS: usize = 1_000;
const EMAIL_CLIENTS: usize = 4;

/// A Junos-style configuration: a group per exchange and family, a neighbor per session
/// with its peer, limits, policies merged from the peer and the exchange, communities.
const CONFIGURATION: &str = r#"system { host-name {{ router.hostname }}; }
routing-options { autonomous-system {{ local_as.asn }}; }
protocols {
  bgp {
{% for ixp in internet_exchange_points %}
    group {{ ixp.slug }} {
{% for session in ixp|sessions %}
      neighbor {{ session.ip_address }} {
        description "AS{{ session.autonomous_system.asn }} {{ session.autonomous_system.name|safe_string }}";
        peer-as {{ session.autonomous_system.asn }};
        local-address {{ session|local_ips|ip }};
        family inet{{ '6' if session|ip_version == 6 }} { unicast { prefix-limit { maximum {{ session|max_prefix }}; } } }
        import [ {{ session|merge_import_policies|map(attribute='slug')|join(' ') }} ];
        export [ {{ session|merge_export_policies|map(attribute='slug')|join(' ') }} ];
        status {{ session|inherited_status }};
      }
{% endfor %}
    }
{% endfor %}
  }
}
"#;

const EMAIL_SUBJECT: &str = "Peering between AS{{ affiliated_autonomous_systems[0].asn }} and AS{{ autonomous_system.asn }}";
const EMAIL_BODY: &str = "Dear {{ autonomous_system.name }},\n\nWe peer with you at:\n{% for ixp in autonomous_system|ixps(affiliated_autonomous_systems[0]) %}- {{ ixp.name }}\n{% endfor %}\nYour limits: {{ autonomous_system.ipv4_max_prefixes }} / {{ autonomous_system.ipv6_max_prefixes }}.\n";

fn created(target: &Target, path: &str, body: Value) -> Result<Value, String> {
    let r = target.send("POST", path, Some(&body.to_string()))?;
    if r.status != 201 {
        return Err(format!(
            "POST {path} answered {}: {}",
            r.status,
            truncate(&r.body, 300)
        ));
    }
    serde_json::from_str(&r.body).map_err(|e| e.to_string())
}

/// A router with 10 exchanges of 500 sessions each; the router's id.
fn router_with_sessions(target: &Target, loaded: &Loaded) -> Result<i64, String> {
    let local = target.get_json("/api/peering/autonomous-systems/?affiliated=true&limit=1")?
        ["results"][0]["id"]
        .clone();
    let platform = created(
        target,
        "/api/devices/platforms/",
        json!({"name": "Bench Junos", "slug": "bench-junos"}),
    )?;
    let template = created(
        target,
        "/api/devices/configurations/",
        json!({"name": "bench", "template": CONFIGURATION, "jinja2_trim": true, "jinja2_lstrip": true}),
    )?;
    let router = created(
        target,
        "/api/peering/routers/",
        json!({"name": "bench-edge", "hostname": "bench-edge.example.net", "platform": platform["id"], "local_autonomous_system": local, "configuration_template": template["id"]}),
    )?;
    for x in 0..EXCHANGES {
        let slug = format!("bench-render-{x}");
        let ixp = created(
            target,
            "/api/peering/internet-exchanges/",
            json!({"name": slug, "slug": slug, "local_autonomous_system": local}),
        )?;
        let connection = created(
            target,
            "/api/net/connections/",
            json!({"internet_exchange_point": ixp["id"], "router": router["id"], "ipv4_address": format!("100.{}.0.1/16", 64 + x), "vlan": 10 + x}),
        )?;
        let sessions: Vec<Value> = (0..SESSIONS_PER_EXCHANGE)
            .map(|k| {
                let peer = loaded.peer_ids[(x * SESSIONS_PER_EXCHANGE + k) as usize % loaded.peer_ids.len()];
                json!({"autonomous_system": peer, "ixp_connection": connection["id"], "ip_address": format!("100.{}.{}.{}", 64 + x, 1 + k / 250, 2 + k % 250)})
            })
            .collect();
        let r = target.send(
            "POST",
            "/api/peering/internet-exchange-peering-sessions/",
            Some(&Value::Array(sessions).to_string()),
        )?;
        if r.status != 201 || ids_of(&r.body, SESSIONS_PER_EXCHANGE as usize).is_none() {
            return Err(format!(
                "sessions of exchange {x}: {} {}",
                r.status,
                truncate(&r.body, 300)
            ));
        }
    }
    router["id"].as_i64().ok_or("the router has no id".into())
}

fn measurement(
    latencies: &mut [Duration],
    wall: Duration,
    errors: u64,
    monitor: &RssMonitor,
) -> Measurement {
    latencies.sort();
    let at = |q: f64| {
        latencies
            .get(((latencies.len() as f64 - 1.0) * q).round() as usize)
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    Measurement {
        requests: latencies.len() as u64,
        requests_per_s: latencies.len() as f64 / wall.as_secs_f64(),
        objects_per_s: None,
        p50_ms: at(0.5),
        p99_ms: at(0.99),
        errors,
        non2xx: errors,
        peak_rss_mib: Some(monitor.overall_peak_mib()),
    }
}

/// Renders the configuration `RENDERS` times, after touching a session each time when
/// `write_between`.
fn renders(
    target: &Target,
    router: i64,
    write_between: bool,
    monitor: &RssMonitor,
) -> Result<Measurement, String> {
    let path = format!("/api/peering/routers/{router}/configuration/?format=text");
    let session = target.get_json("/api/peering/internet-exchange-peering-sessions/?limit=1")?
        ["results"][0]["id"]
        .clone();
    let mut latencies = Vec::new();
    let mut errors = 0;
    let started = Instant::now();
    let mut size = 0;
    for i in 0..RENDERS {
        if write_between {
            let body = json!({"comments": format!("render {i}")}).to_string();
            target.send(
                "PATCH",
                &format!("/api/peering/internet-exchange-peering-sessions/{session}/"),
                Some(&body),
            )?;
        }
        let t = Instant::now();
        let r = target.send("GET", &path, None)?;
        latencies.push(t.elapsed());
        if r.status != 200 {
            errors += 1;
            eprintln!(
                "   configuration answered {}: {}",
                r.status,
                truncate(&r.body, 300)
            );
        }
        size = r.body.len();
    }
    eprintln!("   configuration: {size} bytes");
    Ok(measurement(
        &mut latencies,
        started.elapsed(),
        errors,
        monitor,
    ))
}

/// `EMAILS` e-mails, each to another peer, from `EMAIL_CLIENTS` clients at once.
fn emails(target: &Target, loaded: &Loaded, monitor: &RssMonitor) -> Result<Measurement, String> {
    let email = created(
        target,
        "/api/messaging/emails/",
        json!({"name": "bench", "subject": EMAIL_SUBJECT, "template": EMAIL_BODY}),
    )?["id"]
        .as_i64()
        .ok_or("the e-mail has no id")?;
    let started = Instant::now();
    let results: Vec<(Vec<Duration>, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..EMAIL_CLIENTS)
            .map(|c| {
                scope.spawn(move || {
                    let mut latencies = Vec::new();
                    let mut errors = 0;
                    for i in (c..EMAILS).step_by(EMAIL_CLIENTS) {
                        let peer = loaded.peer_ids[i % loaded.peer_ids.len()];
                        let path = format!("/api/peering/autonomous-systems/{peer}/generate-email/");
                        let t = Instant::now();
                        let ok = matches!(target.send("POST", &path, Some(&json!({"email": email}).to_string())), Ok(r) if r.status == 200);
                        latencies.push(t.elapsed());
                        errors += u64::from(!ok);
                    }
                    (latencies, errors)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let wall = started.elapsed();
    let errors = results.iter().map(|(_, e)| e).sum();
    let mut latencies: Vec<Duration> = results.into_iter().flat_map(|(l, _)| l).collect();
    eprintln!("   {EMAILS} e-mails in {:.2} s", wall.as_secs_f64());
    Ok(measurement(&mut latencies, wall, errors, monitor))
}

fn scenario(
    name: &'static str,
    request: String,
    connections: u32,
    measured: Result<Measurement, String>,
) -> ScenarioResult {
    ScenarioResult {
        name,
        request,
        connections,
        outcome: match measured {
            Ok(m) => Outcome::Measured(m),
            Err(e) => Outcome::Skipped(e),
        },
    }
}

pub fn measure(target: &Target, loaded: &Loaded, monitor: &RssMonitor) -> Vec<ScenarioResult> {
    let router = match router_with_sessions(target, loaded) {
        Ok(id) => id,
        Err(e) => {
            return vec![scenario(
                "template_router_configuration",
                String::new(),
                1,
                Err(e),
            )]
        }
    };
    let request = format!("GET /api/peering/routers/{router}/configuration/?format=text ({} sessions at {EXCHANGES} exchanges)", EXCHANGES * SESSIONS_PER_EXCHANGE);
    vec![
        scenario(
            "template_configuration_after_write",
            format!("{request}, a PATCH before each"),
            1,
            renders(target, router, true, monitor),
        ),
        scenario(
            "template_configuration_unchanged",
            request,
            1,
            renders(target, router, false, monitor),
        ),
        scenario(
            "template_emails_1000",
            format!("POST /api/peering/autonomous-systems/{{id}}/generate-email/, {EMAILS} peers"),
            EMAIL_CLIENTS as u32,
            emails(target, loaded, monitor),
        ),
    ]
}
