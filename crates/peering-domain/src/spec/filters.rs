//! How a resource is searched (`q`) and filtered beyond its own fields.

use super::Kind;

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
    /// An attribute of the object a dotted path of foreign keys leads to, compared as a
    /// field of its kind (`net.policy_general`): a value no object has matches nothing,
    /// as the reference's filters on `Meta.fields` through a relation (`net__…`).
    RelatedValue(&'static str),
    /// The family (4 or 6) of an IP address field; any other number filters nothing.
    AddressFamily(&'static str),
    /// A timestamp field at or after the value.
    Since(&'static str),
    /// A timestamp field at or before the value.
    Until(&'static str),
    /// A flag: whether the timestamp field is set and past when the list is read (true),
    /// or empty or still ahead (false).
    Expired(&'static str),
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

    pub const fn related_value(param: &'static str, path: &'static str) -> ExtraFilter {
        ExtraFilter {
            param,
            source: FilterSource::RelatedValue(path),
        }
    }
}
