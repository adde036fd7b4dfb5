//! Dotted paths of relations (`router.hostname`) resolved to the tables they cross and the
//! column they end in.

use peering_domain::spec::Kind;
use peering_domain::ResourceSpec;

use super::columns::{column_name, keeps_lower_copy};
use super::leak;

/// A relation followed from one table to the next.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Hop {
    /// A foreign key: `<alias>.<column>` holds the id of a row of `table`.
    Key {
        column: &'static str,
        table: &'static str,
    },
    /// A many-to-many relation: rows of `link` pair `<alias>.id` (in `source`) with ids of
    /// rows of `table` (in `target`).
    Link {
        link: &'static str,
        source: &'static str,
        target: &'static str,
        table: &'static str,
    },
}

/// Where a compared value lives: a column of the table a chain of foreign keys leads to
/// (no hops: the resource's own table).
#[derive(Debug, Clone)]
pub(crate) struct Path {
    pub hops: Vec<Hop>,
    pub column: &'static str,
    pub lc: Option<&'static str>,
    pub kind: Kind,
}

/// A column whose values a filter's values must name, or the filter is refused.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MustExist {
    pub table: &'static str,
    pub column: &'static str,
}

/// Resolves a dotted path of foreign-key fields ending in an attribute (`router.hostname`,
/// `ixp_connection.internet_exchange_point.id`), and the column its values must exist in.
///
/// Paths are declarations: one that does not resolve is a programming error, caught by the
/// first test that builds the tables.
pub(super) fn resolve(spec: &'static ResourceSpec, path: &'static str) -> (Path, MustExist) {
    let mut segments: Vec<&'static str> = path.split('.').collect();
    let last = segments.pop().unwrap_or(path);
    let mut hops = Vec::new();
    let mut current = spec;
    for segment in segments {
        let (hop, target) = hop_of(current, segment)
            .unwrap_or_else(|| panic!("{}: {path}: {segment} is not a relation", spec.table));
        hops.push(hop);
        current = target;
    }
    if last == "id" {
        return id_path(hops, current);
    }
    let field = current
        .field(last)
        .unwrap_or_else(|| panic!("{}: {path}: no field {last}", spec.table));
    let column = column_name(field);
    let lc = keeps_lower_copy(&field.kind).then(|| leak(format!("{column}_lc")));
    (
        Path {
            hops,
            column,
            lc,
            kind: field.kind,
        },
        MustExist {
            table: current.table,
            column,
        },
    )
}

/// The hop through the relation `segment` of `current`, and the resource it leads to.
fn hop_of(
    current: &'static ResourceSpec,
    segment: &'static str,
) -> Option<(Hop, &'static ResourceSpec)> {
    match current.field(segment).map(|f| f.kind) {
        Some(Kind::ForeignKey { target, .. }) => Some((
            Hop::Key {
                column: leak(format!("{segment}_id")),
                table: target().table,
            },
            target(),
        )),
        Some(Kind::ManyToMany {
            target,
            table,
            source,
            target_column,
        }) => Some((
            Hop::Link {
                link: table,
                source,
                target: target_column,
                table: target().table,
            },
            target(),
        )),
        _ => None,
    }
}

/// A path ending in `id`: `x.id` is `x_id` in the table before, one subquery fewer.
fn id_path(mut hops: Vec<Hop>, current: &'static ResourceSpec) -> (Path, MustExist) {
    let id_kind = Kind::Int {
        min: 0,
        max: i64::MAX,
    };
    match hops.last().copied() {
        Some(Hop::Key { column, table }) => {
            hops.pop();
            (
                Path {
                    hops,
                    column,
                    lc: None,
                    kind: id_kind,
                },
                MustExist {
                    table,
                    column: "id",
                },
            )
        }
        _ => (
            Path {
                hops,
                column: "id",
                lc: None,
                kind: id_kind,
            },
            MustExist {
                table: current.table,
                column: "id",
            },
        ),
    }
}

/// A column of the resource's own table.
pub(super) fn own_column(column: &'static str, kind: Kind) -> Path {
    Path {
        hops: Vec::new(),
        column,
        lc: keeps_lower_copy(&kind).then(|| leak(format!("{column}_lc"))),
        kind,
    }
}
