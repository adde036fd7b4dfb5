//! Settings: each from a flag, else the environment (`PEERING_*`), else the TOML file given
//! by `--config`, else the default.

mod data_sources;
mod email;
mod irr;
mod schedules;
mod webhooks;

use std::path::Path;

use clap::Args;
use serde::Deserialize;

/// The settings flags; clap fills each from its flag or its environment variable.
#[derive(Debug, Clone, Default, Args)]
pub struct SettingsArgs {
    /// Address to serve on.
    #[arg(long, env = "PEERING_LISTEN", global = true)]
    pub listen: Option<String>,
    /// `sqlite://PATH` or `postgres://…`.
    #[arg(long, env = "PEERING_DATABASE_URL", global = true)]
    pub database_url: Option<String>,
    /// Default page size.
    #[arg(long, env = "PEERING_PAGINATE_COUNT", global = true)]
    pub paginate_count: Option<i64>,
    /// Maximum page size; 0 removes it.
    #[arg(long, env = "PEERING_MAX_PAGE_SIZE", global = true)]
    pub max_page_size: Option<i64>,
    /// Whether read requests need a token too.
    #[arg(long, env = "PEERING_LOGIN_REQUIRED", global = true)]
    pub login_required: Option<bool>,
    /// Largest request body accepted, in bytes.
    #[arg(long, env = "PEERING_MAX_BODY_BYTES", global = true)]
    pub max_body_bytes: Option<usize>,
    /// Resources readable without a view permission: `*` (all), a comma-separated list of
    /// `app.model`, or empty (none).
    #[arg(long, env = "PEERING_EXEMPT_VIEW_PERMISSIONS", global = true)]
    pub exempt_view_permissions: Option<String>,
    /// Memory for rendered list and detail answers, in MiB; 0 turns the cache off.
    #[arg(long, env = "PEERING_RESPONSE_CACHE_MIB", global = true)]
    pub response_cache_mib: Option<usize>,
    /// Reverse proxies (comma-separated addresses or CIDRs) whose `X-Forwarded-For` and
    /// `X-Forwarded-Proto` are believed.
    #[arg(long, env = "PEERING_TRUSTED_PROXIES", global = true)]
    pub trusted_proxies: Option<String>,
    /// Seconds a client has to send a request's headers.
    #[arg(long, env = "PEERING_REQUEST_TIMEOUT_SECS", global = true)]
    pub request_timeout_secs: Option<u64>,
    /// Seconds a client has to send a request's whole body.
    #[arg(long, env = "PEERING_BODY_TIMEOUT_SECS", global = true)]
    pub body_timeout_secs: Option<u64>,
    /// The shortest password a user may be given.
    #[arg(long, env = "PEERING_MIN_PASSWORD_LENGTH", global = true)]
    pub min_password_length: Option<usize>,
    /// How log lines are written: `text` or `json`.
    #[arg(long, env = "PEERING_LOG_FORMAT", global = true)]
    pub log_format: Option<String>,
    /// A second address serving `/metrics` to anyone who can reach it (keep it private);
    /// without it, `/metrics` is served on the main address to staff and superusers.
    #[arg(long, env = "PEERING_METRICS_LISTEN", global = true)]
    pub metrics_listen: Option<String>,
    /// Host names requests may name (comma-separated; `.example.net` also allows its
    /// subdomains); empty or `*` allows any.
    #[arg(long, env = "PEERING_ALLOWED_HOSTS", global = true)]
    pub allowed_hosts: Option<String>,
    /// Origins allowed to call the API from a browser's scripts (comma-separated, `*` for
    /// any); empty turns cross-origin requests off.
    #[arg(long, env = "PEERING_CORS_ORIGINS", global = true)]
    pub cors_origins: Option<String>,
    /// Days change records are kept; 0 keeps them all.
    #[arg(long, env = "PEERING_CHANGELOG_RETENTION_DAYS", global = true)]
    pub changelog_retention_days: Option<u32>,
    /// The path the server is served under, for a reverse proxy that passes a sub-path on
    /// (e.g. `/peering`); empty for the root.
    #[arg(long, env = "PEERING_BASE_PATH", global = true)]
    pub base_path: Option<String>,
    /// Jobs this instance runs at once (rendering, talking to routers); 0 runs none, for an
    /// instance that only serves requests while others run the jobs.
    #[arg(long, env = "PEERING_JOB_WORKERS", global = true)]
    pub job_workers: Option<usize>,
    /// Days jobs are kept; 0 keeps them all.
    #[arg(long, env = "PEERING_JOB_RETENTION_DAYS", global = true)]
    pub job_retention_days: Option<u32>,
    /// Template renders answered inline at once (`render-synchronous/`, `?export=`,
    /// configuration and e-mail previews); past it, a 503 pointing to the job form.
    /// Default: the cores less one (at least one), so that one stays free for requests.
    #[arg(long, env = "PEERING_MAX_INLINE_RENDERS", global = true)]
    pub max_inline_renders: Option<usize>,
    /// The program, with its arguments, that talks to routers (polls sessions, pushes
    /// configurations, tests connections); see docs/router-command.md. Empty: those
    /// actions answer 503.
    #[arg(long, env = "PEERING_ROUTER_COMMAND", global = true)]
    pub router_command: Option<String>,
    /// PeeringDB's API (default the public one, <https://www.peeringdb.com/api>).
    #[arg(long, env = "PEERING_PEERINGDB_URL", global = true)]
    pub peeringdb_url: Option<String>,
    /// A PeeringDB API key, sent as `Authorization: Api-Key …`.
    #[arg(
        long,
        env = "PEERING_PEERINGDB_API_KEY",
        global = true,
        hide_env_values = true
    )]
    pub peeringdb_api_key: Option<String>,
    /// A proxy for requests to PeeringDB (`http://host:port`, `socks5://…`).
    #[arg(long, env = "PEERING_PEERINGDB_PROXY", global = true)]
    pub peeringdb_proxy: Option<String>,
    /// Seconds without a byte from PeeringDB that end a synchronisation.
    #[arg(long, env = "PEERING_PEERINGDB_IDLE_TIMEOUT_SECS", global = true)]
    pub peeringdb_idle_timeout_secs: Option<u64>,
    /// Seconds one object type's answer from PeeringDB may take in all.
    #[arg(long, env = "PEERING_PEERINGDB_READ_TIMEOUT_SECS", global = true)]
    pub peeringdb_read_timeout_secs: Option<u64>,
    /// Seconds a whole PeeringDB synchronisation may take (downloads and applying).
    #[arg(long, env = "PEERING_PEERINGDB_DEADLINE_SECS", global = true)]
    pub peeringdb_deadline_secs: Option<u64>,
    /// How answers name the external database's fields: `extdb` (the spec's
    /// `*_extdb_*`, the default) or `peeringdb` (the reference's `*_peeringdb_*`).
    #[arg(long, env = "PEERING_FIELD_NAMES", global = true)]
    pub field_names: Option<String>,
    /// TOML file with the same settings in lower case, without the prefix.
    #[arg(long, global = true)]
    pub config: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub email: email::EmailArgs,
    #[command(flatten)]
    pub irr: irr::IrrArgs,
    #[command(flatten)]
    pub webhooks: webhooks::WebhookArgs,
    #[command(flatten)]
    pub data_sources: data_sources::DataSourceArgs,
    #[command(flatten)]
    pub schedules: schedules::ScheduleArgs,
}

