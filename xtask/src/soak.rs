//! `cargo xtask soak`: writers that collide, through two instances on one database, for a
//! bounded time, on loopback only. Each writer takes random objects in random orders: bulk
//! PATCHes of overlapping subsets, single PATCHes, bulk POSTs whose numbers overlap other
//! writers', bulk DELETEs. Then the database is checked: no answer was a 5xx, no number is
//! held twice, and every object's last change record shows it as it is (or its deletion).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};

use crate::bench::database::{random_u64, Database};
use crate::bench::http;
use crate::bench::server::{build_release, Server};
use crate::bench::{Backend, BackendChoice};

#[derive(Debug, clap::Args)]
pub struct SoakArgs {
    /// Database backend (`both` runs sqlite, then postgres).
    #[arg(long, value_enum, default_value_t = BackendChoice::Both)]
    backend: BackendChoice,
    /// Seconds of writing.
    #[arg(long, default_value_t = 60)]
    duration: u64,
    /// Concurrent writers, spread over the two instances.
    #[arg(long, default_value_t = 16)]
    writers: usize,
}

const PATH: &str = "/api/peering/autonomous-systems/";
const SEEDED: u64 = 200;
/// New objects take numbers from this range, so that writers' creates collide.
const NEW_NUMBERS: u64 = 400;
const FIRST_ASN: u64 = 64_512;

pub fn run(args: &SoakArgs) -> Result<bool, String> {
    let binary = build_release()?;
    let mut all_held = true;
    for &backend in args.backend.backends() {
        let report = soak(&binary, backend, args)?;
        println!("{}", summary(backend, &report));
        let dir = crate::project_root().join("target/soak");
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let file = dir.join(format!("soak-{}.json", backend.name()));
        std::fs::write(
            &file,
            serde_json::to_string_pretty(&report).unwrap_or_default(),
        )
        .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        all_held &= report["held"] == json!(true);
    }
    Ok(all_held)
}

/// A small generator seeded per writer (the standard library has none).
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i as u64 + 1) as usize);
        }
    }
}

/// What the writers saw.
#[derive(Default)]
struct Tally {
    statuses: BTreeMap<String, u64>,
    server_errors: Vec<String>,
    latencies_ms: Vec<f64>,
    created: BTreeSet<i64>,
    /// Objects the writers created and not yet deleted: deletes take these, so that the
    /// seeded objects stay for the updates to fight over, and numbers come free again.
    deletable: Vec<i64>,
}

fn soak(binary: &std::path::Path, backend: Backend, args: &SoakArgs) -> Result<Json, String> {
    let database = Database::create(backend)?;
    let first = Server::start(binary, database.url())?;
    let token = first.token.clone();
    let (second, _) = Server::restart(binary, database.url(), &token)?;
    let addrs = [first.addr, second.addr];
    let seeded = seed(first.addr, &token)?;
    let tally = Mutex::new(Tally::default());
    let deadline = Instant::now() + Duration::from_secs(args.duration);
    std::thread::scope(|scope| {
        for w in 0..args.writers {
            let (tally, seeded, token) = (&tally, &seeded, token.as_str());
            let addr = addrs[w % 2];
            scope.spawn(move || write_until(addr, token, seeded, w, deadline, tally));
        }
    });
    let tally = tally.into_inner().map_err(|_| "a writer panicked")?;
    let checks = check(first.addr, &token, &seeded, &tally.created)?;
    first.stop();
    second.stop();
    Ok(report(backend, args, tally, checks))
}

fn seed(addr: SocketAddr, token: &str) -> Result<Vec<i64>, String> {
    let body: Vec<Json> = (0..SEEDED)
        .map(|i| json!({"asn": FIRST_ASN + NEW_NUMBERS + i, "name": format!("Seed {i}")}))
        .collect();
    let r = http::request(
        addr,
        "POST",
        PATH,
        Some(token),
        Some(&Json::Array(body).to_string()),
    )?;
    if r.status != 201 {
        return Err(format!("seeding answered {}: {}", r.status, r.body));
    }
    let created: Json = serde_json::from_str(&r.body).map_err(|e| e.to_string())?;
    Ok(created
        .as_array()
        .map(|list| list.iter().filter_map(|o| o["id"].as_i64()).collect())
        .unwrap_or_default())
}

