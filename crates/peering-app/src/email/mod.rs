//! E-mails sent to a peer (`autonomous-systems/{id}/send-email/`): how the SMTP server is
//! reached (`Settings`), what a request must hold before a job is enqueued (`check`), and
//! the job that renders, sends and records the e-mail (`job.rs`, over `smtp.rs`).

mod job;
mod smtp;

use std::path::PathBuf;
use std::time::Duration;

use peering_domain::bodies::EmailToSend;
use peering_domain::resources::{
    AUTONOMOUS_SYSTEM, CONTACT, CONTACT_ASSIGNMENT, EMAIL, PDB_NETWORK, PDB_NETWORK_CONTACT,
};
use peering_domain::{FieldErrors, ResourceSpec};
use peering_store::{Error, Store, Window};

use crate::{Viewer, WorkError};

pub use job::send;

/// How the e-mail is carried to the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tls {
    /// Plain SMTP, as the reference does unless told otherwise (`USE_TLS`, `USE_SSL`).
    #[default]
    None,
    /// Plain SMTP upgraded with STARTTLS, which the server must offer.
    StartTls,
    /// TLS from the first byte (SMTPS, usually port 465).
    Tls,
}

impl std::str::FromStr for Tls {
    type Err = String;

    fn from_str(text: &str) -> Result<Tls, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "" | "none" => Ok(Tls::None),
            "starttls" => Ok(Tls::StartTls),
            "tls" => Ok(Tls::Tls),
            other => Err(format!(
                "PEERING_EMAIL_TLS: {other:?} is none of \"none\", \"starttls\" and \"tls\""
            )),
        }
    }
}

/// Where and how e-mails are sent. Its `Debug` never shows the password.
#[derive(Clone, PartialEq)]
pub struct Settings {
    /// The SMTP server's host name or address; `None`: nothing is sent, and the action
    /// answers 503.
    pub server: Option<String>,
    pub port: u16,
    pub username: Option<String>,
    pub password: Option<String>,
    /// The sender's address (`Name <address>` or `address`).
    pub from: Option<String>,
    pub tls: Tls,
    /// The longest the server may take to connect or to answer one command.
    pub timeout: Duration,
    /// A PEM file of certificates trusted besides the public roots (a private CA).
    pub ca_file: Option<PathBuf>,
}

impl Default for Settings {
    /// The reference's defaults: port 25, plain SMTP, ten seconds.
    fn default() -> Settings {
        Settings {
            server: None,
            port: 25,
            username: None,
            password: None,
            from: None,
            tls: Tls::None,
            timeout: Duration::from_secs(10),
            ca_file: None,
        }
    }
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("email::Settings")
            .field("server", &self.server)
            .field("port", &self.port)
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "<hidden>"))
            .field("from", &self.from)
            .field("tls", &self.tls)
            .field("timeout", &self.timeout)
            .field("ca_file", &self.ca_file)
            .finish()
    }
}

impl Settings {
    /// Whether e-mails can be sent at all.
    pub fn configured(&self) -> bool {
        self.server.is_some()
    }
}

/// Why a setting is refused at start, if it is: the sender must be an address, and a
/// server needs one.
pub fn check_settings(settings: &Settings) -> Result<(), String> {
    match (&settings.server, &settings.from) {
        (Some(_), None) => Err("PEERING_EMAIL_FROM is needed with PEERING_EMAIL_SERVER".into()),
        (_, Some(from)) => smtp::mailbox(from)
            .map(|_| ())
            .map_err(|e| format!("PEERING_EMAIL_FROM: {from:?} is not an address: {e}")),
        (None, None) => Ok(()),
    }
}

/// The most addresses one e-mail goes to (recipients and carbon copies together).
pub const MAX_ADDRESSES: usize = 100;

