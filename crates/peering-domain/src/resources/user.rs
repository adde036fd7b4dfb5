//! Users, as far as other objects refer to them (reference 3.21).

use crate::record::Record;
use crate::spec::{kinds, Default, Field, Kind, RelatedLookup, ResourceSpec, Search};

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
        Field::new("first_name", "First name", kinds::text(150))
            .default(Default::Text(""))
            .filter(),
        Field::new("last_name", "Last name", kinds::text(150))
            .default(Default::Text(""))
            .filter(),
        Field::new("email", "Email address", kinds::text(254))
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
        Field::new("date_joined", "Date joined", Kind::Time).read_only(),
    ],
    ordering: &["username"],
    brief: &["id", "url", "display", "username"],
    nested: &["id", "url", "display", "username"],
    search: &[
        Search::Contains("username"),
        Search::Contains("first_name"),
        Search::Contains("last_name"),
        Search::Contains("email"),
    ],
    display,
    reads: &[],
    unique_together: &[],
    validate: None,
    derive: None,
    change_logged: false,
    writable: false,
    extra_filters: &[],
    has_timestamps: false,
};

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
