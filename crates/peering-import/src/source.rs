//! The system imported from, through its REST API: its version, and every object of a
//! resource, page by page, wherever its layout (the reference's 1.8 or 1.9/1.10, or
//! peeringd's) serves it.

use std::collections::HashSet;
use std::error::Error as _;
use std::net::IpAddr;
use std::time::Duration;

use peering_domain::resources::ALIASES;
use peering_domain::ResourceSpec;
use reqwest::Url;
use serde_json::Value as Json;

use crate::bounded::{self, BodyError, MAX_PAGE_BYTES};
use crate::ImportError;

/// Objects asked for per request.
const PAGE: usize = 1000;

/// Redirects followed at most, on the source's origin.
const REDIRECTS: usize = 10;

/// A running Peering Manager (or peeringd) and a token that reads it. The token goes only
/// to the origin (scheme, host and port) of the URL given: `next` links and redirects
/// elsewhere are refused.
pub struct Source {
    client: reqwest::blocking::Client,
    /// The URL given, for its origin.
    base: Url,
    /// The URL given without its trailing `/`: paths are appended to it.
    url: String,
    token: String,
}

/// How reading a resource ended.
pub enum Read {
    /// Every page was read (and handed over).
    Done,
    /// The source does not serve the resource (an older release).
    Absent,
    /// The token may not read it: the source's words.
    Refused(String),
}

/// Why reading stopped: the source failed, or what a page was handed to did.
pub enum Stop<E> {
    Source(ImportError),
    Taker(E),
}

