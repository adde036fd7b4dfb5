//! Data sources and the files they hold (reference 1.10, `core`): a directory or a Git
//! repository whose files are copied into the database by a synchronisation, and the
//! fields by which a template (configuration, e-mail, export template) takes its text
//! from one of those files.

use super::common::{display_name, org_name, COMMENTS, CREATED, DESCRIPTION, UPDATED};
use crate::choices::{DATA_SOURCE_STATUS, DATA_SOURCE_TYPE};
use crate::errors::FieldErrors;
use crate::record::Record;
use crate::spec::{
    kinds, Default, ExtraFilter, Field, Kind, OnDelete, RelatedLookup, ResourceSpec, Search, Writes,
};
use crate::value::{now, Value};

fn data_source() -> &'static ResourceSpec {
    &DATA_SOURCE
}

fn data_file() -> &'static ResourceSpec {
    &DATA_FILE
}

/// The members of both the brief and the nested form.
const DATA_SOURCE_MEMBERS: &[&str] = &["id", "url", "display", "name"];

pub static DATA_SOURCE: ResourceSpec = ResourceSpec {
    app: "core",
    model: "datasource",
    path: "data-sources",
    name: "Data Source",
    verbose_name: "data source",
    table: "data_sources",
    fields: &[
        org_name(100),
        Field::new("type", "Type", kinds::status(&DATA_SOURCE_TYPE))
            .required()
            .filter(),
        Field::new("source_url", "URL", kinds::plain_text(200)).required(),
        Field::new("enabled", "Enabled", Kind::Bool)
            .default(Default::Bool(true))
            .filter(),
        Field::new("status", "Status", kinds::status(&DATA_SOURCE_STATUS))
            .read_only()
            .default(Default::Text("new"))
            .filter(),
        DESCRIPTION.filter(),
        COMMENTS,
        // Credentials (a Git password) may be among them: shown only to those who may
        // change the source, and never written into change records.
        Field::new("parameters", "Parameters", kinds::JSON_OBJECT)
            .nullable()
            .default(Default::Null)
            .secret(),
        Field::new("ignore_rules", "Ignore rules", kinds::LONG_TEXT)
            .default(Default::Text(""))
            .help("Patterns (one per line) matching files to ignore when synchronising"),
        Field::new("last_synchronised", "Last synchronised", Kind::Time)
            .nullable()
            .read_only()
            .default(Default::Null),
        CREATED,
        UPDATED,
        Field::new(
            "file_count",
            "File count",
            Kind::ReverseCount {
                table: "data_files",
                column: "source_id",
            },
        )
        .read_only(),
    ],
    ordering: &["name"],
    brief: DATA_SOURCE_MEMBERS,
    nested: DATA_SOURCE_MEMBERS,
    search: &[
        Search::Contains("name"),
        Search::Contains("description"),
        Search::Contains("comments"),
    ],
    display: display_name,
    validate: Some(local_sources_take_paths),
    ..ResourceSpec::DEFAULTS
};

/// A local source names a directory: `file://…` or a plain path, no other scheme.
fn local_sources_take_paths(spec: &ResourceSpec, r: &Record, _: &dyn RelatedLookup) -> FieldErrors {
    let mut errors = FieldErrors::new();
    let url = r.text(spec, "source_url");
    let scheme = url.split_once("://").map(|(scheme, _)| scheme);
    if r.text(spec, "type") == "local" && scheme.is_some_and(|s| !s.eq_ignore_ascii_case("file")) {
        errors.add(
            "source_url",
            "URLs for local sources must start with file:// (or should not have one)",
        );
    }
    errors
}

/// The members of both the brief and the nested form.
const DATA_FILE_MEMBERS: &[&str] = &["id", "url", "display", "path"];

