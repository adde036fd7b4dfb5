//! Renders from stored templates (router configurations, e-mails, exports) for a
//! [`Viewer`], over the database's objects as they were at one data version.

use std::sync::{Arc, Mutex};

use peering_domain::resources::{CONFIGURATION, EMAIL, EXPORT_TEMPLATE, ROUTER};
use peering_domain::ResourceSpec;
use peering_render::{context, Bounds, Dataset, Tables, Template};
use peering_store::Store;

use crate::source::{stored, StoreSource};
use crate::{Viewer, WorkError};

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

    /// The bounds of every render.
    pub fn bounds(&self) -> Bounds {
        self.bounds
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
