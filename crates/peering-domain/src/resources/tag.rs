//! Tags (reference 3.18).

use super::common::{display_name, org_name, org_slug};
use crate::spec::{kinds, Default, ExtraFilter, Field, FilterSource, Kind, ResourceSpec, Search};

pub static TAG: ResourceSpec = ResourceSpec {
    app: "extras",
    model: "tag",
    path: "tags",
    name: "Tag",
    verbose_name: "tag",
    table: "tags",
    fields: &[
        org_name(100),
        org_slug(100),
        Field::new("color", "Color", kinds::COLOR)
            .default(Default::Text("9e9e9e"))
            .filter(),
        Field::new("description", "Description", kinds::text(200))
            .default(Default::Text(""))
            .filter(),
        Field::new(
            "tagged_items",
            "Tagged items",
            Kind::ReverseCount {
                table: "tagged_items",
                column: "tag_id",
            },
        )
        .read_only(),
        Field::new("created", "Created", Kind::Time)
            .read_only()
            .filter()
            .hidden(),
        Field::new("updated", "Updated", Kind::Time)
            .read_only()
            .filter()
            .hidden(),
    ],
    ordering: &["name"],
    brief: &["id", "url", "name", "slug", "color"],
    nested: &["id", "url", "display", "name", "slug", "color"],
    search: &[
        Search::Contains("name"),
        Search::Contains("slug"),
        Search::Contains("description"),
    ],
    display: display_name,
    extra_filters: &[ExtraFilter {
        param: "content_type",
        source: FilterSource::ReferredBy {
            table: "tagged_items",
            column: "tag_id",
            match_column: "object_type",
        },
    }],
    has_timestamps: false,
    ..ResourceSpec::DEFAULTS
};
