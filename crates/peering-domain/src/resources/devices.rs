//! Platforms, configuration templates and routers (reference 3.5, 3.12, 3.13).

use super::autonomous_system::AUTONOMOUS_SYSTEM;
use super::common::{
    communities, display_name, org_name, org_slug, ASSIGNED_CONTEXTS, COMMENTS, CREATED,
    DESCRIPTION, LOCAL_CONTEXT_DATA, MERGED_CONTEXT, TAGS, UPDATED,
};
use super::data::{
    copy_data_file, AUTO_SYNCHRONISATION_ENABLED, DATA_SYNCHRONISED, SYNCED_DATA_FILE,
    SYNCED_DATA_PATH, SYNCED_DATA_READS, SYNCED_DATA_SOURCE,
};
use crate::choices::{DEVICE_STATUS, PASSWORD_ALGORITHM};
use crate::spec::{
    kinds, ChoiceRender, Default, ExtraFilter, Field, Kind, OnDelete, ResourceSpec, Search,
};

fn platform() -> &'static ResourceSpec {
    &PLATFORM
}

fn configuration() -> &'static ResourceSpec {
    &CONFIGURATION
}

fn autonomous_system() -> &'static ResourceSpec {
    &AUTONOMOUS_SYSTEM
}

const JINJA2_TRIM: Field = Field::new("jinja2_trim", "Trim", Kind::Bool)
    .default(Default::Bool(false))
    .filter();
const JINJA2_LSTRIP: Field = Field::new("jinja2_lstrip", "Lstrip", Kind::Bool)
    .default(Default::Bool(false))
    .filter();
/// A template body: required text, searched case-insensitively.
const TEMPLATE: Field = Field::new(
    "template",
    "Template",
    Kind::Text {
        max_len: None,
        ci: true,
        format: crate::spec::TextFormat::Plain,
    },
)
.required()
.template();

/// The members of both the brief and the nested form.
const PLATFORM_MEMBERS: &[&str] = &["id", "url", "display", "name", "slug"];

pub static PLATFORM: ResourceSpec = ResourceSpec {
    app: "devices",
    model: "platform",
    path: "platforms",
    name: "Platform",
    verbose_name: "platform",
    table: "platforms",
    fields: &[
        org_name(100),
        org_slug(100),
        Field::new("description", "Description", kinds::text(200))
            .default(Default::Text(""))
            .filter(),
        Field::new(
            "password_algorithm",
            "Password algorithm",
            Kind::Choice {
                set: &PASSWORD_ALGORITHM,
                render: ChoiceRender::Raw,
            },
        )
        .default(Default::Text(""))
        .filter(),
        Field::new("napalm_driver", "NAPALM driver", kinds::text(50))
            .default(Default::Text(""))
            .filter(),
        Field::new("napalm_args", "NAPALM arguments", kinds::JSON)
            .nullable()
            .default(Default::Null),
        TAGS,
        CREATED,
        UPDATED,
    ],
    ordering: &["name"],
    brief: PLATFORM_MEMBERS,
    nested: PLATFORM_MEMBERS,
    search: &[
        Search::Contains("name"),
        Search::Contains("slug"),
        Search::Contains("description"),
    ],
    display: display_name,
    ..ResourceSpec::DEFAULTS
};

/// The members of both the brief and the nested form.
const CONFIGURATION_MEMBERS: &[&str] = &["id", "url", "display", "name"];

pub static CONFIGURATION: ResourceSpec = ResourceSpec {
    app: "devices",
    model: "configuration",
    path: "configurations",
    name: "Configuration",
    verbose_name: "configuration",
    table: "configurations",
    fields: &[
        Field::new("name", "Name", kinds::text(100)).required(),
        DESCRIPTION,
        TEMPLATE,
        JINJA2_TRIM,
        JINJA2_LSTRIP,
        COMMENTS,
        TAGS,
        CREATED,
        UPDATED,
        SYNCED_DATA_SOURCE,
        SYNCED_DATA_FILE,
        SYNCED_DATA_PATH,
        AUTO_SYNCHRONISATION_ENABLED,
        DATA_SYNCHRONISED,
    ],
    ordering: &["name"],
    brief: CONFIGURATION_MEMBERS,
    nested: CONFIGURATION_MEMBERS,
    search: &[Search::Contains("name"), Search::Contains("template")],
    display: display_name,
    reads: SYNCED_DATA_READS,
    derive: Some(copy_data_file),
    ..ResourceSpec::DEFAULTS
};

