//! Jobs (reference 3.22): work run in the background (rendering a configuration, talking
//! to a router), read through the API and deleted, never written by it.

use super::user::USER;
use crate::choices::JOB_STATUS;
use crate::record::Record;
use crate::spec::{
    kinds, ChoiceRender, ExtraFilter, Field, FilterSource, Kind, OnDelete, RelatedLookup,
    ResourceSpec, Search, TextFormat, Writes,
};

fn user() -> &'static ResourceSpec {
    &USER
}

const OBJECT_TYPE: Kind = Kind::Text {
    max_len: Some(100),
    ci: false,
    format: TextFormat::Plain,
};

pub static JOB: ResourceSpec = ResourceSpec {
    app: "core",
    model: "job",
    path: "jobs",
    name: "Job",
    verbose_name: "job",
    table: "jobs",
    fields: &[
        Field::new("object_type", "Object type", OBJECT_TYPE)
            .nullable()
            .read_only()
            .filter(),
        Field::new("object_id", "Object ID", kinds::int(0, i64::MAX))
            .nullable()
            .read_only()
            .filter(),
        Field::new("name", "Name", kinds::text(200))
            .read_only()
            .filter(),
        Field::new(
            "status",
            "Status",
            Kind::Choice {
                set: &JOB_STATUS,
                render: ChoiceRender::Object,
            },
        )
        .read_only()
        .filter(),
        Field::new("created", "Created", Kind::Time)
            .read_only()
            .filter(),
        Field::new("started", "Started", Kind::Time)
            .nullable()
            .read_only()
            .filter(),
        Field::new("completed", "Completed", Kind::Time)
            .nullable()
            .read_only()
            .filter(),
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
        Field::new("data", "Data", Kind::Json { object_only: false })
            .nullable()
            .read_only()
            .secret(),
        Field::new("job_id", "Job ID", Kind::Uuid).read_only(),
        Field::new("output", "Output", kinds::LONG_TEXT)
            .nullable()
            .read_only()
            .secret(),
    ],
    ordering: &["-created"],
    // No brief form: `brief` is ignored, as by the reference's plain viewset.
    brief: &[],
    nested: &["url", "created", "completed", "user", "status"],
    search: &[Search::Contains("name"), Search::Contains("user.username")],
    display,
    change_logged: false,
    writes: Writes::DeleteOnly,
    owner: Some("user"),
    extra_filters: &[
        // The reference's filter on the field itself (its id), beside `user_id`.
        ExtraFilter::related("user", "user.id"),
        ExtraFilter {
            param: "created__before",
            source: FilterSource::Until("created"),
        },
        ExtraFilter {
            param: "created__after",
            source: FilterSource::Since("created"),
        },
        ExtraFilter {
            param: "started__before",
            source: FilterSource::Until("started"),
        },
        ExtraFilter {
            param: "started__after",
            source: FilterSource::Since("started"),
        },
        ExtraFilter {
            param: "completed__before",
            source: FilterSource::Until("completed"),
        },
        ExtraFilter {
            param: "completed__after",
            source: FilterSource::Since("completed"),
        },
    ],
    has_timestamps: false,
    ..ResourceSpec::DEFAULTS
};

/// A job is named by its UUID.
fn display(spec: &ResourceSpec, r: &Record, _: &dyn RelatedLookup) -> String {
    r.text(spec, "job_id").to_string()
}
