//! Contact roles, contacts and e-mail templates (reference 3.14–3.16).

use super::common::{
    display_name, org_name, org_slug, COMMENTS, CREATED, DESCRIPTION, TAGS, UPDATED,
};
use super::data::{
    copy_data_file, AUTO_SYNCHRONISATION_ENABLED, DATA_SYNCHRONISED, SYNCED_DATA_FILE,
    SYNCED_DATA_PATH, SYNCED_DATA_READS, SYNCED_DATA_SOURCE,
};
use crate::spec::{kinds, Default, Field, Kind, ResourceSpec, Search, TextFormat};

/// The members of both the brief and the nested form.
const CONTACT_ROLE_MEMBERS: &[&str] = &["id", "url", "display", "name", "slug"];

pub static CONTACT_ROLE: ResourceSpec = ResourceSpec {
    app: "messaging",
    model: "contactrole",
    path: "contact-roles",
    name: "Contact Role",
    verbose_name: "contact role",
    table: "contact_roles",
    fields: &[
        org_name(100),
        org_slug(100),
        DESCRIPTION,
        TAGS,
        CREATED,
        UPDATED,
    ],
    ordering: &["name"],
    brief: CONTACT_ROLE_MEMBERS,
    nested: CONTACT_ROLE_MEMBERS,
    search: &[
        Search::Contains("name"),
        Search::Contains("slug"),
        Search::Contains("description"),
    ],
    display: display_name,
    ..ResourceSpec::DEFAULTS
};

const fn optional_text(name: &'static str, label: &'static str, max_len: usize) -> Field {
    Field::new(name, label, kinds::text(max_len))
        .default(Default::Text(""))
        .filter()
}

/// The members of both the brief and the nested form.
const CONTACT_MEMBERS: &[&str] = &["id", "url", "display", "name"];

pub static CONTACT: ResourceSpec = ResourceSpec {
    app: "messaging",
    model: "contact",
    path: "contacts",
    name: "Contact",
    verbose_name: "contact",
    table: "contacts",
    fields: &[
        Field::new("name", "Name", kinds::text(100))
            .required()
            .filter(),
        optional_text("title", "Title", 100),
        optional_text("phone", "Phone", 50),
        Field::new("email", "Email", kinds::email(254))
            .default(Default::Text(""))
            .filter(),
        optional_text("address", "Address", 200),
        DESCRIPTION,
        Field::new(
            "comments",
            "Comments",
            Kind::Text {
                max_len: None,
                ci: true,
                format: TextFormat::Plain,
            },
        )
        .default(Default::Text("")),
        TAGS,
        CREATED,
        UPDATED,
    ],
    ordering: &["name"],
    brief: CONTACT_MEMBERS,
    nested: CONTACT_MEMBERS,
    search: &[
        Search::Contains("name"),
        Search::Contains("title"),
        Search::Contains("phone"),
        Search::Contains("email"),
        Search::Contains("address"),
        Search::Contains("comments"),
    ],
    display: display_name,
    ..ResourceSpec::DEFAULTS
};

/// The members of both the brief and the nested form.
const EMAIL_MEMBERS: &[&str] = &["id", "url", "display", "name"];

pub static EMAIL: ResourceSpec = ResourceSpec {
    app: "messaging",
    model: "email",
    path: "emails",
    name: "Email",
    verbose_name: "e-mail",
    table: "emails",
    fields: &[
        Field::new("name", "Name", kinds::text(100)).required(),
        Field::new("subject", "Subject", kinds::text(512))
            .required()
            .template(),
        Field::new(
            "template",
            "Template",
            Kind::Text {
                max_len: None,
                ci: true,
                format: TextFormat::Plain,
            },
        )
        .required()
        .template(),
        Field::new("jinja2_trim", "Trim", Kind::Bool)
            .default(Default::Bool(false))
            .filter(),
        Field::new("jinja2_lstrip", "Lstrip", Kind::Bool)
            .default(Default::Bool(false))
            .filter(),
        COMMENTS,
        TAGS,
        CREATED,
        UPDATED,
        Field::new("description", "Description", kinds::text(200))
            .default(Default::Text(""))
            .hidden(),
        SYNCED_DATA_SOURCE,
        SYNCED_DATA_FILE,
        SYNCED_DATA_PATH,
        AUTO_SYNCHRONISATION_ENABLED,
        DATA_SYNCHRONISED,
    ],
    ordering: &["name"],
    brief: EMAIL_MEMBERS,
    nested: EMAIL_MEMBERS,
    search: &[
        Search::Contains("name"),
        Search::Contains("subject"),
        Search::Contains("template"),
    ],
    display: display_name,
    reads: SYNCED_DATA_READS,
    derive: Some(copy_data_file),
    ..ResourceSpec::DEFAULTS
};
