//! The e-mail settings (`PEERING_EMAIL_*`): the SMTP server e-mails to peers go through,
//! as flags, variables and TOML keys (`email_server`, …), resolved into
//! `peering_app::email::Settings`. The password is never shown: not in `--help`, not in
//! the settings' `Debug`.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use serde::Deserialize;

/// The e-mail flags; clap fills each from its flag or its environment variable.
#[derive(Debug, Clone, Default, Args)]
pub struct EmailArgs {
    /// The SMTP server e-mails to peers are sent through; unset, `send-email/` answers 503.
    #[arg(long, env = "PEERING_EMAIL_SERVER", global = true)]
    pub email_server: Option<String>,
    /// Its port (default 25).
    #[arg(long, env = "PEERING_EMAIL_PORT", global = true)]
    pub email_port: Option<u16>,
    /// The user to log in as, if the server wants a login.
    #[arg(long, env = "PEERING_EMAIL_USERNAME", global = true)]
    pub email_username: Option<String>,
    /// The password of that user.
    #[arg(
        long,
        env = "PEERING_EMAIL_PASSWORD",
        global = true,
        hide_env_values = true
    )]
    pub email_password: Option<String>,
    /// The sender's address (`peering@example.net` or `Peering <peering@example.net>`);
    /// needed with a server.
    #[arg(long, env = "PEERING_EMAIL_FROM", global = true)]
    pub email_from: Option<String>,
    /// `none` (plain SMTP, the default, as the reference), `starttls` or `tls` (SMTPS).
    #[arg(long, env = "PEERING_EMAIL_TLS", global = true)]
    pub email_tls: Option<String>,
    /// Seconds the server has to accept the connection and to answer each command.
    #[arg(long, env = "PEERING_EMAIL_TIMEOUT_SECS", global = true)]
    pub email_timeout_secs: Option<u64>,
    /// A PEM file of certificates trusted besides the public roots, for a server whose
    /// certificate a private CA signed.
    #[arg(long, env = "PEERING_EMAIL_CA_FILE", global = true)]
    pub email_ca_file: Option<PathBuf>,
}

/// The same settings as read from the TOML file.
#[derive(Debug, Default, Deserialize)]
pub struct EmailFile {
    email_server: Option<String>,
    email_port: Option<u16>,
    email_username: Option<String>,
    email_password: Option<String>,
    email_from: Option<String>,
    email_tls: Option<String>,
    email_timeout_secs: Option<u64>,
    email_ca_file: Option<PathBuf>,
}

/// The longest timeout taken: a job worker waits this long at most for each command.
const LONGEST_TIMEOUT_SECS: u64 = 600;

/// A value from the flag or variable, else the file; blank counts as none.
fn text(flag: &Option<String>, file: Option<String>) -> Option<String> {
    flag.clone()
        .or(file)
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
}

impl EmailArgs {
    /// Each setting from its flag or variable, else the file, else its default.
    pub fn resolve(&self, file: EmailFile) -> Result<peering_app::email::Settings, String> {
        let defaults = peering_app::email::Settings::default();
        let timeout = self
            .email_timeout_secs
            .or(file.email_timeout_secs)
            .map_or(defaults.timeout, Duration::from_secs);
        if timeout.is_zero() || timeout.as_secs() > LONGEST_TIMEOUT_SECS {
            return Err(format!(
                "PEERING_EMAIL_TIMEOUT_SECS must be between 1 and {LONGEST_TIMEOUT_SECS}"
            ));
        }
        let settings = peering_app::email::Settings {
            server: text(&self.email_server, file.email_server),
            port: self.email_port.or(file.email_port).unwrap_or(defaults.port),
            username: text(&self.email_username, file.email_username),
            // A password is taken as it is: spaces may be part of it.
            password: self
                .email_password
                .clone()
                .or(file.email_password)
                .filter(|p| !p.is_empty()),
            from: text(&self.email_from, file.email_from),
            tls: text(&self.email_tls, file.email_tls)
                .unwrap_or_default()
                .parse()?,
            timeout,
            ca_file: self.email_ca_file.clone().or(file.email_ca_file),
        };
        peering_app::email::check_settings(&settings)?;
        Ok(settings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_references_and_the_password_never_shows() {
        let none = EmailArgs::default().resolve(EmailFile::default()).unwrap();
        assert_eq!(none, peering_app::email::Settings::default());
        assert_eq!((none.port, none.timeout.as_secs()), (25, 10));
        let args = EmailArgs {
            email_server: Some("smtp.example.net".into()),
            email_password: Some("hunter2-secret".into()),
            email_from: Some("Peering <peering@example.net>".into()),
            email_tls: Some("STARTTLS".into()),
            ..Default::default()
        };
        let set = args.resolve(EmailFile::default()).unwrap();
        assert_eq!(set.tls, peering_app::email::Tls::StartTls);
        let shown = format!("{set:?}");
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("smtp.example.net"), "{shown}");
    }

    #[test]
    fn the_file_takes_the_email_keys_beside_the_others() {
        let text = "listen = \"127.0.0.1:9\"\nemail_server = \"smtp.example.net\"\n\
                    email_port = 2525\nemail_from = \"a@example.net\"\n";
        let file: super::super::FileSettings = toml::from_str(text).unwrap();
        let set = EmailArgs::default().resolve(file.email).unwrap();
        assert_eq!(set.server.as_deref(), Some("smtp.example.net"));
        assert_eq!(set.port, 2525);
        let unknown = toml::from_str::<super::super::FileSettings>("email_bogus = 1\n");
        assert!(unknown.is_err());
    }

    #[test]
    fn bad_values_are_refused_at_start() {
        let server_only = EmailArgs {
            email_server: Some("smtp.example.net".into()),
            ..Default::default()
        };
        let e = server_only.resolve(EmailFile::default()).unwrap_err();
        assert!(e.contains("PEERING_EMAIL_FROM"), "{e}");
        for (tls, from, timeout) in [
            ("ssl", "a@example.net", 10),
            ("none", "not an address", 10),
            ("none", "a@example.net", 0),
        ] {
            let args = EmailArgs {
                email_from: Some(from.into()),
                email_tls: Some(tls.into()),
                email_timeout_secs: Some(timeout),
                ..server_only.clone()
            };
            assert!(args.resolve(EmailFile::default()).is_err(), "{tls} {from}");
        }
    }
}