/// What a send request becomes once checked: the template exists and the caller may read
/// it, the recipients default to the autonomous system's contacts, and every address is
/// one. A missing autonomous system is `WorkError::NotFound`; anything else wrong is a
/// field error (`Error::Invalid`).
pub fn check(
    store: &Store,
    system: i64,
    mut request: EmailToSend,
    viewer: &Viewer,
) -> Result<EmailToSend, WorkError> {
    // The render sees only what the caller may read: a system they may not read is one
    // there is not, for them.
    let found = match viewer.may_read(&AUTONOMOUS_SYSTEM) {
        true => store.get(&AUTONOMOUS_SYSTEM, system)?,
        false => None,
    };
    let Some((record, _)) = found else {
        return Err(WorkError::NotFound("autonomous system"));
    };
    let mut errors = FieldErrors::new();
    if !viewer.may_read(&EMAIL) || store.get(&EMAIL, request.email)?.is_none() {
        let id = request.email;
        errors.add(
            "email",
            format!("Invalid pk \"{id}\" - object does not exist."),
        );
    }
    if request.recipients.is_empty() {
        let asn = record.int(&AUTONOMOUS_SYSTEM, "asn");
        request.recipients = contact_addresses(store, system, asn, viewer)?;
    }
    if request.recipients.is_empty() {
        errors.add(
            "recipients",
            "No recipients: give some, or give the autonomous system contacts with an \
             e-mail address.",
        );
    }
    for (field, list) in [("recipients", &request.recipients), ("cc", &request.cc)] {
        for address in list {
            if let Err(e) = smtp::mailbox(address) {
                errors.add(
                    field,
                    format!("Enter a valid email address ({address:?}: {e})."),
                );
            }
        }
    }
    if request.recipients.len() + request.cc.len() > MAX_ADDRESSES {
        errors.add(
            "recipients",
            format!("At most {MAX_ADDRESSES} addresses, recipients and cc together."),
        );
    }
    if errors.is_empty() {
        Ok(request)
    } else {
        Err(WorkError::Store(Error::invalid(errors)))
    }
}

/// The e-mail addresses of the autonomous system's contacts, as the reference's form
/// offers them: those assigned to it, then those of its PeeringDB network, in order and
/// without repeats; only those the caller may read.
fn contact_addresses(
    store: &Store,
    system: i64,
    asn: i64,
    viewer: &Viewer,
) -> Result<Vec<String>, Error> {
    let mut addresses: Vec<String> = Vec::new();
    let mut keep = |address: &str| {
        let address = address.trim();
        if !address.is_empty() && !addresses.iter().any(|a| a == address) {
            addresses.push(address.to_string());
        }
    };
    if viewer.may_read(&CONTACT) && viewer.may_read(&CONTACT_ASSIGNMENT) {
        let (content_type, system) = (AUTONOMOUS_SYSTEM.content_type(), system.to_string());
        let pairs = [
            ("content_type", content_type.as_str()),
            ("object_id", system.as_str()),
        ];
        let page = listed(store, &CONTACT_ASSIGNMENT, &pairs, true)?;
        for assignment in &page.records {
            if let Some(contact) = assignment.follow(&CONTACT_ASSIGNMENT, "contact", &page.related)
            {
                keep(contact.text(&CONTACT, "email"));
            }
        }
    }
    if viewer.may_read(&PDB_NETWORK) && viewer.may_read(&PDB_NETWORK_CONTACT) {
        let asn = asn.to_string();
        let networks = listed(store, &PDB_NETWORK, &[("asn", asn.as_str())], false)?;
        for network in &networks.records {
            let net = network.id.to_string();
            let contacts = listed(
                store,
                &PDB_NETWORK_CONTACT,
                &[("net_id", net.as_str())],
                false,
            )?;
            for contact in &contacts.records {
                keep(contact.text(&PDB_NETWORK_CONTACT, "email"));
            }
        }
    }
    Ok(addresses)
}

/// The first [`MAX_ADDRESSES`] objects of `spec` that the filter `pairs` keeps.
fn listed(
    store: &Store,
    spec: &'static ResourceSpec,
    pairs: &[(&str, &str)],
    relations: bool,
) -> Result<peering_store::Page, Error> {
    let pairs: Vec<(String, String)> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let filter = peering_filter::parse(&pairs, &Store::catalog(spec))
        .map_err(|e| Error::Backend(format!("{}: {e:?}", spec.table).into()))?;
    let window = Window {
        limit: Some(MAX_ADDRESSES as i64),
        offset: 0,
    };
    store.list(spec, &filter, window, relations, None)
}