/// One writer's loop: a random write at a time until the deadline.
fn write_until(
    addr: SocketAddr,
    token: &str,
    seeded: &[i64],
    writer: usize,
    deadline: Instant,
    tally: &Mutex<Tally>,
) {
    let mut random = Random(random_u64() | 1);
    let mut n = 0u64;
    while Instant::now() < deadline {
        n += 1;
        let deletable = tally
            .lock()
            .map(|t| t.deletable.clone())
            .unwrap_or_default();
        let (method, path, body) = pick(&mut random, seeded, &deletable, writer, n);
        let started = Instant::now();
        let answer = http::request(addr, method, &path, Some(token), Some(&body));
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
        t.latencies_ms.push(ms);
        match answer {
            Ok(r) => {
                *t.statuses.entry(r.status.to_string()).or_default() += 1;
                if r.status >= 500 && t.server_errors.len() < 10 {
                    t.server_errors
                        .push(format!("{method} {path}: {} {}", r.status, r.body));
                }
                if method == "POST" && r.status == 201 {
                    let ids = serde_json::from_str::<Json>(&r.body).unwrap_or_default();
                    let ids: Vec<i64> = ids
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|o| o["id"].as_i64())
                        .collect();
                    t.created.extend(ids.iter().copied());
                    t.deletable.extend(ids);
                }
                if method == "DELETE" && r.status == 204 {
                    let gone = serde_json::from_str::<Json>(&body).unwrap_or_default();
                    let gone: BTreeSet<i64> = gone
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|o| o["id"].as_i64())
                        .collect();
                    t.deletable.retain(|id| !gone.contains(id));
                }
            }
            Err(e) => {
                *t.statuses.entry("no answer".into()).or_default() += 1;
                if t.server_errors.len() < 10 {
                    t.server_errors.push(e);
                }
            }
        }
    }
}

/// A random write: its method, path and body.
fn pick(
    random: &mut Random,
    seeded: &[i64],
    deletable: &[i64],
    writer: usize,
    n: u64,
) -> (&'static str, String, String) {
    let mut ids = seeded.to_vec();
    random.shuffle(&mut ids);
    let label = format!("w{writer} n{n}");
    match random.below(10) {
        0..=3 => {
            let take = 10 + random.below(40) as usize;
            let items: Vec<Json> = ids[..take.min(ids.len())]
                .iter()
                .map(|id| json!({"id": id, "comments": label}))
                .collect();
            ("PATCH", PATH.into(), Json::Array(items).to_string())
        }
        4..=5 => {
            let body = if random.below(2) == 0 {
                json!({"name": format!("AS {label}")})
            } else {
                json!({"comments": label})
            };
            ("PATCH", format!("{PATH}{}/", ids[0]), body.to_string())
        }
        6..=8 => {
            let mut numbers: Vec<u64> = (0..NEW_NUMBERS).collect();
            random.shuffle(&mut numbers);
            let items: Vec<Json> = numbers[..20]
                .iter()
                .map(|i| json!({"asn": FIRST_ASN + i, "name": format!("New {i} {label}")}))
                .collect();
            ("POST", PATH.into(), Json::Array(items).to_string())
        }
        _ => {
            // Several created objects, some of which another writer may be deleting too.
            let mut doomed = deletable.to_vec();
            random.shuffle(&mut doomed);
            let take = (5 + random.below(20) as usize).min(doomed.len());
            let items: Vec<Json> = doomed[..take].iter().map(|id| json!({"id": id})).collect();
            ("DELETE", PATH.into(), Json::Array(items).to_string())
        }
    }
}

