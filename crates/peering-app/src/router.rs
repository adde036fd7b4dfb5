//! Talking to routers through the operator's command (`PEERING_ROUTER_COMMAND`): peeringd
//! embeds no router library. The command is run as `COMMAND ACTION` (`poll`, `configure`
//! or `test`) with a JSON document on its standard input and answers with one on its
//! standard output; docs/router-command.md is the contract.

use std::time::Duration;

use peering_domain::input::{Draft, Input};
use peering_domain::resources::{
    CONNECTION, DIRECT_PEERING_SESSION, INTERNET_EXCHANGE_PEERING_SESSION, PLATFORM, ROUTER,
};
use peering_domain::{Record, ResourceSpec, Value};
use peering_exec::{ExecError, Local, Transport};
use peering_store::ChangeContext;
use serde_json::{json, Value as Json};

use super::{Work, WorkError};

/// What is asked of a router.
#[derive(Debug, Clone)]
pub enum Ask {
    Poll,
    Configure { configuration: String, commit: bool },
    Test,
}

impl Ask {
    fn action(&self) -> &'static str {
        match self {
            Ask::Poll => "poll",
            Ask::Configure { .. } => "configure",
            Ask::Test => "test",
        }
    }
}

/// Runs `command ACTION` with `input` on its standard input; its standard output as JSON.
/// It must end within `timeout`, and so does the job: the command runs on this host in a
/// process group of its own, with a clean environment, killed at the deadline and once the
/// command exits, and dies with the server (`peering_exec`). A failure names the exit
/// status and the end of its standard error.
pub fn run_command(
    command: &[String],
    action: &str,
    input: &Json,
    timeout: Duration,
) -> Result<Json, String> {
    let (program, args) = command
        .split_first()
        .ok_or("no router command is configured")?;
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    args.push(action);
    let input = input.to_string().into_bytes();
    let ran = Local
        .run(program, &args, &input, timeout)
        .map_err(|e| why_no_answer(e, timeout))?;
    if !ran.success() {
        let status = match ran.code {
            Some(code) => format!("exit status: {code}"),
            None => "killed by a signal".to_string(),
        };
        return Err(format!(
            "the router command failed ({status}): {}",
            ran.stderr_tail(5)
        ));
    }
    serde_json::from_slice(&ran.stdout)
        .map_err(|e| format!("the router command's answer is not JSON: {e}"))
}

/// What the job's output says when the command gave no answer.
fn why_no_answer(error: ExecError, timeout: Duration) -> String {
    match error {
        ExecError::TimedOut { .. } => format!(
            "the router command did not answer within {} s",
            timeout.as_secs()
        ),
        ExecError::OutputHeld { .. } => format!(
            "the router command exited, but a process it started outside its process group \
             still held its output open after {} s",
            timeout.as_secs()
        ),
        other => other.to_string(),
    }
}

/// The router as the command receives it: its fields, NAPALM settings and platform.
fn router_document(router: &Record, platform: Option<&Record>) -> Json {
    let text = |name| json!(router.text(&ROUTER, name));
    let platform = platform.map(|p| {
        json!({
            "name": p.text(&PLATFORM, "name"),
            "slug": p.text(&PLATFORM, "slug"),
            "napalm_driver": p.text(&PLATFORM, "napalm_driver"),
            "napalm_args": json_of(p.get(&PLATFORM, "napalm_args")),
        })
    });
    json!({
        "id": router.id,
        "name": text("name"),
        "hostname": text("hostname"),
        "platform": platform,
        "napalm_username": json_of(router.get(&ROUTER, "napalm_username")),
        "napalm_password": json_of(router.get(&ROUTER, "napalm_password")),
        "napalm_timeout": router.int(&ROUTER, "napalm_timeout"),
        "napalm_args": json_of(router.get(&ROUTER, "napalm_args")),
    })
}

fn json_of(value: &Value) -> Json {
    match value {
        Value::Null => Json::Null,
        Value::Bool(b) => json!(b),
        Value::Int(i) => json!(i),
        Value::Text(s) => json!(s),
        Value::Json(j) => (**j).clone(),
        other => json!(format!("{other:?}")),
    }
}

