//! The operator's router command (`PEERING_ROUTER_COMMAND`), for the platforms peeringd
//! does not drive itself: run as `COMMAND ACTION` (`poll`, `configure`, `test`,
//! `confirm`) with a JSON document on its standard input, it answers with one on its
//! standard output; docs/router-command.md is the contract.

use std::time::Duration;

use peering_domain::resources::{PLATFORM, ROUTER};
use peering_domain::{Record, Value};
use peering_exec::{ExecError, Local, Transport};
use serde_json::{json, Value as Json};

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
pub(super) fn router_document(router: &Record, platform: Option<&Record>) -> Json {
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

pub(super) fn json_of(value: &Value) -> Json {
    match value {
        Value::Null => Json::Null,
        Value::Bool(b) => json!(b),
        Value::Int(i) => json!(i),
        Value::Text(s) => json!(s),
        Value::Json(j) => (**j).clone(),
        other => json!(format!("{other:?}")),
    }
}
