//! A field of a resource: its kind, default, limits and presentation flags, and the
//! builder methods declarations use.

use crate::choices::ChoiceSet;

use super::ResourceSpec;

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
    /// A value worked out from the object's own fields (and, for a flag, the clock) whenever
    /// it is shown, as the reference's model properties are (a community's `kind`, an
    /// object's config context, a hidden peer's `is_expired`): read-only, not stored.
    Derived {
        derive: fn(&ResourceSpec, &crate::record::Record) -> crate::value::Value,
        shown: Shown,
    },
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

/// What a derived value is shown as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// Text, or null.
    Text,
    /// `true` or `false`.
    Bool,
    /// Any JSON value.
    Json,
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
    /// Another name a write may give the field under: the one a later release of the
    /// reference renamed it to (an IX-API account's `url`, 1.10's `api_url`).
    pub written_as: Option<&'static str>,
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
    /// The data of the config contexts assigned to the object, by weight then name, as a
    /// JSON array (null for none).
    AssignedContexts,
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
            written_as: None,
            help: "",
        }
    }

    /// Also taken, on write, under `name` (when the field's own name is absent).
    pub const fn written_as(mut self, name: &'static str) -> Self {
        self.written_as = Some(name);
        self
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
                    | Kind::Derived { .. }
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
