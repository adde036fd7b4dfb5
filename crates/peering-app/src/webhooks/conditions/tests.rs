//! The reference's condition semantics, by example and by property.

use proptest::prelude::*;
use serde_json::{json, Value as Json};

use super::parse;

fn eval(conditions: Json, data: Json) -> Result<bool, String> {
    match parse(&conditions)? {
        Some(set) => set.eval(&data),
        None => Ok(true),
    }
}

fn holds(conditions: Json, data: Json) -> bool {
    eval(conditions, data).unwrap()
}

#[test]
fn the_documentation_examples() {
    let session = json!({"status": {"value": "active"}, "bgp_state": null, "tags": ["exempt"]});
    let enabled = json!({"and": [{"attr": "status.value", "value": "active"}]});
    assert!(holds(enabled.clone(), session.clone()));
    assert!(!holds(enabled, json!({"status": {"value": "disabled"}})));
    let either = json!({"or": [
        {"and": [
            {"attr": "status.value", "value": "active"},
            {"attr": "bgp_state", "value": null, "negate": true}
        ]},
        {"attr": "tags", "value": "exempt", "op": "contains"}
    ]});
    assert!(holds(either.clone(), session));
    assert!(!holds(
        either.clone(),
        json!({"status": {"value": "active"}, "bgp_state": null, "tags": []})
    ));
    assert!(holds(
        either,
        json!({"status": {"value": "active"}, "bgp_state": "established", "tags": []})
    ));
    let nested = json!({"and": [{"attr": "a.b.c", "value": 123}]});
    assert!(holds(nested, json!({"a": {"b": {"c": 123}}})));
    let not_in = json!({"and": [{"attr": "status.value", "value": ["enabled", "disabled"], "op": "in", "negate": true}]});
    assert!(holds(
        not_in.clone(),
        json!({"status": {"value": "active"}})
    ));
    assert!(!holds(not_in, json!({"status": {"value": "enabled"}})));
}

#[test]
fn numbers_compare_as_python_compares_them() {
    let asn = |op: &str, value: Json| json!({"and": [{"attr": "asn", "op": op, "value": value}]});
    let data = json!({"asn": 65001, "flag": true});
    assert!(holds(asn("gt", json!(65000)), data.clone()));
    assert!(holds(asn("gte", json!(65001)), data.clone()));
    assert!(!holds(asn("lt", json!(65001)), data.clone()));
    assert!(holds(asn("lte", json!(65001.5)), data.clone()));
    assert!(holds(asn("eq", json!(65001.0)), data.clone()));
    // true is 1, for == as for ordering.
    assert!(holds(
        json!({"and": [{"attr": "flag", "value": 1}]}),
        data.clone()
    ));
    assert!(holds(
        json!({"and": [{"attr": "flag", "op": "gt", "value": 0}]}),
        data
    ));
}

#[test]
fn paths_through_lists_give_lists_and_missing_keys_give_null() {
    let data = json!({"tags": [{"name": "a"}, {"name": "b"}], "n": 3});
    let names = json!({"and": [{"attr": "tags.name", "value": "b", "op": "contains"}]});
    assert!(holds(names, data.clone()));
    let listed = json!({"and": [{"attr": "tags.name", "value": ["a", "b"]}]});
    assert!(holds(listed, data.clone()));
    let missing = json!({"and": [{"attr": "nothing.deeper", "value": null}]});
    assert!(holds(missing, data.clone()));
    let through_number = json!({"and": [{"attr": "n.x", "value": null}]});
    assert!(holds(through_number, data));
}

#[test]
fn regex_matches_at_the_start_only() {
    let re = |p: &str| json!({"and": [{"attr": "name", "op": "regex", "value": p}]});
    let data = json!({"name": "Stark Industries"});
    assert!(holds(re("Stark"), data.clone()));
    assert!(!holds(re("Industries"), data.clone()));
    assert!(holds(re(".*Industries$"), data.clone()));
    assert!(holds(re("(?i)stark"), data.clone()));
    assert!(holds(re("a|Stark"), data));
}

