//! The catalog of a declared resource: which parameters its list accepts, of which kind,
//! and which fields it orders by, derived from its `ResourceSpec` alone (no storage).

use peering_domain::resources::PerResource;
use peering_domain::spec::{FilterSource, Kind};
use peering_domain::ResourceSpec;

use crate::catalog::{Catalog, FilterField, FilterKind};
use crate::error::FilterErrors;
use crate::Filter;

/// A resource's filterable parameters and orderable fields, in the order the server lists
/// them (the API's documentation shows them in this order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceCatalog {
    /// `id`, the filterable fields (a foreign key as `<name>_id`), the computed ones, the
    /// extra filters, the change-request filters, then `tag`.
    pub fields: Vec<FilterField>,
    /// `id`, then every field shown and stored in the resource's own table but JSON.
    pub orderable: Vec<&'static str>,
}

/// The parameters change records answer: (parameter, the actions it looks for).
pub const CHANGE_REQUEST_FILTERS: [(&str, &[&str]); 2] = [
    ("created_by_request", &["create", "update"]),
    ("updated_by_request", &["update"]),
];

impl ResourceCatalog {
    /// The catalog of a resource registered in `peering_domain::resources::ALL`, built once.
    ///
    /// # Panics
    ///
    /// When `spec` is not registered, or when its declaration names a field it lacks: both
    /// programming errors, which the first test that reads the catalog catches.
    pub fn of(spec: &ResourceSpec) -> &'static ResourceCatalog {
        static CATALOGS: PerResource<ResourceCatalog> = PerResource::new(ResourceCatalog::build);
        CATALOGS.get(spec).unwrap_or_else(|| unregistered(spec))
    }

    /// The catalog for a caller who may not see the resource's secret fields: they neither
    /// filter nor order by them (an order is an oracle: pages sorted by a password tell
    /// it a character at a time), and asking to is refused as for a parameter there is not.
    pub fn without_secrets(spec: &ResourceSpec) -> &'static ResourceCatalog {
        static CATALOGS: PerResource<ResourceCatalog> =
            PerResource::new(ResourceCatalog::build_without_secrets);
        CATALOGS.get(spec).unwrap_or_else(|| unregistered(spec))
    }

    /// Derives a resource's catalog (its foreign keys' parameter names are leaked: `of`
    /// builds each catalog once).
    fn build(spec: &ResourceSpec) -> ResourceCatalog {
        ResourceCatalog {
            fields: filter_fields(spec),
            orderable: orderable(spec),
        }
    }

    fn build_without_secrets(spec: &ResourceSpec) -> ResourceCatalog {
        let secret = |param: &str| reads_a_secret(spec, param);
        let mut catalog = ResourceCatalog::build(spec);
        catalog.fields.retain(|f| !secret(f.name));
        catalog.orderable.retain(|name| !secret(name));
        catalog
    }

    /// The catalog as [`crate::parse`] reads it.
    pub fn catalog(&self) -> Catalog<'_> {
        Catalog {
            fields: &self.fields,
            orderable: &self.orderable,
        }
    }
}

/// Parses a query string (as [`crate::split_query`] reads it) against the catalog of a
/// registered resource, as the server checks a list request's filters.
pub fn parse_for(spec: &ResourceSpec, query: &str) -> Result<Filter, FilterErrors> {
    crate::parse(
        &crate::split_query(query),
        &ResourceCatalog::of(spec).catalog(),
    )
}

#[cold]
fn unregistered(spec: &ResourceSpec) -> ! {
    panic!(
        "resource {} is not registered in resources::ALL",
        spec.table
    )
}

/// The filter kind of a field of `kind`, if fields of that kind are filterable.
pub fn filter_kind(kind: &Kind) -> Option<FilterKind> {
    Some(match kind {
        Kind::Int { .. } => FilterKind::Number,
        Kind::Text { .. } | Kind::Ip { .. } | Kind::Mac | Kind::ContentType => FilterKind::String,
        Kind::Bool => FilterKind::Bool,
        Kind::Choice { set, .. } => FilterKind::Choice(set.values),
        Kind::Time => FilterKind::DateTime,
        Kind::Uuid => FilterKind::Uuid,
        Kind::ForeignKey { .. } => FilterKind::ForeignKey,
        Kind::Json { .. }
        | Kind::ManyToMany { .. }
        | Kind::Tags
        | Kind::ReverseCount { .. }
        | Kind::DisplayCopy
        | Kind::Derived { .. }
        | Kind::ContentTypes
        | Kind::GenericObject { .. } => return None,
    })
}

/// The parameter a filterable stored field is compared through, and its kind: a foreign
/// key is named by its column, `<name>_id`.
fn field_param(field: &peering_domain::spec::Field) -> Option<(&'static str, FilterKind)> {
    if !field.filter || !field.is_column() {
        return None;
    }
    let kind = filter_kind(&field.kind)?;
    let param = match field.kind {
        Kind::ForeignKey { .. } => leak(format!("{}_id", field.name)),
        _ => field.name,
    };
    Some((param, kind))
}

