//! The reference's messages for bad input, field kind by field kind.

use super::scalars::is_email;
use super::*;
use crate::resources::AUTONOMOUS_SYSTEM as AS;
use serde_json::json;

fn errors(body: Json, mode: Mode) -> Json {
    parse(&AS, &body, mode).unwrap_err().into_json()
}

#[test]
fn create_requires_asn_and_name() {
    assert_eq!(
        errors(json!({}), Mode::Create),
        json!({"asn": ["This field is required."], "name": ["This field is required."]})
    );
    assert!(parse(&AS, &json!({}), Mode::Partial).is_ok());
}

#[test]
fn asn_range_is_checked() {
    assert_eq!(
        errors(json!({"asn": 0, "name": "x"}), Mode::Create),
        json!({"asn": ["Ensure this value is greater than or equal to 1."]})
    );
    assert_eq!(
        errors(json!({"asn": 4_294_967_296_i64, "name": "x"}), Mode::Create),
        json!({"asn": ["Ensure this value is less than or equal to 4294967295."]})
    );
    assert!(parse(
        &AS,
        &json!({"asn": 4_294_967_295_i64, "name": "x"}),
        Mode::Create
    )
    .is_ok());
    assert_eq!(
        errors(json!({"asn": "abc", "name": "x"}), Mode::Create),
        json!({"asn": ["A valid integer is required."]})
    );
}

#[test]
fn null_characters_are_refused() {
    assert_eq!(
        errors(json!({"name": "a\u{0}b"}), Mode::Partial),
        json!({"name": ["Null characters are not allowed."]})
    );
}

#[test]
fn types_and_nulls() {
    assert_eq!(
        errors(json!({"name": null}), Mode::Partial),
        json!({"name": ["This field may not be null."]})
    );
    assert_eq!(
        errors(json!({"affiliated": "maybe"}), Mode::Partial),
        json!({"affiliated": ["Must be a valid boolean."]})
    );
    assert_eq!(
        errors(json!({"local_context_data": [1]}), Mode::Partial),
        json!({"local_context_data": ["JSON data must be in object form. Example: {\"foo\": 123}"]})
    );
    assert_eq!(
        errors(json!({"name": ""}), Mode::Partial),
        json!({"name": ["This field may not be blank."]})
    );
    assert_eq!(
        errors(json!([]), Mode::Partial),
        json!({"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]})
    );
}

#[test]
fn references_by_id_or_attributes() {
    let d = parse(
        &AS,
        &json!({"communities": [1, "2", {"slug": "x"}], "tags": [{"name": "a"}]}),
        Mode::Partial,
    )
    .unwrap();
    let i = AS.index_of("communities").unwrap();
    assert_eq!(
        d.inputs[i],
        Some(Input::Refs(vec![
            Ref::Id(1),
            Ref::Id(2),
            Ref::Attrs(json!({"slug": "x"}).as_object().unwrap().clone())
        ]))
    );
    assert_eq!(
        errors(json!({"communities": "x"}), Mode::Partial),
        json!({"communities": ["Expected a list of items but got type \"str\"."]})
    );
}

#[test]
fn reference_names_are_aliases() {
    let d = parse(
        &AS,
        &json!({"irr_as_set_peeringdb_sync": false}),
        Mode::Partial,
    )
    .unwrap();
    let i = AS.index_of("irr_as_set_extdb_sync").unwrap();
    assert_eq!(d.inputs[i], Some(Input::Value(Value::Bool(false))));
}

#[test]
fn read_only_fields_are_ignored() {
    let d = parse(
        &AS,
        &json!({"prefixes": {"a": 1}, "id": 5, "created": "x"}),
        Mode::Partial,
    )
    .unwrap();
    assert!(d.inputs.iter().all(Option::is_none));
}

#[test]
fn email_addresses() {
    for ok in ["noc@example.net", "a.b+c@sub.example.org"] {
        assert!(is_email(ok), "{ok}");
    }
    for bad in [
        "",
        "noc",
        "noc@",
        "@example.net",
        "noc@example",
        "a b@example.net",
        "a@b@c.net",
        "a@.net",
    ] {
        assert!(!is_email(bad), "{bad}");
    }
}

#[test]
fn display_of_as() {
    let values = apply(&AS, vec![None; AS.fields.len()], None);
    let mut r = Record { id: 1, values };
    r.values[AS.index_of("asn").unwrap()] = Value::Int(65001);
    r.values[AS.index_of("name").unwrap()] = Value::Text("Example".into());
    assert_eq!(r.display(&AS), "AS65001 - Example");
    assert_eq!(r.get(&AS, "irr_as_set_extdb_sync"), &Value::Bool(true));
    assert_eq!(r.get(&AS, "ipv6_max_prefixes"), &Value::Int(0));
}
