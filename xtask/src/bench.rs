//! `cargo xtask bench`: builds peeringd in release, runs it on a fresh SQLite or
//! PostgreSQL database, loads a network of peers, exchanges and sessions through the API,
//! restarts it to time its startup, then measures realistic traffic first (every request
//! different, a writer alongside, the answer cache on then off: `bench/realistic.rs`) and
//! its floor (the same answers served from files by nginx: `bench/floor.rs`), then
//! read scenarios that repeat one URL with wrk (optionally against another server of the
//! same API too) and bulk writes itself, samples the server's memory, and writes the
//! results as JSON and Markdown. Then it times PeeringDB synchronisations by the binary
//! from a fake PeeringDB (`bench/peeringdb.rs`); `--only` picks one suite.

mod addressing;
mod cpu;
pub(crate) mod database;
mod dataset;
mod discover;
mod floor;
pub(crate) mod http;
mod install;
mod load;
mod peeringdb;
mod pgbench;
mod reads;
mod realistic;
mod renders;
mod report;
mod rss;
mod scale;
pub(crate) mod server;
mod target;
mod templates;
mod webhooks;
mod writer;
mod writes;
mod wrk;

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use database::Database;
use reads::Run;
use report::{Against, Counts, Report};
use rss::RssMonitor;
use scale::Scale;
use server::Server;
use target::Target;

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Database backend to measure (`both` runs sqlite, then postgres).
    #[arg(long, value_enum, default_value_t = BackendChoice::Sqlite)]
    backend: BackendChoice,
    /// Data to load through the API.
    #[arg(long, value_enum, default_value_t = Scale::Medium)]
    scale: Scale,
    /// Seconds per read scenario.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    duration: u64,
    /// Concurrent wrk connections.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..))]
    connections: u32,
    /// Also run the read scenarios against this server of the same API, already loaded
    /// with data, on a loopback address (e.g. http://127.0.0.1:8001).
    #[arg(long, requires = "token")]
    against: Option<String>,
    /// API token for --against.
    #[arg(long, requires = "against")]
    token: Option<String>,
    /// Run only one suite of scenarios (both by default, the API suite first).
    #[arg(long, value_enum)]
    only: Option<Suite>,
    /// PATCHes a second the writer sends while the realistic scenarios read (0: none).
    #[arg(long, default_value_t = 20)]
    write_rate: u32,
    /// Webhooks to measure the writes' cost of (0: none). After the other scenarios, N
    /// webhooks on every peering content type (create, update, delete, signed) are created,
    /// sending to a receiver the harness runs on 127.0.0.1; the bulk writes and the
    /// realistic writer then run with none enabled, then with all N, and the report's
    /// "Writes with webhooks" table puts both side by side with the deliveries received.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    webhooks: u32,
    /// Runs of each PeeringDB scenario; the report gives the median.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Measure this peeringd binary instead of building one from this tree, to compare the
    /// builds of two commits in one series with the same harness.
    #[arg(long)]
    binary: Option<PathBuf>,
    /// Directory for `bench-<backend>.json` and `bench-<backend>.md` (and the PeeringDB
    /// suite's `bench-peeringdb-<backend>.json` and `.md`).
    #[arg(long, default_value = "bench-results")]
    out: PathBuf,
}

#[derive(Debug, Clone, Copy, PartialEq, ValueEnum)]
pub enum Suite {
    /// The load, reads, writes and templates through the API: realistic traffic first (every
    /// request different, writes alongside, cache on then off), then one URL repeated.
    Api,
    /// The load, then the realistic traffic alone.
    Realistic,
    /// `peeringd peeringdb sync` from a fake PeeringDB of the real size (206,800 objects:
    /// 33,000 networks, 60,000 network-LAN ports…) on 127.0.0.1: a full synchronisation
    /// into a fresh database, then one of 1,000 changes; then `available-peers` at an
    /// exchange with 1,000 members, on a database of its own, through the API (cache off,
    /// then on). `--runs` times (some 12 s a run on SQLite, 20 s on PostgreSQL); results in
    /// `bench-peeringdb-<backend>.json` and `.md`.
    Peeringdb,
    /// Reads of random autonomous systems alone, then beside four clients rendering a heavy
    /// export template inline without pause, with the server's cap on inline renders and
    /// without; `--duration` seconds a phase, SQLite. Only with `--only renders`.
    Renders,
}

