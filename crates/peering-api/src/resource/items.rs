//! The items of a list body: their ids, and their errors in the reference's shape,
//! bounded so that a huge invalid body costs a short answer.

use peering_domain::input;
use serde_json::value::RawValue;
use serde_json::{json, Value as Json};

use crate::body::{item, Items};
use crate::error::ApiError;

/// The 400 for a body that must be a list and is not.
fn expected_list(body: &Json) -> ApiError {
    ApiError::BadRequest(json!({"non_field_errors": [format!(
        "Expected a list of items but got type \"{}\".",
        input::json_type_name(body)
    )]}))
}

/// The errors of a list body's items, in the reference's shape (one object per item, `{}`
/// for a valid one) but bounded: after `MAX_ITEM_ERRORS` invalid items the rest is not
/// checked, and the list ends with an object saying how many items were left unchecked.
/// A body of a million bad items then costs a short answer, not a huge one.
#[derive(Debug, Default)]
pub(super) struct ItemErrors {
    /// `(index, errors)` of the invalid items seen, in order.
    found: Vec<(usize, Json)>,
}

const MAX_ITEM_ERRORS: usize = 100;

impl ItemErrors {
    /// Notes item `index`'s errors; `Break` when no more items should be checked.
    pub(super) fn add(&mut self, index: usize, errors: Json) -> std::ops::ControlFlow<()> {
        self.found.push((index, errors));
        if self.found.len() >= MAX_ITEM_ERRORS {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    }

    /// The 400 body, if any item was invalid: a list for a list body (`many`), else the one
    /// item's errors.
    pub(super) fn into_body(self, count: usize, many: bool) -> Option<Json> {
        let last = self.found.last()?.0;
        if !many {
            return self.found.into_iter().next().map(|(_, e)| e);
        }
        let mut list = vec![json!({}); last + 1];
        for (index, errors) in self.found {
            list[index] = errors;
        }
        let unchecked = count - (last + 1);
        if unchecked > 0 {
            list.push(json!({"non_field_errors": [format!(
                "{unchecked} more items were not checked: at most {MAX_ITEM_ERRORS} invalid items are reported."
            )]}));
        }
        Some(Json::Array(list))
    }
}

/// The items of a bulk update or delete, which must be a list.
pub(super) fn listed(body: Items<'_>) -> Result<Vec<&RawValue>, ApiError> {
    match body {
        Items::List(raw) => Ok(raw),
        Items::One(value) => Err(expected_list(&value)),
    }
}

/// The `id` of each item of a bulk body, with the reference's error shapes.
pub(super) fn item_ids(items: &[&RawValue]) -> Result<Vec<i64>, ApiError> {
    let mut ids = Vec::new();
    let mut errors = ItemErrors::default();
    let count = items.len();
    for (index, item) in items.iter().map(|raw| item(raw)).enumerate() {
        let id = item.get("id").and_then(|v| match v {
            Json::Number(n) => n.as_i64(),
            Json::String(s) => s.trim().parse().ok(),
            _ => None,
        });
        let error = match (item.is_object(), id) {
            (true, Some(id)) => {
                ids.push(id);
                continue;
            }
            (true, None) if item.get("id").is_some() => {
                json!({"id": ["A valid integer is required."]})
            }
            _ => json!({"id": ["This field is required."]}),
        };
        if errors.add(index, error).is_break() {
            break;
        }
    }
    match errors.into_body(count, true) {
        Some(body) => Err(ApiError::BadRequest(body)),
        None => Ok(ids),
    }
}
