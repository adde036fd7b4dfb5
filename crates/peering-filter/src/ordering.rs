//! The `ordering` parameter: a comma-separated list of `field` or `-field` terms.

use crate::ast::OrderTerm;
use crate::catalog::Catalog;
use crate::error::{msg, FilterErrors};
use crate::limits::MAX_ORDERING_TERMS;
use crate::parse::ORDERING_KEY;

/// Parses one `ordering` value; records an error on `ordering` and returns `None` if invalid.
pub(crate) fn parse_ordering(
    value: &str,
    catalog: &Catalog<'_>,
    errors: &mut FilterErrors,
) -> Option<Vec<OrderTerm>> {
    let mut terms: Vec<OrderTerm> = Vec::new();
    for item in value
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
    {
        let (field, descending) = match item.strip_prefix('-') {
            Some(rest) => (rest, true),
            None => (item, false),
        };
        if !catalog.is_orderable(field) {
            errors.push(ORDERING_KEY, msg::unknown_ordering(field));
            return None;
        }
        // A repeated field cannot change the order any more, so only its first use counts.
        if terms.iter().any(|term| term.field == field) {
            continue;
        }
        if terms.len() == MAX_ORDERING_TERMS {
            errors.push(ORDERING_KEY, msg::too_many_ordering_terms());
            return None;
        }
        terms.push(OrderTerm {
            field: field.to_owned(),
            descending,
        });
    }
    Some(terms)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CATALOG: Catalog<'static> = Catalog {
        fields: &[],
        orderable: &["asn", "name"],
    };

    fn render(terms: &[OrderTerm]) -> Vec<String> {
        terms.iter().map(OrderTerm::to_string).collect()
    }

    #[test]
    fn terms_are_trimmed_deduplicated_and_checked() {
        let mut errors = FilterErrors::default();
        let terms = parse_ordering(" -asn, ,name,asn,-name,", &CATALOG, &mut errors);
        assert_eq!(
            terms.as_deref().map(render),
            Some(vec!["-asn".to_owned(), "name".to_owned()])
        );
        assert!(errors.is_empty());
        assert_eq!(parse_ordering("", &CATALOG, &mut errors), Some(Vec::new()));
        assert_eq!(parse_ordering("--asn", &CATALOG, &mut errors), None);
        assert_eq!(
            errors.get("ordering"),
            Some("Unknown ordering field: -asn.")
        );
    }
}
