//! The `peeringd` binary run as an operator runs it: a free port to serve on, the first
//! start, which prints the admin token, calls once it answers, and whether a process runs.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value as Json;

/// A port nothing listens on now, on 127.0.0.1.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Spawns a first `serve` and reads the admin token it prints; standard output is then
/// drained, as a terminal would, until the server exits.
pub fn first_start(mut cmd: Command) -> (Child, String) {
    let mut child = cmd.stdout(Stdio::piped()).spawn().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let key = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|line| {
            line.strip_prefix("Created superuser 'admin' with API token: ")
                .map(|rest| rest.trim().to_string())
        })
        .expect("token printed");
    std::thread::spawn(move || lines.for_each(drop));
    (child, key)
}

/// Calls the server on `port` with the token, once it answers (10 s at most): the status
/// and the JSON answer.
pub fn call(port: u16, key: &str, method: &str, path: &str, body: Option<Json>) -> (u16, Json) {
    let url = format!("http://127.0.0.1:{port}{path}");
    for _ in 0..200 {
        let req = ureq::request(method, &url).set("Authorization", &format!("Token {key}"));
        let result = match &body {
            Some(b) => req.send_json(b.clone()),
            None => req.call(),
        };
        match result {
            Ok(r) | Err(ureq::Error::Status(_, r)) => {
                let status = r.status();
                return (status, r.into_json().unwrap_or(Json::Null));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
    panic!("{url} never answered");
}

/// Whether a process runs (a zombie, dead but not yet reaped by whoever adopted it, does
/// not).
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let state = stat.rsplit_once(')')?.1.split_whitespace().next()?;
            Some(state != "Z" && state != "X")
        })
        .unwrap_or(false)
}
