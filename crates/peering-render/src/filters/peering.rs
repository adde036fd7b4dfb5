//! Filters over the peering model: sessions, peers, exchanges, connections, statuses,
//! communities, routing policies, contacts and prefixes.

use minijinja::value::Value;
use minijinja::Error;
use peering_domain::resources::{
    AUTONOMOUS_SYSTEM, BGP_GROUP, CONNECTION, CONTACT_ASSIGNMENT, DIRECT_PEERING_SESSION,
    INTERNET_EXCHANGE, INTERNET_EXCHANGE_PEERING_SESSION, ROUTER,
};

use super::net::family_of;
use super::{invalid, is_session, model_arg, optional_model};
use crate::model::{in_list_order, model_of, models, Model};

/// Keeps the sessions of an address family (4 or 6); any other value keeps all.
fn of_family(sessions: Vec<Model>, family: Option<i64>) -> Vec<Model> {
    match family {
        Some(f @ (4 | 6)) => sessions
            .into_iter()
            .filter(|s| family_of(s.text("ip_address")).map(i64::from) == Some(f))
            .collect(),
        _ => sessions,
    }
}

pub(crate) fn ixp_connections(ixp: &Model) -> Vec<Model> {
    ixp.referring(&CONNECTION, "internet_exchange_point")
}

pub(super) fn connection_sessions(connections: &[Model]) -> Vec<Model> {
    let sessions = connections
        .iter()
        .flat_map(|c| c.referring(&INTERNET_EXCHANGE_PEERING_SESSION, "ixp_connection"))
        .collect();
    in_list_order(sessions)
}

fn session_exchange(session: &Model) -> Option<Model> {
    session
        .follow("ixp_connection")?
        .follow("internet_exchange_point")
}

/// The group a session belongs to: its exchange, or its BGP group.
fn session_group(session: &Model) -> Option<Model> {
    if session.is(&INTERNET_EXCHANGE_PEERING_SESSION) {
        session_exchange(session)
    } else {
        session.follow("bgp_group")
    }
}

/// Direct sessions with an autonomous system, or on a router (in a BGP group if given).
pub fn direct_sessions(
    value: Value,
    family: Option<i64>,
    group: Option<Value>,
) -> Result<Value, Error> {
    let model = model_arg(&value)?;
    let group = optional_model(group.as_ref());
    let sessions = if model.is(&AUTONOMOUS_SYSTEM) {
        model.referring(&DIRECT_PEERING_SESSION, "autonomous_system")
    } else if model.is(&ROUTER) {
        let all = model.referring(&DIRECT_PEERING_SESSION, "router");
        match group {
            Some(g) => all
                .into_iter()
                .filter(|s| s.follow("bgp_group").as_ref() == Some(g))
                .collect(),
            None => all,
        }
    } else {
        return Err(invalid(format!(
            "{model} has no direct peering sessions, try `sessions`"
        )));
    };
    Ok(models(of_family(sessions, family)))
}

/// Sessions at exchanges with an autonomous system or through a router's connections
/// (at one exchange if given).
pub fn ixp_sessions(value: Value, family: Option<i64>, ixp: Option<Value>) -> Result<Value, Error> {
    let model = model_arg(&value)?;
    let ixp = optional_model(ixp.as_ref());
    let sessions = if model.is(&AUTONOMOUS_SYSTEM) {
        let all = model.referring(&INTERNET_EXCHANGE_PEERING_SESSION, "autonomous_system");
        match ixp {
            Some(x) => all
                .into_iter()
                .filter(|s| session_exchange(s).as_ref() == Some(x))
                .collect(),
            None => all,
        }
    } else if model.is(&ROUTER) {
        connection_sessions(&router_connections(model, ixp))
    } else {
        return Err(invalid(format!(
            "{model} has no ixp peering sessions, try `sessions`"
        )));
    };
    Ok(models(of_family(sessions, family)))
}

pub(super) fn router_connections(router: &Model, ixp: Option<&Model>) -> Vec<Model> {
    let all = router.referring(&CONNECTION, "router");
    match ixp {
        Some(x) => all
            .into_iter()
            .filter(|c| c.follow("internet_exchange_point").as_ref() == Some(x))
            .collect(),
        None => all,
    }
}

fn group_sessions(model: &Model) -> Option<Vec<Model>> {
    if model.is(&BGP_GROUP) {
        Some(model.referring(&DIRECT_PEERING_SESSION, "bgp_group"))
    } else if model.is(&INTERNET_EXCHANGE) {
        Some(connection_sessions(&ixp_connections(model)))
    } else {
        None
    }
}

/// The sessions of a BGP group or of an exchange.
pub fn sessions(value: Value, family: Option<i64>) -> Result<Value, Error> {
    let model = model_arg(&value)?;
    let all = group_sessions(model).ok_or_else(|| {
        invalid(format!(
            "{model} has no generic peering sessions, try `direct_sessions` or `ixp_sessions`"
        ))
    })?;
    Ok(models(of_family(all, family)))
}

