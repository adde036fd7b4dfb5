//! The client: the server's base URL, the token, and the one way every call goes out and
//! comes back (a request with the token and a JSON body; an answer read as JSON, or as the
//! error its status stands for).

use std::fmt;

use peering_domain::spec::ResourceSpec;
use reqwest::header::{HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE};
use reqwest::{Method, RequestBuilder, Url};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::Error;

/// An async client of one peeringd server (or Peering Manager's API, which it speaks).
///
/// Cheap to clone: clones share their connections.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    /// Ends with `/`, so that `api/…` joins under it.
    base: Url,
    token: Option<String>,
}

impl Client {
    /// A client of the server at `base_url` (`http://127.0.0.1:8000`, or a URL with a path
    /// prefix when the API is served under one), without a token. Redirects are not
    /// followed: the token goes only to the base URL's origin.
    pub fn new(base_url: &str) -> Result<Client, Error> {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()?;
        Client::with_http_client(base_url, http)
    }

    /// A client that sends its requests through `http` (timeouts, proxies, certificates as
    /// configured there).
    pub fn with_http_client(base_url: &str, http: reqwest::Client) -> Result<Client, Error> {
        let mut base = Url::parse(base_url).map_err(|e| Error::Url(format!("{base_url}: {e}")))?;
        if base.cannot_be_a_base() || !matches!(base.scheme(), "http" | "https") {
            return Err(Error::Url(format!("{base_url}: not an http(s) URL")));
        }
        if !base.path().ends_with('/') {
            let path = format!("{}/", base.path());
            base.set_path(&path);
        }
        base.set_query(None);
        base.set_fragment(None);
        Ok(Client {
            http,
            base,
            token: None,
        })
    }

    /// The same client, authenticating with the token `key` (`Authorization: Token <key>`).
    pub fn with_token(mut self, key: impl Into<String>) -> Client {
        self.token = Some(key.into());
        self
    }

    /// The base URL, ending with `/`.
    pub fn base_url(&self) -> &Url {
        &self.base
    }

    /// The URL of a resource's list: `/api/{app}/{path}/`.
    pub(crate) fn collection(&self, spec: &ResourceSpec) -> Result<Url, Error> {
        self.url(&format!("api/{}/{}/", spec.app, spec.path))
    }

    /// The URL of one object: `/api/{app}/{path}/{id}/`.
    pub(crate) fn object(&self, spec: &ResourceSpec, id: i64) -> Result<Url, Error> {
        self.url(&format!("api/{}/{}/{id}/", spec.app, spec.path))
    }

    /// `path` under the base URL (a leading `/` is under it too); never another origin.
    pub(crate) fn url(&self, path: &str) -> Result<Url, Error> {
        let url = self
            .base
            .join(path.trim_start_matches('/'))
            .map_err(|e| Error::Url(format!("{path}: {e}")))?;
        self.same_origin(url.as_str())
    }

    /// `link` parsed, if it is on the base URL's origin (scheme, host and port).
    pub(crate) fn same_origin(&self, link: &str) -> Result<Url, Error> {
        let url = Url::parse(link).map_err(|e| Error::Url(format!("{link}: {e}")))?;
        if url.origin() == self.base.origin() {
            Ok(url)
        } else {
            Err(Error::ForeignLink(link.to_string()))
        }
    }

    /// A request to `url` with the token, asking for JSON.
    pub(crate) fn request(&self, method: Method, url: Url) -> Result<RequestBuilder, Error> {
        let mut request = self
            .http
            .request(method, url)
            .header(ACCEPT, "application/json");
        if let Some(key) = &self.token {
            let mut value =
                HeaderValue::from_str(&format!("Token {key}")).map_err(|_| Error::InvalidToken)?;
            value.set_sensitive(true);
            request = request.header(AUTHORIZATION, value);
        }
        Ok(request)
    }

    /// Sends a request with `body` as JSON (if any); the answer's bytes when it is a
    /// success, else the error its status stands for.
    pub(crate) async fn send<B: Serialize + ?Sized>(
        &self,
        method: Method,
        url: Url,
        body: Option<&B>,
    ) -> Result<Vec<u8>, Error> {
        let mut request = self.request(method, url)?;
        if let Some(body) = body {
            let bytes = serde_json::to_vec(body).map_err(|e| Error::Body(e.to_string()))?;
            request = request.header(CONTENT_TYPE, "application/json").body(bytes);
        }
        let answer = request.send().await?;
        let status = answer.status();
        let headers = answer.headers().clone();
        let bytes = answer.bytes().await?;
        if status.is_success() {
            Ok(bytes.to_vec())
        } else {
            Err(Error::from_answer(status, &headers, &bytes))
        }
    }

    /// [`Client::send`], the answer read as a `T` (an empty answer reads as `null`, so
    /// that `()` takes a 204).
    pub(crate) async fn call<T: DeserializeOwned, B: Serialize + ?Sized>(
        &self,
        method: Method,
        url: Url,
        body: Option<&B>,
    ) -> Result<T, Error> {
        let bytes = self.send(method, url, body).await?;
        decode(&bytes)
    }
}

/// `bytes` read as JSON into a `T`; an empty body is `null`.
pub(crate) fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Error> {
    let bytes = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"null".as_slice()
    } else {
        bytes
    };
    serde_json::from_slice(bytes).map_err(|error| Error::Decode {
        body: String::from_utf8_lossy(bytes).into_owned(),
        error,
    })
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The token is a secret: said to be there, never shown.
        f.debug_struct("Client")
            .field("base", &self.base.as_str())
            .field("token", &self.token.as_ref().map(|_| "********"))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_join_under_the_base_and_never_leave_its_origin() {
        let client = Client::new("http://127.0.0.1:8000").unwrap();
        assert_eq!(
            client.url("/api/status/").unwrap().as_str(),
            "http://127.0.0.1:8000/api/status/"
        );
        let prefixed = Client::new("https://example.net/pm").unwrap();
        assert_eq!(
            prefixed.url("api/status/").unwrap().as_str(),
            "https://example.net/pm/api/status/"
        );
        assert!(matches!(
            client.url("http://elsewhere.example/api/"),
            Err(Error::ForeignLink(_))
        ));
        assert!(matches!(
            client.same_origin("http://127.0.0.1:8001/api/"),
            Err(Error::ForeignLink(_))
        ));
        assert!(client
            .same_origin("http://127.0.0.1:8000/api/x/?offset=50")
            .is_ok());
        assert!(Client::new("ftp://example.net/").is_err());
        assert!(Client::new("not a url").is_err());
    }

    #[test]
    fn the_token_is_never_shown() {
        let client = Client::new("http://127.0.0.1:8000")
            .unwrap()
            .with_token("0123456789abcdef0123456789abcdef01234567");
        assert!(!format!("{client:?}").contains("0123"));
    }
}
