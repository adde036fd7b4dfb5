//! How each parameter of a resource's filter catalog compiles: the SQL side of
//! `peering_filter::ResourceCatalog`, keyed by the same parameter names.

use std::collections::HashMap;

use peering_domain::spec::{FilterSource, Kind};
use peering_domain::ResourceSpec;
use peering_filter::{filter_kind, CHANGE_REQUEST_FILTERS};

use super::columns::Column;
use super::leak;
use super::paths::{own_column, resolve, MustExist, Path};

/// How a filter parameter is compiled.
#[derive(Debug, Clone)]
pub(crate) enum FilterTarget {
    Column {
        path: Path,
        must_exist: Option<MustExist>,
    },
    Tag,
    /// A computed boolean (`Field::computed`): its expression.
    Computed(&'static str),
    /// `created_by_request` / `updated_by_request`: ids named by change records.
    ChangeRequest(&'static [&'static str]),
    /// The family of the address whose sort key is in `key`.
    AddressFamily {
        key: &'static str,
    },
    /// A timestamp column at least (`since`) or at most the value.
    Bound {
        column: &'static str,
        since: bool,
    },
    /// Whether the timestamp column is set and past at the time of the read.
    Expired {
        column: &'static str,
    },
    ReferredBy {
        table: &'static str,
        column: &'static str,
        match_column: &'static str,
    },
    ChoiceOrAlso {
        column: &'static str,
        kind: Kind,
        also: &'static str,
    },
}

impl FilterTarget {
    /// The column the filter's values must exist in, if any.
    pub fn must_exist(&self) -> Option<MustExist> {
        match self {
            FilterTarget::Column { must_exist, .. } => *must_exist,
            FilterTarget::Tag => Some(MustExist {
                table: "tags",
                column: "slug",
            }),
            FilterTarget::Computed(_)
            | FilterTarget::ChangeRequest(_)
            | FilterTarget::AddressFamily { .. }
            | FilterTarget::Bound { .. }
            | FilterTarget::Expired { .. }
            | FilterTarget::ReferredBy { .. }
            | FilterTarget::ChoiceOrAlso { .. } => None,
        }
    }

    /// The row's own columns the filter's condition compares (the column, and the
    /// lowercase copy some lookups compare instead), if it compares those alone: whether
    /// a row is selected then changes only with them (`query/filter.rs::path_condition`).
    pub fn own_columns(&self) -> Option<[Option<&'static str>; 2]> {
        match self {
            FilterTarget::Column { path, .. } if path.hops.is_empty() => {
                Some([Some(path.column), path.lc])
            }
            _ => None,
        }
    }
}

/// The targets of every parameter of the resource's catalog. They go in in the catalog's
/// order, so that a later declaration (an extra filter named like a field's) replaces an
/// earlier one alike.
pub(super) fn targets_of(
    spec: &'static ResourceSpec,
    columns: &[Column],
    computed: &[(usize, &'static str)],
) -> HashMap<&'static str, FilterTarget> {
    let mut targets = HashMap::new();
    let id_kind = Kind::Int {
        min: 0,
        max: i64::MAX,
    };
    targets.insert(
        "id",
        FilterTarget::Column {
            path: own_column("id", id_kind),
            must_exist: None,
        },
    );
    targets.extend(columns.iter().filter_map(|col| column_target(spec, col)));
    for &(i, expression) in computed {
        if spec.fields[i].filter {
            targets.insert(spec.fields[i].name, FilterTarget::Computed(expression));
        }
    }
    for extra in spec.extra_filters {
        targets.insert(extra.param, extra_target(spec, &extra.source));
    }
    if spec.change_logged {
        for (param, actions) in CHANGE_REQUEST_FILTERS {
            targets.insert(param, FilterTarget::ChangeRequest(actions));
        }
    }
    if spec.taggable() {
        targets.insert("tag", FilterTarget::Tag);
    }
    targets
}

/// A filterable stored field's parameter and target: a foreign key is named by its column
/// and must name an existing object.
fn column_target(spec: &ResourceSpec, col: &Column) -> Option<(&'static str, FilterTarget)> {
    let field = &spec.fields[col.field];
    if !field.filter || filter_kind(&field.kind).is_none() {
        return None;
    }
    let (param, must_exist) = match field.kind {
        Kind::ForeignKey { target, .. } => (
            col.name,
            Some(MustExist {
                table: target().table,
                column: "id",
            }),
        ),
        _ => (field.name, None),
    };
    let path = own_column(col.name, field.kind);
    Some((param, FilterTarget::Column { path, must_exist }))
}

/// How an extra filter compiles.
fn extra_target(spec: &'static ResourceSpec, source: &FilterSource) -> FilterTarget {
    match *source {
        FilterSource::Column { column, kind } => FilterTarget::Column {
            path: own_column(column, kind),
            must_exist: None,
        },
        FilterSource::Related(path) => {
            let (path, must_exist) = resolve(spec, path);
            FilterTarget::Column {
                path,
                must_exist: Some(must_exist),
            }
        }
        FilterSource::RelatedValue(path) => FilterTarget::Column {
            path: resolve(spec, path).0,
            must_exist: None,
        },
        FilterSource::AddressFamily(field) => FilterTarget::AddressFamily {
            key: leak(format!("{field}_key")),
        },
        FilterSource::Since(field) => FilterTarget::Bound {
            column: field,
            since: true,
        },
        FilterSource::Until(field) => FilterTarget::Bound {
            column: field,
            since: false,
        },
        FilterSource::Expired(field) => FilterTarget::Expired { column: field },
        FilterSource::ReferredBy {
            table,
            column,
            match_column,
        } => FilterTarget::ReferredBy {
            table,
            column,
            match_column,
        },
        FilterSource::ChoiceOrAlso { field, also } => FilterTarget::ChoiceOrAlso {
            column: field,
            kind: spec
                .field(field)
                .map(|f| f.kind)
                .unwrap_or_else(|| panic!("{}: no field {field}", spec.table)),
            also,
        },
    }
}
