//! What a render reads from outside: stored objects and stored templates. The server
//! implements it over its database; a tool may implement it over anything.

use peering_domain::resources::{CONFIGURATION, EMAIL, EXPORT_TEMPLATE};
use peering_domain::{Record, ResourceSpec};

/// The kinds of stored templates another template may include, by the reference's tag
/// names: `{% include_configuration "name" %}`, `include_email`, `include_exporttemplate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StoredKind {
    Configuration,
    Email,
    ExportTemplate,
}

impl StoredKind {
    /// The resource its templates are kept as.
    pub fn spec(self) -> &'static ResourceSpec {
        match self {
            StoredKind::Configuration => &CONFIGURATION,
            StoredKind::Email => &EMAIL,
            StoredKind::ExportTemplate => &EXPORT_TEMPLATE,
        }
    }

    pub fn tag(self) -> &'static str {
        match self {
            StoredKind::Configuration => "configuration",
            StoredKind::Email => "email",
            StoredKind::ExportTemplate => "exporttemplate",
        }
    }

    pub fn from_tag(tag: &str) -> Option<StoredKind> {
        [
            StoredKind::Configuration,
            StoredKind::Email,
            StoredKind::ExportTemplate,
        ]
        .into_iter()
        .find(|k| k.tag() == tag)
    }
}

/// A stored template, as another template includes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredTemplate {
    pub source: String,
    pub trim: bool,
    pub lstrip: bool,
    /// The `app.model` an export template renders (`dataset`); `None` for the others.
    pub content_type: Option<String>,
}

/// Where a render finds its data. Errors are messages for the render's error.
pub trait DataSource: Send + Sync {
    /// Every object of a resource in its list order, relation lists (many-to-many, tags)
    /// filled.
    fn all(&self, spec: &'static ResourceSpec) -> Result<Vec<Record>, String>;

    /// A stored template by id (digits) or else by name.
    fn template(
        &self,
        kind: StoredKind,
        identifier: &str,
    ) -> Result<Option<StoredTemplate>, String>;

    /// The local PeeringDB copy: the LANs where both networks (by AS number) are. A
    /// source without a copy knows of none.
    fn shared_lans(&self, _asn: i64, _other: i64) -> Result<Vec<i64>, String> {
        Ok(Vec::new())
    }

    /// The local PeeringDB copy: the facilities (records of `PDB_FACILITY`) where both
    /// networks are.
    fn shared_facilities(&self, _asn: i64, _other: i64) -> Result<Vec<Record>, String> {
        Ok(Vec::new())
    }

    /// The local PeeringDB copy: a network's records (`PDB_NETWORK_IXLAN`) on these LANs.
    fn lan_records(&self, _asn: i64, _lans: &[i64]) -> Result<Vec<Record>, String> {
        Ok(Vec::new())
    }
}
