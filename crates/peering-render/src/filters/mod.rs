//! The reference's template filters, under its names and with its meanings.

mod format;
mod generic;
mod irr;
mod jinja;
pub(crate) mod net;
mod peering;
mod peeringdb;
mod policies;

use minijinja::value::{from_args, Kwargs, Rest, Value, ValueOrKwargs};
use minijinja::{Environment, Error, ErrorKind};
use peering_domain::resources::{
    CONFIG_CONTEXT_ASSIGNMENT, DIRECT_PEERING_SESSION, INTERNET_EXCHANGE_PEERING_SESSION,
};

use crate::model::{model_of, Model};
use policies::Direction;

pub(crate) fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidOperation, message.into())
}

/// The items of a list (or any iterable value).
pub(crate) fn items(value: &Value) -> Result<Vec<Value>, Error> {
    Ok(value.try_iter()?.collect())
}

pub(crate) fn model_arg(value: &Value) -> Result<&Model, Error> {
    model_of(value).ok_or_else(|| invalid(format!("{value} is not a stored object")))
}

pub(crate) fn optional_model(value: Option<&Value>) -> Option<&Model> {
    value.and_then(model_of)
}

pub(crate) fn is_session(model: &Model) -> bool {
    model.is(&DIRECT_PEERING_SESSION) || model.is(&INTERNET_EXCHANGE_PEERING_SESSION)
}

/// An object's config context: the data of the config contexts assigned to it, by
/// weight, merged key by key (nested objects merged, lists replaced), then its own local
/// context data over them; null when there is neither.
pub fn config_context(model: &Model) -> serde_json::Value {
    let content_type = model.spec().content_type();
    let mut assignments: Vec<Model> = model
        .referring(&CONFIG_CONTEXT_ASSIGNMENT, "object_id")
        .into_iter()
        .filter(|a| a.text("content_type") == content_type)
        .collect();
    assignments.sort_by_key(|a| (a.int("weight").unwrap_or(0), a.position()));
    let mut merged = serde_json::Value::Null;
    for assignment in assignments {
        if let Some(context) = assignment.follow("config_context") {
            merge_into(&mut merged, context.record().get(context.spec(), "data"));
        }
    }
    merge_into(
        &mut merged,
        model.record().get(model.spec(), "local_context_data"),
    );
    merged
}

fn merge_into(merged: &mut serde_json::Value, data: &peering_domain::Value) {
    let data = match data {
        peering_domain::Value::Json(data) if data.is_object() => data,
        _ => return,
    };
    if merged.is_null() {
        *merged = (**data).clone();
    } else {
        merge_hash(merged, data);
    }
}

/// `b` merged into `a`: `b`'s keys win, nested objects are merged recursively.
fn merge_hash(a: &mut serde_json::Value, b: &serde_json::Value) {
    match (a, b) {
        (serde_json::Value::Object(a), serde_json::Value::Object(b)) => {
            for (key, value) in b {
                match a.get_mut(key) {
                    Some(existing) if existing.is_object() && value.is_object() => {
                        merge_hash(existing, value)
                    }
                    _ => {
                        a.insert(key.clone(), value.clone());
                    }
                }
            }
        }
        (a, b) => *a = b.clone(),
    }
}

/// A filter's arguments after its value, given by position or, as in Jinja2, by name.
pub(crate) struct Params<'a> {
    positional: &'a [Value],
    named: Kwargs,
}