/// The members of both the brief and the nested form.
const ROUTER_MEMBERS: &[&str] = &["id", "url", "display", "name", "hostname"];

pub static ROUTER: ResourceSpec = ResourceSpec {
    app: "peering",
    model: "router",
    path: "routers",
    name: "Router",
    verbose_name: "router",
    table: "routers",
    fields: &[
        Field::new("name", "Name", kinds::text(128))
            .required()
            .filter(),
        Field::new("hostname", "Hostname", kinds::text(256))
            .required()
            .filter(),
        Field::new(
            "platform",
            "Platform",
            kinds::fk(platform, OnDelete::Protect),
        )
        .required()
        .filter(),
        Field::new("status", "Status", kinds::status(&DEVICE_STATUS))
            .default(Default::Text("enabled"))
            .filter(),
        Field::new("encrypt_passwords", "Encrypt passwords", Kind::Bool)
            .default(Default::Bool(false))
            .filter(),
        Field::new(
            "poll_bgp_sessions_state",
            "Poll BGP sessions state",
            Kind::Bool,
        )
        .default(Default::Bool(false)),
        Field::new(
            "poll_bgp_sessions_last_updated",
            "Poll BGP sessions last updated",
            Kind::Time,
        )
        .nullable()
        .read_only()
        .default(Default::Null),
        Field::new(
            "configuration_template",
            "Configuration template",
            kinds::fk(configuration, OnDelete::SetNull),
        )
        .nullable()
        .default(Default::Null)
        .filter(),
        // 1.10's: communities of the router, for its templates.
        communities("router_communities", "router_id"),
        Field::new(
            "local_autonomous_system",
            "Local autonomous system",
            kinds::fk(autonomous_system, OnDelete::Cascade),
        )
        .required()
        .filter(),
        Field::new(
            "netbox_device_id",
            "NetBox device",
            kinds::int(0, 4_294_967_295),
        )
        .default(Default::Int(0)),
        Field::new("use_netbox", "Use NetBox", Kind::Bool).default(Default::Bool(false)),
        Field::new("napalm_username", "NAPALM username", kinds::plain_text(256))
            .nullable()
            .default(Default::Null),
        Field::new("napalm_password", "NAPALM password", kinds::plain_text(256))
            .nullable()
            .secret()
            .default(Default::Null),
        Field::new(
            "napalm_timeout",
            "NAPALM timeout",
            kinds::int(0, 4_294_967_295),
        )
        .default(Default::Int(0)),
        Field::new("napalm_args", "NAPALM arguments", kinds::JSON)
            .nullable()
            .default(Default::Null),
        LOCAL_CONTEXT_DATA,
        ASSIGNED_CONTEXTS,
        MERGED_CONTEXT,
        COMMENTS,
        TAGS,
        CREATED,
        UPDATED,
        Field::new("description", "Description", kinds::text(200))
            .default(Default::Text(""))
            .hidden(),
    ],
    // The local autonomous system by its own ordering (number, affiliation), as Django does.
    ordering: &[
        "local_autonomous_system.asn",
        "local_autonomous_system.affiliated",
        "name",
    ],
    brief: ROUTER_MEMBERS,
    nested: ROUTER_MEMBERS,
    search: &[
        Search::Contains("name"),
        Search::Contains("hostname"),
        Search::Contains("platform.name"),
    ],
    display: display_name,
    reads: &["platform"],
    extra_filters: &[
        ExtraFilter::related("local_autonomous_system_asn", "local_autonomous_system.asn"),
        ExtraFilter::related("local_autonomous_system", "local_autonomous_system.name"),
        ExtraFilter::related("platform", "platform.name"),
        ExtraFilter::related("configuration_template", "configuration_template.name"),
    ],
    ..ResourceSpec::DEFAULTS
};
