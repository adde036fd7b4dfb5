//! Organisations, campuses and facilities of the PeeringDB copy, and the record of each
//! synchronisation.

use super::{
    campus, coordinate, document, notes, optional_text, organization, parent, text, with_address,
    COPY, NAME,
};
use crate::record::Record;
use crate::spec::{
    kinds, Default, Field, Kind, OnDelete, RelatedLookup, ResourceSpec, Search, Writes,
};

const NAME_SEARCH: &[Search] = &[Search::Contains("name")];

pub static PDB_ORGANIZATION: ResourceSpec = ResourceSpec {
    model: "organization",
    path: "organizations",
    name: "Organization",
    verbose_name: "organization",
    table: "peeringdb_organizations",
    fields: with_address![
        NAME,
        text("name_long", "Long name"),
        text("aka", "Also known as"),
        text("website", "Website"),
        notes("notes", "Notes"),
        document("social_media", "Social media").hidden(),
    ],
    nested: &[
        "id",
        "url",
        "display",
        "name",
        "name_long",
        "aka",
        "website",
        "city",
        "country",
    ],
    search: NAME_SEARCH,
    ..COPY
};

pub static PDB_CAMPUS: ResourceSpec = ResourceSpec {
    model: "campus",
    path: "campuses",
    name: "Campus",
    verbose_name: "campus",
    table: "peeringdb_campuses",
    fields: &[
        NAME,
        optional_text("name_long", "Long name"),
        optional_text("aka", "Also known as"),
        optional_text("website", "Website"),
        document("social_media", "Social media"),
        notes("notes", "Notes"),
        parent("org", "Organization", organization),
    ],
    nested: &[
        "id",
        "url",
        "display",
        "name",
        "name_long",
        "aka",
        "website",
    ],
    search: NAME_SEARCH,
    ..COPY
};

pub static PDB_FACILITY: ResourceSpec = ResourceSpec {
    model: "facility",
    path: "facilities",
    name: "Facility",
    verbose_name: "facility",
    table: "peeringdb_facilities",
    fields: with_address![
        NAME,
        text("name_long", "Long name"),
        text("aka", "Also known as"),
        text("website", "Website"),
        text("clli", "CLLI code"),
        text("rencode", "Rencode"),
        text("npanxx", "NPA-NXX"),
        text("tech_email", "Technical e-mail"),
        text("tech_phone", "Technical phone"),
        text("sales_email", "Sales e-mail"),
        text("sales_phone", "Sales phone"),
        optional_text("property", "Property"),
        Field::new(
            "diverse_serving_substations",
            "Diverse serving substations",
            Kind::Bool
        )
        .nullable()
        .default(Default::Null),
        document("available_voltage_services", "Available voltage services"),
        notes("notes", "Notes"),
        parent("org", "Organization", organization),
        document("social_media", "Social media").hidden(),
        optional_text("region_continent", "Continental region").hidden(),
        optional_text("status_dashboard", "Status dashboard").hidden(),
        // PeeringDB keeps a facility when its campus goes: the link is cleared.
        Field::new("campus", "Campus", kinds::fk(campus, OnDelete::SetNull))
            .nullable()
            .default(Default::Null)
            .filter(),
    ],
    nested: &[
        "id",
        "url",
        "display",
        "name",
        "name_long",
        "aka",
        "website",
        "city",
        "country",
    ],
    search: NAME_SEARCH,
    ..COPY
};

const SYNC_COUNT: Kind = kinds::int(0, i64::MAX);

pub static PDB_SYNCHRONISATION: ResourceSpec = ResourceSpec {
    model: "synchronisation",
    path: "synchronisations",
    name: "Synchronisation",
    verbose_name: "synchronisation",
    table: "peeringdb_synchronisations",
    fields: &[
        Field::new("time", "Time", Kind::Time).filter(),
        Field::new("created", "Created", SYNC_COUNT).filter(),
        Field::new("updated", "Updated", SYNC_COUNT).filter(),
        Field::new("deleted", "Deleted", SYNC_COUNT).filter(),
    ],
    ordering: &["-time"],
    nested: &["id", "url", "display", "time"],
    display: synchronisation_display,
    writes: Writes::None,
    ..COPY
};

/// As the reference: "Synchronised 12 objects at 2026-11-24 21:00:00+00:00".
fn synchronisation_display(spec: &ResourceSpec, r: &Record, _: &dyn RelatedLookup) -> String {
    let total: i64 = ["created", "updated", "deleted"]
        .iter()
        .map(|name| r.int(spec, name))
        .sum();
    let time = match r.get(spec, "time") {
        crate::value::Value::Time(t) => t.format("%Y-%m-%d %H:%M:%S%:z").to_string(),
        _ => String::new(),
    };
    format!("Synchronised {total} objects at {time}")
}
