//! How a resource is declared: its fields, kinds, defaults, limits and presentation rules.

use crate::choices::ChoiceSet;
use crate::record::Record;

/// What a resource's related objects do when it is deleted (the reference's on-delete rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnDelete {
    Cascade,
    Protect,
    SetNull,
}

/// Extra syntax a text field must follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextFormat {
    Plain,
    /// Letters, numbers, underscores or hyphens.
    Slug,
    /// Six hexadecimal digits.
    Color,
    /// An e-mail address.
    Email,
    /// A password: hashed before it is stored, never shown.
    Password,
}

/// How a choice field is rendered on read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChoiceRender {
    /// `{"value": …, "label": …}` (the reference's custom choice fields, e.g. `status`).
    Object,
    /// The raw string value (plain model choice fields, e.g. a community's `type`).
    Raw,
    /// The raw value as an integer (e.g. a routing policy's `address_family`).
    RawInt,
}

/// The storage and wire kind of a field.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    Int {
        min: i64,
        max: i64,
    },
    /// Text; `ci` keeps a lower-cased copy so case-insensitive lookups mean the same on
    /// both databases.
    Text {
        max_len: Option<usize>,
        ci: bool,
        format: TextFormat,
    },
    /// A UUID kept as its canonical text.
    Uuid,
    /// Read-only count of rows in `table` whose `column` points at this object.
    ReverseCount {
        table: &'static str,
        column: &'static str,
    },
    Bool,
    Choice {
        set: &'static ChoiceSet,
        render: ChoiceRender,
    },
    /// A JSON document; `object_only` rejects anything but an object (or null).
    Json {
        object_only: bool,
    },
    Time,
    /// A foreign key, stored in column `<name>_id`.
    ForeignKey {
        target: fn() -> &'static ResourceSpec,
        on_delete: OnDelete,
    },
    /// A many-to-many relation through `table (source, target)`.
    ManyToMany {
        target: fn() -> &'static ResourceSpec,
        table: &'static str,
        source: &'static str,
        target_column: &'static str,
    },
    /// The generic tag relation (`tagged_items`).
    Tags,
    /// An IP address as canonical text, with a sortable twin column `<name>_key`:
    /// an interface address (`192.0.2.1/24`) or, with `host_only`, a bare host address.
    Ip {
        family: Option<crate::net::Family>,
        host_only: bool,
    },
    /// A MAC address, in lower-case colon form.
    Mac,
    /// The object's display label under another name (read-only, not stored).
    DisplayCopy,
    /// A resource named by its content type, `app.model` (stored as text).
    ContentType,
    /// A list of content types (stored as a JSON array).
    ContentTypes,
    /// The object named by this record's `type_field` (a content type) and `id_field`
    /// fields, shown in its nested form (read-only, not stored). With `cascade`, records
    /// go with the object they name (assignments); without, they outlive it (change
    /// records, which then show null).
    GenericObject {
        type_field: &'static str,
        id_field: &'static str,
        cascade: bool,
    },
}

/// A default applied on create when the field is absent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Default {
    /// No default: the field is required, or stays null.
    None,
    Null,
    Bool(bool),
    Int(i64),
    Text(&'static str),
    EmptyList,
    /// An empty JSON object.
    EmptyObject,
    /// An empty JSON array.
    EmptyArray,
    /// The time of the write.
    Now,
    /// The user making the write, filled in by the layer that knows them (the API); none
    /// otherwise.
    CurrentUser,
}

/// One field of a resource.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub name: &'static str,
    pub label: &'static str,
    pub kind: Kind,
    pub required: bool,
    pub read_only: bool,
    pub nullable: bool,
    /// Whether an empty string is accepted.
    pub blank: bool,
    pub unique: bool,
    pub default: Default,
    /// Exposed as a list filter (with the lookups of its kind).
    pub filter: bool,
    /// Stored and filterable, but not part of the representation.
    pub hidden: bool,
    /// Accepted on write, never shown (a password).
    pub write_only: bool,
    /// Shown only to callers who may change the object (null to others), and kept out of
    /// change records (a session's BGP password, an API secret).
    pub secret: bool,
    /// A Jinja2 template: refused on write when it does not parse.
    pub template: bool,
    /// Computed whenever the object is read, never stored (read-only).
    pub computed: Option<Computed>,
    pub help: &'static str,
}

