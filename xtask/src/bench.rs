//! `cargo xtask bench`: builds peeringd in release, runs it on a fresh SQLite or
//! PostgreSQL database, loads data through the API, measures read scenarios with wrk
//! and the server's memory, and writes the results as JSON and Markdown.

mod database;
mod http;
mod load;
mod report;
mod rss;
mod server;
mod wrk;

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use database::Database;
use report::{Report, ScenarioResult};
use rss::RssMonitor;
use server::Server;

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Database backend to measure (`both` runs sqlite, then postgres).
    #[arg(long, value_enum, default_value_t = BackendChoice::Sqlite)]
    backend: BackendChoice,
    /// Number of autonomous systems to load.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    count: u64,
    /// Seconds per scenario.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    duration: u64,
    /// Concurrent wrk connections.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..))]
    connections: u32,
    /// Directory for bench-<backend>.json and bench-<backend>.md.
    #[arg(long, default_value = "bench-results")]
    out: PathBuf,
}

#[derive(Debug, Clone, Copy, PartialEq, ValueEnum)]
enum BackendChoice {
    Sqlite,
    Postgres,
    Both,
}

#[derive(Debug, Clone, Copy)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }
}

/// The measured read requests: list pages of growing size, a filtered list, one object.
fn scenarios(detail_id: i64) -> Vec<(&'static str, String)> {
    let list = "/api/peering/autonomous-systems/";
    vec![
        ("as_list_50", format!("{list}?limit=50")),
        ("as_list_50_brief", format!("{list}?limit=50&brief=1")),
        ("as_list_1000", format!("{list}?limit=1000")),
        (
            "as_filtered",
            format!("{list}?asn__gte=70000&name__ic=network%201&ordering=-asn&limit=50"),
        ),
        ("as_detail", format!("{list}{detail_id}/")),
    ]
}

pub fn run(args: &BenchArgs) -> Result<(), String> {
    let backends: &[Backend] = match args.backend {
        BackendChoice::Sqlite => &[Backend::Sqlite],
        BackendChoice::Postgres => &[Backend::Postgres],
        BackendChoice::Both => &[Backend::Sqlite, Backend::Postgres],
    };
    // Check for wrk before the long release build.
    wrk::ensure_installed()?;
    let binary = server::build_release()?;
    for &backend in backends {
        run_backend(&binary, backend, args)?;
    }
    Ok(())
}

fn run_backend(binary: &Path, backend: Backend, args: &BenchArgs) -> Result<(), String> {
    let count = usize::try_from(args.count).map_err(|_| "--count is too large")?;
    eprintln!(
        "== {}: starting peeringd on a fresh database",
        backend.name()
    );
    // Declared in this order so that drops run monitor, server, then database: the
    // server is gone before its database is removed.
    let database = Database::create(backend)?;
    let server = Server::start(binary, database.url())?;
    let monitor = RssMonitor::start(server.pid());

    eprintln!("== {}: loading {count} autonomous systems", backend.name());
    let load = load::load(server.addr, &server.token, count)?;
    let load_peak_rss_mib = monitor.take_window_peak_mib();
    eprintln!(
        "   {} objects in {:.2} s ({:.0} objects/s)",
        load.objects,
        load.seconds,
        load.objects_per_s()
    );

    let script = wrk::Script::write()?;
    let mut results = Vec::new();
    for (name, path) in scenarios(load.middle_id) {
        // One plain request first: a scenario that fails outright is worth a clear warning.
        match http::request(server.addr, "GET", &path, Some(&server.token), None) {
            Ok(r) if r.status == 200 => {}
            Ok(r) => eprintln!(
                "   warning: {name} answers {}: {}",
                r.status,
                r.body.chars().take(300).collect::<String>()
            ),
            Err(e) => eprintln!("   warning: {name}: {e}"),
        }
        eprintln!("== {}: {name} ({} s)", backend.name(), args.duration);
        let url = format!("http://{}{path}", server.addr);
        monitor.take_window_peak_mib();
        let result = wrk::run(
            &script,
            &wrk::Load {
                url: &url,
                token: &server.token,
                duration_s: args.duration,
                connections: args.connections,
            },
        )?;
        results.push(ScenarioResult {
            name,
            path,
            requests: result.requests,
            requests_per_s: result.requests_per_s(),
            p50_ms: result.p50_us as f64 / 1000.0,
            p99_ms: result.p99_us as f64 / 1000.0,
            errors: result.errors,
            non2xx: result.non2xx,
            peak_rss_mib: monitor.take_window_peak_mib(),
        });
    }

    let report = Report {
        backend: backend.name(),
        command: command_line(),
        nproc: std::thread::available_parallelism().map_or(1, |n| n.get()),
        count,
        duration_s: args.duration,
        connections: args.connections,
        load: &load,
        load_peak_rss_mib,
        peak_rss_mib: monitor.overall_peak_mib(),
        scenarios: results,
    };
    let markdown = report.write(&args.out)?;
    println!("{markdown}");
    Ok(())
}

/// How this run was invoked, as one would type it.
fn command_line() -> String {
    let mut line = String::from("cargo xtask");
    for arg in std::env::args().skip(1) {
        let plain = !arg.is_empty()
            && arg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@".contains(c));
        if plain {
            line.push(' ');
            line.push_str(&arg);
        } else {
            line.push_str(&format!(" '{}'", arg.replace('\'', r"'\''")));
        }
    }
    line
}
