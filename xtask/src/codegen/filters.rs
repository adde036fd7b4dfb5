//! The typed filters of a resource's lists, from the catalog the server checks query
//! strings against.

use std::fmt::Write;

use peering_domain::spec::Kind;
use peering_domain::ResourceSpec;
use peering_filter::FilterKind;

use super::names::{camel, field_ident};
use super::types::choice_enum;

/// The handle type of a filter parameter.
fn handle(spec: &ResourceSpec, name: &str, kind: FilterKind) -> String {
    match kind {
        FilterKind::Number => "NumberFilter".into(),
        FilterKind::String => "TextFilter".into(),
        FilterKind::Bool => "BoolFilter".into(),
        FilterKind::ForeignKey => "RelationFilter".into(),
        FilterKind::Uuid => "UuidFilter".into(),
        FilterKind::DateTime => "TimeFilter".into(),
        FilterKind::Tag => "TagFilter".into(),
        FilterKind::Choice(_) => match spec.field(name).map(|f| f.kind) {
            Some(Kind::Choice { set, render }) => match choice_enum(set, render) {
                Some(_) => format!("ChoiceFilter<{}>", camel(set.name)),
                None => "ValueFilter".into(),
            },
            _ => "ValueFilter".into(),
        },
        FilterKind::Reference => "ValueFilter".into(),
    }
}

/// How a handle is built in a constant.
fn constructor(ty: &str, name: &str) -> String {
    match ty.strip_prefix("ChoiceFilter") {
        Some(_) => format!("ChoiceFilter::new({name:?})"),
        None => format!("{ty}({name:?})"),
    }
}

/// `{Name}Filters`: a handle per parameter of the resource's catalog, and `ALL`.
pub fn filters_struct(spec: &'static ResourceSpec, name: &str) -> String {
    let catalog = peering_filter::ResourceCatalog::of(spec).catalog();
    let mut fields = String::new();
    let mut values = String::new();
    for filter in catalog.fields {
        let ty = handle(spec, filter.name, filter.kind);
        let ident = field_ident(&filter.name.replace("__", "_"));
        let _ = writeln!(fields, "pub {ident}: {ty},");
        let _ = writeln!(values, "{ident}: {},", constructor(&ty, filter.name));
    }
    format!(
        "/// The filters of {noun} lists, typed by kind.\n\
         #[derive(Debug, Clone, Copy)]\npub struct {name}Filters {{\n{fields}}}\n\n\
         impl {name}Filters {{\n/// Every filter.\npub const ALL: Self = Self {{\n{values}}};\n}}\n\n",
        noun = spec.verbose_name
    )
}