/// A value computed whenever an object is read, from other tables (the local PeeringDB copy
/// above all), as the reference computes its model properties: never stale, never stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Computed {
    /// An exchange session whose address PeeringDB lists for its autonomous system (on any
    /// exchange, as the reference matches).
    SessionInPeeringDb,
    /// An exchange session PeeringDB no longer lists although it could: its connection is
    /// linked to PeeringDB, its router (if any) polls session states, its autonomous system
    /// has a PeeringDB network, PeeringDB does not list the session, and it is idle or
    /// active.
    SessionAbandoned,
}

impl Field {
    pub const fn new(name: &'static str, label: &'static str, kind: Kind) -> Field {
        Field {
            name,
            label,
            kind,
            required: false,
            read_only: false,
            nullable: false,
            blank: true,
            unique: false,
            default: Default::None,
            filter: false,
            hidden: false,
            write_only: false,
            secret: false,
            template: false,
            computed: None,
            help: "",
        }
    }

    /// A value computed when read (read-only, not stored).
    pub const fn computed(mut self, what: Computed) -> Self {
        self.computed = Some(what);
        self.read_only = true;
        self
    }

    pub const fn required(mut self) -> Self {
        self.required = true;
        self.blank = false;
        self
    }

    pub const fn read_only(mut self) -> Self {
        self.read_only = true;
        self
    }

    pub const fn nullable(mut self) -> Self {
        self.nullable = true;
        self
    }

    pub const fn unique(mut self) -> Self {
        self.unique = true;
        self
    }

    pub const fn default(mut self, d: Default) -> Self {
        self.default = d;
        self
    }

    pub const fn filter(mut self) -> Self {
        self.filter = true;
        self
    }

    pub const fn hidden(mut self) -> Self {
        self.hidden = true;
        self
    }

    pub const fn secret(mut self) -> Self {
        self.secret = true;
        self
    }

    pub const fn template(mut self) -> Self {
        self.template = true;
        self
    }

    pub const fn write_only(mut self) -> Self {
        self.write_only = true;
        self
    }

    pub const fn help(mut self, help: &'static str) -> Self {
        self.help = help;
        self
    }

    /// The column holding this field in the resource's own table, if any.
    pub fn is_column(&self) -> bool {
        self.computed.is_none()
            && !matches!(
                self.kind,
                Kind::ManyToMany { .. }
                    | Kind::Tags
                    | Kind::ReverseCount { .. }
                    | Kind::DisplayCopy
                    | Kind::GenericObject { .. }
            )
    }

    pub fn is_relation_list(&self) -> bool {
        matches!(self.kind, Kind::ManyToMany { .. } | Kind::Tags)
    }

    pub fn writable(&self) -> bool {
        !self.read_only && !self.hidden
    }

    /// Whether the field is part of the representation.
    pub fn shown(&self) -> bool {
        !self.hidden && !self.write_only
    }
}

