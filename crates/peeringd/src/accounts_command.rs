//! `peeringd user …` and `peeringd token …`: users and API tokens from the command line,
//! for a first superuser or a token a script needs, before anyone can use the web pages.

use std::io::Read;

use clap::Subcommand;
use peering_app::accounts::{self, AccountError};
use peering_auth::TokenKey;
use peering_store::{NewToken, Store};

use crate::config::Settings;

#[derive(Debug, Subcommand)]
pub enum UserCommand {
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
pub enum TokenCommand {
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

pub fn user(settings: &Settings, command: UserCommand) -> Result<(), String> {
    match command {
        UserCommand::Create {
            username,
            superuser,
            password_stdin,
        } => create_user(settings, &username, superuser, password_stdin),
        UserCommand::SetPassword { username } => set_password(settings, &username),
    }
}

pub fn token(settings: &Settings, command: TokenCommand) -> Result<(), String> {
    match command {
        TokenCommand::Create {
            user,
            read_only,
            expires,
            key,
            description,
        } => create_token(settings, &user, read_only, expires, key, description),
        TokenCommand::List { user } => list_tokens(settings, user),
        TokenCommand::Revoke { id } => revoke_token(settings, id),
    }
}

/// The store, with one connection: a command runs one thing at a time.
fn open(settings: &Settings) -> Result<Store, String> {
    crate::open_store(settings, 1)
}

fn user_id(store: &Store, name: &str) -> Result<i64, String> {
    store
        .users()
        .user_id(name)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("no user named {name:?}"))
}

fn create_user(
    settings: &Settings,
    username: &str,
    superuser: bool,
    password_stdin: bool,
) -> Result<(), String> {
    let store = open(settings)?;
    let password = if password_stdin {
        Some(password_from_stdin()?)
    } else {
        None
    };
    accounts::create_user(
        &store,
        &settings.write_rules(),
        username,
        password.as_deref(),
        superuser,
    )
    .map_err(explained)?;
    eprintln!("created user {username}");
    Ok(())
}

fn set_password(settings: &Settings, username: &str) -> Result<(), String> {
    let store = open(settings)?;
    let password = password_from_stdin()?;
    accounts::set_password(&store, &settings.write_rules(), username, &password)
        .map_err(explained)?;
    eprintln!("password of {username} set");
    Ok(())
}

fn create_token(
    settings: &Settings,
    user: &str,
    read_only: bool,
    expires: Option<String>,
    key: Option<String>,
    description: String,
) -> Result<(), String> {
    let store = open(settings)?;
    let user_id = user_id(&store, user)?;
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
        .users()
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

/// One line a token: id, user, key ending, access, expiry, last use, description.
fn list_tokens(settings: &Settings, user: Option<String>) -> Result<(), String> {
    let store = open(settings)?;
    let user_id = user.map(|name| user_id(&store, &name)).transpose()?;
    let time = |t: Option<chrono::DateTime<chrono::Utc>>| {
        t.map_or("-".to_string(), |t| {
            t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        })
    };
    for t in store
        .users()
        .list_tokens(user_id)
        .map_err(|e| e.to_string())?
    {
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

fn revoke_token(settings: &Settings, id: i64) -> Result<(), String> {
    let store = open(settings)?;
    if !store.users().delete_token(id).map_err(|e| e.to_string())? {
        return Err(format!("no token with id {id}"));
    }
    eprintln!("token {id} revoked");
    Ok(())
}

/// A password from standard input (one line).
fn password_from_stdin() -> Result<String, String> {
    let mut password = String::new();
    std::io::stdin()
        .read_to_string(&mut password)
        .map_err(|e| e.to_string())?;
    let password = password.trim_end_matches(['\r', '\n']);
    if password.is_empty() {
        return Err("empty password".into());
    }
    Ok(password.to_string())
}

/// An account error as the command line says it: a refused password names the setting
/// that sets the rule.
fn explained(e: AccountError) -> String {
    match e {
        AccountError::Password(why) => format!("{why} (PEERING_MIN_PASSWORD_LENGTH)"),
        other => other.to_string(),
    }
}
