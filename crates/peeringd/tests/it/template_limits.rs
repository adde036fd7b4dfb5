//! Issue 54, items 2 and 6: no template takes the server down. Chains of ten thousand
//! filters, attributes or operators are refused when written; lists nested 100,000 deep
//! and huge strings are refused when rendered, at once or over a list; the server
//! answers afterwards. The test binary counts allocations as the server's does (see
//! `main.rs`), so the renders' memory budget applies.

use crate::common::TestServer;
use serde_json::{json, Value as Json};

const EXPORTS: &str = "/api/extras/export-templates/";

fn export_template(name: &str, template: &str) -> Json {
    json!({"name": name, "content_type": "peering.autonomoussystem", "template": template})
}

/// The server still answers, and correctly.
fn assert_alive(s: &TestServer) {
    let r = s.get("/api/peering/autonomous-systems/?limit=1");
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.json()["count"].is_number(), "{}", r.text);
}

#[test]
fn chains_of_ten_thousand_are_refused_on_write() {
    let s = TestServer::start();
    for (kind, template) in [
        ("filters", format!("{{{{ x{} }}}}", "|lower".repeat(10_000))),
        ("attributes", format!("{{{{ x{} }}}}", ".a".repeat(10_000))),
        ("operators", format!("{{{{ 1{} }}}}", " + 1".repeat(10_000))),
        ("nots", format!("{{{{ {}x }}}}", "not ".repeat(10_000))),
    ] {
        let r = s.post(EXPORTS, export_template(kind, &template));
        assert_eq!(r.status, 400, "{kind}: {}", r.text);
        let message = r.json()["template"][0]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(
            message.starts_with("Invalid template at line 1:") && message.contains("operators"),
            "{kind}: {message}"
        );
        assert_alive(&s);
    }
    let r = s.get(&format!("{EXPORTS}?limit=1"));
    assert_eq!(r.json()["count"], 0, "{}", r.text);
}

/// A list nested 100,000 deep, built by the template, then used by `then`.
fn nested_lists(then: &str) -> String {
    format!(
        "{{%- set ns = namespace(x=[]) -%}}{{%- for i in range(100000) -%}}\
         {{%- set ns.x = [ns.x] -%}}{{%- endfor -%}}{then}"
    )
}

/// The detail of a render's 400.
fn render_refusal(r: &crate::common::Response) -> String {
    assert_eq!(r.status, 400, "{}", r.text);
    r.json()["detail"].as_str().unwrap_or_default().to_string()
}

#[test]
fn lists_nested_100000_deep_are_refused_when_rendered() {
    let s = TestServer::start();
    for (name, then) in [("printed", "{{ ns.x }}"), ("as-json", "{{ ns.x|as_json }}")] {
        let r = s.post(EXPORTS, export_template(name, &nested_lists(then)));
        assert_eq!(r.status, 201, "{}", r.text);
        let id = r.json()["id"].as_i64().expect("id");
        let detail = render_refusal(&s.get(&format!("{EXPORTS}{id}/render-synchronous/")));
        assert!(
            detail.starts_with("The template failed") && detail.contains("500 levels deep"),
            "{name}: {detail}"
        );
        assert_alive(&s);
        let detail =
            render_refusal(&s.get(&format!("/api/peering/autonomous-systems/?export={name}")));
        assert!(detail.contains("500 levels deep"), "{name}: {detail}");
        assert_alive(&s);
    }
}

#[test]
fn huge_strings_fail_on_the_memory_budget() {
    let s = TestServer::start();
    for (name, template) in [
        (
            "tripled",
            "{% set s = 'x' * 100000000 %}{% set t = s ~ s ~ s %}{{ t|length }}",
        ),
        (
            "grown",
            "{% set ns = namespace(s='') %}{% for i in range(100) %}\
             {% set ns.s = ns.s ~ ('x' * 10000000) %}{% endfor %}{{ ns.s|length }}",
        ),
    ] {
        let r = s.post(EXPORTS, export_template(name, template));
        assert_eq!(r.status, 201, "{}", r.text);
        let id = r.json()["id"].as_i64().expect("id");
        let detail = render_refusal(&s.get(&format!("{EXPORTS}{id}/render-synchronous/")));
        assert!(
            detail.contains("more memory than its budget") && detail.contains("at most 128 MiB"),
            "{name}: {detail}"
        );
        assert_alive(&s);
    }
    let r = s.post(
        EXPORTS,
        export_template("fits", "{% set s = 'x' * 1000000 %}{{ s|length }}"),
    );
    let id = r.json()["id"].as_i64().expect("id");
    let r = s.get(&format!("{EXPORTS}{id}/render-synchronous/"));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["rendered"], "1000000");
}
