//! Users, as far as other objects refer to them (reference 3.21).

use super::common::display_name;
use crate::errors::FieldErrors;
use crate::record::Record;
use crate::spec::{
    kinds, Default, ExtraFilter, Field, Kind, RelatedLookup, ResourceSpec, Search, TextFormat,
};
use crate::value::Value;

/// The members of both the brief and the nested form.
const USER_MEMBERS: &[&str] = &["id", "url", "display", "username"];

pub static USER: ResourceSpec = ResourceSpec {
    app: "users",
    model: "user",
    path: "users",
    name: "User",
    verbose_name: "user",
    table: "users",
    fields: &[
        Field::new("username", "Username", kinds::text(150))
            .required()
            .unique()
            .filter(),
        Field::new(
            "password",
            "Password",
            Kind::Text {
                max_len: Some(128),
                ci: false,
                format: TextFormat::Password,
            },
        )
        .required()
        .write_only(),
        Field::new("first_name", "First name", kinds::text(150))
            .default(Default::Text(""))
            .filter(),
        Field::new("last_name", "Last name", kinds::text(150))
            .default(Default::Text(""))
            .filter(),
        Field::new("email", "Email address", kinds::email(254))
            .default(Default::Text(""))
            .filter(),
        Field::new("is_staff", "Staff status", Kind::Bool)
            .default(Default::Bool(false))
            .filter(),
        Field::new("is_active", "Active", Kind::Bool)
            .default(Default::Bool(true))
            .filter(),
        Field::new("is_superuser", "Superuser status", Kind::Bool)
            .default(Default::Bool(false))
            .hidden(),
        Field::new("date_joined", "Date joined", Kind::Time)
            .default(Default::Now)
            .read_only(),
        Field::new(
            "groups",
            "Groups",
            Kind::ManyToMany {
                target: group,
                table: "user_groups",
                source: "user_id",
                target_column: "group_id",
            },
        )
        .default(Default::EmptyList),
        PERMISSIONS,
    ],
    ordering: &["username"],
    brief: USER_MEMBERS,
    nested: USER_MEMBERS,
    search: &[
        Search::Contains("username"),
        Search::Contains("first_name"),
        Search::Contains("last_name"),
        Search::Contains("email"),
    ],
    display,
    validate: Some(valid_permissions),
    change_logged: false,
    extra_filters: &[
        ExtraFilter::related("group_id", "groups.id"),
        ExtraFilter::related("group", "groups.name"),
    ],
    has_timestamps: false,
    ..ResourceSpec::DEFAULTS
};

fn group() -> &'static ResourceSpec {
    &GROUP
}

/// Permissions granted directly, as `<app>.<action>_<model>` names.
const PERMISSIONS: Field = Field::new(
    "permissions",
    "Permissions",
    Kind::Json { object_only: false },
)
.default(Default::EmptyArray)
.help("Permission names such as peering.add_autonomoussystem (view, add, change, delete).");

/// The members of both the brief and the nested form.
const GROUP_MEMBERS: &[&str] = &["id", "url", "name"];

pub static GROUP: ResourceSpec = ResourceSpec {
    app: "users",
    model: "group",
    path: "groups",
    name: "Group",
    verbose_name: "group",
    table: "groups",
    fields: &[
        Field::new("name", "Name", kinds::text(150))
            .required()
            .unique()
            .filter(),
        Field::new(
            "user_count",
            "User count",
            Kind::ReverseCount {
                table: "user_groups",
                column: "group_id",
            },
        )
        .read_only(),
        PERMISSIONS,
    ],
    ordering: &["name"],
    brief: GROUP_MEMBERS,
    nested: GROUP_MEMBERS,
    search: &[Search::Contains("name")],
    display: display_name,
    validate: Some(valid_permissions),
    change_logged: false,
    has_timestamps: false,
    ..ResourceSpec::DEFAULTS
};

fn valid_permissions(spec: &ResourceSpec, r: &Record, _: &dyn RelatedLookup) -> FieldErrors {
    match r.get(spec, "permissions") {
        Value::Json(list) => crate::permission::validate_list(list),
        _ => FieldErrors::new(),
    }
}

/// "username (First Last)" when a full name is set, else the username.
fn display(spec: &ResourceSpec, r: &Record, _: &dyn RelatedLookup) -> String {
    let full = format!(
        "{} {}",
        r.text(spec, "first_name"),
        r.text(spec, "last_name")
    );
    let full = full.trim();
    if full.is_empty() {
        r.text(spec, "username").to_string()
    } else {
        format!("{} ({full})", r.text(spec, "username"))
    }
}