/// The same settings as read from the TOML file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSettings {
    listen: Option<String>,
    database_url: Option<String>,
    paginate_count: Option<i64>,
    max_page_size: Option<i64>,
    login_required: Option<bool>,
    max_body_bytes: Option<usize>,
    exempt_view_permissions: Option<String>,
    response_cache_mib: Option<usize>,
    trusted_proxies: Option<String>,
    request_timeout_secs: Option<u64>,
    body_timeout_secs: Option<u64>,
    min_password_length: Option<usize>,
    log_format: Option<String>,
    metrics_listen: Option<String>,
    allowed_hosts: Option<String>,
    cors_origins: Option<String>,
    changelog_retention_days: Option<u32>,
    base_path: Option<String>,
    job_workers: Option<usize>,
    job_retention_days: Option<u32>,
    max_inline_renders: Option<usize>,
    router_command: Option<String>,
    peeringdb_url: Option<String>,
    peeringdb_api_key: Option<String>,
    peeringdb_proxy: Option<String>,
    peeringdb_idle_timeout_secs: Option<u64>,
    peeringdb_read_timeout_secs: Option<u64>,
    peeringdb_deadline_secs: Option<u64>,
    field_names: Option<String>,
    #[serde(flatten)]
    email: email::EmailFile,
    #[serde(flatten)]
    irr: irr::IrrFile,
    #[serde(flatten)]
    webhooks: webhooks::WebhookFile,
    #[serde(flatten)]
    data_sources: data_sources::DataSourceFile,
    #[serde(flatten)]
    schedules: schedules::ScheduleFile,
}

