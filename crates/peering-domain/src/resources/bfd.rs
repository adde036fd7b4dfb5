//! BFD configurations that sessions use (the reference's 1.9 `net.BFD`, at `/api/net/bfd/`).

use super::common::{
    display_name, org_name, org_slug, ASSIGNED_CONTEXTS, CREATED, DESCRIPTION, LOCAL_CONTEXT_DATA,
    MERGED_CONTEXT, ORG_SEARCH, TAGS, UPDATED,
};
use crate::spec::{kinds, Default, Field, ResourceSpec};

/// A timer in milliseconds, as the reference bounds it.
const fn timer(name: &'static str, label: &'static str, min: i64, default: i64) -> Field {
    Field::new(name, label, kinds::int(min, 255_000))
        .default(Default::Int(default))
        .filter()
}

/// The members of both the brief and the nested form.
const BFD_MEMBERS: &[&str] = &["id", "url", "display", "name", "slug"];

pub static BFD: ResourceSpec = ResourceSpec {
    app: "net",
    model: "bfd",
    path: "bfd",
    name: "BFD",
    verbose_name: "BFD configuration",
    table: "bfd",
    fields: &[
        org_name(100),
        org_slug(100),
        DESCRIPTION,
        timer(
            "minimum_transmit_interval",
            "Minimum transmit interval",
            1,
            300,
        ),
        timer(
            "minimum_receive_interval",
            "Minimum receive interval",
            1,
            300,
        ),
        Field::new(
            "detection_multiplier",
            "Detection multiplier",
            kinds::int(1, 255),
        )
        .default(Default::Int(3))
        .filter(),
        timer("hold_time", "Hold time", 0, 0),
        LOCAL_CONTEXT_DATA,
        ASSIGNED_CONTEXTS,
        MERGED_CONTEXT,
        TAGS,
        CREATED,
        UPDATED,
    ],
    // The reference's model declares no ordering of its own.
    ordering: &[],
    brief: BFD_MEMBERS,
    nested: BFD_MEMBERS,
    search: ORG_SEARCH,
    display: display_name,
    ..ResourceSpec::DEFAULTS
};
