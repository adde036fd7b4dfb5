//! Change records (reference 1.8 and 3.20): read-only through the API.

use super::user::USER;
use crate::choices::OBJECT_CHANGE_ACTION;
use crate::record::Record;
use crate::spec::{
    kinds, ChoiceRender, ExtraFilter, Field, FilterSource, Kind, OnDelete, RelatedLookup,
    ResourceSpec, Search, Writes,
};

fn user() -> &'static ResourceSpec {
    &USER
}

/// The members of both the brief and the nested form.
const OBJECT_CHANGE_MEMBERS: &[&str] = &["id", "url", "display", "action"];

pub static OBJECT_CHANGE: ResourceSpec = ResourceSpec {
    app: "extras",
    model: "objectchange",
    path: "object-changes",
    name: "Object Change",
    verbose_name: "object change",
    table: "object_changes",
    fields: &[
        Field::new("time", "Time", Kind::Time).read_only().filter(),
        Field::new(
            "user",
            "User",
            Kind::ForeignKey {
                target: user,
                on_delete: OnDelete::SetNull,
            },
        )
        .nullable()
        .read_only()
        .filter(),
        Field::new("user_name", "User name", kinds::text(150))
            .read_only()
            .filter(),
        Field::new("request_id", "Request ID", Kind::Uuid)
            .read_only()
            .filter(),
        Field::new(
            "action",
            "Action",
            Kind::Choice {
                set: &OBJECT_CHANGE_ACTION,
                render: ChoiceRender::Object,
            },
        )
        .read_only()
        .filter(),
        Field::new(
            "changed_object_type",
            "Changed object type",
            kinds::text(100),
        )
        .read_only()
        .filter(),
        Field::new(
            "changed_object_id",
            "Changed object ID",
            kinds::int(0, i64::MAX),
        )
        .read_only()
        .filter(),
        // The object as the reference nests it; null once it is deleted.
        Field::new(
            "changed_object",
            "Changed object",
            Kind::GenericObject {
                type_field: "changed_object_type",
                id_field: "changed_object_id",
                cascade: false,
            },
        )
        .nullable()
        .read_only(),
        Field::new(
            "prechange_data",
            "Pre-change data",
            Kind::Json { object_only: false },
        )
        .nullable()
        .read_only(),
        Field::new(
            "postchange_data",
            "Post-change data",
            Kind::Json { object_only: false },
        )
        .nullable()
        .read_only(),
        Field::new("object_repr", "Object representation", kinds::text(200))
            .read_only()
            .filter()
            .hidden(),
    ],
    // Newest first; records of one request, written at the same microsecond, newest
    // (highest id) first too, as the reference's records of one request come.
    ordering: &["-time", "-id"],
    brief: OBJECT_CHANGE_MEMBERS,
    nested: OBJECT_CHANGE_MEMBERS,
    search: &[
        Search::Contains("user_name"),
        Search::Contains("object_repr"),
    ],
    display,
    reads: &["changed_object"],
    change_logged: false,
    writes: Writes::None,
    extra_filters: &[
        ExtraFilter {
            param: "user",
            source: FilterSource::Column {
                column: "user_name",
                kind: Kind::Text {
                    max_len: None,
                    ci: false,
                    format: crate::spec::TextFormat::Plain,
                },
            },
        },
        ExtraFilter {
            param: "time_after",
            source: FilterSource::Since("time"),
        },
        ExtraFilter {
            param: "time_before",
            source: FilterSource::Until("time"),
        },
    ],
    has_timestamps: false,
    ..ResourceSpec::DEFAULTS
};

/// "{app} | {verbose name} {object} {created|updated|deleted} by {user}".
fn display(spec: &ResourceSpec, r: &Record, _: &dyn RelatedLookup) -> String {
    let content_type = r.text(spec, "changed_object_type");
    let (app, verbose) = match super::by_content_type(content_type) {
        Some(target) => (target.app, target.verbose_name),
        None => (content_type, ""),
    };
    let verb = match r.text(spec, "action") {
        "create" => "created",
        "update" => "updated",
        _ => "deleted",
    };
    format!(
        "{app} | {verbose} {} {verb} by {}",
        r.text(spec, "object_repr"),
        r.text(spec, "user_name")
    )
}