/// One term of the free-text search `q`. A name is a field of the resource, or a dotted
/// path through foreign keys to a field of a related object (`router.hostname`).
#[derive(Debug, Clone, Copy)]
pub enum Search {
    /// Case-insensitive substring of a text field.
    Contains(&'static str),
    /// Equality with an integer field when `q` is an integer.
    IntEquals(&'static str),
    /// When `q` is an IP address: an address field holding that host (with any prefix
    /// length).
    IpHost(&'static str),
}

/// Access to the objects a record's relations point at.
pub trait RelatedLookup {
    fn related(&self, spec: &ResourceSpec, id: i64) -> Option<&Record>;
}

/// No related objects at hand.
pub struct NoRelated;

impl RelatedLookup for NoRelated {
    fn related(&self, _spec: &ResourceSpec, _id: i64) -> Option<&Record> {
        None
    }
}

/// A resource's rules across fields and related objects.
pub type ValidateFn = fn(&ResourceSpec, &Record, &dyn RelatedLookup) -> crate::FieldErrors;

/// A resource's computation of derived values before a write.
pub type DeriveFn = fn(&ResourceSpec, &mut Record, &dyn RelatedLookup);

/// A filter that is not simply a field of the representation. One named like a field's
/// filter takes its place.
#[derive(Debug, Clone, Copy)]
pub struct ExtraFilter {
    pub param: &'static str,
    pub source: FilterSource,
}

/// What an extra filter compares.
#[derive(Debug, Clone, Copy)]
pub enum FilterSource {
    /// A column of the resource's own table holding values of `kind`.
    Column { column: &'static str, kind: Kind },
    /// The object a dotted path of relations (foreign keys or many-to-many) leads to, named by
    /// an attribute of it (`autonomous_system.asn`, `ixp_connection.internet_exchange_point.id`,
    /// `groups.name`). Matches exactly (or `n`), and a value no such object has is refused,
    /// as for a foreign key.
    Related(&'static str),
    /// The family (4 or 6) of an IP address field; any other number filters nothing.
    AddressFamily(&'static str),
    /// A timestamp field at or after the value.
    Since(&'static str),
    /// A timestamp field at or before the value.
    Until(&'static str),
    /// Objects referred to by rows of `table` (through `column`) whose `match_column` holds
    /// one of the values, e.g. the tags used by a content type.
    ReferredBy {
        table: &'static str,
        column: &'static str,
        match_column: &'static str,
    },
    /// A choice field whose exact match also always takes `also` (a routing policy of type
    /// `import-export-policy` is both an import and an export policy).
    ChoiceOrAlso {
        field: &'static str,
        also: &'static str,
    },
}

impl ExtraFilter {
    pub const fn related(param: &'static str, path: &'static str) -> ExtraFilter {
        ExtraFilter {
            param,
            source: FilterSource::Related(path),
        }
    }
}

/// A resource: everything the generic machinery needs to store, filter and render it.
#[derive(Debug)]
pub struct ResourceSpec {
    /// Application label, e.g. `peering`.
    pub app: &'static str,
    /// Model name as in content types, e.g. `autonomoussystem`.
    pub model: &'static str,
    /// Collection path segment, e.g. `autonomous-systems`.
    pub path: &'static str,
    /// Human name used by OPTIONS, e.g. `Autonomous System`.
    pub name: &'static str,
    /// Verbose name used in messages, e.g. `autonomous system`.
    pub verbose_name: &'static str,
    pub table: &'static str,
    pub fields: &'static [Field],
    /// Default ordering (field names, `-` for descending); `id` is always appended.
    pub ordering: &'static [&'static str],
    /// Field names of the brief form (may include `id`, `url`, `display`). A name written
    /// `field=value` shows a choice field's plain value instead of `{value, label}`.
    pub brief: &'static [&'static str],
    /// Field names of the nested form used inside other objects.
    pub nested: &'static [&'static str],
    pub search: &'static [Search],
    pub display: fn(&ResourceSpec, &Record, &dyn RelatedLookup) -> String,
    /// Foreign keys whose objects `display`, `validate` and `derive` read; they are loaded
    /// with the object wherever it is shown or written (and, in turn, what those objects
    /// read), so a label never depends on where the object appears.
    pub reads: &'static [&'static str],
    /// Field sets that must be unique together, with the message given under `__all__`.
    pub unique_together: &'static [(&'static [&'static str], &'static str)],
    /// Rules across fields and related objects, checked before a write.
    pub validate: Option<ValidateFn>,
    /// Values computed from others before a write (e.g. an encrypted password).
    pub derive: Option<DeriveFn>,
    /// Whether writes are recorded as object changes.
    pub change_logged: bool,
    /// Which writes the resource accepts through the API.
    pub writes: Writes,
    /// The foreign key naming the user an object belongs to: that user sees its secrets
    /// (a job's output), as do callers who may change it.
    pub owner: Option<&'static str>,
    /// Filters beyond the fields' own: related attributes, computed properties.
    pub extra_filters: &'static [ExtraFilter],
    /// Whether the representation carries `created` and `updated`.
    pub has_timestamps: bool,
}

/// The writes a resource accepts through the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writes {
    /// Create, replace, update and delete.
    All,
    /// Only deletes (jobs).
    DeleteOnly,
    /// None (change records).
    None,
}

impl Writes {
    /// Creates and updates.
    pub fn edits(self) -> bool {
        self == Writes::All
    }

    pub fn deletes(self) -> bool {
        matches!(self, Writes::All | Writes::DeleteOnly)
    }
}

/// Splits a brief or nested member name: `("status", true)` for `status=value`.
pub fn member(name: &str) -> (&str, bool) {
    match name.strip_suffix("=value") {
        Some(field) => (field, true),
        None => (name, false),
    }
}

/// The label of an object whose resource declares no display rule: its id.
fn display_id(_: &ResourceSpec, r: &Record, _: &dyn RelatedLookup) -> String {
    format!("#{}", r.id)
}

impl ResourceSpec {
    /// What a declaration does not state: no brief or nested members, search, related
    /// reads, rules or extra filters; changes logged; every write accepted; timestamps
    /// shown. Declarations give what differs and end with `..ResourceSpec::DEFAULTS`.
    pub const DEFAULTS: ResourceSpec = ResourceSpec {
        app: "",
        model: "",
        path: "",
        name: "",
        verbose_name: "",
        table: "",
        fields: &[],
        ordering: &[],
        brief: &[],
        nested: &[],
        search: &[],
        display: display_id,
        reads: &[],
        unique_together: &[],
        validate: None,
        derive: None,
        change_logged: true,
        writes: Writes::All,
        owner: None,
        extra_filters: &[],
        has_timestamps: true,
    };

    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }

    /// `app.model`, the content type label used by change records and tags.
    /// Whether objects of this resource carry tags.
    pub fn taggable(&self) -> bool {
        self.fields.iter().any(|f| matches!(f.kind, Kind::Tags))
    }

    pub fn content_type(&self) -> String {
        format!("{}.{}", self.app, self.model)
    }
}

/// Shorthands for declaring fields.
pub mod kinds {
    use super::*;