#[test]
fn comparisons_python_refuses_are_errors() {
    let cases = [
        (
            json!({"attr": "x", "op": "gt", "value": 3}),
            json!({"x": null}),
        ),
        (
            json!({"attr": "x", "op": "gt", "value": 3}),
            json!({"x": "4"}),
        ),
        (
            json!({"attr": "x", "op": "contains", "value": 3}),
            json!({"x": 4}),
        ),
        (
            json!({"attr": "x", "op": "contains", "value": 3}),
            json!({"x": "34"}),
        ),
        (
            json!({"attr": "x", "op": "regex", "value": "a"}),
            json!({"x": 1}),
        ),
    ];
    for (rule, data) in cases {
        assert!(
            eval(json!({"and": [rule]}), data.clone()).is_err(),
            "{rule} on {data}"
        );
    }
}

#[test]
fn bad_conditions_are_refused_with_the_reason() {
    let refused = [
        (json!([1]), "Ruleset must be a dictionary"),
        (
            json!({"and": [], "or": []}),
            "exactly one logical operator (found 2)",
        ),
        (json!({"xor": []}), "Invalid logic type: xor"),
        (json!({"and": {"attr": "a"}}), "must be a list"),
        (
            json!({"and": [{"attr": "a", "value": 1, "op": "like"}]}),
            "Unknown operator: like",
        ),
        (
            json!({"and": [{"attr": "a", "value": {"b": 1}}]}),
            "Unsupported value type",
        ),
        (
            json!({"and": [{"attr": "a", "value": "x", "op": "gt"}]}),
            "Invalid type for gt operation: str",
        ),
        (
            json!({"and": [{"attr": "a", "value": 1, "op": "in"}]}),
            "Invalid type for in operation: int",
        ),
        (
            json!({"and": [{"attr": "a", "value": true, "op": "regex"}]}),
            "Invalid type for regex",
        ),
        (
            json!({"and": [{"attr": "a", "value": "(?=x)", "op": "regex"}]}),
            "Invalid regular expression",
        ),
        (json!({"and": [{"value": 1}]}), "needs an attr"),
        (json!({"and": [{"attr": "a"}]}), "needs a value"),
        (
            json!({"and": [{"attr": "a", "value": 1, "other": 2}]}),
            "Unknown key",
        ),
        (json!({"and": ["a"]}), "must be a dictionary"),
    ];
    for (conditions, reason) in refused {
        let error = parse(&conditions).unwrap_err();
        assert!(error.contains(reason), "{conditions}: {error}");
    }
}

#[test]
fn nothing_to_check_always_matches_and_empty_sets_follow_python() {
    for none in [json!(null), json!({}), json!([]), json!(""), json!(0)] {
        assert!(parse(&none).unwrap().is_none(), "{none}");
    }
    assert!(holds(json!({"and": []}), json!({})));
    assert!(!holds(json!({"or": []}), json!({})));
}

#[test]
fn deep_nesting_is_refused_not_followed() {
    let mut conditions = json!({"and": []});
    for _ in 0..100 {
        conditions = json!({"and": [conditions]});
    }
    assert!(parse(&conditions).unwrap_err().contains("nest at most"));
}

fn scalar() -> impl Strategy<Value = Json> {
    prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::from),
        (-1000i64..1000).prop_map(Json::from),
        "[a-c]{0,3}".prop_map(Json::from),
    ]
}

proptest! {
    /// negate inverts any condition that evaluates; or of one rule is and of it.
    #[test]
    fn negate_inverts_and_single_rule_sets_agree(found in scalar(), value in scalar(), op in prop_oneof![Just("eq"), Just("contains"), Just("gt"), Just("in")]) {
        let value = if op == "in" { json!([value]) } else { value };
        let rule = json!({"attr": "x", "op": op, "value": value});
        let data = json!({"x": found});
        let Ok(Some(_)) = parse(&json!({"and": [rule.clone()]})) else { return Ok(()); };
        let plain = eval(json!({"and": [rule.clone()]}), data.clone());
        let mut negated = rule.clone();
        negated["negate"] = json!(true);
        let inverted = eval(json!({"and": [negated]}), data.clone());
        match (plain.clone(), inverted) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, !b),
            (Err(_), Err(_)) => {}
            (a, b) => prop_assert!(false, "{:?} vs {:?}", a, b),
        }
        prop_assert_eq!(plain, eval(json!({"or": [rule]}), data));
    }

    /// eq is Python's ==: symmetric, and a value equals itself.
    #[test]
    fn eq_is_reflexive_and_symmetric(a in scalar(), b in scalar()) {
        prop_assert!(super::py_eq(&a, &a));
        prop_assert_eq!(super::py_eq(&a, &b), super::py_eq(&b, &a));
    }
}