/// A resource's sessions on a router: (id, address).
type SessionsOf = (&'static ResourceSpec, Vec<(i64, String)>);

/// A session state the command reported.
struct Reported {
    state: Option<String>,
    counts: [(&'static str, Option<i64>); 3],
}

fn reported(entry: &Json) -> Reported {
    let count = |name| entry.get(name).and_then(Json::as_i64);
    Reported {
        state: entry
            .get("state")
            .and_then(Json::as_str)
            .map(str::to_lowercase)
            .filter(|s| peering_domain::choices::BGP_STATE.contains(s)),
        counts: [
            ("received_prefix_count", count("received_prefix_count")),
            ("accepted_prefix_count", count("accepted_prefix_count")),
            ("advertised_prefix_count", count("advertised_prefix_count")),
        ],
    }
}

impl Work {
    /// Asks a router something through the command; the command's answer.
    pub fn ask_router(
        &self,
        command: &[String],
        router: i64,
        ask: &Ask,
    ) -> Result<Json, WorkError> {
        let record = self.record(&ROUTER, router, "router")?;
        let platform = match record.get(&ROUTER, "platform").as_int() {
            Some(id) => self.store.get(&PLATFORM, id)?.map(|(p, _)| p),
            None => None,
        };
        let mut input =
            json!({"action": ask.action(), "router": router_document(&record, platform.as_ref())});
        if let Ask::Configure {
            configuration,
            commit,
        } = ask
        {
            input["configuration"] = json!(configuration);
            input["commit"] = json!(commit);
        }
        let timeout = match record.int(&ROUTER, "napalm_timeout") {
            0 => Duration::from_secs(60),
            secs => Duration::from_secs(secs.unsigned_abs()),
        };
        run_command(command, ask.action(), &input, timeout).map_err(WorkError::Router)
    }

    /// Polls a router's sessions and records what it reports; a summary.
    pub fn poll_router(
        &self,
        command: &[String],
        router: i64,
        ctx: &ChangeContext,
    ) -> Result<String, WorkError> {
        let answer = self.ask_router(command, router, &Ask::Poll)?;
        let entries = answer["sessions"].as_array().cloned().unwrap_or_default();
        let mut updated = 0;
        for (spec, ids) in self.router_sessions(router)? {
            let mut items = Vec::new();
            for (id, address) in ids {
                let Some(entry) = entries.iter().find(|e| {
                    e["ip_address"]
                        .as_str()
                        .is_some_and(|a| same_address(a, &address))
                }) else {
                    continue;
                };
                items.push((id, poll_draft(spec, &reported(entry))));
            }
            updated += items.len();
            if !items.is_empty() {
                self.store.update(spec, items, ctx)?;
            }
        }
        Ok(format!(
            "{updated} of {} reported sessions updated",
            entries.len()
        ))
    }

    /// The router's sessions by resource: (id, address).
    fn router_sessions(&self, router: i64) -> Result<Vec<SessionsOf>, WorkError> {
        let direct: Vec<(i64, String)> = self
            .store
            .everything(&DIRECT_PEERING_SESSION)?
            .into_iter()
            .filter(|s| s.get(&DIRECT_PEERING_SESSION, "router").as_int() == Some(router))
            .map(|s| {
                (
                    s.id,
                    s.text(&DIRECT_PEERING_SESSION, "ip_address").to_string(),
                )
            })
            .collect();
        let connections: Vec<i64> = self
            .store
            .everything(&CONNECTION)?
            .into_iter()
            .filter(|c| c.get(&CONNECTION, "router").as_int() == Some(router))
            .map(|c| c.id)
            .collect();
        let spec = &INTERNET_EXCHANGE_PEERING_SESSION;
        let exchange: Vec<(i64, String)> = self
            .store
            .everything(spec)?
            .into_iter()
            .filter(|s| {
                s.get(spec, "ixp_connection")
                    .as_int()
                    .is_some_and(|c| connections.contains(&c))
            })
            .map(|s| (s.id, s.text(spec, "ip_address").to_string()))
            .collect();
        Ok(vec![(&DIRECT_PEERING_SESSION, direct), (spec, exchange)])
    }
}

fn same_address(reported: &str, stored: &str) -> bool {
    let host = |t: &str| {
        t.split('/')
            .next()
            .unwrap_or(t)
            .parse::<std::net::IpAddr>()
            .ok()
    };
    host(reported).is_some() && host(reported) == host(stored)
}

/// The change a poll makes to a session: state, counts and, once established, the time.
fn poll_draft(spec: &ResourceSpec, report: &Reported) -> Draft {
    let mut draft = Draft::empty(spec);
    let mut set = |name: &str, value: Value| {
        draft.set(spec, name, Input::Value(value));
    };
    if let Some(state) = &report.state {
        set("bgp_state", Value::Text(state.clone()));
        if state == "established" {
            set(
                "last_established_state",
                Value::Time(peering_domain::value::now()),
            );
        }
    }
    for (name, count) in report.counts {
        if let Some(n) = count {
            set(name, Value::Int(n.max(0)));
        }
    }
    draft
}

impl Work {
    /// The routers that hold sessions of an autonomous system, a BGP group or an exchange
    /// (what the reference polls for each of them), in id order.
    pub fn routers_of(&self, spec: &'static ResourceSpec, id: i64) -> Result<Vec<i64>, WorkError> {
        use peering_domain::resources::{AUTONOMOUS_SYSTEM, BGP_GROUP, INTERNET_EXCHANGE};
        let of =
            |record: &Record, spec: &ResourceSpec, field: &str| record.get(spec, field).as_int();
        let connections = self.store.everything(&CONNECTION)?;
        let router_of_connection = |connection: i64| {
            connections
                .iter()
                .find(|c| c.id == connection)
                .and_then(|c| of(c, &CONNECTION, "router"))
        };
        let mut routers: Vec<i64> = if spec.table == AUTONOMOUS_SYSTEM.table {
            let direct = self.store.everything(&DIRECT_PEERING_SESSION)?;
            let exchange = self.store.everything(&INTERNET_EXCHANGE_PEERING_SESSION)?;
            direct
                .iter()
                .filter(|s| of(s, &DIRECT_PEERING_SESSION, "autonomous_system") == Some(id))
                .filter_map(|s| of(s, &DIRECT_PEERING_SESSION, "router"))
                .chain(
                    exchange
                        .iter()
                        .filter(|s| {
                            of(s, &INTERNET_EXCHANGE_PEERING_SESSION, "autonomous_system")
                                == Some(id)
                        })
                        .filter_map(|s| of(s, &INTERNET_EXCHANGE_PEERING_SESSION, "ixp_connection"))
                        .filter_map(router_of_connection),
                )
                .collect()
        } else if spec.table == BGP_GROUP.table {
            self.store
                .everything(&DIRECT_PEERING_SESSION)?
                .iter()
                .filter(|s| of(s, &DIRECT_PEERING_SESSION, "bgp_group") == Some(id))
                .filter_map(|s| of(s, &DIRECT_PEERING_SESSION, "router"))
                .collect()
        } else if spec.table == INTERNET_EXCHANGE.table {
            connections
                .iter()
                .filter(|c| of(c, &CONNECTION, "internet_exchange_point") == Some(id))
                .filter_map(|c| of(c, &CONNECTION, "router"))
                .collect()
        } else {
            Vec::new()
        };
        routers.sort_unstable();
        routers.dedup();
        Ok(routers)
    }

    /// The router a session is set up on (directly, or through its connection).
    pub fn router_of_session(
        &self,
        spec: &'static ResourceSpec,
        id: i64,
    ) -> Result<Option<i64>, WorkError> {
        let Some((session, _)) = self.store.get(spec, id)? else {
            return Err(WorkError::NotFound("session"));
        };
        if spec.table == DIRECT_PEERING_SESSION.table {
            return Ok(session.get(spec, "router").as_int());
        }
        let Some(connection) = session.get(spec, "ixp_connection").as_int() else {
            return Ok(None);
        };
        Ok(self
            .store
            .get(&CONNECTION, connection)?
            .and_then(|(c, _)| c.get(&CONNECTION, "router").as_int()))
    }
}