    pub const fn text(max_len: usize) -> Kind {
        Kind::Text {
            max_len: Some(max_len),
            ci: true,
            format: TextFormat::Plain,
        }
    }

    /// Text never searched case-insensitively (no lower-cased copy is kept).
    pub const fn plain_text(max_len: usize) -> Kind {
        Kind::Text {
            max_len: Some(max_len),
            ci: false,
            format: TextFormat::Plain,
        }
    }

    pub const LONG_TEXT: Kind = Kind::Text {
        max_len: None,
        ci: false,
        format: TextFormat::Plain,
    };

    pub const fn slug(max_len: usize) -> Kind {
        Kind::Text {
            max_len: Some(max_len),
            ci: true,
            format: TextFormat::Slug,
        }
    }

    pub const COLOR: Kind = Kind::Text {
        max_len: Some(6),
        ci: false,
        format: TextFormat::Color,
    };

    pub const fn int(min: i64, max: i64) -> Kind {
        Kind::Int { min, max }
    }

    pub const JSON_OBJECT: Kind = Kind::Json { object_only: true };

    /// Any JSON document (or null).
    pub const JSON: Kind = Kind::Json { object_only: false };

    pub const fn email(max_len: usize) -> Kind {
        Kind::Text {
            max_len: Some(max_len),
            ci: true,
            format: TextFormat::Email,
        }
    }

    /// A choice field rendered `{value, label}`.
    pub const fn status(set: &'static ChoiceSet) -> Kind {
        Kind::Choice {
            set,
            render: ChoiceRender::Object,
        }
    }

    /// A foreign key.
    pub const fn fk(target: fn() -> &'static ResourceSpec, on_delete: OnDelete) -> Kind {
        Kind::ForeignKey { target, on_delete }
    }
}
