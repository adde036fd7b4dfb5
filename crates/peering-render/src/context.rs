//! The variables each kind of template receives, as the reference builds them.

use std::sync::Arc;

use minijinja::value::Value;
use peering_domain::resources::{
    AUTONOMOUS_SYSTEM, COMMUNITY, CONNECTION, DIRECT_PEERING_SESSION,
    INTERNET_EXCHANGE_PEERING_SESSION, ROUTER, ROUTING_POLICY,
};
use peering_domain::ResourceSpec;

use crate::dataset::Dataset;
use crate::model::{in_list_order, models, Model};

/// A router's configuration: `router`, `local_as`, `autonomous_systems` (peers, direct
/// or at exchanges), `bgp_groups` (those with direct sessions on the router),
/// `internet_exchange_points` (those the router is connected to), and every
/// `communities` and `routing_policies`. `None` if there is no such router.
pub fn router_configuration(data: &Arc<Dataset>, router_id: i64) -> Option<Value> {
    let router = Model::find(data, &ROUTER, router_id)?;
    let direct = router.referring(&DIRECT_PEERING_SESSION, "router");
    let connections = router.referring(&CONNECTION, "router");
    let ixp_sessions: Vec<Model> = connections
        .iter()
        .flat_map(|c| c.referring(&INTERNET_EXCHANGE_PEERING_SESSION, "ixp_connection"))
        .collect();
    let peers = direct
        .iter()
        .chain(&ixp_sessions)
        .filter_map(|s| s.follow("autonomous_system"))
        .collect();
    let groups = direct
        .iter()
        .filter_map(|s| s.follow("bgp_group"))
        .collect();
    let exchanges = connections
        .iter()
        .filter_map(|c| c.follow("internet_exchange_point"))
        .collect();
    Some(minijinja::context! {
        router => router.clone().value(),
        local_as => router.follow("local_autonomous_system").map(Model::value),
        autonomous_systems => models(in_list_order(peers)),
        bgp_groups => models(in_list_order(groups)),
        internet_exchange_points => models(in_list_order(exchanges)),
        communities => models(Model::all(data, &COMMUNITY)),
        routing_policies => models(Model::all(data, &ROUTING_POLICY)),
    })
}

/// An e-mail to an autonomous system: `autonomous_system` and every
/// `affiliated_autonomous_systems`. `None` if there is no such autonomous system.
pub fn email(data: &Arc<Dataset>, autonomous_system_id: i64) -> Option<Value> {
    let autonomous_system = Model::find(data, &AUTONOMOUS_SYSTEM, autonomous_system_id)?;
    let affiliated = Model::all(data, &AUTONOMOUS_SYSTEM)
        .into_iter()
        .filter(|a| a.record().get(a.spec(), "affiliated").as_bool() == Some(true))
        .collect();
    Some(minijinja::context! {
        autonomous_system => autonomous_system.value(),
        affiliated_autonomous_systems => models(affiliated),
    })
}

/// An e-mail to a PeeringDB network, as the reference renders one: `autonomous_systems`,
/// our autonomous system then the network (given as its API representation, so that a
/// render does not load the whole copy). `None` if there is no such autonomous system.
pub fn peeringdb_network_email(
    data: &Arc<Dataset>,
    autonomous_system_id: i64,
    network: &serde_json::Value,
) -> Option<Value> {
    let ours = Model::find(data, &AUTONOMOUS_SYSTEM, autonomous_system_id)?;
    let systems = vec![ours.value(), Value::from(minijinja::value::Serde(network))];
    Some(minijinja::context! { autonomous_systems => systems })
}

/// An export: `dataset`, the objects given (ids, in order), or every object of the
/// resource.
pub fn export(data: &Arc<Dataset>, spec: &'static ResourceSpec, ids: Option<&[i64]>) -> Value {
    let objects = match ids {
        Some(ids) => ids
            .iter()
            .filter_map(|id| Model::find(data, spec, *id))
            .collect(),
        None => Model::all(data, spec),
    };
    minijinja::context! { dataset => models(objects) }
}

/// A JSON document as a template value (a webhook's context): objects are maps, in their
/// order.
pub fn from_json(document: &serde_json::Value) -> Value {
    Value::from(minijinja::value::Serde(document))
}