/// A file as the last synchronisation of its source found it: written by synchronisations
/// only, read through the API.
pub static DATA_FILE: ResourceSpec = ResourceSpec {
    app: "core",
    model: "datafile",
    path: "data-files",
    name: "Data File",
    verbose_name: "data file",
    table: "data_files",
    fields: &[
        Field::new(
            "source",
            "Source",
            kinds::fk(data_source, OnDelete::Cascade),
        )
        .read_only()
        .filter(),
        Field::new("path", "Path", kinds::text(1000))
            .read_only()
            .filter()
            .help("File path relative to the data source's root"),
        CREATED.hidden(),
        UPDATED,
        Field::new("size", "Size", kinds::int(0, i64::MAX))
            .read_only()
            .filter(),
        Field::new("hash", "Hash", kinds::plain_text(64))
            .read_only()
            .filter()
            .help("SHA256 hash of the file data"),
        // The content as text (null when it is not UTF-8): what templates take.
        Field::new("data", "Data", kinds::LONG_TEXT)
            .nullable()
            .read_only()
            .hidden()
            .default(Default::Null),
    ],
    ordering: &["source.name", "path"],
    brief: DATA_FILE_MEMBERS,
    nested: DATA_FILE_MEMBERS,
    search: &[Search::Contains("path")],
    display: |spec, r, _| r.text(spec, "path").to_string(),
    unique_together: &[(
        &["source", "path"],
        "Data file with this Source and Path already exists.",
    )],
    change_logged: false,
    writes: Writes::None,
    extra_filters: &[ExtraFilter::related("source", "source.name")],
    ..ResourceSpec::DEFAULTS
};

/// The source of the file a template takes its text from (set from the file).
pub const SYNCED_DATA_SOURCE: Field = Field::new(
    "data_source",
    "Data source",
    kinds::fk(data_source, OnDelete::Protect),
)
.nullable()
.read_only()
.default(Default::Null)
.filter();
/// The file a template takes its text from: the text is copied on every write of the
/// template and, with `auto_synchronisation_enabled`, on every synchronisation.
pub const SYNCED_DATA_FILE: Field = Field::new(
    "data_file",
    "Data file",
    kinds::fk(data_file, OnDelete::SetNull),
)
.nullable()
.default(Default::Null)
.filter();
pub const SYNCED_DATA_PATH: Field = Field::new("data_path", "Data path", kinds::plain_text(1000))
    .read_only()
    .default(Default::Text(""))
    .help("Path to the remote file, relative to its data source root");
pub const AUTO_SYNCHRONISATION_ENABLED: Field = Field::new(
    "auto_synchronisation_enabled",
    "Auto synchronisation enabled",
    Kind::Bool,
)
.default(Default::Bool(false))
.filter()
.help("Enable automatic synchronisation of data when the data file is updated");
pub const DATA_SYNCHRONISED: Field =
    Field::new("data_synchronised", "Data synchronised", Kind::Time)
        .nullable()
        .read_only()
        .default(Default::Null);

/// The foreign key a template's data file is read through, for `reads`.
pub const SYNCED_DATA_READS: &[&str] = &["data_file"];

/// Before a template is written: with a data file, its text, source and path are the
/// file's (as the reference's `clean()` synchronises); without, none of them is set.
pub fn copy_data_file(spec: &ResourceSpec, r: &mut Record, related: &dyn RelatedLookup) {
    let file = r.follow(spec, "data_file", related).cloned();
    let mut set = |name: &str, value: Value| {
        if let Some(i) = spec.index_of(name) {
            r.values[i] = value;
        }
    };
    match file {
        Some(file) => {
            if let Value::Text(text) = file.get(&DATA_FILE, "data") {
                set("template", Value::Text(text.clone()));
            }
            set("data_source", file.get(&DATA_FILE, "source").clone());
            set(
                "data_path",
                Value::Text(file.text(&DATA_FILE, "path").into()),
            );
            set("data_synchronised", Value::Time(now()));
        }
        None => {
            set("data_source", Value::Null);
            set("data_path", Value::Text(String::new()));
            set("auto_synchronisation_enabled", Value::Bool(false));
            set("data_synchronised", Value::Null);
        }
    }
}