/// The route server sessions of an exchange.
pub fn route_server(value: Value, family: Option<i64>) -> Result<Value, Error> {
    let model = model_arg(&value)?;
    if !model.is(&INTERNET_EXCHANGE) {
        return Err(invalid("value is not an internet exchange"));
    }
    let all = of_family(group_sessions(model).unwrap_or_default(), family);
    let kept = all
        .into_iter()
        .filter(|s| s.record().get(s.spec(), "is_route_server").as_bool() == Some(true))
        .collect();
    Ok(models(kept))
}

/// The connections to an exchange, or of a router.
pub fn connections(value: Value) -> Result<Value, Error> {
    let model = model_arg(&value)?;
    if model.is(&INTERNET_EXCHANGE) {
        Ok(models(ixp_connections(model)))
    } else if model.is(&ROUTER) {
        Ok(models(router_connections(model, None)))
    } else {
        Err(invalid(format!("{model} has no connections")))
    }
}

pub(super) fn router_arg(value: &Value) -> Result<&Model, Error> {
    model_of(value)
        .filter(|m| m.is(&ROUTER))
        .ok_or_else(|| invalid("value is not a router"))
}

/// The object of `spec` whose slug is `slug`.
fn by_slug(
    router: &Model,
    spec: &'static peering_domain::ResourceSpec,
    slug: &str,
) -> Option<Model> {
    Model::all(router.data(), spec)
        .into_iter()
        .find(|m| m.text("slug") == slug)
}

fn peers_of(sessions: Vec<Model>) -> Value {
    let peers = sessions
        .iter()
        .filter_map(|s| s.follow("autonomous_system"))
        .collect();
    models(in_list_order(peers))
}

/// The autonomous systems a router peers with directly (in the BGP group of this slug).
pub fn direct_peers(value: Value, group: Option<String>) -> Result<Value, Error> {
    let router = router_arg(&value)?;
    let group = group
        .filter(|g| !g.is_empty())
        .and_then(|g| by_slug(router, &BGP_GROUP, &g));
    let sessions = router.referring(&DIRECT_PEERING_SESSION, "router");
    let sessions = match group {
        Some(g) => sessions
            .into_iter()
            .filter(|s| s.follow("bgp_group") == Some(g.clone()))
            .collect(),
        None => sessions,
    };
    Ok(peers_of(sessions))
}

/// The autonomous systems a router peers with at exchanges (at the one of this slug).
pub fn ixp_peers(value: Value, ixp: Option<String>) -> Result<Value, Error> {
    let router = router_arg(&value)?;
    let ixp = ixp
        .filter(|x| !x.is_empty())
        .and_then(|x| by_slug(router, &INTERNET_EXCHANGE, &x));
    Ok(peers_of(connection_sessions(&router_connections(
        router,
        ixp.as_ref(),
    ))))
}

/// The BFD configurations at least one of a router's sessions (direct, or through its
/// connections) uses, each once.
pub fn bfds(value: Value) -> Result<Value, Error> {
    let router = router_arg(&value)?;
    let direct = router.referring(&DIRECT_PEERING_SESSION, "router");
    let at_exchanges = connection_sessions(&router_connections(router, None));
    let used = direct
        .iter()
        .chain(&at_exchanges)
        .filter_map(|s| s.follow("bfd"))
        .collect();
    Ok(models(in_list_order(used)))
}

/// The relationships of an autonomous system's direct sessions (those with
/// `local_autonomous_system` only, when given), each once.
pub fn relationships(value: Value, local: Option<Value>) -> Result<Value, Error> {
    let model = model_of(&value)
        .filter(|m| m.is(&AUTONOMOUS_SYSTEM))
        .ok_or_else(|| invalid("value has no relationships"))?;
    // An object, or its id as the reference's query takes it.
    let local_id = local
        .filter(Value::is_true)
        .map(|l| model_of(&l).map(Model::id).or_else(|| l.as_i64()));
    let found = model
        .referring(&DIRECT_PEERING_SESSION, "autonomous_system")
        .into_iter()
        .filter(|s| local_id.is_none_or(|id| s.int("local_autonomous_system") == id))
        .filter_map(|s| s.follow("relationship"))
        .collect();
    Ok(models(in_list_order(found)))
}

/// The exchanges, run by `other`, where this autonomous system has sessions with us.
pub fn ixps(value: Value, other: Value) -> Result<Value, Error> {
    let model = model_of(&value)
        .filter(|m| m.is(&AUTONOMOUS_SYSTEM))
        .ok_or_else(|| invalid("value is not an autonomous system"))?;
    let other = model_of(&other);
    let exchanges = model
        .referring(&INTERNET_EXCHANGE_PEERING_SESSION, "autonomous_system")
        .iter()
        .filter_map(session_exchange)
        .filter(|x| x.follow("local_autonomous_system").as_ref() == other)
        .collect();
    Ok(models(in_list_order(exchanges)))
}

