//! Query and path parameters: the filters of a resource's catalog, paging, ordering, search.

use paperclip::v2::models::{
    CollectionFormat, DataType, DataTypeFormat, DefaultParameterRaw, Items, ParameterIn,
};
use peering_domain::ResourceSpec;
use peering_filter::{FilterKind, Lookup, ResourceCatalog};

pub(super) fn query(
    name: impl Into<String>,
    data_type: DataType,
    description: &str,
) -> DefaultParameterRaw {
    DefaultParameterRaw {
        in_: ParameterIn::Query,
        name: name.into(),
        data_type: Some(data_type),
        description: Some(description.into()),
        ..DefaultParameterRaw::default()
    }
}

fn non_negative(name: &str, description: &str) -> DefaultParameterRaw {
    DefaultParameterRaw {
        format: Some(DataTypeFormat::Int64),
        minimum: Some(0.0),
        ..query(name, DataType::Integer, description)
    }
}

fn lookup_meaning(lookup: Lookup) -> &'static str {
    match lookup {
        Lookup::Exact => "Equal to one of the values.",
        Lookup::N => "Not equal to any of the values.",
        Lookup::Lt => "Less than.",
        Lookup::Lte => "Less than or equal to.",
        Lookup::Gt => "Greater than.",
        Lookup::Gte => "Greater than or equal to.",
        Lookup::Ic => "Contains one of the values (case-insensitive).",
        Lookup::Nic => "Contains none of the values (case-insensitive).",
        Lookup::Isw => "Starts with one of the values (case-insensitive).",
        Lookup::Nisw => "Starts with none of the values (case-insensitive).",
        Lookup::Iew => "Ends with one of the values (case-insensitive).",
        Lookup::Niew => "Ends with none of the values (case-insensitive).",
        Lookup::Ie => "Equal to one of the values (case-insensitive).",
        Lookup::Nie => "Equal to none of the values (case-insensitive).",
        Lookup::Empty => "Whether the field is empty (`true`) or not (`false`).",
    }
}

/// `name` for `exact`, `name__<lookup>` otherwise; repeatable, except `__empty`.
fn filter_parameter(name: &str, kind: FilterKind, lookup: Lookup) -> DefaultParameterRaw {
    let key = match lookup {
        Lookup::Exact => name.to_string(),
        other => format!("{name}__{other}"),
    };
    if lookup == Lookup::Empty {
        return query(key, DataType::Boolean, lookup_meaning(lookup));
    }
    let items = match kind {
        FilterKind::Number | FilterKind::ForeignKey => Items {
            data_type: Some(DataType::Integer),
            format: Some(DataTypeFormat::Int64),
            ..Items::default()
        },
        FilterKind::Bool => Items {
            data_type: Some(DataType::Boolean),
            ..Items::default()
        },
        FilterKind::Choice(values) => Items {
            data_type: Some(DataType::String),
            enum_: values.iter().map(|v| (*v).into()).collect(),
            ..Items::default()
        },
        FilterKind::String
        | FilterKind::Reference
        | FilterKind::Uuid
        | FilterKind::DateTime
        | FilterKind::Tag => Items {
            data_type: Some(DataType::String),
            ..Items::default()
        },
    };
    DefaultParameterRaw {
        items: Some(items),
        collection_format: Some(CollectionFormat::Multi),
        ..query(key, DataType::Array, lookup_meaning(lookup))
    }
}

/// Every parameter of a list: one per filter and lookup of the resource's catalog (the
/// store's, which the filter crate derives from the declaration), then paging, ordering,
/// search and `brief`.
pub(super) fn list_parameters(spec: &ResourceSpec) -> Vec<DefaultParameterRaw> {
    let catalog = ResourceCatalog::of(spec).catalog();
    let mut params: Vec<DefaultParameterRaw> = catalog
        .fields
        .iter()
        .flat_map(|f| {
            f.kind
                .lookups()
                .iter()
                .map(|l| filter_parameter(f.name, f.kind, *l))
        })
        .collect();
    let ordering = format!(
        "Comma-separated fields to order by, `-` for descending: {}.",
        catalog.orderable.join(", ")
    );
    params.extend([
        non_negative("limit", "Objects per page (0: the maximum page size)."),
        non_negative("offset", "Objects to skip."),
        query("ordering", DataType::String, &ordering),
        query("q", DataType::String, "Free-text search."),
        brief_parameter(),
        query(
            "export",
            DataType::String,
            "The name of an export template of this resource: the filtered list rendered with it, as a `text/plain` attachment.",
        ),
    ]);
    params
}

pub(super) fn brief_parameter() -> DefaultParameterRaw {
    query(
        "brief",
        DataType::Boolean,
        "Return the brief form (`Brief…` schema).",
    )
}

/// `format` of `/api/schema/`: `json` (the default) or `yaml`.
pub(super) fn format_parameter() -> DefaultParameterRaw {
    DefaultParameterRaw {
        enum_: vec!["json".into(), "yaml".into()],
        ..query(
            "format",
            DataType::String,
            "`yaml` for YAML; JSON otherwise.",
        )
    }
}

pub(super) fn id_parameter() -> DefaultParameterRaw {
    DefaultParameterRaw {
        in_: ParameterIn::Path,
        name: "id".into(),
        required: true,
        data_type: Some(DataType::Integer),
        format: Some(DataTypeFormat::Int64),
        ..DefaultParameterRaw::default()
    }
}
