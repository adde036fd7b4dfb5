//! One e-mail carried to the SMTP server with lettre, blocking (it runs on a job worker's
//! thread): the message, the connection as the settings say, and why it failed in words
//! an operator can act on.

use lettre::message::header::ContentType;
use lettre::message::Mailbox;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls as LettreTls, TlsParameters};
use lettre::{Message, SmtpTransport, Transport};

use super::{Settings, Tls};

/// An address as the message takes it, `Name <address>` or `address`.
pub(super) fn mailbox(text: &str) -> Result<Mailbox, String> {
    text.trim().parse::<Mailbox>().map_err(|e| e.to_string())
}

/// What is sent.
pub(super) struct Outgoing<'a> {
    pub to: &'a [String],
    pub cc: &'a [String],
    pub subject: &'a str,
    pub body: String,
}

/// A subject on one line: a template may leave line breaks in it, which a header cannot
/// hold.
pub(super) fn one_line(subject: &str) -> String {
    subject.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The message, from the settings' sender.
fn message(from: &str, outgoing: &Outgoing<'_>) -> Result<Message, String> {
    let mut builder = Message::builder()
        .from(mailbox(from)?)
        .subject(outgoing.subject);
    for to in outgoing.to {
        builder = builder.to(mailbox(to)?);
    }
    for cc in outgoing.cc {
        builder = builder.cc(mailbox(cc)?);
    }
    builder
        .header(ContentType::TEXT_PLAIN)
        .body(outgoing.body.clone())
        .map_err(|e| e.to_string())
}

/// TLS toward `server`: the public roots, and the settings' extra CA file if any.
fn tls_parameters(settings: &Settings, server: &str) -> Result<TlsParameters, String> {
    let mut builder = TlsParameters::builder(server.to_string());
    if let Some(path) = &settings.ca_file {
        let pem = std::fs::read(path)
            .map_err(|e| format!("cannot read PEERING_EMAIL_CA_FILE {}: {e}", path.display()))?;
        let certificate = Certificate::from_pem(&pem).map_err(|e| {
            format!(
                "PEERING_EMAIL_CA_FILE {}: not a PEM certificate: {e}",
                path.display()
            )
        })?;
        builder = builder.add_root_certificate(certificate);
    }
    builder.build_rustls().map_err(|e| e.to_string())
}

/// The connection the settings describe.
fn transport(settings: &Settings, server: &str) -> Result<SmtpTransport, String> {
    let mut builder = SmtpTransport::builder_dangerous(server)
        .port(settings.port)
        .timeout(Some(settings.timeout));
    builder = match settings.tls {
        Tls::None => builder.tls(LettreTls::None),
        Tls::StartTls => builder.tls(LettreTls::Required(tls_parameters(settings, server)?)),
        Tls::Tls => builder.tls(LettreTls::Wrapper(tls_parameters(settings, server)?)),
    };
    if let Some(username) = &settings.username {
        let password = settings.password.clone().unwrap_or_default();
        builder = builder.credentials(Credentials::new(username.clone(), password));
    }
    Ok(builder.build())
}

/// Sends one message; why not, naming the server, when it fails (a recipient or a login
/// refused, no server there, no answer in time).
pub(super) fn deliver(settings: &Settings, outgoing: &Outgoing<'_>) -> Result<(), String> {
    let server = settings
        .server
        .as_deref()
        .ok_or("no SMTP server is set (PEERING_EMAIL_SERVER)")?;
    let from = settings
        .from
        .as_deref()
        .ok_or("no sender is set (PEERING_EMAIL_FROM)")?;
    let place = format!("{server}:{}", settings.port);
    let message = message(from, outgoing)?;
    let transport = transport(settings, server)?;
    transport
        .send(&message)
        .map_err(|e| format!("The e-mail was not sent: {place} {}: {e}", why(&e)))?;
    Ok(())
}

/// What went wrong, in a few words: the server's answer, or what the connection met.
fn why(e: &lettre::transport::smtp::Error) -> &'static str {
    use std::io::ErrorKind;
    let io = io_error_kind(e);
    if e.is_timeout() || matches!(io, Some(ErrorKind::WouldBlock | ErrorKind::TimedOut)) {
        "no answer in time"
    } else if e.is_permanent() {
        "refused"
    } else if e.is_transient() {
        "refused for now"
    } else if e.is_tls() || io == Some(ErrorKind::InvalidData) {
        // rustls reports a certificate it cannot trust as invalid data.
        "TLS failed"
    } else {
        "failed"
    }
}

/// The kind of the I/O error under `e`, if one is.
fn io_error_kind(e: &lettre::transport::smtp::Error) -> Option<std::io::ErrorKind> {
    let mut cause = std::error::Error::source(e);
    while let Some(inner) = cause {
        if let Some(io) = inner.downcast_ref::<std::io::Error>() {
            return Some(io.kind());
        }
        cause = inner.source();
    }
    None
}
