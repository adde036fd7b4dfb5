//! Typed filters of list queries: each model's `filters()` names its filterable fields with
//! the lookups their kind accepts (`AutonomousSystem::filters().asn.gte(64500)` is
//! `asn__gte=64500`), so that a misspelt field or a lookup the server refuses does not
//! compile.

use std::fmt::Display;
use std::marker::PhantomData;

use super::Timestamp;

/// One parameter of a list's query string: `asn__gte=64500`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Condition {
    pub param: String,
    pub value: String,
}

impl Condition {
    fn new(field: &str, lookup: &str, value: impl Display) -> Condition {
        let param = if lookup.is_empty() {
            field.to_string()
        } else {
            format!("{field}__{lookup}")
        };
        Condition {
            param,
            value: value.to_string(),
        }
    }
}

/// A choice value as the query string gives it.
pub trait ChoiceValue: Copy {
    fn as_str(self) -> &'static str;
}

macro_rules! lookups {
    ($handle:ident, $value:ty, $($method:ident => $lookup:literal),+ $(,)?) => {
        impl $handle {
            $(
                #[doc = concat!("`field", $lookup, "=value`")]
                pub fn $method(self, value: $value) -> Condition {
                    Condition::new(self.0, $lookup.trim_start_matches("__"), value)
                }
            )+
        }
    };
}

/// A number field: `exact`, `n`, `lt`, `lte`, `gt`, `gte`, `empty`.
#[derive(Debug, Clone, Copy)]
pub struct NumberFilter(pub &'static str);
lookups!(NumberFilter, i64, eq => "", n => "__n", lt => "__lt", lte => "__lte", gt => "__gt", gte => "__gte");

/// A text field: exact, case-insensitive contains (`ic`), starts (`isw`), ends (`iew`),
/// equals (`ie`), their negations, and `empty`.
#[derive(Debug, Clone, Copy)]
pub struct TextFilter(pub &'static str);
lookups!(TextFilter, &str,
    eq => "", n => "__n", ic => "__ic", nic => "__nic", isw => "__isw", nisw => "__nisw",
    iew => "__iew", niew => "__niew", ie => "__ie", nie => "__nie");

/// A boolean field.
#[derive(Debug, Clone, Copy)]
pub struct BoolFilter(pub &'static str);
lookups!(BoolFilter, bool, eq => "");

/// A related object by id (`exact`, `n`).
#[derive(Debug, Clone, Copy)]
pub struct RelationFilter(pub &'static str);
lookups!(RelationFilter, i64, eq => "", n => "__n");

/// A related object by one of its attributes, or a value of another kind (`exact`, `n`).
#[derive(Debug, Clone, Copy)]
pub struct ValueFilter(pub &'static str);
lookups!(ValueFilter, &str, eq => "", n => "__n");

/// A UUID.
#[derive(Debug, Clone, Copy)]
pub struct UuidFilter(pub &'static str);
lookups!(UuidFilter, uuid::Uuid, eq => "");

/// A time: `exact`, `n`, `lt`, `lte`, `gt`, `gte`.
#[derive(Debug, Clone, Copy)]
pub struct TimeFilter(pub &'static str);

impl TimeFilter {
    fn at(self, lookup: &str, value: Timestamp) -> Condition {
        let text = crate::value::Iso8601::micros(value.0);
        Condition::new(self.0, lookup, text)
    }

    pub fn eq(self, value: Timestamp) -> Condition {
        self.at("", value)
    }

    pub fn n(self, value: Timestamp) -> Condition {
        self.at("n", value)
    }

    pub fn lt(self, value: Timestamp) -> Condition {
        self.at("lt", value)
    }

    pub fn lte(self, value: Timestamp) -> Condition {
        self.at("lte", value)
    }

    pub fn gt(self, value: Timestamp) -> Condition {
        self.at("gt", value)
    }

    pub fn gte(self, value: Timestamp) -> Condition {
        self.at("gte", value)
    }
}

/// Tags by slug: objects carrying the tag (several conditions must all hold), or not.
#[derive(Debug, Clone, Copy)]
pub struct TagFilter(pub &'static str);
lookups!(TagFilter, &str, has => "", n => "__n");

/// A choice field, by its typed values (`exact`, `n`).
#[derive(Debug, Clone, Copy)]
pub struct ChoiceFilter<T>(pub &'static str, pub PhantomData<T>);

impl<T: ChoiceValue> ChoiceFilter<T> {
    pub const fn new(field: &'static str) -> Self {
        ChoiceFilter(field, PhantomData)
    }

    pub fn eq(self, value: T) -> Condition {
        Condition::new(self.0, "", value.as_str())
    }

    pub fn n(self, value: T) -> Condition {
        Condition::new(self.0, "n", value.as_str())
    }
}

/// `empty` (null or blank, or not) on the kinds that accept it.
macro_rules! empty {
    ($($handle:ident),+) => {
        $(impl $handle {
            /// `field__empty=true|false`
            pub fn empty(self, empty: bool) -> Condition {
                Condition::new(self.0, "empty", empty)
            }
        })+
    };
}
empty!(NumberFilter, TextFilter);

impl<T: ChoiceValue> ChoiceFilter<T> {
    /// `field__empty=true|false`
    pub fn empty(self, empty: bool) -> Condition {
        Condition::new(self.0, "empty", empty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_name_field_and_lookup() {
        assert_eq!(
            NumberFilter("asn").gte(64500),
            Condition {
                param: "asn__gte".into(),
                value: "64500".into()
            }
        );
        assert_eq!(TextFilter("name").ic("ix").param, "name__ic");
        assert_eq!(TextFilter("name").eq("x").param, "name");
        assert_eq!(TagFilter("tag").has("core").param, "tag");
        assert_eq!(BoolFilter("affiliated").eq(true).value, "true");
        assert_eq!(NumberFilter("asn").empty(false).param, "asn__empty");
    }
}
