//! PeeringDB's API, as the reference calls it: one request per object type
//! (`GET {url}/{type}?since={time}&depth=0`), with an API key if one is set. Each answer is
//! written to a file as it arrives, so that nothing is applied until every answer is in.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use crate::{Settings, SyncError};

/// How long to wait for an answer to begin, and for all of it.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(20);
const ANSWER_TIMEOUT: Duration = Duration::from_secs(600);
/// Retries of a request PeeringDB throttled (429) or could not serve (502, 503, 504).
const RETRIES: u32 = 3;
/// The longest `Retry-After` honoured; a longer one fails the synchronisation.
const LONGEST_PAUSE: Duration = Duration::from_secs(60);

pub(crate) struct Fetcher {
    client: reqwest::blocking::Client,
    settings: Settings,
}

impl Fetcher {
    pub fn new(settings: &Settings) -> Result<Self, SyncError> {
        let mut builder = reqwest::blocking::Client::builder()
            .user_agent(concat!("peeringd/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(CONNECT_TIMEOUT)
            .timeout(ANSWER_TIMEOUT)
            .no_proxy();
        if let Some(proxy) = &settings.proxy {
            let proxy = reqwest::Proxy::all(proxy)
                .map_err(|e| SyncError::Settings(format!("proxy {proxy}: {e}")))?;
            builder = builder.proxy(proxy);
        }
        let client = builder
            .build()
            .map_err(|e| SyncError::Settings(e.to_string()))?;
        Ok(Fetcher {
            client,
            settings: settings.clone(),
        })
    }

    /// Downloads the objects of `namespace` changed since `since` (UNIX seconds; 0 for all)
    /// into `file`; how many bytes came.
    pub fn download(&self, namespace: &str, since: i64, file: &Path) -> Result<u64, SyncError> {
        let url = format!("{}/{namespace}", self.settings.url.trim_end_matches('/'));
        let mut attempt = 0;
        loop {
            let mut request = self
                .client
                .get(&url)
                .query(&[("since", since.to_string()), ("depth", "0".into())]);
            if let Some(key) = &self.settings.api_key {
                request = request.header("Authorization", format!("Api-Key {key}"));
            }
            let mut answer = request.send().map_err(|e| SyncError::Http {
                namespace: namespace.into(),
                message: without_url(e),
            })?;
            let status = answer.status();
            if status.is_success() {
                let mut out = std::io::BufWriter::new(std::fs::File::create(file)?);
                let bytes = answer.copy_to(&mut out).map_err(|e| SyncError::Http {
                    namespace: namespace.into(),
                    message: without_url(e),
                })?;
                out.flush()?;
                return Ok(bytes);
            }
            let pause = retry_pause(&answer);
            let retry = matches!(status.as_u16(), 429 | 502 | 503 | 504) && attempt < RETRIES;
            match pause {
                Some(pause) if retry && pause <= LONGEST_PAUSE => {
                    attempt += 1;
                    log::warn!(
                        "PeeringDB answered {status} for {namespace}; retrying in {pause:?}"
                    );
                    std::thread::sleep(pause);
                }
                _ => {
                    let body = answer.text().unwrap_or_default();
                    return Err(SyncError::Refused {
                        namespace: namespace.into(),
                        status: status.as_u16(),
                        message: excerpt(&body),
                    });
                }
            }
        }
    }
}

/// The pause a throttled answer asks for (`Retry-After` in seconds), else a short one.
fn retry_pause(answer: &reqwest::blocking::Response) -> Option<Duration> {
    match answer.headers().get("retry-after") {
        Some(value) => value
            .to_str()
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs),
        None => Some(Duration::from_secs(2)),
    }
}

/// An error's text and causes, without the URL (whose query says nothing new).
fn without_url(e: reqwest::Error) -> String {
    let e = e.without_url();
    let mut text = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// The first line of an error body, at most 200 characters.
fn excerpt(body: &str) -> String {
    body.lines()
        .next()
        .unwrap_or_default()
        .chars()
        .take(200)
        .collect()
}
