//! What a render reads from outside: stored objects and stored templates. The server
//! implements it over its database; a tool may implement it over anything.

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
}