impl Source {
    /// The source at `url` (`https://peering.example.net`, or with a path prefix), read with
    /// `token`. Plain HTTP to a host that is not loopback is logged as a warning.
    pub fn new(url: &str, token: &str) -> Result<Source, ImportError> {
        let base =
            Url::parse(url).map_err(|e| ImportError::Source(format!("the URL {url}: {e}")))?;
        if !matches!(base.scheme(), "http" | "https") || base.host_str().is_none() {
            return Err(ImportError::Source(format!(
                "the URL {url}: not an http:// or https:// URL"
            )));
        }
        if plain_http_off_loopback(&base) {
            tracing::warn!(
                "reading {} over plain HTTP: the token and the data cross the network \
                 unencrypted; use https://",
                base.origin().ascii_serialization()
            );
        }
        let client = reqwest::blocking::Client::builder()
            .user_agent(concat!("peeringd/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(Duration::from_secs(20))
            .timeout(Duration::from_secs(300))
            .redirect(redirects_at_home(&base))
            .no_proxy()
            .build()
            .map_err(|e| ImportError::Source(e.to_string()))?;
        Ok(Source {
            client,
            url: url.trim_end_matches('/').to_string(),
            base,
            token: token.to_string(),
        })
    }

    /// A path under the URL given.
    fn at(&self, path: &str) -> Result<Url, ImportError> {
        let url = format!("{}{path}", self.url);
        Url::parse(&url).map_err(|e| ImportError::Source(format!("{url}: {e}")))
    }

    /// GETs `url`: the status and the JSON answer (`Null` if it is not JSON), read as it
    /// arrives and never past `MAX_PAGE_BYTES`.
    fn get(&self, target: &Url) -> Result<(u16, Json), ImportError> {
        let url = shown(target);
        let answer = self
            .client
            .get(target.clone())
            .header("Authorization", format!("Token {}", self.token))
            .header("Accept", "application/json")
            .send()
            .map_err(|e| ImportError::Source(format!("{url}: {}", described(e))))?;
        let status = answer.status().as_u16();
        let most = MAX_PAGE_BYTES;
        if let Some(length) = answer.content_length().filter(|n| *n > most) {
            return Err(ImportError::Source(format!(
                "{url} announces {length} bytes, more than the {} MiB a page may take: not read",
                most >> 20
            )));
        }
        let json = bounded::json_within(answer, most).map_err(|e| {
            ImportError::Source(match e {
                BodyError::TooLarge => format!(
                    "{url}: the answer is larger than {} MiB, the most a page may take: \
                     not read further",
                    most >> 20
                ),
                BodyError::Io(e) => format!("{url}: {e}"),
            })
        })?;
        Ok((status, json))
    }

    /// The source's release, from `/api/status/` (`peering-manager-version`, or
    /// `peeringd-version` for another peeringd).
    pub fn version(&self) -> Result<String, ImportError> {
        let (status, body) = self.get(&self.at("/api/status/")?)?;
        if status != 200 {
            return Err(ImportError::Source(format!(
                "/api/status/ answered {status}: {body}"
            )));
        }
        ["peering-manager-version", "peeringd-version"]
            .iter()
            .find_map(|key| body[key].as_str())
            .map(|v| v.to_string())
            .ok_or_else(|| ImportError::Source(format!("/api/status/ names no version: {body}")))
    }

    /// Hands every page of a resource's objects to `take`, in order, one page held at a
    /// time; from its 1.8 path or, where 1.9/1.10 moved it, there.
    pub fn each_page<E>(
        &self,
        spec: &'static ResourceSpec,
        mut take: impl FnMut(Vec<Json>) -> Result<(), E>,
    ) -> Result<Read, Stop<E>> {
        let mut paths = vec![format!("/api/{}/{}/", spec.app, spec.path)];
        paths.extend(
            ALIASES
                .iter()
                .filter(|a| std::ptr::eq(a.spec, spec))
                .map(|a| format!("/api/{}/{}/", a.app, a.path)),
        );
        for path in paths {
            let first = self.at(&format!("{path}?limit={PAGE}&offset=0"));
            let mut next = Some(first.map_err(Stop::Source)?);
            // The pages read: one asked for again ends the import rather than a loop.
            let mut read = HashSet::new();
            while let Some(target) = next.take() {
                let (status, mut page) = self.get(&target).map_err(Stop::Source)?;
                let first = read.is_empty();
                match status {
                    404 if first => break,
                    403 if first => {
                        return Ok(Read::Refused(page["detail"].to_string()));
                    }
                    200 => {}
                    _ => {
                        return Err(Stop::Source(ImportError::Source(format!(
                            "{target} answered {status}: {page}"
                        ))))
                    }
                }
                let Some(results) = page["results"].as_array_mut() else {
                    return Err(Stop::Source(ImportError::Source(format!(
                        "{target}: not a page of objects"
                    ))));
                };
                take(std::mem::take(results)).map_err(Stop::Taker)?;
                read.insert(target.clone());
                next = self.next_of(&target, &page, &read).map_err(Stop::Source)?;
            }
            if !read.is_empty() {
                return Ok(Read::Done);
            }
        }
        Ok(Read::Absent)
    }

    /// The page after `current`, from its `next` link (none at the end): only on the
    /// source's origin, so that the token goes nowhere else, and only a page not read yet.
    fn next_of(
        &self,
        current: &Url,
        page: &Json,
        read: &HashSet<Url>,
    ) -> Result<Option<Url>, ImportError> {
        let Some(link) = page["next"].as_str() else {
            return Ok(None);
        };
        let mut next = current.join(link).map_err(|e| {
            ImportError::Source(format!("{}: the next link {link:?}: {e}", shown(current)))
        })?;
        // Never sent: pages that differ only in it are the same page.
        next.set_fragment(None);
        if next.origin() != self.base.origin() {
            return Err(ImportError::Source(format!(
                "{}: its next page {} is on another origin than {}: not followed \
                 (the token goes only there)",
                shown(current),
                shown(&next),
                self.base.origin().ascii_serialization()
            )));
        }
        if read.contains(&next) {
            return Err(ImportError::Source(format!(
                "{}: its next page {} was read already: the pages go round in a loop",
                shown(current),
                shown(&next)
            )));
        }
        Ok(Some(next))
    }
}

/// Redirects followed only on `base`'s origin (a proxy adding a `/`, say), at most
/// `REDIRECTS`; one elsewhere is an error that names it.
fn redirects_at_home(base: &Url) -> reqwest::redirect::Policy {
    let home = base.origin();
    reqwest::redirect::Policy::custom(move |attempt| {
        if attempt.url().origin() != home {
            let refused = format!(
                "a redirect to {}, another origin than {}: not followed",
                shown(attempt.url()),
                home.ascii_serialization()
            );
            attempt.error(refused)
        } else if attempt.previous().len() > REDIRECTS {
            attempt.error(format!("more than {REDIRECTS} redirects"))
        } else {
            attempt.follow()
        }
    })
}

/// `url` as errors show it: without a user name or password it may carry.
fn shown(url: &Url) -> Url {
    let mut shown = url.clone();
    let _ = shown.set_username("");
    let _ = shown.set_password(None);
    shown
}

/// A request's failure with its causes (a refused redirect's reason is one).
fn described(error: reqwest::Error) -> String {
    let error = error.without_url();
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(reason) = cause {
        text.push_str(&format!(": {reason}"));
        cause = reason.source();
    }
    text
}

/// Whether `url` is plain HTTP to a host other than this machine's loopback: the token
/// and the data then cross a network in the clear.
fn plain_http_off_loopback(url: &Url) -> bool {
    url.scheme() == "http" && !on_loopback(url)
}

fn on_loopback(url: &Url) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    match host.trim_start_matches('[').trim_end_matches(']').parse() {
        Ok(IpAddr::V4(address)) => address.is_loopback(),
        Ok(IpAddr::V6(address)) => {
            address.is_loopback() || address.to_ipv4_mapped().is_some_and(|a| a.is_loopback())
        }
        Err(_) => {
            // RFC 6761: `localhost` and the names under it are this machine.
            let name = host.trim_end_matches('.').to_ascii_lowercase();
            name == "localhost" || name.ends_with(".localhost")
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    use serde_json::json;

    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    #[test]
    fn plain_http_is_flagged_only_off_loopback() {
        for (given, flagged) in [
            ("http://peering.example.net", true),
            ("http://192.0.2.10:8000/peering", true),
            ("http://[2001:db8::1]/", true),
            ("http://notlocalhost/", true),
            ("https://peering.example.net", false),
            ("http://127.0.0.1:8000", false),
            ("http://127.3.2.1/", false),
            ("http://[::1]:8000/", false),
            ("http://[::ffff:127.0.0.1]/", false),
            ("http://localhost:8000", false),
            ("http://LOCALHOST./", false),
            ("http://pm.localhost/", false),
        ] {
            assert_eq!(plain_http_off_loopback(&url(given)), flagged, "{given}");
        }
    }

    /// The log lines written while `run` runs.
    fn logged(run: impl FnOnce()) -> String {
        #[derive(Clone, Default)]
        struct Lines(Arc<Mutex<Vec<u8>>>);
        impl Write for Lines {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let lines = Lines::default();
        let writer = lines.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish();
        tracing::subscriber::with_default(subscriber, run);
        let text = String::from_utf8_lossy(&lines.0.lock().unwrap()).into_owned();
        text
    }

    #[test]
    fn a_plain_http_url_off_loopback_is_warned_about() {
        let text = logged(|| {
            Source::new("http://user:secret@peering.example.net/pm/", "key").unwrap();
        });
        assert!(text.contains("WARN"), "{text}");
        assert!(
            text.contains("reading http://peering.example.net over plain HTTP"),
            "{text}"
        );
        assert!(
            !text.contains("secret"),
            "the URL's password is not logged: {text}"
        );
        for quiet in ["https://peering.example.net", "http://127.0.0.1:8000"] {
            let text = logged(|| {
                Source::new(quiet, "key").unwrap();
            });
            assert_eq!(text, "", "{quiet}");
        }
    }

    #[test]
    fn a_url_that_is_not_http_is_refused() {
        for given in [
            "ftp://peering.example.net",
            "peering.example.net",
            "file:///tmp/x",
        ] {
            let error = Source::new(given, "key").err().map(|e| e.to_string());
            assert!(
                error.as_deref().is_some_and(|e| e.contains(given)),
                "{given}: {error:?}"
            );
        }
    }

    #[test]
    fn next_links_stay_on_the_origin_given_and_never_repeat() {
        let source = Source::new("http://127.0.0.1:8000/pm", "key").unwrap();
        let current = url("http://127.0.0.1:8000/pm/api/tags/?limit=2&offset=0");
        let next = |link: &str, read: &[&str]| {
            let page = json!({"next": link, "results": []});
            let read = read.iter().map(|r| url(r)).collect();
            source
                .next_of(&current, &page, &read)
                .map_err(|e| e.to_string())
        };
        let second = "http://127.0.0.1:8000/pm/api/tags/?limit=2&offset=2";
        assert_eq!(next(second, &[]).unwrap(), Some(url(second)));
        assert_eq!(next("?limit=2&offset=2", &[]).unwrap(), Some(url(second)));
        assert!(next("http://127.0.0.1:80/x", &[]).is_err());
        for elsewhere in [
            "http://127.0.0.1:8001/pm/api/tags/?offset=2",
            "https://127.0.0.1:8000/pm/api/tags/?offset=2",
            "http://localhost:8000/pm/api/tags/?offset=2",
            "//peering.example.net/pm/api/tags/?offset=2",
        ] {
            let error = next(elsewhere, &[]).unwrap_err();
            assert!(error.contains("another origin"), "{elsewhere}: {error}");
        }
        let error = next(&format!("{second}#again"), &[second]).unwrap_err();
        assert!(error.contains("read already"), "{error}");
        let page = json!({"next": null, "results": []});
        assert_eq!(
            source.next_of(&current, &page, &HashSet::new()).unwrap(),
            None
        );
    }

    #[test]
    fn errors_show_no_password_of_the_url_given() {
        let source = Source::new("http://olga:hunter22@127.0.0.1:8000/", "key").unwrap();
        let current = url("http://olga:hunter22@127.0.0.1:8000/api/tags/?offset=0");
        for link in ["http://127.0.0.1:9/api/tags/", "?offset=0"] {
            let page = json!({"next": link, "results": []});
            let read = HashSet::from([current.clone()]);
            let error = source.next_of(&current, &page, &read).unwrap_err();
            let text = error.to_string();
            assert!(text.contains("127.0.0.1:8000/api/tags/"), "{text}");
            assert!(
                !text.contains("hunter22") && !text.contains("olga"),
                "{text}"
            );
        }
    }
}
