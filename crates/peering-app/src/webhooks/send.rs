//! One delivery over HTTP(S): a client per webhook's TLS choices (`ssl_verification`
//! off accepts any certificate; `ca_file_path` trusts that file's certificates only, as
//! `requests` does with `verify=path`), the delivery's timeout, no redirect to another
//! origin, and the receiver's answer, of which only a bounded prefix is read.

use std::io::Read;
use std::time::Duration;

use reqwest::blocking::Client;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::redirect::{Attempt, Policy};

/// The largest CA file read.
const MAX_CA_FILE: u64 = 1 << 20;
/// How much of a failed answer's body is kept in the job's log.
const MAX_ANSWER_SHOWN: u64 = 512;
/// Redirects followed at most, all within the first URL's origin.
const MAX_REDIRECTS: usize = 10;

/// How the receiver is reached.
#[derive(Debug, Clone)]
pub struct Reach<'a> {
    pub ssl_verification: bool,
    pub ca_file: Option<&'a str>,
    pub timeout: Duration,
    pub proxy: Option<&'a str>,
}

/// A request ready to go.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// What a delivery came to.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The receiver answered with a 2xx status.
    Delivered(u16),
    /// It answered with another status; the start of what it said.
    Refused(u16, String),
    /// It could not be reached, or did not answer in time.
    Unreachable(String),
}

/// A client for `reach`; an error (a CA file that cannot be read or holds no certificate,
/// a bad proxy) is the webhook's setup's, not the receiver's.
pub fn client(reach: &Reach<'_>) -> Result<Client, String> {
    let mut builder = Client::builder()
        .timeout(reach.timeout)
        .connect_timeout(reach.timeout)
        .redirect(Policy::custom(same_origin_only));
    if !reach.ssl_verification {
        builder = builder.danger_accept_invalid_certs(true);
    }
    if let Some(path) = reach.ca_file.filter(|p| !p.trim().is_empty()) {
        builder = builder.tls_built_in_root_certs(false);
        for certificate in ca_certificates(path)? {
            builder = builder.add_root_certificate(certificate);
        }
    }
    builder = match reach.proxy {
        Some(proxy) => builder
            .proxy(reqwest::Proxy::all(proxy).map_err(|e| format!("PEERING_WEBHOOK_PROXY: {e}"))?),
        None => builder.no_proxy(),
    };
    builder
        .build()
        .map_err(|e| format!("the HTTP client could not be set up: {e}"))
}

fn same_origin_only(attempt: Attempt<'_>) -> reqwest::redirect::Action {
    let first = attempt.previous().first().map(|u| u.origin());
    if attempt.previous().len() > MAX_REDIRECTS {
        attempt.error("too many redirects")
    } else if first.as_ref() == Some(&attempt.url().origin()) {
        attempt.follow()
    } else {
        attempt.stop()
    }
}

fn ca_certificates(path: &str) -> Result<Vec<reqwest::Certificate>, String> {
    let mut pem = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(MAX_CA_FILE + 1).read_to_end(&mut pem))
        .map_err(|e| format!("the CA file {path} cannot be read: {e}"))?;
    if pem.len() as u64 > MAX_CA_FILE {
        return Err(format!(
            "the CA file {path} is larger than {MAX_CA_FILE} bytes"
        ));
    }
    let certificates = reqwest::Certificate::from_pem_bundle(&pem)
        .map_err(|e| format!("the CA file {path} holds no PEM certificates: {e}"))?;
    if certificates.is_empty() {
        return Err(format!("the CA file {path} holds no PEM certificates"));
    }
    Ok(certificates)
}

/// The headers as HTTP takes them; later ones replace earlier ones of the same name.
pub fn header_map(headers: &[(String, String)]) -> Result<HeaderMap, String> {
    let mut map = HeaderMap::new();
    for (name, value) in headers {
        let header = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| format!("{name:?} is not a valid header name"))?;
        let value = HeaderValue::from_str(value)
            .map_err(|_| format!("the value of the header {name} is not valid"))?;
        map.insert(header, value);
    }
    Ok(map)
}

/// Sends `request` with `client`.
pub fn send(client: &Client, request: &Request, headers: HeaderMap) -> Answer {
    let method = match reqwest::Method::from_bytes(request.method.as_bytes()) {
        Ok(method) => method,
        Err(_) => return Answer::Unreachable(format!("invalid method {}", request.method)),
    };
    let sent = client
        .request(method, &request.url)
        .headers(headers)
        .body(request.body.clone())
        .send();
    let response = match sent {
        Ok(response) => response,
        Err(e) => return Answer::Unreachable(describe(&e)),
    };
    let status = response.status().as_u16();
    if response.status().is_success() {
        return Answer::Delivered(status);
    }
    let mut shown = Vec::new();
    let _ = response.take(MAX_ANSWER_SHOWN).read_to_end(&mut shown);
    Answer::Refused(status, String::from_utf8_lossy(&shown).into_owned())
}

/// An error with its causes, which say what went wrong (refused, timed out, the
/// certificate).
fn describe(error: &reqwest::Error) -> String {
    let mut text = if error.is_timeout() {
        "timed out".to_string()
    } else {
        error.to_string()
    };
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text
}