impl<'a> Params<'a> {
    pub(crate) fn new(args: &'a [Value]) -> Result<Params<'a>, Error> {
        let (positional, named): (&[Value], Kwargs) = from_args(args)?;
        Ok(Params { positional, named })
    }

    /// The argument at `index` or named `name`; none when absent or none.
    pub(crate) fn value(&self, index: usize, name: &str) -> Result<Option<Value>, Error> {
        let value = if self.named.has(name) {
            Some(self.named.get::<Value>(name)?)
        } else {
            self.positional.get(index).cloned()
        };
        Ok(value.filter(|v| !v.is_none() && !v.is_undefined()))
    }

    pub(crate) fn int(&self, index: usize, name: &str) -> Result<Option<i64>, Error> {
        self.value(index, name)?
            .map(|v| {
                v.as_i64()
                    .ok_or_else(|| invalid(format!("{name} must be an integer")))
            })
            .transpose()
    }

    pub(crate) fn count(&self, index: usize, name: &str) -> Result<Option<usize>, Error> {
        self.int(index, name)?
            .map(|n| {
                usize::try_from(n).map_err(|_| invalid(format!("{name} must not be negative")))
            })
            .transpose()
    }

    pub(crate) fn text(&self, index: usize, name: &str) -> Result<Option<String>, Error> {
        Ok(self.value(index, name)?.map(|v| v.to_string()))
    }

    pub(crate) fn flag(&self, index: usize, name: &str) -> Result<Option<bool>, Error> {
        Ok(self.value(index, name)?.map(|v| v.is_true()))
    }

    /// Refuses arguments the filter does not take.
    pub(crate) fn done(self, count: usize) -> Result<(), Error> {
        if self.positional.len() > count {
            return Err(Error::from(ErrorKind::TooManyArguments));
        }
        self.named.assert_all_used()
    }
}

/// Registers a filter whose arguments are read by [`Params`].
fn with_params<F>(env: &mut Environment<'_>, name: &'static str, count: usize, filter: F)
where
    F: Fn(Value, &Params<'_>) -> Result<Value, Error> + Send + Sync + 'static,
{
    env.add_filter(name, move |value: Value, rest: Rest<ValueOrKwargs>| {
        let args: Vec<Value> = rest.0.into_iter().map(Value::from).collect();
        let params = Params::new(&args)?;
        let result = filter(value, &params)?;
        params.done(count)?;
        Ok(result)
    });
}

/// Adds every filter to an environment.
pub fn register(env: &mut Environment<'_>) {
    env.add_filter("safe_string", generic::safe_string);
    with_params(env, "quote", 1, |v, p| {
        Ok(Value::from(generic::quote(v, p.text(0, "char")?)))
    });
    env.add_filter("tags", generic::tags);
    env.add_filter("has_tag", generic::has_tag);
    env.add_filter("has_not_tag", generic::has_not_tag);
    env.add_filter("inherited_status", peering::inherited_status);
    env.add_filter("ipv4", net::ipv4);
    env.add_filter("ipv6", net::ipv6);
    with_params(env, "mac", 1, |v, p| {
        net::mac(v, p.text(0, "format")?).map(Value::from)
    });
    for name in ["length", "len", "count"] {
        env.add_filter(name, generic::length);
    }
    env.add_filter("filter", generic::filter);
    env.add_filter("get", generic::get);
    env.add_filter("unique_items", generic::unique_items);
    env.add_filter("iterate", generic::iterate);
    register_peering(env);
    env.add_filter("ip", net::ip);
    env.add_filter("ip_version", net::ip_version);
    env.add_filter("max_prefix", net::max_prefix);
    // Arista's type 7 passwords carry the same `7 ` marker as Cisco's.
    for name in ["cisco_password", "arista_password"] {
        env.add_filter(name, net::cisco_password);
    }
    register_policies(env);
    register_contexts(env);
    with_params(env, "as_json", 2, |v, p| {
        format::as_json(v, p.count(0, "indent")?, p.flag(1, "sort_keys")?).map(Value::from)
    });
    with_params(env, "as_yaml", 2, |v, p| {
        format::as_yaml(v, p.count(0, "indent")?, p.flag(1, "sort_keys")?).map(Value::from)
    });
    with_params(env, "indent", 3, |v, p| {
        let n = p
            .count(0, "n")?
            .ok_or_else(|| Error::from(ErrorKind::MissingArgument))?;
        Ok(Value::from(generic::indent(
            v,
            n,
            p.text(1, "chars")?,
            p.flag(2, "reset")?,
        )))
    });
}

fn register_peering(env: &mut Environment<'_>) {
    env.add_filter("ixps", peering::ixps);
    env.add_filter("shared_ixps", peeringdb::shared_ixps);
    env.add_filter("shared_facilities", peeringdb::shared_facilities);
    with_params(env, "missing_sessions", 2, |v, p| {
        let other = p.value(0, "other")?.unwrap_or_default();
        peeringdb::missing_sessions(v, other, p.value(1, "ixp")?)
    });
    with_params(env, "prefix_list", 1, |v, p| {
        peering::prefix_list(v, p.int(0, "family")?)
    });
    with_params(env, "local_ips", 1, |v, p| {
        Ok(net::local_ips(v, p.int(0, "family")?))
    });
    with_params(env, "direct_sessions", 2, |v, p| {
        peering::direct_sessions(v, p.int(0, "family")?, p.value(1, "group")?)
    });
    with_params(env, "ixp_sessions", 2, |v, p| {
        peering::ixp_sessions(v, p.int(0, "family")?, p.value(1, "ixp")?)
    });
    with_params(env, "sessions", 1, |v, p| {
        peering::sessions(v, p.int(0, "family")?)
    });
    with_params(env, "route_server", 1, |v, p| {
        peering::route_server(v, p.int(0, "family")?)
    });
    env.add_filter("connections", peering::connections);
    with_params(env, "direct_peers", 1, |v, p| {
        peering::direct_peers(v, p.text(0, "group")?)
    });
    with_params(env, "ixp_peers", 1, |v, p| {
        peering::ixp_peers(v, p.text(0, "ixp")?)
    });
    with_params(env, "communities", 1, |v, p| {
        peering::communities(v, p.text(0, "field")?)
    });
    env.add_filter("merge_communities", peering::merge_communities);
    register_110(env);
    register_jinja2(env);
    with_params(env, "contact", 2, |v, p| {
        let role = p
            .text(0, "role")?
            .ok_or_else(|| Error::from(ErrorKind::MissingArgument))?;
        peering::contact(v, role, p.text(1, "field")?)
    });
}

/// The filters the reference added in 1.10 (beside `arista_password`).
fn register_110(env: &mut Environment<'_>) {
    with_params(env, "as_list", 1, |v, p| {
        p.int(0, "family")?;
        irr::as_list(v)
    });
    env.add_filter("strip_irr_sources", irr::strip_irr_sources);
    with_params(env, "relationships", 1, |v, p| {
        peering::relationships(v, p.value(0, "local_autonomous_system")?)
    });
    env.add_filter("bfds", peering::bfds);
    with_params(env, "routing_policies", 2, |v, p| {
        policies::routing_policies(v, p.text(0, "field")?, p.int(1, "family")?)
    });
}

/// Jinja2's own filters the engine lacks or writes otherwise (not in [`NAMES`]).
fn register_jinja2(env: &mut Environment<'_>) {
    for name in ["escape", "e"] {
        env.add_filter(name, jinja::escape);
    }
    env.add_filter("forceescape", jinja::forceescape);
    with_params(env, "center", 1, |v, p| {
        Ok(Value::from(jinja::center(v, p.count(0, "width")?)))
    });
    with_params(env, "filesizeformat", 1, |v, p| {
        jinja::filesizeformat(v, p.flag(0, "binary")?).map(Value::from)
    });
    env.add_filter("random", jinja::random);
    env.add_filter("striptags", jinja::striptags);
    with_params(env, "truncate", 4, |v, p| {
        let (length, killwords) = (p.count(0, "length")?, p.flag(1, "killwords")?);
        let (end, leeway) = (p.text(2, "end")?, p.count(3, "leeway")?);
        jinja::truncate(v, length, killwords, end, leeway).map(Value::from)
    });
    env.add_filter("urlencode", jinja::urlencode);
    env.add_filter("wordcount", jinja::wordcount);
    with_params(env, "xmlattr", 1, |v, p| {
        jinja::xmlattr(v, p.flag(0, "autospace")?)
    });
    with_params(env, "tojson", 1, |v, p| {
        format::tojson(v, p.count(0, "indent")?)
    });
}

fn register_policies(env: &mut Environment<'_>) {
    for (name, direction) in [
        ("iter_export_policies", Direction::Export),
        ("iter_import_policies", Direction::Import),
    ] {
        with_params(env, name, 2, move |v, p| {
            policies::iter(direction, v, p.text(0, "field")?, p.int(1, "family")?)
        });
    }
    for (name, direction) in [
        ("merge_export_policies", Direction::Export),
        ("merge_import_policies", Direction::Import),
    ] {
        with_params(env, name, 1, move |v, p| {
            policies::merge(direction, v, p.text(0, "order")?)
        });
    }
}

fn register_contexts(env: &mut Environment<'_>) {
    let key = |p: &Params<'_>| {
        p.text(0, "key")?
            .ok_or_else(|| Error::from(ErrorKind::MissingArgument))
    };
    with_params(env, "context_has_key", 2, move |v, p| {
        generic::context_has_key(v, key(p)?, p.flag(1, "recursive")?).map(Value::from)
    });
    with_params(env, "context_has_not_key", 2, move |v, p| {
        generic::context_has_not_key(v, key(p)?, p.flag(1, "recursive")?).map(Value::from)
    });
    with_params(env, "context_get_key", 3, move |v, p| {
        generic::context_get_key(v, key(p)?, p.value(1, "default")?, p.flag(2, "recursive")?)
    });
}

/// The names of the filters [`register`] adds, for documentation and tests.
pub const NAMES: &[&str] = &[
    "safe_string",
    "quote",
    "tags",
    "has_tag",
    "has_not_tag",
    "inherited_status",
    "ipv4",
    "ipv6",
    "mac",
    "length",
    "len",
    "count",
    "filter",
    "get",
    "unique_items",
    "iterate",
    "ixps",
    "shared_ixps",
    "shared_facilities",
    "missing_sessions",
    "prefix_list",
    "local_ips",
    "direct_sessions",
    "ixp_sessions",
    "sessions",
    "route_server",
    "ip",
    "ip_version",
    "max_prefix",
    "cisco_password",
    "arista_password",
    "as_list",
    "strip_irr_sources",
    "relationships",
    "bfds",
    "routing_policies",
    "connections",
    "direct_peers",
    "ixp_peers",
    "communities",
    "merge_communities",
    "contact",
    "iter_export_policies",
    "iter_import_policies",
    "merge_export_policies",
    "merge_import_policies",
    "context_has_key",
    "context_has_not_key",
    "context_get_key",
    "as_json",
    "as_yaml",
    "indent",
];
