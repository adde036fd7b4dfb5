//! Fields shared by most resources.

use crate::record::Record;
use crate::spec::{
    kinds, Computed, Default, Field, Kind, RelatedLookup, ResourceSpec, Search, Shown,
};

pub const COMMENTS: Field =
    Field::new("comments", "Comments", kinds::LONG_TEXT).default(Default::Text(""));
pub const DESCRIPTION: Field =
    Field::new("description", "Description", kinds::text(200)).default(Default::Text(""));
pub const LOCAL_CONTEXT_DATA: Field = Field::new(
    "local_context_data",
    "Local context data",
    kinds::JSON_OBJECT,
)
.nullable()
.default(Default::Null);
/// The data of the config contexts assigned to the object, in order (a JSON array; null
/// for none), read with it: what [`MERGED_CONTEXT`] is merged from.
pub const ASSIGNED_CONTEXTS: Field = Field::new(
    "assigned_config_contexts",
    "Assigned config contexts",
    Kind::Json { object_only: false },
)
.computed(Computed::AssignedContexts)
.hidden();
/// 1.10's `config_context`: the assigned contexts' data merged, then the local data.
pub const MERGED_CONTEXT: Field = Field::new(
    "config_context",
    "Config context",
    Kind::Derived {
        derive: super::config_context::derive,
        shown: Shown::Json,
    },
)
.read_only()
.nullable();
pub const TAGS: Field = Field::new("tags", "Tags", Kind::Tags).default(Default::EmptyList);
pub const CREATED: Field = Field::new("created", "Created", Kind::Time)
    .read_only()
    .filter();
pub const UPDATED: Field = Field::new("updated", "Updated", Kind::Time)
    .read_only()
    .filter();

/// The unique, required `name` of an organisational resource.
pub const fn org_name(max_len: usize) -> Field {
    Field::new("name", "Name", kinds::text(max_len))
        .required()
        .unique()
        .filter()
}

/// The unique, required `slug` of an organisational resource.
pub const fn org_slug(max_len: usize) -> Field {
    Field::new("slug", "Slug", kinds::slug(max_len))
        .required()
        .unique()
        .filter()
}

/// `display` is the object's name.
pub fn display_name(spec: &ResourceSpec, r: &Record, _: &dyn RelatedLookup) -> String {
    r.text(spec, "name").to_string()
}

/// Free-text search of organisational resources: name, slug or description.
pub const ORG_SEARCH: &[Search] = &[
    Search::Contains("name"),
    Search::Contains("slug"),
    Search::Contains("description"),
];

fn routing_policy() -> &'static ResourceSpec {
    &super::routing::ROUTING_POLICY
}

fn community() -> &'static ResourceSpec {
    &super::routing::COMMUNITY
}

/// Import or export routing policies, through `table (source, routing_policy_id)`.
pub const fn policies(
    name: &'static str,
    label: &'static str,
    table: &'static str,
    source: &'static str,
) -> Field {
    Field::new(
        name,
        label,
        Kind::ManyToMany {
            target: routing_policy,
            table,
            source,
            target_column: "routing_policy_id",
        },
    )
    .default(Default::EmptyList)
}

/// BGP communities, through `table (source, community_id)`.
pub const fn communities(table: &'static str, source: &'static str) -> Field {
    Field::new(
        "communities",
        "Communities",
        Kind::ManyToMany {
            target: community,
            table,
            source,
            target_column: "community_id",
        },
    )
    .default(Default::EmptyList)
}
