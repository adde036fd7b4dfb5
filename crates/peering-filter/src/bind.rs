//! Binding: checking grouped keys against the catalog and typing their values.

use crate::ast::Predicate;
use crate::catalog::{Catalog, FilterKind};
use crate::error::{msg, FilterErrors};
use crate::limits;
use crate::lookup::Lookup;
use crate::parse::{split_key, Group};
use crate::value::{parse_bool, parse_datetime, parse_int, parse_uuid, Value};

/// Binds one filter key; returns its predicates, or none after recording an error.
///
/// Usually one predicate; `Tag` exact keys give one per value (AND), and a key
/// whose values are all blank gives none.
pub(crate) fn bind(
    group: &Group<'_>,
    catalog: &Catalog<'_>,
    errors: &mut FilterErrors,
) -> Vec<Predicate> {
    let (name, lookup) = split_key(group.key);
    let Some(field) = catalog.field(name) else {
        errors.push(group.key, msg::unknown_filter(group.key));
        return Vec::new();
    };
    if !field.kind.allows(lookup) {
        errors.push(
            group.key,
            msg::unsupported_lookup(lookup.as_str(), field.name),
        );
        return Vec::new();
    }
    if !limits::check_values(group.key, group.count, &group.values, errors) {
        return Vec::new();
    }
    let mut values = Vec::with_capacity(group.values.len());
    for raw in &group.values {
        match convert(field.kind, lookup, raw) {
            Ok(Some(value)) => values.push(value),
            Ok(None) => {}
            Err(message) => {
                errors.push(group.key, message);
                return Vec::new();
            }
        }
    }
    if lookup == Lookup::Empty {
        // A repeated `empty` is a single yes/no question, so the last answer wins.
        values = values.pop().into_iter().collect();
    }
    let predicate = |values: Vec<Value>| Predicate {
        field: field.name,
        kind: field.kind,
        lookup,
        values,
        param: group.key.to_owned(),
    };
    if values.is_empty() {
        Vec::new()
    } else if field.kind == FilterKind::Tag && lookup == Lookup::Exact {
        // Each `tag=x` is its own requirement: the object must carry every listed tag.
        values
            .into_iter()
            .map(|value| predicate(vec![value]))
            .collect()
    } else {
        vec![predicate(values)]
    }
}

/// Types one raw value; `Ok(None)` means a blank value that django-filter would ignore.
fn convert(kind: FilterKind, lookup: Lookup, raw: &str) -> Result<Option<Value>, String> {
    let null_capable = !matches!(kind, FilterKind::Bool | FilterKind::Uuid);
    if raw == "null" && null_capable {
        return if matches!(lookup, Lookup::Exact | Lookup::N) {
            Ok(Some(Value::Null))
        } else {
            Err(msg::NULL_LOOKUP.to_owned())
        };
    }
    if lookup == Lookup::Empty {
        return parse_scalar(raw, |text| {
            parse_bool(text)
                .map(Value::Bool)
                .ok_or_else(|| msg::invalid_choice(text))
        });
    }
    match kind {
        // Text is data as given; an empty string is a legitimate value to compare with.
        FilterKind::String => Ok(Some(Value::Text(raw.to_owned()))),
        // A name is compared as given; a blank one names nothing, as for other choices.
        FilterKind::Reference if raw.trim().is_empty() => Ok(None),
        FilterKind::Reference => Ok(Some(Value::Text(raw.to_owned()))),
        FilterKind::Tag if raw.trim().is_empty() => Err(msg::BLANK.to_owned()),
        FilterKind::Tag => Ok(Some(Value::Text(raw.to_owned()))),
        FilterKind::Number | FilterKind::ForeignKey => parse_scalar(raw, |text| {
            parse_int(text)
                .map(Value::Int)
                .ok_or_else(|| msg::WHOLE_NUMBER.to_owned())
        }),
        FilterKind::Bool => parse_scalar(raw, |text| {
            parse_bool(text)
                .map(Value::Bool)
                .ok_or_else(|| msg::invalid_choice(text))
        }),
        FilterKind::Choice(choices) => parse_scalar(raw, |text| {
            choices
                .contains(&text)
                .then(|| Value::Text(text.to_owned()))
                .ok_or_else(|| msg::invalid_choice(text))
        }),
        FilterKind::Uuid => parse_scalar(raw, |text| {
            parse_uuid(text)
                .map(Value::Uuid)
                .ok_or_else(|| msg::UUID.to_owned())
        }),
        FilterKind::DateTime => parse_scalar(raw, |text| {
            parse_datetime(text)
                .map(Value::DateTime)
                .ok_or_else(|| msg::DATETIME.to_owned())
        }),
    }
}

/// Trims a non-text value and skips it when blank, as Django's form fields do.
fn parse_scalar(
    raw: &str,
    parse: impl FnOnce(&str) -> Result<Value, String>,
) -> Result<Option<Value>, String> {
    let text = raw.trim();
    if text.is_empty() {
        Ok(None)
    } else {
        parse(text).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_is_data_only_for_exact_and_n() {
        assert_eq!(
            convert(FilterKind::Number, Lookup::Exact, "null"),
            Ok(Some(Value::Null))
        );
        assert_eq!(
            convert(FilterKind::Tag, Lookup::N, "null"),
            Ok(Some(Value::Null))
        );
        assert_eq!(
            convert(FilterKind::DateTime, Lookup::Lt, "null"),
            Err(msg::NULL_LOOKUP.to_owned())
        );
        assert_eq!(
            convert(FilterKind::Bool, Lookup::Exact, "null"),
            Err(msg::invalid_choice("null"))
        );
        assert_eq!(
            convert(FilterKind::Uuid, Lookup::Exact, "null"),
            Err(msg::UUID.to_owned())
        );
        // Only the exact lowercase spelling is the null marker.
        assert_eq!(
            convert(FilterKind::String, Lookup::Exact, "NULL"),
            Ok(Some(Value::Text("NULL".to_owned())))
        );
    }

    #[test]
    fn blank_values_are_skipped_for_non_text_kinds_only() {
        for kind in [
            FilterKind::Number,
            FilterKind::ForeignKey,
            FilterKind::Bool,
            FilterKind::Choice(&["a"]),
            FilterKind::Reference,
            FilterKind::Uuid,
            FilterKind::DateTime,
        ] {
            assert_eq!(convert(kind, Lookup::Exact, ""), Ok(None), "{kind:?}");
            assert_eq!(convert(kind, Lookup::Exact, "  "), Ok(None), "{kind:?}");
        }
        assert_eq!(
            convert(FilterKind::String, Lookup::Exact, ""),
            Ok(Some(Value::Text(String::new())))
        );
        assert_eq!(
            convert(FilterKind::Tag, Lookup::Exact, " "),
            Err(msg::BLANK.to_owned())
        );
    }
}
