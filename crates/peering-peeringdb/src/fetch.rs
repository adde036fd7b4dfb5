//! PeeringDB's API, as the reference calls it: one request per object type
//! (`GET {url}/{type}?since={time}&depth=0`), with an API key if one is set. Each answer is
//! written to a file as it arrives, so that nothing is applied until every answer is in.
//! Every wait is bounded (`Limits`): a server that stalls, or sends a byte now and then,
//! ends the synchronisation with an error that says which bound it passed.

use std::io::{Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::{Limits, Settings, SyncError};

/// How long to wait for a connection to PeeringDB.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(20);
/// Retries of a request PeeringDB throttled (429) or could not serve (502, 503, 504).
const RETRIES: u32 = 3;
/// The longest `Retry-After` honoured; a longer one fails the synchronisation.
const LONGEST_PAUSE: Duration = Duration::from_secs(60);

pub(crate) struct Fetcher {
    settings: Settings,
    limits: Limits,
    /// When the synchronisation must be over.
    deadline: Instant,
}

impl Fetcher {
    pub fn new(settings: &Settings, limits: Limits, deadline: Instant) -> Result<Self, SyncError> {
        let fetcher = Fetcher {
            settings: settings.clone(),
            limits,
            deadline,
        };
        // A bad proxy is refused before anything is downloaded.
        fetcher.client(limits.answer)?;
        Ok(fetcher)
    }

    /// A client whose requests end once `answer_bound` has passed, or once nothing came
    /// for the idle timeout. A client of its own per request, because the blocking client
    /// has one timeout for each wait (the answer's start, each read of its body), which is
    /// the idle timeout here, and its runtime's client another, for the whole answer
    /// (its per-read timeout cannot be used through the blocking client).
    fn client(&self, answer_bound: Duration) -> Result<reqwest::blocking::Client, SyncError> {
        let mut whole = reqwest::ClientBuilder::new()
            .user_agent(concat!("peeringd/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(CONNECT_TIMEOUT)
            .timeout(answer_bound)
            .no_proxy();
        if let Some(proxy) = &self.settings.proxy {
            let proxy = reqwest::Proxy::all(proxy)
                .map_err(|e| SyncError::Settings(format!("proxy {proxy}: {e}")))?;
            whole = whole.proxy(proxy);
        }
        reqwest::blocking::ClientBuilder::from(whole)
            .timeout(self.limits.idle)
            .build()
            .map_err(|e| SyncError::Settings(e.to_string()))
    }

    /// The time an answer asked now may take: the read timeout, or what is left before the
    /// deadline if that is shorter; an error once the deadline has passed.
    fn answer_bound(&self, namespace: &str) -> Result<Duration, SyncError> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(self.past_deadline(namespace));
        }
        Ok(left.min(self.limits.answer))
    }

    fn past_deadline(&self, namespace: &str) -> SyncError {
        SyncError::Deadline {
            secs: self.limits.deadline.as_secs(),
            during: format!("downloading {namespace}"),
        }
    }

    /// Downloads the objects of `namespace` changed since `since` (UNIX seconds; 0 for all)
    /// into `file`; how many bytes came.
    pub fn download(&self, namespace: &str, since: i64, file: &Path) -> Result<u64, SyncError> {
        let url = format!("{}/{namespace}", self.settings.url.trim_end_matches('/'));
        let mut attempt = 0;
        loop {
            let asked = Instant::now();
            let mut request = self
                .client(self.answer_bound(namespace)?)?
                .get(&url)
                .query(&[("since", since.to_string()), ("depth", "0".into())]);
            if let Some(key) = &self.settings.api_key {
                request = request.header("Authorization", format!("Api-Key {key}"));
            }
            let mut answer = request
                .send()
                .map_err(|e| self.failed(namespace, asked, e))?;
            let status = answer.status();
            if status.is_success() {
                return self.save(namespace, asked, &mut answer, file);
            }
            let pause = retry_pause(&answer);
            let retry = matches!(status.as_u16(), 429 | 502 | 503 | 504) && attempt < RETRIES;
            match pause {
                Some(pause) if retry && pause <= LONGEST_PAUSE => {
                    if Instant::now() + pause >= self.deadline {
                        return Err(self.past_deadline(namespace));
                    }
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

    /// Writes the answer's body to `file` as it comes.
    fn save(
        &self,
        namespace: &str,
        asked: Instant,
        answer: &mut reqwest::blocking::Response,
        file: &Path,
    ) -> Result<u64, SyncError> {
        let mut out = std::io::BufWriter::new(std::fs::File::create(file)?);
        let mut buffer = vec![0u8; 1 << 16];
        let mut bytes = 0u64;
        loop {
            let n = match answer.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.failed_reading(namespace, asked, e)),
            };
            out.write_all(&buffer[..n])?;
            bytes += n as u64;
        }
        out.flush()?;
        Ok(bytes)
    }

    /// The error of a request that failed before its answer began.
    fn failed(&self, namespace: &str, asked: Instant, e: reqwest::Error) -> SyncError {
        if e.is_timeout() {
            return self.timed_out(namespace, asked);
        }
        SyncError::Http {
            namespace: namespace.into(),
            message: without_url(e),
        }
    }

    /// The error of an answer whose body stopped coming.
    fn failed_reading(&self, namespace: &str, asked: Instant, e: std::io::Error) -> SyncError {
        let timed_out = e.kind() == std::io::ErrorKind::TimedOut
            || e.get_ref()
                .and_then(|inner| inner.downcast_ref::<reqwest::Error>())
                .is_some_and(reqwest::Error::is_timeout);
        if timed_out {
            return self.timed_out(namespace, asked);
        }
        SyncError::Http {
            namespace: namespace.into(),
            message: e.to_string(),
        }
    }

    /// Which bound a request that timed out passed: the deadline, the answer's read
    /// timeout, else the idle timeout (no byte for that long).
    fn timed_out(&self, namespace: &str, asked: Instant) -> SyncError {
        // A timer may fire a little before its time is measured as past.
        let margin = Duration::from_millis(50);
        if Instant::now() + margin >= self.deadline {
            self.past_deadline(namespace)
        } else if asked.elapsed() + margin >= self.limits.answer {
            SyncError::SlowAnswer {
                namespace: namespace.into(),
                secs: self.limits.answer.as_secs(),
            }
        } else {
            SyncError::Idle {
                namespace: namespace.into(),
                secs: self.limits.idle.as_secs(),
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
