//! The README's walk through the demo data, run as written: its blocks marked ```` ```sh demo ````,
//! in order, in one bash (`set -euo pipefail`) against a server over `demo-data --scale 1`,
//! with `TOKEN`, `API`, `AUTH` and `JSON` set as the README's walk through the API sets
//! them. curl fails on an error answer (`--fail-with-body`), so a command that stops
//! working fails the test; what the README says the commands show is checked too.

use std::process::Command;

use crate::common::{demo_network, TestServer};
use peering_api::Settings;

const README: &str = include_str!("../../../../../README.md");

/// The text of every ```` ```sh demo ```` block, in order.
fn demo_blocks(readme: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in readme.lines() {
        match current.as_mut() {
            None if line.trim() == "```sh demo" => current = Some(String::new()),
            None => {}
            Some(_) if line.trim() == "```" => blocks.extend(current.take()),
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
        }
    }
    assert!(current.is_none(), "a ```sh demo block is not closed");
    blocks
}

#[test]
fn the_readme_walk_through_the_demo_data_runs() {
    let blocks = demo_blocks(README);
    assert!(
        blocks.len() >= 4,
        "{} demo blocks in README.md",
        blocks.len()
    );
    let s = TestServer::start_on(demo_network(), Settings::default());
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "set -euo pipefail\ncurl() {{ command curl --fail-with-body \"$@\"; echo; }}\n{}",
        blocks.join("")
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(dir.path())
        .env("TOKEN", &s.key)
        .env("API", format!("{}/api", s.base))
        .env("AUTH", format!("Authorization: Token {}", s.key))
        .env("JSON", "Content-Type: application/json")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the walk through failed: {stderr}\n---\n{stdout}"
    );
    for shown in [
        "\"asn\":4100064500",
        "\"ipv4\":[\"10.0.0.0/22\"]",
        "Newcomer Networks",
        "\"is_abandoned\":true",
        "\"exists_in_extdb\":false",
        "\"name\":\"Example IX Amsterdam\"",
        "\"name\":\"Example DC Amsterdam\"",
        "Peering between AS4100064500 and AS4100100010",
        "no session yet with your 10.0.",
        "Planned maintenance: AS4100064500 sessions with AS4100100000",
        "Dear Newcomer Networks 1 peering team",
        "BIRD and FRR accept them",
        "\"enabled\":false",
    ] {
        assert!(
            stdout.contains(shown),
            "the walk through shows no {shown}:\n{stdout}"
        );
    }
    for file in ["edge1.conf", "edge2.conf", "core1.conf"] {
        let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
        assert!(text.contains("4100064500"), "{file}:\n{text}");
    }
}
