//! BGP groups and peering relationships (reference 3.2, 3.11).

use super::common::{
    display_name, org_name, org_slug, COMMENTS, CREATED, DESCRIPTION, LOCAL_CONTEXT_DATA, TAGS,
    UPDATED,
};
use super::routing::{COMMUNITY, ROUTING_POLICY};
use crate::choices::BGP_GROUP_STATUS;
use crate::spec::{kinds, Default, Field, Kind, ResourceSpec, Search};

const ORG_SEARCH: &[Search] = &[
    Search::Contains("name"),
    Search::Contains("slug"),
    Search::Contains("description"),
];

fn routing_policy() -> &'static ResourceSpec {
    &ROUTING_POLICY
}

fn community() -> &'static ResourceSpec {
    &COMMUNITY
}

pub static BGP_GROUP: ResourceSpec = ResourceSpec {
    app: "peering",
    model: "bgpgroup",
    path: "bgp-groups",
    name: "BGP Group",
    verbose_name: "BGP group",
    table: "bgp_groups",
    fields: &[
        org_name(100),
        org_slug(100),
        DESCRIPTION,
        Field::new("status", "Status", kinds::status(&BGP_GROUP_STATUS))
            .default(Default::Text("enabled"))
            .filter(),
        Field::new(
            "import_routing_policies",
            "Import routing policies",
            Kind::ManyToMany {
                target: routing_policy,
                table: "bgp_group_import_routing_policies",
                source: "bgp_group_id",
                target_column: "routing_policy_id",
            },
        )
        .default(Default::EmptyList),
        Field::new(
            "export_routing_policies",
            "Export routing policies",
            Kind::ManyToMany {
                target: routing_policy,
                table: "bgp_group_export_routing_policies",
                source: "bgp_group_id",
                target_column: "routing_policy_id",
            },
        )
        .default(Default::EmptyList),
        Field::new(
            "communities",
            "Communities",
            Kind::ManyToMany {
                target: community,
                table: "bgp_group_communities",
                source: "bgp_group_id",
                target_column: "community_id",
            },
        )
        .default(Default::EmptyList),
        COMMENTS,
        LOCAL_CONTEXT_DATA,
        TAGS,
        CREATED,
        UPDATED,
    ],
    ordering: &["name", "slug"],
    brief: &["id", "url", "display", "name", "slug", "status"],
    nested: &["id", "url", "display", "name", "slug", "status"],
    search: ORG_SEARCH,
    display: display_name,
    reads: &[],
    unique_together: &[],
    validate: None,
    derive: None,
    change_logged: true,
    writable: true,
    extra_filters: &[],
    has_timestamps: true,
};

pub static RELATIONSHIP: ResourceSpec = ResourceSpec {
    app: "bgp",
    model: "relationship",
    path: "relationships",
    name: "Relationship",
    verbose_name: "relationship",
    table: "relationships",
    fields: &[
        org_name(100),
        org_slug(100),
        DESCRIPTION,
        Field::new("color", "Color", kinds::COLOR).default(Default::Text("9e9e9e")),
        TAGS,
        CREATED,
        UPDATED,
    ],
    ordering: &["name"],
    brief: &["id", "url", "display", "name", "slug"],
    nested: &["id", "url", "display", "name", "slug"],
    search: ORG_SEARCH,
    display: display_name,
    reads: &[],
    unique_together: &[],
    validate: None,
    derive: None,
    change_logged: true,
    writable: true,
    extra_filters: &[],
    has_timestamps: true,
};
