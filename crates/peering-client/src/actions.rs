//! Actions beyond reading and writing objects (`/api/{app}/{path}/{id}/{action}/`): the
//! simple ones typed (a router's configuration, a session's password encrypted, an
//! autonomous system's prefixes, an e-mail or an export rendered, an e-mail sent), and
//! [`Client::action`] for any other. Their bodies are `peering_domain::bodies`, which the server's handlers
//! and its OpenAPI document use too.

use peering_domain::bodies::{
    EmailToRender, EmailToSend, PasswordEncrypted, Prefixes, RenderedEmail, RenderedExport,
};
use peering_domain::models::{
    AutonomousSystem, DirectPeeringSession, ExportTemplate, InternetExchangePeeringSession, Job,
    Model, Router,
};
use reqwest::Method;
use serde::de::DeserializeOwned;
use serde_json::{json, Value as Json};

use crate::client::{decode, Client};
use crate::error::Error;

/// The models of sessions, whose password the server can encrypt
/// ([`Client::encrypt_password`]).
pub trait Session: Model {}
impl Session for DirectPeeringSession {}
impl Session for InternetExchangePeeringSession {}

impl Client {
    /// The router's configuration, rendered now from its template (`?format=text`).
    pub async fn router_configuration(&self, router: i64) -> Result<String, Error> {
        let mut url = self.action_url::<Router>(router, "configuration")?;
        url.set_query(Some("format=text"));
        let bytes = self.send(Method::GET, url, None::<&Json>).await?;
        String::from_utf8(bytes).map_err(|e| Error::Decode {
            body: String::from_utf8_lossy(e.as_bytes()).into_owned(),
            error: serde::de::Error::custom("the configuration is not UTF-8"),
        })
    }

    /// A job rendering the router's configuration: read it again with
    /// `get::<Job>(job.id)` until it ends; its `output` is the configuration.
    pub async fn router_configuration_job(&self, router: i64) -> Result<Job, Error> {
        let url = self.action_url::<Router>(router, "configuration")?;
        self.call(Method::GET, url, None::<&Json>).await
    }

    /// Encrypts the session's password with its router's platform algorithm (a 503, as
    /// [`Error::Server`], when the router does not encrypt passwords).
    pub async fn encrypt_password<M: Session>(&self, session: i64) -> Result<bool, Error> {
        let url = self.action_url::<M>(session, "encrypt-password")?;
        let answer: PasswordEncrypted = self.call(Method::POST, url, Some(&json!({}))).await?;
        Ok(answer.encrypted)
    }

    /// The prefixes stored for the autonomous system's AS-SET.
    pub async fn as_set_prefixes(&self, system: i64) -> Result<Prefixes, Error> {
        let url = self.action_url::<AutonomousSystem>(system, "as-set-prefixes")?;
        self.call(Method::GET, url, None::<&Json>).await
    }

    /// The e-mail template `email` rendered for the autonomous system.
    pub async fn generate_email(&self, system: i64, email: i64) -> Result<RenderedEmail, Error> {
        let url = self.action_url::<AutonomousSystem>(system, "generate-email")?;
        self.call(Method::POST, url, Some(&EmailToRender { email }))
            .await
    }

    /// A job sending the e-mail template `email`, rendered for the autonomous system, to
    /// the recipients (none: the system's contacts) with `cc` in carbon copy: read it again
    /// with `get::<Job>(job.id)` until it ends (a journal entry then records what was sent).
    pub async fn send_email(&self, system: i64, email: &EmailToSend) -> Result<Job, Error> {
        let url = self.action_url::<AutonomousSystem>(system, "send-email")?;
        self.call(Method::POST, url, Some(email)).await
    }

    /// The export template rendered now over all its objects.
    pub async fn render_export(&self, template: i64) -> Result<String, Error> {
        let url = self.action_url::<ExportTemplate>(template, "render-synchronous")?;
        let answer: RenderedExport = self.call(Method::GET, url, None::<&Json>).await?;
        Ok(answer.rendered)
    }

    /// Any call: `method` on `path` (under the base URL: `/api/peering/routers/1/poll-bgp-sessions/`,
    /// with its query string if any), with `body` as JSON; the answer read as a `T` (an empty
    /// answer is `null`: use `()` or `Option<…>`, or [`serde_json::Value`] for any JSON).
    pub async fn action<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: Option<&Json>,
    ) -> Result<T, Error> {
        let url = self.url(path)?;
        let bytes = self.send(method, url, body).await?;
        decode(&bytes)
    }

    fn action_url<M: Model>(&self, id: i64, action: &str) -> Result<reqwest::Url, Error> {
        let spec = M::spec();
        self.url(&format!("api/{}/{}/{id}/{action}/", spec.app, spec.path))
    }
}