#[derive(Debug, Clone, Copy, PartialEq, ValueEnum)]
pub enum BackendChoice {
    Sqlite,
    Postgres,
    Both,
}

#[derive(Debug, Clone, Copy)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl BackendChoice {
    pub fn backends(self) -> &'static [Backend] {
        match self {
            BackendChoice::Sqlite => &[Backend::Sqlite],
            BackendChoice::Postgres => &[Backend::Postgres],
            BackendChoice::Both => &[Backend::Sqlite, Backend::Postgres],
        }
    }
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }
}

pub fn run(args: &BenchArgs) -> Result<(), String> {
    let backends = args.backend.backends();
    let api = matches!(args.only, None | Some(Suite::Api | Suite::Realistic));
    let peeringdb = matches!(args.only, None | Some(Suite::Peeringdb));
    let against = match (&args.against, &args.token) {
        (Some(_), Some(_)) if !api => {
            return Err(
                "--against compares the API scenarios, which --only peeringdb leaves out".into(),
            )
        }
        (Some(url), Some(token)) => Some(Target::against(url, token)?),
        _ => None,
    };
    if args.webhooks > 0 && !api {
        return Err("--webhooks measures the API's writes, which this --only leaves out".into());
    }
    // Check what can fail quickly before the long release build.
    if let Some(theirs) = &against {
        discover::discover(theirs)?;
    }
    if api {
        wrk::ensure_installed()?;
    }
    let built = match &args.binary {
        Some(binary) if binary.is_file() => binary.clone(),
        Some(binary) => return Err(format!("--binary {}: no such file", binary.display())),
        None => server::build_release()?,
    };
    let copy = server::FreshCopy::of(&built)?;
    let binary = copy.path.clone();
    if args.only == Some(Suite::Renders) {
        return renders::run(&binary, args.duration);
    }
    for &backend in backends {
        if api {
            run_backend(&binary, backend, args, against.as_ref())?;
        }
        if peeringdb {
            peeringdb::run_backend(&binary, backend, args.runs, &args.out)?;
        }
    }
    Ok(())
}