/// An autonomous system's stored prefixes (`{"ipv6": […], "ipv4": […]}`), or an
/// exchange's; one family's list with `family` 4 or 6.
pub fn prefix_list(value: Value, family: Option<i64>) -> Result<Value, Error> {
    let model = model_arg(&value)?;
    let stored = if model.is(&AUTONOMOUS_SYSTEM) {
        model.record().get(model.spec(), "prefixes").clone()
    } else if model.is(&INTERNET_EXCHANGE) {
        model.record().get(model.spec(), "extdb_prefixes").clone()
    } else {
        return Err(invalid("value has no prefixes"));
    };
    let json = match stored {
        peering_domain::Value::Json(j) if j.is_object() => *j,
        _ if model.is(&AUTONOMOUS_SYSTEM) => serde_json::json!({"ipv6": [], "ipv4": []}),
        _ => serde_json::json!({}),
    };
    Ok(match family {
        Some(f @ (4 | 6)) => crate::model::json_value(
            json.get(format!("ipv{f}"))
                .cloned()
                .unwrap_or_else(|| serde_json::json!([])),
        ),
        _ => crate::model::json_value(json),
    })
}

/// The status of an object once its parents' are taken into account: a disabled or
/// maintained exchange, group or router passes it on to what depends on it.
pub fn inherited_status(value: Value) -> Result<String, Error> {
    let model = model_of(&value)
        .filter(|m| m.has_field("status"))
        .ok_or_else(|| invalid("value has no status property"))?;
    Ok(inherited(model))
}

const MAINTENANCE: &[&str] = &["pre-maintenance", "maintenance", "post-maintenance"];

fn inherited(model: &Model) -> String {
    let own = model.text("status").to_string();
    if own == "disabled" {
        return own;
    }
    let parent = |field: &str| model.follow(field).map(|p| p.text("status").to_string());
    if model.is(&CONNECTION) {
        if let Some(s) = parent("internet_exchange_point") {
            if s == "disabled" || MAINTENANCE.contains(&s.as_str()) {
                return s;
            }
        }
        if let Some(s) = parent("router").filter(|s| MAINTENANCE.contains(&s.as_str())) {
            return s;
        }
    } else if model.is(&DIRECT_PEERING_SESSION) {
        if let Some(s) = parent("bgp_group").filter(|s| s == "disabled" || s == "maintenance") {
            return s;
        }
        if let Some(s) = parent("router").filter(|s| MAINTENANCE.contains(&s.as_str())) {
            return s;
        }
    } else if model.is(&INTERNET_EXCHANGE_PEERING_SESSION) {
        if let Some(connection) = model.follow("ixp_connection") {
            let s = inherited(&connection);
            if s == "disabled" || MAINTENANCE.contains(&s.as_str()) {
                return s;
            }
        }
    }
    own
}

fn attributes(list: Vec<Model>, field: &str) -> Value {
    Value::from(
        list.iter()
            .map(|m| m.attribute(field).unwrap_or_default())
            .collect::<Vec<_>>(),
    )
}

/// The communities of an object, or one attribute of each.
pub fn communities(value: Value, field: Option<String>) -> Result<Value, Error> {
    let own = model_of(&value)
        .map(|m| m.list("communities"))
        .unwrap_or_default();
    Ok(match field.filter(|f| !f.is_empty()) {
        Some(f) => attributes(own, &f),
        None => models(own),
    })
}

/// A session's communities, then its peer's, then its group's, each once; another
/// object's own communities.
pub fn merge_communities(value: Value) -> Result<Value, Error> {
    let Some(session) = model_of(&value).filter(|m| is_session(m)) else {
        return communities(value, None);
    };
    let mut merged = session.list("communities");
    let inherited = [session.follow("autonomous_system"), session_group(session)];
    for parent in inherited.iter().flatten() {
        for community in parent.list("communities") {
            if !merged.contains(&community) {
                merged.push(community);
            }
        }
    }
    Ok(models(merged))
}

/// The first contact of an autonomous system or an exchange (of a session's peer) with
/// this role (case-insensitive), or one of its attributes.
pub fn contact(value: Value, role: String, field: Option<String>) -> Result<Value, Error> {
    let model = model_arg(&value)?;
    let owner = if model.is(&AUTONOMOUS_SYSTEM) || model.is(&INTERNET_EXCHANGE) {
        Some(model.clone())
    } else if is_session(model) {
        model.follow("autonomous_system")
    } else {
        return Err(invalid(format!("{model} has no contacts")));
    };
    let Some(owner) = owner else {
        return Ok(Value::from(()));
    };
    let content_type = owner.spec().content_type();
    let role = role.to_lowercase();
    let found = owner
        .referring(&CONTACT_ASSIGNMENT, "object_id")
        .into_iter()
        .filter(|a| a.text("content_type") == content_type)
        .find(|a| {
            a.follow("role")
                .is_some_and(|r| r.text("name").to_lowercase() == role)
        })
        .and_then(|a| a.follow("contact"));
    Ok(match (found, field.filter(|f| !f.is_empty())) {
        (Some(c), Some(f)) => c.attribute(&f).unwrap_or_default(),
        (Some(c), None) => c.value(),
        (None, _) => Value::from(()),
    })
}