/// The checks after the load: duplicates, and each object against its last change record.
fn check(
    addr: SocketAddr,
    token: &str,
    seeded: &[i64],
    created: &BTreeSet<i64>,
) -> Result<Json, String> {
    let get = |path: &str| -> Result<Json, String> {
        let r = http::request(addr, "GET", path, Some(token), None)?;
        if r.status != 200 {
            return Err(format!("GET {path} answered {}: {}", r.status, r.body));
        }
        serde_json::from_str(&r.body).map_err(|e| e.to_string())
    };
    let all = get(&format!("{PATH}?limit=0"))?;
    let objects: HashMap<i64, Json> = all["results"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|o| o["id"].as_i64().map(|id| (id, o.clone())))
        .collect();
    let mut numbers = BTreeSet::new();
    let duplicates = objects
        .values()
        .filter(|o| !numbers.insert(o["asn"].to_string()))
        .count();
    let mut mismatches = Vec::new();
    let ids: BTreeSet<i64> = seeded.iter().chain(created).copied().collect();
    for id in &ids {
        let records = get(&format!(
            "/api/extras/object-changes/?changed_object_type=peering.autonomoussystem&changed_object_id={id}&ordering=-id&limit=1"
        ))?;
        let last = &records["results"][0];
        let agrees = match objects.get(id) {
            Some(o) => {
                let post = &last["postchange_data"];
                post["name"] == o["name"] && post["comments"] == o["comments"]
            }
            None => last["action"]["value"] == "delete" || last["action"] == "delete",
        };
        if !agrees && mismatches.len() < 10 {
            mismatches.push(format!(
                "AS object {id}: {} against {last}",
                objects.get(id).map_or("deleted".into(), |o| o.to_string())
            ));
        }
    }
    Ok(json!({
        "objects_left": objects.len(),
        "objects_checked": ids.len(),
        "duplicate_numbers": duplicates,
        "records_disagreeing": mismatches,
    }))
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn report(backend: Backend, args: &SoakArgs, mut tally: Tally, checks: Json) -> Json {
    tally.latencies_ms.sort_by(f64::total_cmp);
    let server_errors: u64 = tally
        .statuses
        .iter()
        .filter(|(s, _)| s.starts_with('5') || s.as_str() == "no answer")
        .map(|(_, n)| n)
        .sum();
    let held = server_errors == 0
        && checks["duplicate_numbers"] == json!(0)
        && checks["records_disagreeing"]
            .as_array()
            .is_some_and(Vec::is_empty);
    json!({
        "command": format!("cargo xtask soak --backend {} --duration {} --writers {}", backend.name(), args.duration, args.writers),
        "backend": backend.name(),
        "requests": tally.latencies_ms.len(),
        "statuses": tally.statuses,
        "server_errors": server_errors,
        "first_server_errors": tally.server_errors,
        "latency_ms": {"p50": percentile(&tally.latencies_ms, 0.5), "p99": percentile(&tally.latencies_ms, 0.99), "max": percentile(&tally.latencies_ms, 1.0)},
        "checks": checks,
        "held": held,
    })
}

fn summary(backend: Backend, r: &Json) -> String {
    format!(
        "soak {}: {} writes, statuses {}, 5xx {}, p50 {:.1} ms, p99 {:.1} ms; {} objects checked, {} duplicate numbers, {} records disagreeing: {}",
        backend.name(),
        r["requests"],
        r["statuses"],
        r["server_errors"],
        r["latency_ms"]["p50"].as_f64().unwrap_or(0.0),
        r["latency_ms"]["p99"].as_f64().unwrap_or(0.0),
        r["checks"]["objects_checked"],
        r["checks"]["duplicate_numbers"],
        r["checks"]["records_disagreeing"].as_array().map_or(0, Vec::len),
        if r["held"] == json!(true) { "held" } else { "FAILED" }
    )
}
