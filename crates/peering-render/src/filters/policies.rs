//! Routing policies of an object, or merged from a session's peer and group.

use minijinja::value::Value;
use minijinja::Error;
use peering_domain::resources::{
    DIRECT_PEERING_SESSION, INTERNET_EXCHANGE_PEERING_SESSION, ROUTING_POLICY,
};

use super::net::family_of;
use super::peering::{connection_sessions, router_arg, router_connections};
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
        .ok_or_else(|| invalid(format!("{value} has no {} policies", direction.word())))?;
    let mut policies = model.list(direction.field());
    if let Some(f @ (0 | 4 | 6)) = family {
        policies.retain(|p| [0, f].contains(&address_family(p)));
    }
    Ok(each_or_field(policies, field))
}

/// The policies, or one attribute of each when `field` names one.
fn each_or_field(policies: Vec<Model>, field: Option<String>) -> Value {
    match field.filter(|f| !f.is_empty()) {
        Some(f) => Value::from(
            policies
                .iter()
                .map(|p| p.attribute(&f).unwrap_or_default())
                .collect::<Vec<_>>(),
        ),
        None => models(policies),
    }
}

/// Every policy a router needs, by name, each once: those of its sessions (direct and at
/// exchanges), of their peers, and of their BGP groups and exchanges. As the reference,
/// a router without sessions needs every policy. `family` and `field` as [`iter`].
pub fn routing_policies(
    value: Value,
    field: Option<String>,
    family: Option<i64>,
) -> Result<Value, Error> {
    let router = router_arg(&value)?;
    let direct = router.referring(&DIRECT_PEERING_SESSION, "router");
    let at_exchanges = connection_sessions(&router_connections(router, None));
    let mut holders: Vec<Model> = Vec::new();
    for session in direct.iter().chain(&at_exchanges) {
        holders.push(session.clone());
        holders.extend(session.follow("autonomous_system"));
        holders.extend(if session.is(&INTERNET_EXCHANGE_PEERING_SESSION) {
            session
                .follow("ixp_connection")
                .and_then(|c| c.follow("internet_exchange_point"))
        } else {
            session.follow("bgp_group")
        });
    }
    let mut policies: Vec<Model> = if holders.is_empty() {
        Model::all(router.data(), &ROUTING_POLICY)
    } else {
        let lists = ["import_routing_policies", "export_routing_policies"];
        let all = holders
            .iter()
            .flat_map(|h| lists.map(|l| h.list(l)))
            .flatten();
        crate::model::in_list_order(all.collect())
    };
    policies.sort_by(|a, b| a.text("name").cmp(b.text("name")));
    if let Some(f @ (0 | 4 | 6)) = family {
        policies.retain(|p| [0, f].contains(&address_family(p)));
    }
    Ok(each_or_field(policies, field))
}

/// A session's policies, then its peer's and its group's that apply to its address
/// family, each once; another object's own. `order="reverse"` reverses the list.
pub fn merge(direction: Direction, value: Value, order: Option<String>) -> Result<Value, Error> {
    let model = model_of(&value)
        .filter(|m| m.has_field(direction.field()))
        .ok_or_else(|| {
            invalid(format!(
                "{value} has no merged {} policies",
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
