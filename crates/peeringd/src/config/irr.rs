//! The IRR settings: how prefix refreshes run bgpq4 (`PEERING_BGPQ_*`) and which server
//! and sources it asks (`PEERING_IRR_*`); the defaults are the reference's.

use clap::Args;
use serde::Deserialize;

use peering_app::irr::{bgpq, Settings};

/// The longest a call of bgpq4 may be given, in seconds.
const LONGEST_TIMEOUT_SECS: u64 = 3600;

/// The IRR flags; clap fills each from its flag or its environment variable.
#[derive(Debug, Clone, Default, Args)]
pub struct IrrArgs {
    /// The bgpq4 program (a name looked up in `PATH`, or a path).
    #[arg(long, env = "PEERING_BGPQ_PATH", global = true)]
    pub bgpq_path: Option<String>,
    /// The IRR server bgpq4 asks, `host` or `host:port`; empty: bgpq4's own default.
    #[arg(long, env = "PEERING_IRR_HOST", global = true)]
    pub irr_host: Option<String>,
    /// The IRR sources asked, comma-separated; empty: the server's.
    #[arg(long, env = "PEERING_IRR_SOURCES", global = true)]
    pub irr_sources: Option<String>,
    /// bgpq4's arguments for IPv4 lists (white-space separated).
    #[arg(
        long,
        env = "PEERING_BGPQ_IPV4_ARGS",
        global = true,
        allow_hyphen_values = true
    )]
    pub bgpq_ipv4_args: Option<String>,
    /// bgpq4's arguments for IPv6 lists (white-space separated).
    #[arg(
        long,
        env = "PEERING_BGPQ_IPV6_ARGS",
        global = true,
        allow_hyphen_values = true
    )]
    pub bgpq_ipv6_args: Option<String>,
    /// Seconds one call of bgpq4 may take before it is killed.
    #[arg(long, env = "PEERING_IRR_TIMEOUT_SECS", global = true)]
    pub irr_timeout_secs: Option<u64>,
}

/// The same settings as read from the TOML file.
#[derive(Debug, Default, Deserialize)]
pub struct IrrFile {
    bgpq_path: Option<String>,
    irr_host: Option<String>,
    irr_sources: Option<String>,
    bgpq_ipv4_args: Option<String>,
    bgpq_ipv6_args: Option<String>,
    irr_timeout_secs: Option<u64>,
}

impl IrrArgs {
    /// Each setting from its flag or variable, else the file, else the reference's default.
    pub fn resolve(&self, file: IrrFile) -> Result<Settings, String> {
        let defaults = Settings::default();
        let pick = |flag: &Option<String>, file: Option<String>| flag.clone().or(file);
        let program = pick(&self.bgpq_path, file.bgpq_path)
            .map(|p| p.trim().to_string())
            .filter(|p| !p.is_empty())
            .unwrap_or(defaults.program);
        let timeout_secs = self
            .irr_timeout_secs
            .or(file.irr_timeout_secs)
            .unwrap_or(defaults.timeout.as_secs());
        if !(1..=LONGEST_TIMEOUT_SECS).contains(&timeout_secs) {
            return Err(format!(
                "PEERING_IRR_TIMEOUT_SECS must be between 1 and {LONGEST_TIMEOUT_SECS}"
            ));
        }
        let sources = pick(&self.irr_sources, file.irr_sources)
            .map_or(defaults.sources, |s| s.trim().to_string());
        let settings = Settings {
            program,
            host: pick(&self.irr_host, file.irr_host).map_or(defaults.host, |h| h.trim().into()),
            ipv4_args: pick(&self.bgpq_ipv4_args, file.bgpq_ipv4_args)
                .map_or(defaults.ipv4_args, |a| bgpq::words(&a)),
            ipv6_args: pick(&self.bgpq_ipv6_args, file.bgpq_ipv6_args)
                .map_or(defaults.ipv6_args, |a| bgpq::words(&a)),
            timeout: std::time::Duration::from_secs(timeout_secs),
            sources,
        };
        bgpq::sources(&settings, &bgpq::Overrides::default())
            .map_err(|e| format!("PEERING_IRR_SOURCES: {e}"))?;
        Ok(settings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_references() {
        let settings = IrrArgs::default().resolve(IrrFile::default()).unwrap();
        assert_eq!(settings, Settings::default());
        assert_eq!(settings.program, "bgpq4");
        assert_eq!(settings.host, "rr.ntt.net");
        assert_eq!(settings.ipv6_args, ["-A", "-r", "16", "-R", "48"]);
    }

    #[test]
    fn flags_win_over_the_file_and_sources_are_checked() {
        let args = IrrArgs {
            irr_host: Some("127.0.0.1:4343".into()),
            bgpq_ipv4_args: Some("-A -R 32".into()),
            ..IrrArgs::default()
        };
        let file: IrrFile =
            toml::from_str("irr_host = \"whois.radb.net\"\nirr_sources = \"RADB\"").unwrap();
        let settings = args.resolve(file).unwrap();
        assert_eq!(settings.host, "127.0.0.1:4343");
        assert_eq!(settings.sources, "RADB");
        assert_eq!(settings.ipv4_args, ["-A", "-R", "32"]);
        let bad = IrrArgs {
            irr_sources: Some("RIPE\n!!".into()),
            ..IrrArgs::default()
        };
        assert!(bad.resolve(IrrFile::default()).is_err());
        let zero = IrrArgs {
            irr_timeout_secs: Some(0),
            ..IrrArgs::default()
        };
        assert!(zero.resolve(IrrFile::default()).is_err());
    }

    #[test]
    fn the_file_takes_these_settings_beside_the_others_and_refuses_unknown_ones() {
        let file: super::super::FileSettings =
            toml::from_str("listen = \"127.0.0.1:1\"\nirr_host = \"whois.radb.net\"").unwrap();
        assert_eq!(file.listen.as_deref(), Some("127.0.0.1:1"));
        assert_eq!(file.irr.irr_host.as_deref(), Some("whois.radb.net"));
        assert!(toml::from_str::<super::super::FileSettings>("irr_hots = \"x\"").is_err());
    }
}