/// The settings in force.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub listen: String,
    pub database_url: String,
    pub paginate_count: i64,
    pub max_page_size: i64,
    pub login_required: bool,
    pub max_body_bytes: usize,
    pub exempt_view_permissions: peering_api::ExemptViews,
    pub response_cache_mib: usize,
    pub trusted_proxies: Vec<ipnet::IpNet>,
    pub request_timeout_secs: u64,
    pub body_timeout_secs: u64,
    pub min_password_length: usize,
    pub log_format: crate::logging::LogFormat,
    pub metrics_listen: Option<String>,
    pub allowed_hosts: Vec<String>,
    pub cors_origins: Vec<String>,
    pub changelog_retention_days: u32,
    pub base_path: String,
    pub job_workers: usize,
    pub job_retention_days: u32,
    pub max_inline_renders: usize,
    pub router_command: Vec<String>,
    pub peeringdb: peering_peeringdb::Settings,
    pub peeringdb_limits: peering_peeringdb::Limits,
    pub field_names: peering_domain::names::FieldNames,
    pub email: peering_app::email::Settings,
    pub irr: peering_app::irr::Settings,
    pub webhooks: peering_app::webhooks::Settings,
    /// How much and how long a data source's synchronisation may take in.
    pub data_source_limits: peering_app::data_sources::Limits,
    /// The schedules turned on (`config/schedules.rs`).
    pub schedules: Vec<peering_app::schedules::Schedule>,
}

/// `extdb` (or empty) for the spec's names, `peeringdb` for the reference's.
fn field_names(value: Option<String>) -> Result<peering_domain::names::FieldNames, String> {
    use peering_domain::names::FieldNames;
    match value.as_deref().map(str::trim).unwrap_or("") {
        "" | "extdb" | "spec" => Ok(FieldNames::Spec),
        "peeringdb" => Ok(FieldNames::PeeringDb),
        other => Err(format!(
            "PEERING_FIELD_NAMES: {other:?} is neither \"extdb\" nor \"peeringdb\""
        )),
    }
}

fn read_file(path: &Path) -> Result<FileSettings, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    toml::from_str(&text).map_err(|e| format!("invalid {}: {e}", path.display()))
}

/// `PEERING_BASE_PATH` as routes take it: `""`, or `/segment[/segment…]` without a
/// trailing slash.
fn base_path(text: &str) -> Result<String, String> {
    let trimmed = text.trim().trim_matches('/');
    if trimmed.is_empty() {
        return Ok(String::new());
    }
    let valid = trimmed.split('/').all(|segment| {
        !segment.is_empty()
            && segment
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    });
    if !valid {
        return Err(format!(
            "PEERING_BASE_PATH: {text:?} is not a path of letters, digits, '-', '_' and '.'"
        ));
    }
    Ok(format!("/{trimmed}"))
}

/// The items of a comma-separated setting, without blanks.
fn list(text: Option<String>) -> Vec<String> {
    text.unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(str::to_string)
        .collect()
}

