//! Routing policies and BGP communities (reference 3.3, 3.4).

use super::common::{
    communities, display_name, org_name, org_slug, ASSIGNED_CONTEXTS, COMMENTS, CREATED,
    DESCRIPTION, LOCAL_CONTEXT_DATA, MERGED_CONTEXT, ORG_SEARCH, TAGS, UPDATED,
};
use crate::choices::{COMMUNITY_TYPE, IP_FAMILY, ROUTING_POLICY_TYPE};
use crate::spec::{
    kinds, ChoiceRender, Default, ExtraFilter, Field, FilterSource, Kind, ResourceSpec, Shown,
};

/// The members of both the brief and the nested form.
const COMMUNITY_MEMBERS: &[&str] = &["id", "url", "display", "name", "slug", "value", "type"];

pub static COMMUNITY: ResourceSpec = ResourceSpec {
    app: "peering",
    model: "community",
    path: "communities",
    name: "Community",
    verbose_name: "community",
    table: "communities",
    fields: &[
        org_name(100),
        org_slug(100),
        DESCRIPTION,
        Field::new("value", "Value", kinds::text(50))
            .required()
            .filter(),
        Field::new(
            "type",
            "Type",
            Kind::Choice {
                set: &COMMUNITY_TYPE,
                render: ChoiceRender::Raw,
            },
        )
        .nullable()
        .default(Default::Null)
        .filter(),
        // 1.10's notation of the value: standard, extended or large.
        Field::new(
            "kind",
            "Kind",
            Kind::Derived {
                derive: super::community_kind::derive,
                shown: Shown::Text,
            },
        )
        .read_only()
        .nullable(),
        COMMENTS,
        LOCAL_CONTEXT_DATA,
        ASSIGNED_CONTEXTS,
        MERGED_CONTEXT,
        TAGS,
        CREATED,
        UPDATED,
    ],
    ordering: &["value", "name"],
    brief: COMMUNITY_MEMBERS,
    nested: COMMUNITY_MEMBERS,
    search: ORG_SEARCH,
    display: display_name,
    ..ResourceSpec::DEFAULTS
};

/// The members of both the brief and the nested form.
const ROUTING_POLICY_MEMBERS: &[&str] = &["id", "url", "display", "name", "slug", "type"];

pub static ROUTING_POLICY: ResourceSpec = ResourceSpec {
    app: "peering",
    model: "routingpolicy",
    path: "routing-policies",
    name: "Routing Policy",
    verbose_name: "routing policy",
    table: "routing_policies",
    fields: &[
        org_name(100),
        org_slug(100),
        DESCRIPTION,
        Field::new(
            "type",
            "Type",
            Kind::Choice {
                set: &ROUTING_POLICY_TYPE,
                render: ChoiceRender::Raw,
            },
        )
        .default(Default::Text("import-policy"))
        .filter(),
        Field::new("weight", "Weight", kinds::int(0, 32767))
            .default(Default::Int(0))
            .filter(),
        Field::new(
            "address_family",
            "Address family",
            Kind::Choice {
                set: &IP_FAMILY,
                render: ChoiceRender::RawInt,
            },
        )
        .default(Default::Text("0"))
        .filter(),
        communities("routing_policy_communities", "routing_policy_id"),
        COMMENTS,
        LOCAL_CONTEXT_DATA,
        ASSIGNED_CONTEXTS,
        MERGED_CONTEXT,
        TAGS,
        CREATED,
        UPDATED,
    ],
    ordering: &["-weight", "name"],
    brief: ROUTING_POLICY_MEMBERS,
    nested: ROUTING_POLICY_MEMBERS,
    search: ORG_SEARCH,
    display: display_name,
    extra_filters: &[ExtraFilter {
        param: "type",
        source: FilterSource::ChoiceOrAlso {
            field: "type",
            also: "import-export-policy",
        },
    }],
    ..ResourceSpec::DEFAULTS
};
