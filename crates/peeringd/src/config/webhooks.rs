//! The webhook settings: how long a delivery may take, how many attempts it makes and how
//! long it waits between them, and a proxy.

use std::time::Duration;

use clap::Args;
use serde::Deserialize;

/// The webhook flags (and their environment variables).
#[derive(Debug, Clone, Default, Args)]
pub struct WebhookArgs {
    /// Seconds one webhook delivery may take, connecting and answering included.
    #[arg(long, env = "PEERING_WEBHOOK_TIMEOUT_SECS", global = true)]
    pub webhook_timeout_secs: Option<u64>,
    /// Attempts a webhook delivery makes at most before it ends errored.
    #[arg(long, env = "PEERING_WEBHOOK_ATTEMPTS", global = true)]
    pub webhook_attempts: Option<u32>,
    /// Seconds before the second attempt of a failed delivery; each next wait is three
    /// times longer (at most an hour).
    #[arg(long, env = "PEERING_WEBHOOK_RETRY_DELAY_SECS", global = true)]
    pub webhook_retry_delay_secs: Option<u64>,
    /// A proxy for webhook deliveries (`http://host:port`); empty: direct.
    #[arg(long, env = "PEERING_WEBHOOK_PROXY", global = true)]
    pub webhook_proxy: Option<String>,
}

/// The same settings in the TOML file.
#[derive(Debug, Default, Deserialize)]
pub struct WebhookFile {
    webhook_timeout_secs: Option<u64>,
    webhook_attempts: Option<u32>,
    webhook_retry_delay_secs: Option<u64>,
    webhook_proxy: Option<String>,
}

impl WebhookArgs {
    /// Each setting from its flag or variable, else the file, else its default; refused
    /// out of bounds.
    pub fn resolve(&self, file: WebhookFile) -> Result<peering_app::webhooks::Settings, String> {
        let defaults = peering_app::webhooks::Settings::default();
        let secs = |flag: Option<u64>, file: Option<u64>, default: Duration| {
            flag.or(file).map_or(default, Duration::from_secs)
        };
        let settings = peering_app::webhooks::Settings {
            timeout: secs(
                self.webhook_timeout_secs,
                file.webhook_timeout_secs,
                defaults.timeout,
            ),
            attempts: self
                .webhook_attempts
                .or(file.webhook_attempts)
                .unwrap_or(defaults.attempts),
            retry_delay: secs(
                self.webhook_retry_delay_secs,
                file.webhook_retry_delay_secs,
                defaults.retry_delay,
            ),
            proxy: self
                .webhook_proxy
                .clone()
                .or(file.webhook_proxy)
                .filter(|p| !p.trim().is_empty()),
        };
        if settings.timeout.is_zero() || settings.timeout > Duration::from_secs(3600) {
            return Err("PEERING_WEBHOOK_TIMEOUT_SECS must be between 1 and 3600".into());
        }
        if !(1..=100).contains(&settings.attempts) {
            return Err("PEERING_WEBHOOK_ATTEMPTS must be between 1 and 100".into());
        }
        if settings.retry_delay > Duration::from_secs(3600) {
            return Err("PEERING_WEBHOOK_RETRY_DELAY_SECS must be at most 3600".into());
        }
        Ok(settings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_beat_the_file_and_bounds_hold() {
        let args = WebhookArgs {
            webhook_attempts: Some(2),
            ..Default::default()
        };
        let file: WebhookFile =
            toml::from_str("webhook_attempts = 7\nwebhook_timeout_secs = 3\n").unwrap();
        let s = args.resolve(file).unwrap();
        assert_eq!(s.attempts, 2);
        assert_eq!(s.timeout, Duration::from_secs(3));
        assert_eq!(s.retry_delay, Duration::from_secs(10));
        let zero = WebhookArgs {
            webhook_timeout_secs: Some(0),
            ..Default::default()
        };
        assert!(zero.resolve(WebhookFile::default()).is_err());
    }

    #[test]
    fn the_file_settings_take_the_webhook_keys_beside_the_others() {
        let text =
            "listen = \"127.0.0.1:9\"\nwebhook_attempts = 7\nwebhook_proxy = \"http://p:1\"\n";
        let file: super::super::FileSettings = toml::from_str(text).unwrap();
        assert_eq!(file.webhooks.webhook_attempts, Some(7));
        assert_eq!(file.webhooks.webhook_proxy.as_deref(), Some("http://p:1"));
        assert!(toml::from_str::<super::super::FileSettings>("webhook_bogus = 1\n").is_err());
    }
}
