//! The system imported from, through its REST API: its version, and every object of a
//! resource, page by page, wherever its layout (the reference's 1.8 or 1.9/1.10, or
//! peeringd's) serves it.

use std::time::Duration;

use peering_domain::resources::ALIASES;
use peering_domain::ResourceSpec;
use serde_json::Value as Json;

use crate::ImportError;

/// Objects asked for per request.
const PAGE: usize = 1000;

/// A running Peering Manager (or peeringd) and a token that reads it.
pub struct Source {
    client: reqwest::blocking::Client,
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
    pub fn new(url: &str, token: &str) -> Result<Source, ImportError> {
        let client = reqwest::blocking::Client::builder()
            .user_agent(concat!("peeringd/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(Duration::from_secs(20))
            .timeout(Duration::from_secs(300))
            .no_proxy()
            .build()
            .map_err(|e| ImportError::Source(e.to_string()))?;
        Ok(Source {
            client,
            url: url.trim_end_matches('/').to_string(),
            token: token.to_string(),
        })
    }

    /// GETs a path or an absolute URL (a `next` link): the status and the JSON answer.
    fn get(&self, target: &str) -> Result<(u16, Json), ImportError> {
        let url = if target.starts_with("http") {
            target.to_string()
        } else {
            format!("{}{target}", self.url)
        };
        let answer = self
            .client
            .get(&url)
            .header("Authorization", format!("Token {}", self.token))
            .header("Accept", "application/json")
            .send()
            .map_err(|e| ImportError::Source(e.without_url().to_string()))?;
        let status = answer.status().as_u16();
        let bytes = answer
            .bytes()
            .map_err(|e| ImportError::Source(e.without_url().to_string()))?;
        let json = serde_json::from_slice(&bytes).unwrap_or(Json::Null);
        Ok((status, json))
    }

    /// The source's release, from `/api/status/` (`peering-manager-version`, or
    /// `peeringd-version` for another peeringd).
    pub fn version(&self) -> Result<String, ImportError> {
        let (status, body) = self.get("/api/status/")?;
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
            let mut next = Some(format!("{path}?limit={PAGE}&offset=0"));
            let mut first = true;
            while let Some(target) = next.take() {
                let (status, mut page) = self.get(&target).map_err(Stop::Source)?;
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
                first = false;
                let Some(results) = page["results"].as_array_mut() else {
                    return Err(Stop::Source(ImportError::Source(format!(
                        "{target}: not a page of objects"
                    ))));
                };
                take(std::mem::take(results)).map_err(Stop::Taker)?;
                next = page["next"].as_str().map(str::to_string);
            }
            if !first {
                return Ok(Read::Done);
            }
        }
        Ok(Read::Absent)
    }
}
