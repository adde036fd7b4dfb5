//! Webhooks whose conditions or templates could not work are refused when written, with
//! the reason, as the reference refuses bad conditions.

use serde_json::json;

use super::*;

#[test]
fn bad_conditions_and_templates_are_refused_when_written() {
    let s = TestServer::start();
    let base = json!({
        "name": "Bad",
        "content_types": ["peering.autonomoussystem"],
        "type_create": true,
        "payload_url": "http://127.0.0.1:9/",
    });
    let cases = [
        ("conditions", json!({"xor": []}), "Invalid logic type"),
        (
            "conditions",
            json!({"and": [{"attr": "asn", "op": "gt", "value": "x"}]}),
            "Invalid type for gt",
        ),
        (
            "conditions",
            json!({"and": [{"attr": "name", "op": "regex", "value": "(?<=a)b"}]}),
            "Invalid regular expression",
        ),
        (
            "payload_url",
            json!("http://127.0.0.1:9/{{ data.id "),
            "Invalid template",
        ),
        ("body_template", json!("{% for %}"), "Invalid template"),
        (
            "additional_headers",
            json!("X-A: {{ }}"),
            "Invalid template",
        ),
    ];
    for (field, value, reason) in cases {
        let mut body = base.clone();
        body[field] = value.clone();
        let r = s.post(WEBHOOKS, body);
        assert_eq!(r.status, 400, "{field} = {value}: {}", r.text);
        let errors = r.json();
        let message = errors[field][0].as_str().unwrap_or_default().to_string();
        assert!(message.contains(reason), "{field} = {value}: {errors}");
    }
    let mut good = base.clone();
    good["conditions"] = json!({"or": [{"attr": "status.value", "value": ["active"], "op": "in"}]});
    let r = s.post(WEBHOOKS, good);
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json()["id"].as_i64().unwrap();
    let r = s.patch(
        &format!("{WEBHOOKS}{id}/"),
        json!({"conditions": {"and": [{"value": 1}]}}),
    );
    assert_eq!(r.status, 400, "{}", r.text);
}
