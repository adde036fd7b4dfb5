//! Routing policies of an object, or merged from a session's peer and group.

use minijinja::value::Value;
use minijinja::Error;
use peering_domain::resources::INTERNET_EXCHANGE_PEERING_SESSION;

use super::net::family_of;
use super::{invalid, is_session};
use crate::model::{model_of, models, Model};

#[derive(Clone, Copy)]
pub enum Direction {
    Import,
    Export,
}

impl Direction {
    fn field(self) -> &'static str {
        match self {
            Direction::Import => "import_routing_policies",
            Direction::Export => "export_routing_policies",
        }
    }

    fn word(self) -> &'static str {
        match self {
            Direction::Import => "import",
            Direction::Export => "export",
        }
    }
}

/// A policy's address family: 0 (all), 4 or 6, however the choice is kept.
fn address_family(policy: &Model) -> i64 {
    policy
        .int("address_family")
        .or_else(|| policy.text("address_family").parse().ok())
        .unwrap_or(0)
}

/// An object's own policies; with `family` 0, 4 or 6, only those for all families or
/// that one; with `field`, one attribute of each.
pub fn iter(
    direction: Direction,
    value: Value,
    field: Option<String>,
    family: Option<i64>,
) -> Result<Value, Error> {
    let model = model_of(&value)
        .filter(|m| m.has_field(direction.field()))
        .ok_or_else(|| invalid(format!("{value} has not {} policies", direction.word())))?;
    let mut policies = model.list(direction.field());
    if let Some(f @ (0 | 4 | 6)) = family {
        policies.retain(|p| [0, f].contains(&address_family(p)));
    }
    Ok(match field.filter(|f| !f.is_empty()) {
        Some(f) => Value::from(
            policies
                .iter()
                .map(|p| p.attribute(&f).unwrap_or_default())
                .collect::<Vec<_>>(),
        ),
        None => models(policies),
    })
}

/// A session's policies, then its peer's and its group's that apply to its address
/// family, each once; another object's own. `order="reverse"` reverses the list.
pub fn merge(direction: Direction, value: Value, order: Option<String>) -> Result<Value, Error> {
    let model = model_of(&value)
        .filter(|m| m.has_field(direction.field()))
        .ok_or_else(|| {
            invalid(format!(
                "{value} has not merged {} policies",
                direction.word()
            ))
        })?;
    let mut merged = model.list(direction.field());
    if is_session(model) {
        let version = family_of(model.text("ip_address")).map_or(0, i64::from);
        let group = if model.is(&INTERNET_EXCHANGE_PEERING_SESSION) {
            model
                .follow("ixp_connection")
                .and_then(|c| c.follow("internet_exchange_point"))
        } else {
            model.follow("bgp_group")
        };
        for parent in [model.follow("autonomous_system"), group].iter().flatten() {
            for policy in parent.list(direction.field()) {
                if !merged.contains(&policy) && [0, version].contains(&address_family(&policy)) {
                    merged.push(policy);
                }
            }
        }
    }
    if order.as_deref() == Some("reverse") {
        merged.reverse();
    }
    Ok(models(merged))
}
