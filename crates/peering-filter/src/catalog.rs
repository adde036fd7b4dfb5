//! Field catalogs: which fields a resource lets clients filter and order by.

use crate::lookup::Lookup;

/// The kind of a filterable field; decides which lookups and values are accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterKind {
    /// A 64-bit integer; lookups exact, n, lt, lte, gt, gte, empty.
    Number,
    /// Free text; lookups exact, n, ic, nic, isw, nisw, iew, niew, ie, nie, empty.
    String,
    /// A boolean; exact only.
    Bool,
    /// One of a fixed list of values; exact, n, empty.
    Choice(&'static [&'static str]),
    /// An integer id of another object; exact, n (`null` matches no relation).
    ForeignKey,
    /// Another object named by a text attribute (name, slug, hostname); exact, n.
    Reference,
    /// A UUID; exact only.
    Uuid,
    /// A timestamp; exact, n, lt, lte, gt, gte.
    DateTime,
    /// A tag slug; exact and n, and repeated `exact` values are ANDed.
    Tag,
}

impl FilterKind {
    /// The lookups this kind accepts.
    pub fn lookups(&self) -> &'static [Lookup] {
        use Lookup::*;
        match self {
            FilterKind::Number => &[Exact, N, Lt, Lte, Gt, Gte, Empty],
            FilterKind::String => &[Exact, N, Ic, Nic, Isw, Nisw, Iew, Niew, Ie, Nie, Empty],
            FilterKind::Bool | FilterKind::Uuid => &[Exact],
            FilterKind::Choice(_) => &[Exact, N, Empty],
            FilterKind::ForeignKey | FilterKind::Reference | FilterKind::Tag => &[Exact, N],
            FilterKind::DateTime => &[Exact, N, Lt, Lte, Gt, Gte],
        }
    }

    /// Whether this kind accepts `lookup`.
    pub fn allows(&self, lookup: Lookup) -> bool {
        self.lookups().contains(&lookup)
    }
}

/// One filterable field of a resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FilterField {
    /// The name used in query keys (may contain `_` and even `__`).
    pub name: &'static str,
    /// What the field holds.
    pub kind: FilterKind,
}

impl FilterField {
    /// Builds a field; handy in `const` catalogs.
    pub const fn new(name: &'static str, kind: FilterKind) -> Self {
        FilterField { name, kind }
    }
}

/// A resource's catalog: its filterable fields and its orderable field names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Catalog<'a> {
    /// The fields that may appear in filter keys.
    pub fields: &'a [FilterField],
    /// The field names that may appear in `ordering`.
    pub orderable: &'a [&'a str],
}

impl<'a> Catalog<'a> {
    /// The field called `name`, if the resource has one.
    pub fn field(&self, name: &str) -> Option<&'a FilterField> {
        self.fields.iter().find(|field| field.name == name)
    }

    /// Whether `name` may appear in `ordering`.
    pub fn is_orderable(&self, name: &str) -> bool {
        self.orderable.contains(&name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_tables_match_the_contract() {
        assert!(FilterKind::Number.allows(Lookup::Empty));
        assert!(!FilterKind::Number.allows(Lookup::Ic));
        assert!(FilterKind::String.allows(Lookup::Nie));
        assert!(!FilterKind::String.allows(Lookup::Gt));
        assert_eq!(FilterKind::Bool.lookups(), &[Lookup::Exact]);
        assert_eq!(FilterKind::Uuid.lookups(), &[Lookup::Exact]);
        assert!(!FilterKind::ForeignKey.allows(Lookup::Empty));
        assert!(!FilterKind::DateTime.allows(Lookup::Empty));
        assert!(FilterKind::DateTime.allows(Lookup::Lte));
        assert_eq!(FilterKind::Tag.lookups(), &[Lookup::Exact, Lookup::N]);
        assert_eq!(FilterKind::Reference.lookups(), &[Lookup::Exact, Lookup::N]);
        assert_eq!(
            FilterKind::Choice(&["a"]).lookups(),
            &[Lookup::Exact, Lookup::N, Lookup::Empty]
        );
    }

    #[test]
    fn catalog_lookups_by_name() {
        const FIELDS: &[FilterField] = &[FilterField::new("asn", FilterKind::Number)];
        let catalog = Catalog {
            fields: FIELDS,
            orderable: &["asn"],
        };
        assert_eq!(
            catalog.field("asn").map(|f| f.kind),
            Some(FilterKind::Number)
        );
        assert!(catalog.field("as").is_none());
        assert!(catalog.is_orderable("asn"));
        assert!(!catalog.is_orderable("name"));
    }
}