/// Parameter names are built once per resource and live as long as the process.
fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn filter_fields(spec: &ResourceSpec) -> Vec<FilterField> {
    let mut fields = vec![FilterField::new("id", FilterKind::Number)];
    fields.extend(
        spec.fields
            .iter()
            .filter_map(field_param)
            .map(|(name, kind)| FilterField::new(name, kind)),
    );
    fields.extend(
        spec.fields
            .iter()
            .filter(|f| f.filter && f.computed.is_some())
            .map(|f| FilterField::new(f.name, FilterKind::Bool)),
    );
    for extra in spec.extra_filters {
        // An extra filter named like a field's takes its place.
        fields.retain(|f| f.name != extra.param);
        fields.push(FilterField::new(
            extra.param,
            extra_kind(spec, &extra.source),
        ));
    }
    if spec.change_logged {
        fields.extend(
            CHANGE_REQUEST_FILTERS
                .iter()
                .map(|(param, _)| FilterField::new(param, FilterKind::Uuid)),
        );
    }
    if spec.taggable() {
        fields.push(FilterField::new("tag", FilterKind::Tag));
    }
    fields
}

fn orderable(spec: &ResourceSpec) -> Vec<&'static str> {
    let mut names = vec!["id"];
    names.extend(
        spec.fields
            .iter()
            .filter(|f| f.is_column() && f.shown())
            .filter(|f| !matches!(f.kind, Kind::Json { .. } | Kind::ContentTypes))
            .map(|f| f.name),
    );
    names
}

/// The kind of an extra filter's values.
fn extra_kind(spec: &ResourceSpec, source: &FilterSource) -> FilterKind {
    let field_kind = |name: &str| {
        spec.field(name)
            .map(|f| f.kind)
            .unwrap_or_else(|| panic!("{}: no field {name}", spec.table))
    };
    match *source {
        FilterSource::Column { kind, .. } => filter_kind(&kind).unwrap_or(FilterKind::String),
        FilterSource::Related(path) => related_kind(spec, path),
        FilterSource::RelatedValue(path) => {
            filter_kind(&related_field_kind(spec, path)).unwrap_or(FilterKind::String)
        }
        // An integer compared for equality only: the foreign-key kind's lookups.
        FilterSource::AddressFamily(_) => FilterKind::ForeignKey,
        FilterSource::Since(field) | FilterSource::Until(field) => {
            filter_kind(&field_kind(field)).unwrap_or(FilterKind::DateTime)
        }
        FilterSource::Expired(_) => FilterKind::Bool,
        FilterSource::ReferredBy { .. } => FilterKind::Reference,
        FilterSource::ChoiceOrAlso { field, .. } => {
            filter_kind(&field_kind(field)).unwrap_or(FilterKind::String)
        }
    }
}

/// A related object named by an integer (its id, a number) is a foreign key; by anything
/// else, a reference.
fn related_kind(spec: &ResourceSpec, path: &str) -> FilterKind {
    match related_field_kind(spec, path) {
        Kind::Int { .. } | Kind::ForeignKey { .. } => FilterKind::ForeignKey,
        _ => FilterKind::Reference,
    }
}

/// Whether the parameter or order name `param` of `spec` compares a secret field: its own
/// (a foreign key by its `<name>_id` too), or another resource's through an extra filter.
fn reads_a_secret(spec: &ResourceSpec, param: &str) -> bool {
    let own = |name: &str| spec.field(name).is_some_and(|f| f.secret);
    if let Some(extra) = spec.extra_filters.iter().find(|e| e.param == param) {
        return match extra.source {
            FilterSource::Column { column, .. } => own(column),
            FilterSource::Related(path) | FilterSource::RelatedValue(path) => {
                related_field_is_secret(spec, path)
            }
            _ => false,
        };
    }
    own(param) || param.strip_suffix("_id").is_some_and(own)
}

/// Whether the attribute a dotted path of relations ends in is a secret field.
fn related_field_is_secret(spec: &ResourceSpec, path: &str) -> bool {
    let mut current = spec;
    let mut segments: Vec<&str> = path.split('.').collect();
    let last = segments.pop().unwrap_or(path);
    for segment in segments {
        match current.field(segment).map(|f| f.kind) {
            Some(Kind::ForeignKey { target, .. } | Kind::ManyToMany { target, .. }) => {
                current = target();
            }
            _ => return false,
        }
    }
    current.field(last).is_some_and(|f| f.secret)
}

/// The kind of the attribute a dotted path of relations ends in (`id` is an integer).
fn related_field_kind(spec: &ResourceSpec, path: &str) -> Kind {
    let mut current = spec;
    let mut segments: Vec<&str> = path.split('.').collect();
    let last = segments.pop().unwrap_or(path);
    for segment in segments {
        current = match current.field(segment).map(|f| f.kind) {
            Some(Kind::ForeignKey { target, .. } | Kind::ManyToMany { target, .. }) => target(),
            _ => panic!("{}: {path}: {segment} is not a relation", spec.table),
        };
    }
    if last == "id" {
        return Kind::Int {
            min: 0,
            max: i64::MAX,
        };
    }
    current
        .field(last)
        .map(|f| f.kind)
        .unwrap_or_else(|| panic!("{}: {path}: no field {last}", spec.table))
}

#[cfg(test)]
mod tests;
