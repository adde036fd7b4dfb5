//! `cargo xtask`: repository chores for peeringd (migrations, benchmarks, invariant checks,
//! generated files) as plain Rust.

mod bench;
mod check_migrations;
mod codegen;
mod migrate;
mod new_migration;
mod openapi;
mod soak;
mod tidy;

use std::path::Path;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "cargo xtask", about = "Repository chores for peeringd")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Apply pending migrations by running `peeringd migrate`.
    Migrate {
        /// Database URL (else PEERING_DATABASE_URL from the environment, else peeringd's default).
        #[arg(long)]
        database_url: Option<String>,
    },
    /// Create an empty migration for both SQLite and PostgreSQL.
    NewMigration {
        /// Lower-case name: letters, digits and underscores.
        name: String,
    },
    /// Check that the SQLite and PostgreSQL migrations define the same tables and columns.
    CheckMigrations,
    /// Build peeringd in release, load data through the API and measure it with wrk, then
    /// time its PeeringDB synchronisation.
    Bench(bench::BenchArgs),
    /// Colliding writers through two instances on one database, then consistency checks.
    Soak(soak::SoakArgs),
    /// Write the typed models of every resource from the declarations (`--check`: fail
    /// when the checked-in file is not current).
    Codegen {
        #[arg(long)]
        check: bool,
    },
    /// Write the OpenAPI document the server serves to `crates/peering-openapi/` (`--check`:
    /// fail when the committed files are not current).
    Openapi {
        #[arg(long)]
        check: bool,
    },
    /// Check the architecture invariants (dependencies of the reusable crates, module docs,
    /// no unwrap() outside tests).
    Tidy,
}

/// The workspace root: xtask lives one level below it.
pub fn project_root() -> &'static Path {
    // Read at run time: `cargo run` sets it for the checkout being worked on, whereas the
    // compile-time value names wherever this binary happened to be built.
    static ROOT: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")));
        manifest_dir
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or(manifest_dir)
    })
}

/// The cargo that runs us (so toolchain overrides carry over), else the one on PATH.
pub fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Migrate { database_url } => migrate::run(database_url.as_deref()),
        Command::NewMigration { name } => new_migration::run(&name).map(|()| ExitCode::SUCCESS),
        Command::CheckMigrations => check_migrations::run().map(|()| ExitCode::SUCCESS),
        Command::Codegen { check } => codegen::run(check).map(|()| ExitCode::SUCCESS),
        Command::Openapi { check } => openapi::run(check).map(|()| ExitCode::SUCCESS),
        Command::Tidy => tidy::run().map(|()| ExitCode::SUCCESS),
        Command::Bench(args) => bench::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Soak(args) => soak::run(&args).map(|held| {
            if held {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }),
    };
    result.unwrap_or_else(|message| {
        eprintln!("xtask: {message}");
        ExitCode::FAILURE
    })
}