fn run_backend(
    binary: &Path,
    backend: Backend,
    args: &BenchArgs,
    against: Option<&Target>,
) -> Result<(), String> {
    let name = backend.name();
    let scale = args.scale;
    eprintln!("== {name}: starting peeringd on a fresh database");
    // Declared first so that it drops last: every server is gone before its database.
    let database = Database::create(backend)?;

    let server = Server::start(binary, database.url())?;
    let token = server.token.clone();
    eprintln!(
        "== {name}: loading scale {} ({} autonomous systems, {} sessions)",
        scale.name(),
        scale.autonomous_systems(),
        scale.sessions()
    );
    let (loaded, load_peak_rss_mib) = {
        let monitor = RssMonitor::start(server.pid());
        let loaded = load::load(&Target::local(server.addr, &token), scale)?;
        (loaded, monitor.overall_peak_mib())
    };
    server.stop();
    let after_load = database.settle()?;
    if let Some(done) = &after_load {
        eprintln!("== {name}: after the load: {done}");
    }

    let (server, startup) = Server::restart(binary, database.url(), &token)?;
    eprintln!(
        "== {name}: restarted on the loaded database: first answer after {:.1} ms, first list page after {:.1} ms",
        startup.first_status.as_secs_f64() * 1000.0,
        startup.first_list.as_secs_f64() * 1000.0
    );
    // What the scenarios draw from, found once: the writer only changes comments.
    let loaded_target = Target::local(server.addr, &token);
    let discovered = discover::discover(&loaded_target)?;
    let population = realistic::Population::find(&loaded_target, &discovered, &loaded.peer_ids)?;
    let (realistic, server, realistic_peak_rss_mib) =
        realistic_rounds(binary, database.url(), server, &population, args)?;
    let floors = floor::measure(
        &Target::local(server.addr, &token),
        &population,
        &realistic::mixes(&population),
        &run_of(args),
    )?;
    let baselines = match backend {
        Backend::Postgres if pgbench::pgbench_present() => {
            postgres_baselines(binary, database.url(), &token, &population, args)?
        }
        Backend::Postgres => {
            eprintln!("== pgbench is not installed: no PostgreSQL baseline");
            Vec::new()
        }
        Backend::Sqlite => Vec::new(),
    };
    let monitor = RssMonitor::start(server.pid());
    let ours = Target::local(server.addr, &token);
    let mut results = Vec::new();
    let mut their_results = Vec::new();
    if args.only != Some(Suite::Realistic) {
        let normal = run_of(args);
        let our_scenarios = reads::scenarios(&discovered, normal);
        let their_scenarios = against
            .map(|theirs| discover::discover(theirs).map(|d| reads::scenarios(&d, normal)))
            .transpose()?;
        let script = wrk::Script::write()?;
        for (i, scenario) in our_scenarios.iter().enumerate() {
            eprintln!("== {name}: {}", scenario.name);
            results.push(reads::measure(&ours, scenario, &script, Some(&monitor))?);
            // Interleaved, so that both servers see the same moments of a noisy machine.
            if let (Some(theirs), Some(scenarios)) = (against, &their_scenarios) {
                eprintln!("== against: {}", scenario.name);
                their_results.push(reads::measure(theirs, &scenarios[i], &script, None)?);
            }
        }
        eprintln!("== {name}: bulk writes");
        results.extend(writes::measure(&ours, &loaded, &monitor));
        eprintln!("== {name}: templates");
        results.extend(templates::measure(&ours, &loaded, &monitor));
    }
    let webhooks = (args.webhooks > 0)
        .then(|| webhooks_compared(args, backend, &ours, &loaded, &monitor, &population))
        .transpose()?;

    let report = Report {
        backend: name,
        command: command_line(std::env::args().skip(1)),
        nproc: std::thread::available_parallelism().map_or(1, |n| n.get()),
        scale,
        counts: Counts {
            autonomous_systems: loaded.peer_ids.len() as u64 + 1,
            exchanges: loaded.connection_ids.len() as u64,
            connections: loaded.connection_ids.len() as u64,
            sessions: loaded.sessions,
        },
        duration_s: args.duration,
        connections: args.connections,
        load: &loaded.phases,
        load_peak_rss_mib,
        after_load,
        startup: &startup,
        peak_rss_mib: monitor
            .overall_peak_mib()
            .max(load_peak_rss_mib)
            .max(realistic_peak_rss_mib),
        realistic,
        floors,
        baselines,
        write_rate: args.write_rate,
        scenarios: results,
        against: against.map(|theirs| Against {
            url: theirs.url(""),
            scenarios: their_results,
        }),
        webhooks,
    };
    let markdown = report.write(&args.out)?;
    println!("{markdown}");
    Ok(())
}

/// How each read scenario is run: `--connections` for `--duration` seconds, timeouts above
/// wrk's 2 s default so that slow pages count in the latencies.
fn run_of(args: &BenchArgs) -> Run {
    Run {
        connections: args.connections,
        duration_s: args.duration,
        timeout_s: 10,
    }
}

/// The writes without and with `--webhooks` webhooks, on the server of the scenarios.
fn webhooks_compared(
    args: &BenchArgs,
    backend: Backend,
    ours: &Target,
    loaded: &load::Loaded,
    monitor: &RssMonitor,
    population: &realistic::Population,
) -> Result<webhooks::Comparison, String> {
    let context = webhooks::Context {
        target: ours,
        loaded,
        monitor,
        population,
        run: run_of(args),
        write_rate: args.write_rate,
        on_postgres: matches!(backend, Backend::Postgres),
    };
    webhooks::compare(&context, args.webhooks)
}

