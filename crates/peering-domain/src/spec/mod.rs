//! How a resource is declared: its fields, kinds, defaults, limits and presentation rules.

use crate::record::Record;

mod field;
mod filters;
pub mod kinds;
mod reads;

pub use field::{ChoiceRender, Computed, Default, Field, Kind, OnDelete, Shown, TextFormat};
pub use filters::{ExtraFilter, FilterSource, Search};
pub use reads::CHANGE_RECORDS;

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
    /// Whether what its answers show or select changes with the time they are read at (a
    /// flag worked out from a timestamp and the clock, a filter on it): no write marks
    /// such a change, so no answer or count of them is kept (`answers/payoff.rs`).
    pub reads_the_clock: bool,
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
        reads_the_clock: false,
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
