//! Journal entries (the reference's 1.10 `extras.JournalEntry`, at
//! `/api/extras/journal-entries/`): remarks on an object at a moment, such as an e-mail
//! sent to a peer, that complete its change records. They go with their object.

use super::common::{CREATED, TAGS, UPDATED};
use super::user::USER;
use crate::choices::JOURNAL_ENTRY_KIND;
use crate::errors::FieldErrors;
use crate::record::Record;
use crate::spec::{
    kinds, Default, ExtraFilter, Field, Kind, OnDelete, RelatedLookup, ResourceSpec, Search,
};

fn user() -> &'static ResourceSpec {
    &USER
}

/// The members of both the brief and the nested form.
const JOURNAL_ENTRY_MEMBERS: &[&str] = &["id", "url", "display", "created"];

pub static JOURNAL_ENTRY: ResourceSpec = ResourceSpec {
    app: "extras",
    model: "journalentry",
    path: "journal-entries",
    name: "Journal Entry",
    verbose_name: "journal entry",
    table: "journal_entries",
    fields: &[
        Field::new(
            "assigned_object_type",
            "Assigned object type",
            Kind::ContentType,
        )
        .required()
        .filter(),
        Field::new(
            "assigned_object_id",
            "Assigned object ID",
            kinds::int(0, i64::MAX),
        )
        .required()
        .filter(),
        Field::new(
            "assigned_object",
            "Assigned object",
            Kind::GenericObject {
                type_field: "assigned_object_type",
                id_field: "assigned_object_id",
                cascade: true,
            },
        )
        .nullable()
        .read_only(),
        CREATED,
        UPDATED,
        // The reference fills it with the user who writes the entry when it is not given.
        Field::new(
            "created_by",
            "Created by",
            kinds::fk(user, OnDelete::SetNull),
        )
        .nullable()
        .default(Default::CurrentUser)
        .filter(),
        Field::new("kind", "Kind", kinds::status(&JOURNAL_ENTRY_KIND))
            .default(Default::Text("info"))
            .filter(),
        Field::new("comments", "Comments", kinds::LONG_TEXT).required(),
        TAGS,
    ],
    ordering: &["-created"],
    brief: JOURNAL_ENTRY_MEMBERS,
    nested: JOURNAL_ENTRY_MEMBERS,
    search: &[Search::Contains("comments")],
    display,
    reads: &["assigned_object"],
    validate: Some(assigned_object_exists),
    extra_filters: &[ExtraFilter::related("created_by", "created_by.username")],
    ..ResourceSpec::DEFAULTS
};

/// "2026-11-25 14:30 (Info)": when, to the minute (UTC), and the kind's label.
fn display(spec: &ResourceSpec, r: &Record, _: &dyn RelatedLookup) -> String {
    let when = match r.get(spec, "created") {
        crate::value::Value::Time(t) => t.format("%Y-%m-%d %H:%M").to_string(),
        _ => String::new(),
    };
    let kind = r.text(spec, "kind");
    let label = JOURNAL_ENTRY_KIND
        .choices
        .iter()
        .find(|(value, _)| *value == kind)
        .map_or(kind, |(_, label)| label);
    format!("{when} ({label})")
}

/// The object an entry is about must exist, as the reference's serializer checks.
fn assigned_object_exists(
    spec: &ResourceSpec,
    r: &Record,
    related: &dyn RelatedLookup,
) -> FieldErrors {
    let mut errors = FieldErrors::new();
    match r.generic_target(spec) {
        Some((target, id)) if related.related(target, id).is_some() => {}
        _ => errors.add(
            "non_field_errors",
            format!(
                "Invalid assigned_object: {} ID {}",
                r.text(spec, "assigned_object_type"),
                r.int(spec, "assigned_object_id")
            ),
        ),
    }
    errors
}
