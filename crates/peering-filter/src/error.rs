//! Validation errors, collected per query parameter for a 400 response.

use std::fmt;

/// One rejected query parameter and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{param}: {message}")]
pub struct FilterError {
    /// The parameter as the client spelled it (the full key, e.g. `asn__gte`).
    pub param: String,
    /// A human-readable reason, worded like Django's where Django has a message.
    pub message: String,
}

/// All errors found in one query, in order of first appearance, at most one per parameter.
///
/// The HTTP layer renders it as `{"<param>": ["<message>"], ...}` with status 400.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FilterErrors {
    // Private so that the one-error-per-parameter invariant cannot be broken from outside.
    errors: Vec<FilterError>,
}

impl FilterErrors {
    /// The errors, in order of first appearance.
    pub fn as_slice(&self) -> &[FilterError] {
        &self.errors
    }

    /// Iterates over the errors, in order of first appearance.
    pub fn iter(&self) -> std::slice::Iter<'_, FilterError> {
        self.errors.iter()
    }

    /// The number of rejected parameters.
    pub fn len(&self) -> usize {
        self.errors.len()
    }

    /// Whether no error was recorded.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// The message recorded for `param`, if any.
    pub fn get(&self, param: &str) -> Option<&str> {
        self.errors
            .iter()
            .find(|error| error.param == param)
            .map(|error| error.message.as_str())
    }

    /// Consumes the list into its errors.
    pub fn into_vec(self) -> Vec<FilterError> {
        self.errors
    }

    /// Records an error unless `param` already has one, so the first message wins.
    pub(crate) fn push(&mut self, param: &str, message: impl Into<String>) {
        if self.get(param).is_none() {
            self.errors.push(FilterError {
                param: param.to_owned(),
                message: message.into(),
            });
        }
    }
}

impl fmt::Display for FilterErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid query parameters")?;
        for (index, error) in self.errors.iter().enumerate() {
            f.write_str(if index == 0 { ": " } else { "; " })?;
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for FilterErrors {}

impl<'a> IntoIterator for &'a FilterErrors {
    type Item = &'a FilterError;
    type IntoIter = std::slice::Iter<'a, FilterError>;

    fn into_iter(self) -> Self::IntoIter {
        self.errors.iter()
    }
}

impl IntoIterator for FilterErrors {
    type Item = FilterError;
    type IntoIter = std::vec::IntoIter<FilterError>;

    fn into_iter(self) -> Self::IntoIter {
        self.errors.into_iter()
    }
}

/// The error messages, kept in one place so that their wording stays consistent.
pub(crate) mod msg {
    use crate::limits;

    pub(crate) const WHOLE_NUMBER: &str = "Enter a whole number.";
    pub(crate) const UUID: &str = "Enter a valid UUID.";
    pub(crate) const DATETIME: &str = "Enter a valid date/time.";
    pub(crate) const BLANK: &str = "This field may not be blank.";
    pub(crate) const NULL_LOOKUP: &str = "null is only allowed with exact or n lookups.";

    pub(crate) fn invalid_choice(value: &str) -> String {
        format!("Select a valid choice. {value} is not one of the available choices.")
    }

    pub(crate) fn unknown_filter(key: &str) -> String {
        format!("Unknown filter: {key}.")
    }

    pub(crate) fn unsupported_lookup(lookup: &str, field: &str) -> String {
        format!("Unsupported lookup '{lookup}' for {field}.")
    }

    pub(crate) fn unknown_ordering(name: &str) -> String {
        format!("Unknown ordering field: {name}.")
    }

    pub(crate) fn too_many_keys() -> String {
        format!(
            "Too many filters: at most {} distinct filter parameters are allowed.",
            limits::MAX_FILTER_KEYS
        )
    }

    pub(crate) fn too_many_values() -> String {
        format!(
            "Too many values: at most {} values are allowed for one parameter.",
            limits::MAX_VALUES_PER_PARAM
        )
    }

    pub(crate) fn value_too_long(chars: usize) -> String {
        format!(
            "Ensure this value has at most {} characters (it has {chars}).",
            limits::MAX_VALUE_CHARS
        )
    }

    pub(crate) fn too_many_ordering_terms() -> String {
        format!(
            "Too many ordering fields: at most {} are allowed.",
            limits::MAX_ORDERING_TERMS
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_message_per_param_wins_and_order_is_kept() {
        let mut errors = FilterErrors::default();
        errors.push("b", "first b");
        errors.push("a", "first a");
        errors.push("b", "second b");
        let pairs: Vec<(&str, &str)> = errors
            .iter()
            .map(|e| (e.param.as_str(), e.message.as_str()))
            .collect();
        assert_eq!(pairs, [("b", "first b"), ("a", "first a")]);
        assert_eq!(errors.get("a"), Some("first a"));
        assert_eq!(errors.len(), 2);
    }

    #[test]
    fn display_lists_every_error() {
        let mut errors = FilterErrors::default();
        errors.push("asn", msg::WHOLE_NUMBER);
        errors.push("x", msg::unknown_filter("x"));
        assert_eq!(
            errors.to_string(),
            "invalid query parameters: asn: Enter a whole number.; x: Unknown filter: x."
        );
    }
}
