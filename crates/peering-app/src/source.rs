//! The database as what templates read.

use peering_domain::resources::{CONFIGURATION, EMAIL, EXPORT_TEMPLATE};
use peering_domain::{Record, ResourceSpec};
use peering_render::{DataSource, StoredKind, StoredTemplate};
use peering_store::Store;

pub struct StoreSource {
    pub store: Store,
}

fn spec_of(kind: StoredKind) -> &'static ResourceSpec {
    match kind {
        StoredKind::Configuration => &CONFIGURATION,
        StoredKind::Email => &EMAIL,
        StoredKind::ExportTemplate => &EXPORT_TEMPLATE,
    }
}

/// A stored template's source and options, from its record.
pub fn stored(spec: &ResourceSpec, record: &Record) -> StoredTemplate {
    let flag = |name| record.get(spec, name).as_bool().unwrap_or(false);
    let content_type = spec
        .field("content_type")
        .map(|_| record.text(spec, "content_type").to_string());
    StoredTemplate {
        source: record.text(spec, "template").to_string(),
        trim: flag("jinja2_trim"),
        lstrip: flag("jinja2_lstrip"),
        content_type,
    }
}

impl DataSource for StoreSource {
    fn all(&self, spec: &'static ResourceSpec) -> Result<Vec<Record>, String> {
        self.store.everything(spec).map_err(|e| e.to_string())
    }

    /// By id when the identifier is a number, else the first by name.
    fn template(
        &self,
        kind: StoredKind,
        identifier: &str,
    ) -> Result<Option<StoredTemplate>, String> {
        let spec = spec_of(kind);
        let found = match identifier.parse::<i64>() {
            Ok(id) => self
                .store
                .get(spec, id)
                .map_err(|e| e.to_string())?
                .map(|(record, _)| record),
            Err(_) => self
                .store
                .everything(spec)
                .map_err(|e| e.to_string())?
                .into_iter()
                .find(|r| r.text(spec, "name") == identifier),
        };
        Ok(found.map(|record| stored(spec, &record)))
    }

    fn shared_lans(&self, asn: i64, other: i64) -> Result<Vec<i64>, String> {
        self.store
            .peeringdb()
            .shared_ixlans(asn, other)
            .map_err(|e| e.to_string())
    }

    fn shared_facilities(&self, asn: i64, other: i64) -> Result<Vec<Record>, String> {
        self.store
            .peeringdb()
            .shared_facilities(asn, other)
            .map(|(records, _)| records)
            .map_err(|e| e.to_string())
    }

    fn lan_records(&self, asn: i64, lans: &[i64]) -> Result<Vec<Record>, String> {
        self.store
            .peeringdb()
            .lan_records(asn, lans)
            .map_err(|e| e.to_string())
    }
}
