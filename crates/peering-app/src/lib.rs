//! The peering work, apart from HTTP: router configurations, e-mails and exports rendered
//! from stored templates for a [`Viewer`], the jobs that run them and the workers that
//! run jobs (`jobs.rs`), the router command (`router.rs`) and the PeeringDB jobs. The API
//! calls it for requests; `peeringd worker` runs its jobs with no HTTP at all.

pub mod jobs;
mod peeringdb;
pub mod router;
pub mod source;

use std::sync::{Arc, Mutex};

use peering_domain::resources::{CONFIGURATION, EMAIL, EXPORT_TEMPLATE, ROUTER};
use peering_domain::ResourceSpec;
use peering_render::{context, Audience, Bounds, Dataset, RenderError, Secrets, Tables, Template};
use peering_store::Store;

use source::{stored, StoreSource};

/// Why some work could not be done.
#[derive(Debug, thiserror::Error)]
pub enum WorkError {
    /// The object named does not exist.
    #[error("{0} not found")]
    NotFound(&'static str),
    /// The template failed: it does not parse, ran past a bound, or failed while running.
    #[error("{0}")]
    Render(#[from] RenderError),
    #[error(transparent)]
    Store(#[from] peering_store::Error),
    /// The router command failed, or gave an answer that is not one.
    #[error("{0}")]
    Router(String),
}

/// Whom a render is for, as a job keeps it: what the caller may read through the API
/// (`app.model` of each resource), the resources whose secrets they may see (those they may
/// change), and who they are. A render shows nothing else.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Viewer {
    pub readable: Vec<String>,
    pub secrets: Vec<String>,
    pub user: Option<i64>,
}

impl Viewer {
    /// As kept in a job's parameters.
    pub fn to_params(&self) -> serde_json::Value {
        serde_json::json!({"readable": self.readable, "secrets": self.secrets})
    }

    /// From a job's parameters, for the user who asked; a job that names no readable
    /// resources sees none.
    pub fn from_params(params: &serde_json::Value, user: Option<i64>) -> Viewer {
        let names = |key: &str| {
            params[key]
                .as_array()
                .map(|list| {
                    list.iter()
                        .filter_map(|s| s.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default()
        };
        Viewer {
            readable: names("readable"),
            secrets: names("secrets"),
            user,
        }
    }

    fn audience(&self) -> Audience {
        Audience::reading(
            self.readable.iter().cloned(),
            Secrets::of(self.secrets.iter().cloned()),
            self.user,
        )
    }
}

/// Renders from stored templates over the database, sharing what they load while the
/// data does not change.
pub struct Work {
    pub(crate) store: Store,
    bounds: Bounds,
    /// The objects loaded for renders, and the data version they were read at.
    tables: Mutex<Option<(i64, Arc<Tables>)>>,
}

impl std::fmt::Debug for Work {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Work")
    }
}

impl Work {
    pub fn new(store: Store, bounds: Bounds) -> Work {
        Work {
            store,
            bounds,
            tables: Mutex::new(None),
        }
    }

    /// A render's data: the tables of the data version given (read now when `None`),
    /// loaded as renders need them, as `viewer` may see them.
    fn dataset(&self, version: Option<i64>, viewer: &Viewer) -> Result<Arc<Dataset>, WorkError> {
        let version = match version {
            Some(v) => v,
            None => self.store.data_version()?,
        };
        let tables = {
            let mut kept = self.tables.lock().unwrap_or_else(|e| e.into_inner());
            match &*kept {
                Some((v, tables)) if *v == version => tables.clone(),
                _ => {
                    // What a render loads is shared with later renders: not counted
                    // against the one that happens to load it.
                    let source = peering_render::budget::Uncounted(StoreSource {
                        store: self.store.clone(),
                    });
                    let tables = Tables::new(Box::new(source));
                    *kept = Some((version, tables.clone()));
                    tables
                }
            }
        };
        Ok(Dataset::over(tables, viewer.audience()))
    }

    pub(crate) fn record(
        &self,
        spec: &'static ResourceSpec,
        id: i64,
        what: &'static str,
    ) -> Result<peering_domain::Record, WorkError> {
        Ok(self
            .store
            .get(spec, id)?
            .ok_or(WorkError::NotFound(what))?
            .0)
    }

    /// A router's configuration from its template; empty when it has none (as the
    /// reference renders it).
    pub fn router_configuration(
        &self,
        router: i64,
        viewer: &Viewer,
        version: Option<i64>,
    ) -> Result<String, WorkError> {
        let data = self.dataset(version, viewer)?;
        let record = data
            .record(&ROUTER, router)
            .ok_or(WorkError::NotFound("router"))?;
        let Some(template_id) = record.get(&ROUTER, "configuration_template").as_int() else {
            return Ok(String::new());
        };
        let template = data
            .record(&CONFIGURATION, template_id)
            .ok_or(WorkError::NotFound("configuration template"))?;
        let template = stored(&CONFIGURATION, template);
        let ctx =
            context::router_configuration(&data, router).ok_or(WorkError::NotFound("router"))?;
        Ok(peering_render::render_named(
            &format!("configuration template {template_id}"),
            &as_template(&template),
            ctx,
            &data,
            &self.bounds,
        )?)
    }

    /// An e-mail to an autonomous system: its subject and body.
    pub fn email(
        &self,
        autonomous_system: i64,
        email: i64,
        viewer: &Viewer,
        version: Option<i64>,
    ) -> Result<(String, String), WorkError> {
        let data = self.dataset(version, viewer)?;
        let ctx = context::email(&data, autonomous_system)
            .ok_or(WorkError::NotFound("autonomous system"))?;
        self.render_email(&data, email, ctx)
    }

    /// An e-mail to a PeeringDB network (its API representation) from our autonomous
    /// system: its subject and body.
    pub fn network_email(
        &self,
        autonomous_system: i64,
        network: &serde_json::Value,
        email: i64,
        viewer: &Viewer,
        version: Option<i64>,
    ) -> Result<(String, String), WorkError> {
        let data = self.dataset(version, viewer)?;
        let ctx = context::peeringdb_network_email(&data, autonomous_system, network)
            .ok_or(WorkError::NotFound("autonomous system"))?;
        self.render_email(&data, email, ctx)
    }

    /// An e-mail template rendered with `ctx`: its subject and body.
    fn render_email(
        &self,
        data: &Arc<Dataset>,
        email: i64,
        ctx: peering_render::TemplateValue,
    ) -> Result<(String, String), WorkError> {
        let record = data
            .record(&EMAIL, email)
            .ok_or(WorkError::NotFound("e-mail"))?;
        let body = stored(&EMAIL, record);
        let subject = peering_render::StoredTemplate {
            source: record.text(&EMAIL, "subject").to_string(),
            ..body.clone()
        };
        let name = format!("e-mail template {email}");
        let subject = peering_render::render_named(
            &format!("{name} (subject)"),
            &as_template(&subject),
            ctx.clone(),
            data,
            &self.bounds,
        )?;
        let body =
            peering_render::render_named(&name, &as_template(&body), ctx, data, &self.bounds)?;
        Ok((subject, body))
    }

    /// An export template over the objects given (in order), or over all objects of its
    /// resource.
    pub fn export(
        &self,
        export_template: i64,
        ids: Option<&[i64]>,
        viewer: &Viewer,
    ) -> Result<String, WorkError> {
        let data = self.dataset(None, viewer)?;
        let record = data
            .record(&EXPORT_TEMPLATE, export_template)
            .ok_or(WorkError::NotFound("export template"))?;
        let template = stored(&EXPORT_TEMPLATE, record);
        let spec = template
            .content_type
            .as_deref()
            .and_then(peering_domain::resources::by_content_type)
            .ok_or(WorkError::NotFound("resource of the export template"))?;
        let ctx = context::export(&data, spec, ids);
        Ok(peering_render::render_named(
            &format!("export template {export_template}"),
            &as_template(&template),
            ctx,
            &data,
            &self.bounds,
        )?)
    }
}

fn as_template(stored: &peering_render::StoredTemplate) -> Template<'_> {
    Template {
        source: &stored.source,
        trim: stored.trim,
        lstrip: stored.lstrip,
    }
}
