//! The starting templates of `templates/` (BIRD 2, FRR, Junos) rendered through the API over
//! a small network and over the demo data, then read by the daemons' own parsers: `bird -p`
//! and FRR's `vtysh -C` (a dry run of every daemon's command grammar, with no daemon
//! running). Junos has no parser here: its text is checked for the statements it must hold.
//! Both tools are required (`.ci/run` installs them): a missing one fails the tests.

use std::path::PathBuf;
use std::process::Command;

use crate::common::network::{one, ROUTERS};
use crate::common::TestServer;
use serde_json::json;

mod cases;
mod network;
mod platforms;

pub(crate) const BIRD: &str = include_str!("../../../../../templates/bird2.j2");
pub(crate) const FRR: &str = include_str!("../../../../../templates/frr.j2");
pub(crate) const JUNOS: &str = include_str!("../../../../../templates/junos.j2");

/// The path of a daemon's tool, or a failure saying how to install it.
pub(crate) fn tool(name: &str, package: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    dirs.extend(["/usr/sbin", "/usr/bin", "/sbin"].map(PathBuf::from));
    dirs.into_iter()
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "`{name}` is not installed: these tests need it to check the starting \
                 templates (`apt-get install {package}`; .ci/run installs it)"
            )
        })
}

/// What a tool says of a configuration file holding `text`: `Ok` if it accepts it, else
/// its messages.
pub(crate) fn check_with(text: &str, program: PathBuf, args: &[&str]) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rendered.conf");
    std::fs::write(&file, text).unwrap();
    let out = Command::new(&program)
        .args(args)
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", program.display()));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.success() {
        Ok(())
    } else {
        Err(said)
    }
}

/// `bird -p -c FILE`: BIRD parses the file and exits.
pub(crate) fn bird(text: &str) -> Result<(), String> {
    check_with(text, tool("bird", "bird2"), &["-p", "-c"])
}

/// `vtysh -C -f FILE`: FRR checks every line against its daemons' commands and exits.
pub(crate) fn frr(text: &str) -> Result<(), String> {
    check_with(text, tool("vtysh", "frr"), &["-C", "-f"])
}

pub(crate) fn accepted(what: &str, text: &str, result: Result<(), String>) {
    if let Err(said) = result {
        panic!("{what} refused the rendered configuration: {said}\n---\n{text}");
    }
}

/// Stores a starting template as a configuration, as its docs say to.
pub(crate) fn configuration(s: &TestServer, name: &str, source: &str) -> i64 {
    one(
        s,
        "/api/devices/configurations/",
        json!({"name": name, "template": source, "jinja2_trim": true, "jinja2_lstrip": true}),
    )
}

/// The router's configuration with template `template`, as the caller with `key` (the
/// admin when none) gets it.
pub(crate) fn render(s: &TestServer, router: i64, template: i64, key: Option<&str>) -> String {
    let path = format!("{ROUTERS}{router}/");
    let r = s.patch(&path, json!({"configuration_template": template}));
    assert_eq!(r.status, 200, "{}", r.text);
    let path = format!("{path}configuration/?format=text");
    let r = match key {
        Some(key) => s.send("GET", &path, None, Some(key), &[]),
        None => s.get(&path),
    };
    assert_eq!(r.status, 200, "{path}: {}", r.text);
    r.text
}

pub(crate) fn contains_all(what: &str, text: &str, expected: &[&str]) {
    for line in expected {
        assert!(text.contains(line), "{what} lacks {line:?}:\n{text}");
    }
}

/// Junos's braces open and close in pairs, outside comments and strings.
pub(crate) fn assert_balanced(text: &str) {
    let mut depth = 0i64;
    for line in text.lines().map(str::trim) {
        if line.starts_with('#') {
            continue;
        }
        let code = line.split('"').step_by(2).collect::<String>();
        depth += code.matches('{').count() as i64 - code.matches('}').count() as i64;
        assert!(depth >= 0, "a brace closes too early at {line:?}:\n{text}");
    }
    assert_eq!(depth, 0, "unbalanced braces:\n{text}");
}
