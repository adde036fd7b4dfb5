//! `peeringd`: the command line (serve, migrate, users, tokens, demo data) and the wiring
//! of configuration, store and HTTP server.
#![doc = include_str!("../README.md")]

mod config;
mod demo_data;
mod import_command;
mod logging;
mod peeringdb_command;
mod server;

use std::io::Read;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use peering_auth::TokenKey;
use peering_store::{NewToken, Store};

use config::SettingsArgs;

// mimalloc returns freed memory to the system and keeps fragmentation low under many
// threads, which keeps the server's resident memory small under load.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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

#[derive(Debug, Subcommand)]
enum UserCommand {
    /// Create a user.
    Create {
        #[arg(long)]
        username: String,
        #[arg(long)]
        superuser: bool,
        /// Read the password from standard input (else the user cannot log in by password).
        #[arg(long)]
        password_stdin: bool,
    },
    /// Set a user's password, read from standard input.
    SetPassword {
        #[arg(long)]
        username: String,
    },
}

#[derive(Debug, Subcommand)]
enum TokenCommand {
    /// Create a token and print its key alone on standard output.
    Create {
        #[arg(long)]
        user: String,
        #[arg(long)]
        read_only: bool,
        /// Expiry time, RFC 3339.
        #[arg(long)]
        expires: Option<String>,
        /// An explicit 40-hex key (e.g. to restore a deleted token).
        #[arg(long)]
        key: Option<String>,
        #[arg(long, default_value = "")]
        description: String,
    },
    /// List tokens (of one user, or of everyone), one per line: id, user, key ending,
    /// access, expiry, last use, description.
    List {
        #[arg(long)]
        user: Option<String>,
    },
    /// Revoke (delete) a token by its id.
    Revoke {
        #[arg(long)]
        id: i64,
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

fn run(cli: Cli) -> Result<(), String> {
    let settings = cli.settings.resolve()?;
    let _log = logging::init(settings.log_format);
    match cli.command {
        Command::Serve => server::serve(settings).map_err(|e| e.to_string()),
        Command::Backup { file } => {
            let store = Store::open(&settings.database_url, 1).map_err(|e| e.to_string())?;
            store.backup_to(&file).map_err(|e| e.to_string())?;
            eprintln!("copied the database to {}", file.display());
            Ok(())
        }
        Command::Migrate => {
            let n = peering_store::migrate(&settings.database_url).map_err(|e| e.to_string())?;
            eprintln!("applied {n} migration(s)");
            Ok(())
        }
        Command::User {
            command:
                UserCommand::Create {
                    username,
                    superuser,
                    password_stdin,
                },
        } => {
            let store = Store::open(&settings.database_url, 1).map_err(|e| e.to_string())?;
            let hash = if password_stdin {
                password_from_stdin(settings.min_password_length)?
            } else {
                String::new()
            };
            store
                .create_user(&username, &hash, superuser)
                .map_err(|e| e.to_string())?;
            eprintln!("created user {username}");
            Ok(())
        }
        Command::Token {
            command:
                TokenCommand::Create {
                    user,
                    read_only,
                    expires,
                    key,
                    description,
                },
        } => {
            let store = Store::open(&settings.database_url, 1).map_err(|e| e.to_string())?;
            let user_id = store
                .user_id(&user)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("no user named {user:?}"))?;
            let expires = expires
                .map(|e| {
                    chrono::DateTime::parse_from_rfc3339(&e)
                        .map(|t| t.with_timezone(&chrono::Utc))
                        .map_err(|err| format!("--expires: {err}"))
                })
                .transpose()?;
            let key = match key {
                Some(k) => TokenKey::parse_chosen(&k).map_err(|e| e.to_string())?,
                None => TokenKey::generate(),
            };
            store
                .create_token(&NewToken {
                    user_id,
                    key_hash: key.hash(),
                    key_suffix: key.suffix().to_string(),
                    expires,
                    write_enabled: !read_only,
                    description,
                })
                .map_err(|e| e.to_string())?;
            println!("{}", key.as_str());
            Ok(())
        }
        Command::User {
            command: UserCommand::SetPassword { username },
        } => {
            let store = Store::open(&settings.database_url, 1).map_err(|e| e.to_string())?;
            let hash = password_from_stdin(settings.min_password_length)?;
            if !store
                .set_password(&username, &hash)
                .map_err(|e| e.to_string())?
            {
                return Err(format!("no user named {username:?}"));
            }
            eprintln!("password of {username} set");
            Ok(())
        }
        Command::Token {
            command: TokenCommand::List { user },
        } => {
            let store = Store::open(&settings.database_url, 1).map_err(|e| e.to_string())?;
            let user_id = match user {
                Some(name) => Some(
                    store
                        .user_id(&name)
                        .map_err(|e| e.to_string())?
                        .ok_or_else(|| format!("no user named {name:?}"))?,
                ),
                None => None,
            };
            let time = |t: Option<chrono::DateTime<chrono::Utc>>| {
                t.map_or("-".to_string(), |t| {
                    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
                })
            };
            for t in store.list_tokens(user_id).map_err(|e| e.to_string())? {
                println!(
                    "{}\t{}\t…{}\t{}\texpires {}\tlast used {}\t{}",
                    t.id,
                    t.username,
                    t.key_suffix,
                    if t.write_enabled {
                        "read-write"
                    } else {
                        "read-only"
                    },
                    time(t.expires),
                    time(t.last_used),
                    t.description
                );
            }
            Ok(())
        }
        Command::Token {
            command: TokenCommand::Revoke { id },
        } => {
            let store = Store::open(&settings.database_url, 1).map_err(|e| e.to_string())?;
            if !store.delete_token(id).map_err(|e| e.to_string())? {
                return Err(format!("no token with id {id}"));
            }
            eprintln!("token {id} revoked");
            Ok(())
        }
        Command::DemoData { scale, seed } => demo_data::run(&settings.database_url, scale, seed),
        Command::Peeringdb {
            command: PeeringdbCommand::Sync { from_dir },
        } => peeringdb_command::sync(&settings, from_dir),
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

/// A password from standard input (one line), hashed.
fn password_from_stdin(min_length: usize) -> Result<String, String> {
    let mut password = String::new();
    std::io::stdin()
        .read_to_string(&mut password)
        .map_err(|e| e.to_string())?;
    let password = password.trim_end_matches(['\r', '\n']);
    if password.is_empty() {
        return Err("empty password".into());
    }
    if password.chars().count() < min_length {
        return Err(format!(
            "password too short: at least {min_length} characters (PEERING_MIN_PASSWORD_LENGTH)"
        ));
    }
    peering_auth::password::hash(password).map_err(|e| e.to_string())
}
