//! BGP groups and peering relationships (reference 3.2, 3.11).

use super::common::{
    communities, display_name, org_name, org_slug, policies, ASSIGNED_CONTEXTS, COMMENTS, CREATED,
    DESCRIPTION, LOCAL_CONTEXT_DATA, MERGED_CONTEXT, ORG_SEARCH, TAGS, UPDATED,
};
use crate::choices::BGP_GROUP_STATUS;
use crate::spec::{kinds, Default, Field, ResourceSpec};

/// The members of both the brief and the nested form.
const BGP_GROUP_MEMBERS: &[&str] = &["id", "url", "display", "name", "slug", "status"];

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
        policies(
            "import_routing_policies",
            "Import routing policies",
            "bgp_group_import_routing_policies",
            "bgp_group_id",
        ),
        policies(
            "export_routing_policies",
            "Export routing policies",
            "bgp_group_export_routing_policies",
            "bgp_group_id",
        ),
        communities("bgp_group_communities", "bgp_group_id"),
        COMMENTS,
        LOCAL_CONTEXT_DATA,
        ASSIGNED_CONTEXTS,
        MERGED_CONTEXT,
        TAGS,
        CREATED,
        UPDATED,
    ],
    ordering: &["name", "slug"],
    brief: BGP_GROUP_MEMBERS,
    nested: BGP_GROUP_MEMBERS,
    search: ORG_SEARCH,
    display: display_name,
    ..ResourceSpec::DEFAULTS
};

/// The members of both the brief and the nested form.
const RELATIONSHIP_MEMBERS: &[&str] = &["id", "url", "display", "name", "slug"];

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
    brief: RELATIONSHIP_MEMBERS,
    nested: RELATIONSHIP_MEMBERS,
    search: ORG_SEARCH,
    display: display_name,
    ..ResourceSpec::DEFAULTS
};