/// The words of a setting split at blanks (a program and its arguments).
fn words(text: Option<String>) -> Vec<String> {
    text.unwrap_or_default()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// A comma-separated list of networks (`10.0.0.0/8`) or single addresses (`192.0.2.1`).
fn parse_networks(text: &str) -> Result<Vec<ipnet::IpNet>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(|item| {
            item.parse::<ipnet::IpNet>()
                .or_else(|_| item.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
                .map_err(|_| {
                    format!("PEERING_TRUSTED_PROXIES: {item:?} is not an address or a network")
                })
        })
        .collect()
}

impl SettingsArgs {
    pub fn resolve(&self) -> Result<Settings, String> {
        let file = match &self.config {
            Some(path) => read_file(path)?,
            None => FileSettings::default(),
        };
        let settings = self.merge(file)?;
        check(&settings)?;
        Ok(settings)
    }

    /// Each setting from its flag or variable, else the file, else its default.
    // tidy: long fn: one line per setting, read in a row
    fn merge(&self, file: FileSettings) -> Result<Settings, String> {
        Ok(Settings {
            listen: or(&self.listen, file.listen).unwrap_or_else(|| "127.0.0.1:8000".into()),
            database_url: or(&self.database_url, file.database_url)
                .unwrap_or_else(|| "sqlite://peeringd.sqlite3".into()),
            paginate_count: or(&self.paginate_count, file.paginate_count).unwrap_or(50),
            max_page_size: or(&self.max_page_size, file.max_page_size).unwrap_or(1000),
            login_required: or(&self.login_required, file.login_required).unwrap_or(false),
            max_body_bytes: or(&self.max_body_bytes, file.max_body_bytes)
                .unwrap_or(10 * 1024 * 1024),
            exempt_view_permissions: or(
                &self.exempt_view_permissions,
                file.exempt_view_permissions,
            )
            .unwrap_or_else(|| "*".into())
            .parse()?,
            response_cache_mib: or(&self.response_cache_mib, file.response_cache_mib).unwrap_or(32),
            trusted_proxies: parse_networks(
                &or(&self.trusted_proxies, file.trusted_proxies).unwrap_or_default(),
            )?,
            request_timeout_secs: or(&self.request_timeout_secs, file.request_timeout_secs)
                .unwrap_or(5),
            body_timeout_secs: or(&self.body_timeout_secs, file.body_timeout_secs).unwrap_or(30),
            min_password_length: or(&self.min_password_length, file.min_password_length)
                .unwrap_or(10),
            log_format: or(&self.log_format, file.log_format)
                .unwrap_or_else(|| "text".into())
                .parse()?,
            metrics_listen: or(&self.metrics_listen, file.metrics_listen).filter(|a| !a.is_empty()),
            allowed_hosts: list(or(&self.allowed_hosts, file.allowed_hosts)),
            cors_origins: list(or(&self.cors_origins, file.cors_origins)),
            changelog_retention_days: or(
                &self.changelog_retention_days,
                file.changelog_retention_days,
            )
            .unwrap_or(90),
            base_path: base_path(&or(&self.base_path, file.base_path).unwrap_or_default())?,
            job_workers: or(&self.job_workers, file.job_workers).unwrap_or(2),
            job_retention_days: or(&self.job_retention_days, file.job_retention_days).unwrap_or(90),
            max_inline_renders: or(&self.max_inline_renders, file.max_inline_renders)
                .filter(|n| *n > 0)
                .unwrap_or_else(peering_api::inline_renders::InlineRenders::default_limit),
            router_command: words(or(&self.router_command, file.router_command)),
            peeringdb: self.peeringdb(
                file.peeringdb_url,
                file.peeringdb_api_key,
                file.peeringdb_proxy,
            ),
            peeringdb_limits: self.peeringdb_limits(
                file.peeringdb_idle_timeout_secs,
                file.peeringdb_read_timeout_secs,
                file.peeringdb_deadline_secs,
            ),
            field_names: field_names(or(&self.field_names, file.field_names))?,
            email: self.email.resolve(file.email)?,
            irr: self.irr.resolve(file.irr)?,
            webhooks: self.webhooks.resolve(file.webhooks)?,
            data_source_limits: self.data_sources.resolve(file.data_sources)?,
            schedules: self.schedules.resolve(file.schedules)?,
        })
    }

    /// Where and how PeeringDB is reached; a blank value counts as none.
    fn peeringdb(
        &self,
        url: Option<String>,
        api_key: Option<String>,
        proxy: Option<String>,
    ) -> peering_peeringdb::Settings {
        peering_peeringdb::Settings {
            url: or(&self.peeringdb_url, url)
                .filter(|u| !u.trim().is_empty())
                .unwrap_or_else(|| peering_peeringdb::DEFAULT_URL.into()),
            api_key: or(&self.peeringdb_api_key, api_key).filter(|k| !k.trim().is_empty()),
            proxy: or(&self.peeringdb_proxy, proxy).filter(|p| !p.trim().is_empty()),
        }
    }
}

impl SettingsArgs {
    /// How long a PeeringDB synchronisation may wait and take (seconds from the settings,
    /// else the defaults).
    fn peeringdb_limits(
        &self,
        idle: Option<u64>,
        answer: Option<u64>,
        deadline: Option<u64>,
    ) -> peering_peeringdb::Limits {
        let defaults = peering_peeringdb::Limits::default();
        let secs = |flag: &Option<u64>, file: Option<u64>, default: std::time::Duration| {
            or(flag, file).map_or(default, std::time::Duration::from_secs)
        };
        peering_peeringdb::Limits {
            idle: secs(&self.peeringdb_idle_timeout_secs, idle, defaults.idle),
            answer: secs(&self.peeringdb_read_timeout_secs, answer, defaults.answer),
            deadline: secs(&self.peeringdb_deadline_secs, deadline, defaults.deadline),
        }
    }
}

/// The flag's (or variable's) value, else the file's.
fn or<T: Clone>(flag: &Option<T>, file: Option<T>) -> Option<T> {
    flag.clone().or(file)
}

/// The bounds settings must keep, whatever their source.
fn check(settings: &Settings) -> Result<(), String> {
    if settings.request_timeout_secs == 0 || settings.body_timeout_secs == 0 {
        return Err(
            "PEERING_REQUEST_TIMEOUT_SECS and PEERING_BODY_TIMEOUT_SECS must be at least 1".into(),
        );
    }
    if !settings.peeringdb_limits.valid() {
        return Err(format!(
            "PEERING_PEERINGDB_IDLE_TIMEOUT_SECS, PEERING_PEERINGDB_READ_TIMEOUT_SECS and \
             PEERING_PEERINGDB_DEADLINE_SECS must be between 1 and {}",
            peering_peeringdb::Limits::LONGEST.as_secs()
        ));
    }
    if settings.paginate_count < 1 {
        return Err("PEERING_PAGINATE_COUNT must be at least 1".into());
    }
    if settings.response_cache_mib > 1 << 20 {
        return Err("PEERING_RESPONSE_CACHE_MIB must be at most 1048576 (1 TiB)".into());
    }
    if settings.max_page_size < 0 {
        return Err("PEERING_MAX_PAGE_SIZE must be 0 (no maximum) or more".into());
    }
    Ok(())
}

impl Settings {
    /// The write rules these settings set, for the commands that write objects.
    pub fn write_rules(&self) -> peering_app::edits::WriteRules {
        peering_app::edits::WriteRules {
            min_password_length: self.min_password_length,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_beats_file_beats_default() {
        let dir = std::env::temp_dir().join(format!("peeringd-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.toml");
        std::fs::write(&path, "listen = \"127.0.0.1:9\"\npaginate_count = 20\n").unwrap();
        let args = SettingsArgs {
            paginate_count: Some(7),
            config: Some(path.clone()),
            ..Default::default()
        };
        let s = args.resolve().unwrap();
        assert_eq!(s.paginate_count, 7);
        assert_eq!(s.listen, "127.0.0.1:9");
        assert_eq!(s.max_page_size, 1000);
        assert_eq!(s.response_cache_mib, 32);
        std::fs::write(&path, "response_cache_mib = 0\n").unwrap();
        assert_eq!(args.resolve().unwrap().response_cache_mib, 0);
        std::fs::write(&path, "bogus = 1\n").unwrap();
        assert!(args.resolve().is_err());
        std::fs::write(&path, "schedule_poll_sessions = \"15m\"\n").unwrap();
        assert_eq!(args.resolve().unwrap().schedules.len(), 2);
        let _ = std::fs::remove_dir_all(dir);
    }
}
