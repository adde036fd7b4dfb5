//! Size limits that keep a single query from costing unbounded work downstream.

use crate::error::{msg, FilterErrors};

/// The most distinct filter keys one query may use (`q`, `ordering` and reserved keys excluded).
pub const MAX_FILTER_KEYS: usize = 64;
/// The most values one parameter may repeat (each repeat widens an OR or adds a tag join).
pub const MAX_VALUES_PER_PARAM: usize = 256;
/// The most characters (Unicode scalar values) one value may have.
pub const MAX_VALUE_CHARS: usize = 1024;
/// The most distinct fields one `ordering` may list.
pub const MAX_ORDERING_TERMS: usize = 16;

/// Checks the per-parameter limits; records an error on `param` and returns false on breach.
///
/// `count` is the total number of values seen, `values` the (possibly capped) stored ones.
pub(crate) fn check_values(
    param: &str,
    count: usize,
    values: &[&str],
    errors: &mut FilterErrors,
) -> bool {
    if count > MAX_VALUES_PER_PARAM {
        errors.push(param, msg::too_many_values());
        return false;
    }
    for value in values {
        // Databases refuse NUL in text (PostgreSQL errors on it), so it is refused here.
        if value.contains('\0') {
            errors.push(param, "Null characters are not allowed.".to_owned());
            return false;
        }
        // The byte length bounds the character count, so most values skip the count.
        if value.len() > MAX_VALUE_CHARS {
            let chars = value.chars().count();
            if chars > MAX_VALUE_CHARS {
                errors.push(param, msg::value_too_long(chars));
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_characters_are_refused() {
        let mut errors = FilterErrors::default();
        assert!(!check_values("name__ic", 1, &["a\0b"], &mut errors));
        assert_eq!(
            errors.get("name__ic"),
            Some("Null characters are not allowed.")
        );
    }

    #[test]
    fn limits_count_values_and_characters() {
        let mut errors = FilterErrors::default();
        assert!(check_values("a", 256, &["x"], &mut errors));
        assert!(!check_values("b", 257, &["x"], &mut errors));
        let exactly = "é".repeat(MAX_VALUE_CHARS);
        assert!(check_values("c", 1, &[&exactly], &mut errors));
        let over = "x".repeat(MAX_VALUE_CHARS + 1);
        assert!(!check_values("d", 1, &[&over], &mut errors));
        assert_eq!(errors.len(), 2);
        assert_eq!(
            errors.get("d"),
            Some("Ensure this value has at most 1024 characters (it has 1025).")
        );
    }
}
