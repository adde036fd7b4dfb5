//! Per-resource permissions, named as in the reference system: `<app>.<action>_<model>`,
//! e.g. `peering.add_autonomoussystem`.

use std::fmt;

use serde_json::Value as Json;

use crate::errors::FieldErrors;
use crate::resources::{by_content_type, ALL};
use crate::ResourceSpec;

/// What a permission allows on a resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    View,
    Add,
    Change,
    Delete,
}

impl Action {
    pub const ALL: [Action; 4] = [Action::View, Action::Add, Action::Change, Action::Delete];

    pub fn as_str(self) -> &'static str {
        match self {
            Action::View => "view",
            Action::Add => "add",
            Action::Change => "change",
            Action::Delete => "delete",
        }
    }

    fn parse(text: &str) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.as_str() == text)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The name of the permission to do `action` on `spec`'s objects.
pub fn name(action: Action, spec: &ResourceSpec) -> String {
    format!("{}.{}_{}", spec.app, action, spec.model)
}

/// Permissions beyond view/add/change/delete, as the reference names them: rendering a
/// router's configuration, pushing it to routers, sending e-mails to a peer, synchronising
/// a data source.
pub const EXTRA: &[&str] = &[
    "peering.view_router_configuration",
    "peering.deploy_router_configuration",
    "peering.send_email",
    "core.synchronise_datasource",
];

/// Whether `name` is a permission there is.
pub fn exists(name: &str) -> bool {
    parse(name).is_some() || EXTRA.contains(&name)
}

/// The action and resource a permission name stands for, if it names one.
pub fn parse(name: &str) -> Option<(Action, &'static ResourceSpec)> {
    let (app, rest) = name.split_once('.')?;
    let (action, model) = rest.split_once('_')?;
    let spec = by_content_type(&format!("{app}.{model}"))?;
    Some((Action::parse(action)?, spec))
}

/// Every permission there is, for listings and messages.
pub fn all_names() -> impl Iterator<Item = String> {
    ALL.iter()
        .flat_map(|spec| Action::ALL.into_iter().map(move |a| name(a, spec)))
        .chain(EXTRA.iter().map(|p| p.to_string()))
}

/// Checks a `permissions` value: a list of permission names.
pub fn validate_list(value: &Json) -> FieldErrors {
    let mut errors = FieldErrors::new();
    let Some(items) = value.as_array() else {
        if !value.is_null() {
            errors.add("permissions", "Expected a list of permission names.");
        }
        return errors;
    };
    for item in items {
        match item.as_str() {
            Some(text) if exists(text) => {}
            Some(text) => errors.add(
                "permissions",
                format!("Unknown permission {text:?}: expected <app>.<view|add|change|delete>_<model>, e.g. peering.add_autonomoussystem."),
            ),
            None => errors.add("permissions", format!("{item} is not a permission name.")),
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::AUTONOMOUS_SYSTEM;
    use serde_json::json;

    #[test]
    fn names_round_trip() {
        let n = name(Action::Add, &AUTONOMOUS_SYSTEM);
        assert_eq!(n, "peering.add_autonomoussystem");
        let (action, spec) = parse(&n).unwrap();
        assert_eq!(action, Action::Add);
        assert!(std::ptr::eq(spec, &AUTONOMOUS_SYSTEM));
        assert_eq!(all_names().count(), ALL.len() * 4 + EXTRA.len());
        for n in all_names() {
            assert!(exists(&n), "{n}");
            assert!(parse(&n).is_some() || EXTRA.contains(&n.as_str()), "{n}");
        }
    }

    #[test]
    fn unknown_names_are_refused() {
        for bad in [
            "peering.fly_autonomoussystem",
            "peering.add_nothing",
            "add_autonomoussystem",
            "peering.addautonomoussystem",
            "",
        ] {
            assert!(parse(bad).is_none(), "{bad}");
        }
        assert!(validate_list(&json!(["peering.view_router", "net.change_connection"])).is_empty());
        assert!(validate_list(&json!([])).is_empty());
        assert!(!validate_list(&json!(["peering.fly_router"])).is_empty());
        assert!(!validate_list(&json!([1])).is_empty());
        assert!(!validate_list(&json!({"a": 1})).is_empty());
    }
}
