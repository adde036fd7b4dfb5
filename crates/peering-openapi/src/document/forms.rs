//! Which members each component schema of a resource has, and the names of those components.

use peering_domain::spec::Field;
use peering_domain::ResourceSpec;

pub(super) fn collection_path(spec: &ResourceSpec) -> String {
    format!("/api/{}/{}/", spec.app, spec.path)
}

pub(super) fn detail_path(spec: &ResourceSpec) -> String {
    format!("/api/{}/{}/{{id}}/", spec.app, spec.path)
}

/// `Autonomous System` → `AutonomousSystem`: a valid OpenAPI 3 component name.
pub(super) fn type_name(spec: &ResourceSpec) -> String {
    spec.name.split_whitespace().collect()
}

pub(super) fn paginated_name(spec: &ResourceSpec) -> String {
    format!("Paginated{}List", type_name(spec))
}

/// The component of the API root's body.
pub(super) const API_ROOT: &str = "ApiRoot";

/// `peering` → `PeeringRoot`: the component of an application root's body.
pub(super) fn app_root_name(app: &str) -> String {
    let mut chars = app.chars();
    let first: String = chars
        .next()
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default();
    format!("{first}{}Root", chars.as_str())
}

/// One property of a representation.
#[derive(Clone, Copy)]
pub(super) enum Member {
    Id,
    Url,
    /// The object's page for people (1.10's `display_url`).
    DisplayUrl,
    Display,
    Field(&'static Field),
    /// A choice field shown as its plain value (`field=value` in a brief or nested form).
    PlainChoice(&'static Field),
}

impl Member {
    fn by_name(spec: &'static ResourceSpec, name: &str) -> Option<Member> {
        match name {
            "id" => Some(Member::Id),
            "url" if spec.field("url").is_none() => Some(Member::Url),
            "display_url" => Some(Member::DisplayUrl),
            "display" => Some(Member::Display),
            other => match peering_domain::spec::member(other) {
                (field, true) => spec.field(field).map(Member::PlainChoice),
                (field, false) => spec.field(field).map(Member::Field),
            },
        }
    }

    pub(super) fn name(&self) -> &'static str {
        match self {
            Member::Id => "id",
            Member::Url => "url",
            Member::DisplayUrl => "display_url",
            Member::Display => "display",
            Member::Field(f) | Member::PlainChoice(f) => f.name,
        }
    }
}

/// A representation (read) or an input shape (write) of a resource; one component each.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Form {
    Full,
    Brief,
    Nested,
    /// POST and PUT bodies: required fields required.
    Writable,
    /// PATCH bodies: nothing required.
    PatchedWritable,
    /// Items of a bulk PUT: `id` plus the required fields.
    BulkWritable,
    /// Items of a bulk PATCH: `id` only.
    PatchedBulkWritable,
}

impl Form {
    /// Every form but `Nested`, which every resource has, routed or not.
    pub(super) const ALL: [Form; 6] = [
        Form::Full,
        Form::Brief,
        Form::Writable,
        Form::PatchedWritable,
        Form::BulkWritable,
        Form::PatchedBulkWritable,
    ];

    pub(super) fn is_write(self) -> bool {
        !matches!(self, Form::Full | Form::Brief | Form::Nested)
    }

    pub(super) fn applies_to(self, spec: &ResourceSpec) -> bool {
        spec.writes.edits() || !self.is_write()
    }

    pub(super) fn name(self, spec: &ResourceSpec) -> String {
        let prefix = match self {
            Form::Full => "",
            Form::Brief => "Brief",
            Form::Nested => "Nested",
            Form::Writable => "Writable",
            Form::PatchedWritable => "PatchedWritable",
            Form::BulkWritable => "BulkWritable",
            Form::PatchedBulkWritable => "PatchedBulkWritable",
        };
        format!("{prefix}{}", type_name(spec))
    }

    /// The members, in the order the API writes them.
    pub(super) fn members(self, spec: &'static ResourceSpec) -> Vec<Member> {
        let named = |names: &[&str]| {
            names
                .iter()
                .filter_map(|n| Member::by_name(spec, n))
                .collect()
        };
        let fields = |keep: fn(&Field) -> bool| spec.fields.iter().filter(move |f| keep(f));
        match self {
            // A resource without a brief form (jobs) answers `brief` with the full one.
            Form::Brief if spec.brief.is_empty() => Form::Full.members(spec),
            Form::Full => [Member::Id, Member::Url, Member::DisplayUrl, Member::Display]
                .into_iter()
                .filter(|m| !matches!(m, Member::Url) || spec.field("url").is_none())
                .chain(fields(Field::shown).map(Member::Field))
                .collect(),
            Form::Brief => named(spec.brief),
            Form::Nested => named(spec.nested),
            Form::Writable | Form::PatchedWritable => {
                fields(Field::writable).map(Member::Field).collect()
            }
            Form::BulkWritable | Form::PatchedBulkWritable => std::iter::once(Member::Id)
                .chain(fields(Field::writable).map(Member::Field))
                .collect(),
        }
    }

    pub(super) fn requires(self, member: Member) -> bool {
        match (self, member) {
            // Representations always carry every member (null when empty).
            (Form::Full | Form::Brief | Form::Nested, _) => true,
            (_, Member::Id) => true,
            (Form::Writable | Form::BulkWritable, Member::Field(f)) => f.required,
            _ => false,
        }
    }
}