/// The realistic scenarios, each with the answer cache on and off (`server` has it on; a
/// server is started without it as needed); returns their rows, scenario by scenario, a
/// server in its usual state again, and the peak RSS seen.
///
/// Which state goes first alternates from one scenario to the next, so that a machine
/// that speeds up or slows down during the run weighs on both states alike (in two blocks,
/// all on then all off, it weighed on one).
fn realistic_rounds(
    binary: &Path,
    database_url: &str,
    mut server: Server,
    population: &realistic::Population,
    args: &BenchArgs,
) -> Result<(Vec<realistic::Row>, Server, f64), String> {
    use realistic::Cache::{Off, On};
    let token = server.token.clone();
    let run = run_of(args);
    let mixes = realistic::mixes(population);
    let (mut rows, mut peak, mut running) = (Vec::new(), 0f64, On);
    for (i, mix) in mixes.iter().enumerate() {
        let states = if i % 2 == 0 { [On, Off] } else { [Off, On] };
        for cache in states {
            if cache != running {
                server.stop();
                server = Server::resume(binary, database_url, &token, cache.env())?;
                running = cache;
            }
            let monitor = RssMonitor::start(server.pid());
            let target = Target::local(server.addr, &token);
            let bench = realistic::Bench {
                target: &target,
                cache,
                monitor: &monitor,
                on_postgres: database_url.starts_with("postgres"),
            };
            eprintln!("== realistic: {} (cache {})", mix.name, cache.name());
            let row = realistic::measure(&bench, population, mix, &run, args.write_rate)?;
            rows.push(row);
            peak = peak.max(monitor.overall_peak_mib());
        }
    }
    // Each scenario's two rows side by side, the cache on first.
    let place = |row: &realistic::Row| mixes.iter().position(|m| m.name == row.scenario.name);
    rows.sort_by_key(|row| (place(row), row.cache == Off));
    server.stop();
    let server = Server::resume(binary, database_url, &token, &[])?;
    Ok((rows, server, peak))
}

/// PostgreSQL's own limit on the statements of an AS and a session detail (`pgbench.rs`),
/// on a server started for it with the SQL trace log on, the answer cache off and no job
/// workers (whose polls of the queue would be captured with the request's statements).
fn postgres_baselines(
    binary: &Path,
    database_url: &str,
    token: &str,
    population: &realistic::Population,
    args: &BenchArgs,
) -> Result<Vec<pgbench::Baseline>, String> {
    let env = [
        ("PEERING_RESPONSE_CACHE_MIB", "0"),
        ("RUST_LOG", "warn,peering_store::sql=trace"),
        ("PEERING_JOB_WORKERS", "0"),
    ];
    let server = Server::resume(binary, database_url, token, &env)?;
    let ids = &population.writable;
    let span = |ids: &[i64]| (ids.iter().min().copied(), ids.iter().max().copied());
    let details = [
        (
            "as_detail",
            span(&ids.peer_ids),
            discover::AUTONOMOUS_SYSTEMS,
        ),
        (
            "session_detail",
            Some(&ids.session_ids)
                .filter(|range| !range.is_empty())
                .map_or((None, None), |range| {
                    (Some(*range.start()), Some(*range.end()))
                }),
            discover::SESSIONS,
        ),
    ];
    let mut baselines = Vec::new();
    for (name, (low, high), collection) in details {
        let (Some(low), Some(high)) = (low, high) else {
            continue;
        };
        eprintln!("== postgres: pgbench with the statements of {name}");
        let detail = pgbench::Detail {
            name,
            collection,
            low,
            high,
        };
        match pgbench::measure(
            &server,
            database_url,
            &detail,
            args.connections,
            args.duration,
        )? {
            Some(baseline) => baselines.push(baseline),
            None => eprintln!("== postgres: the server logs no SQL statement: no baseline"),
        }
    }
    server.stop();
    Ok(baselines)
}

/// How this run was invoked, as one would type it, with the `--against` token hidden: the
/// reports are meant to be shared.
fn command_line(args: impl IntoIterator<Item = String>) -> String {
    let mut line = String::from("cargo xtask");
    let mut token_follows = false;
    for arg in args {
        let arg = if token_follows {
            "<token>".to_string()
        } else if arg.starts_with("--token=") {
            "--token=<token>".to_string()
        } else {
            arg
        };
        token_follows = arg == "--token";
        let plain = !arg.is_empty()
            && arg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@<>".contains(c));
        if plain {
            line.push(' ');
            line.push_str(&arg);
        } else {
            line.push_str(&format!(" '{}'", arg.replace('\'', r"'\''")));
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line_hides_the_token() {
        let args = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            command_line(args(&[
                "bench",
                "--against",
                "http://127.0.0.1:1",
                "--token",
                "abc"
            ])),
            "cargo xtask bench --against http://127.0.0.1:1 --token <token>"
        );
        assert_eq!(
            command_line(args(&["bench", "--token=abc", "--out", "a b"])),
            "cargo xtask bench --token=<token> --out 'a b'"
        );
    }
}
