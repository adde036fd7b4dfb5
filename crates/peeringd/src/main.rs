//! `peeringd`: the command line (serve, migrate, users, tokens, demo data) and the wiring
//! of configuration, store and HTTP server.
#![doc = include_str!("../README.md")]

mod accounts_command;
mod config;
mod demo_data;
mod import_command;
mod irr_command;
mod logging;
mod peeringdb_command;
mod server;
mod worker_command;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use peering_store::Store;

use accounts_command::{TokenCommand, UserCommand};
use config::SettingsArgs;

// mimalloc returns freed memory to the system and keeps fragmentation low under many
// threads, which keeps the server's resident memory small under load. The counting wrapper
// lets a template render be stopped past its memory budget (it counts on render threads
// only).
#[global_allocator]
static ALLOCATOR: peering_render::CountingAllocator<mimalloc::MiMalloc> =
    peering_render::CountingAllocator::new(mimalloc::MiMalloc);

#[derive(Debug, Parser)]
#[command(
    name = "peeringd",
    version,
    about = "A REST API server for network peering data"
)]
struct Cli {
    #[command(flatten)]
    settings: SettingsArgs,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Migrate the database if needed, then serve HTTP.
    Serve,
    /// Run the jobs waiting in the database, with no HTTP listener (beside servers with
    /// `PEERING_JOB_WORKERS=0`); stops on SIGINT or SIGTERM once its running jobs end.
    Worker,
    /// Apply pending migrations and exit.
    Migrate,
    /// Copy the SQLite database to FILE, consistently, while the server runs.
    Backup {
        /// Where the copy goes (must not exist).
        file: std::path::PathBuf,
    },
    /// Manage users.
    User {
        #[command(subcommand)]
        command: UserCommand,
    },
    /// Manage API tokens.
    Token {
        #[command(subcommand)]
        command: TokenCommand,
    },
    /// Fill an empty database with a realistic, repeatable network (300 peers, 12 exchanges
    /// and a few thousand sessions per unit of scale).
    DemoData {
        /// Multiplies the network: N x 300 peers, N x 12 exchanges, N x ~2,600 sessions.
        #[arg(long, default_value_t = 1)]
        scale: u32,
        /// The same seed gives the same data (default 64500).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// The local copy of PeeringDB.
    Peeringdb {
        #[command(subcommand)]
        command: PeeringdbCommand,
    },
    /// IRR prefix lists, asked through bgpq4.
    Irr {
        #[command(subcommand)]
        command: irr_command::IrrCommand,
    },
    /// Bring another system's data in.
    Import {
        #[command(subcommand)]
        command: ImportCommand,
    },
}

#[derive(Debug, Subcommand)]
enum ImportCommand {
    /// Copy every object a token can read from a running Peering Manager (1.8 to 1.10) or
    /// peeringd into this database, which must hold no peering data yet: ids, times and
    /// tags kept. All of it lands, or nothing does.
    PeeringManager {
        /// The source's address (`https://peering.example.net`).
        #[arg(long)]
        url: String,
        /// An API token of the source.
        #[arg(long, env = "PEERING_IMPORT_TOKEN", hide_env_values = true)]
        token: String,
        /// Read and validate everything, write nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

#[derive(Debug, Subcommand)]
enum PeeringdbCommand {
    /// Synchronise the local copy: everything the first time, then what changed since the
    /// last synchronisation. All of it lands, or nothing does.
    Sync {
        /// Read PeeringDB's answers from DIR (`net.json` = `{"data": [...]}`, …) instead of
        /// its API.
        #[arg(long, value_name = "DIR")]
        from_dir: Option<std::path::PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("peeringd: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Opens the database of `settings` with `connections` read connections, every write
/// through it enqueuing the webhook deliveries it sets off, for the instances that run
/// jobs.
pub(crate) fn open_store(settings: &config::Settings, connections: u32) -> Result<Store, String> {
    let store = Store::open(&settings.database_url, connections).map_err(|e| e.to_string())?;
    follow_writes(settings, &store, None);
    Ok(store)
}

/// Has every write through `store` enqueue the webhook deliveries it sets off, waking the
/// workers of `wake`.
pub(crate) fn follow_writes(
    settings: &config::Settings,
    store: &Store,
    wake: Option<&peering_app::jobs::Queue>,
) {
    peering_app::webhooks::follow_writes(
        store,
        peering_app::webhooks::Deliveries {
            base: settings.base_path.trim_end_matches('/').to_string(),
            names: settings.field_names,
            wake: wake.cloned(),
        },
    );
}

fn run(cli: Cli) -> Result<(), String> {
    let settings = cli.settings.resolve()?;
    let _log = logging::init(settings.log_format);
    match cli.command {
        Command::Serve => server::serve(settings).map_err(|e| e.to_string()),
        Command::Worker => worker_command::run(settings),
        Command::Backup { file } => {
            let store = Store::open(&settings.database_url, 1).map_err(|e| e.to_string())?;
            store.upkeep().backup_to(&file).map_err(|e| e.to_string())?;
            eprintln!("copied the database to {}", file.display());
            Ok(())
        }
        Command::Migrate => {
            let n = peering_store::migrate(&settings.database_url).map_err(|e| e.to_string())?;
            eprintln!("applied {n} migration(s)");
            Ok(())
        }
        Command::User { command } => accounts_command::user(&settings, command),
        Command::Token { command } => accounts_command::token(&settings, command),
        Command::DemoData { scale, seed } => {
            let rules = settings.write_rules();
            demo_data::run(&settings.database_url, rules, scale, seed)
        }
        Command::Peeringdb {
            command: PeeringdbCommand::Sync { from_dir },
        } => peeringdb_command::sync(&settings, from_dir),
        Command::Irr { command } => irr_command::run(&settings, command),
        Command::Import {
            command:
                ImportCommand::PeeringManager {
                    url,
                    token,
                    dry_run,
                },
        } => import_command::peering_manager(&settings, &url, &token, dry_run),
    }
}
