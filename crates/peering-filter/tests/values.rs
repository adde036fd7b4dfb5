//! Rules 4, 5 and 6: `null`, the `empty` lookup and value syntax per kind.

mod common;

use chrono::{TimeZone, Utc};
use common::{err, ok, pairs, CATALOG};
use peering_filter::{parse, Value};

fn values(query: &str) -> Vec<Value> {
    let filter = ok(query);
    assert_eq!(filter.predicates.len(), 1, "{query}: {filter:?}");
    filter.predicates[0].values.clone()
}

fn message(query: &str) -> String {
    err(query).1
}

const NULL_ONLY: &str = "null is only allowed with exact or n lookups.";

#[test]
fn null_matches_null_for_every_kind_but_bool_and_uuid() {
    for key in [
        "asn",
        "name",
        "status",
        "autonomous_system_id",
        "created",
        "tag",
        "irr_as_set__n",
        "asn__exact",
    ] {
        assert_eq!(values(&format!("{key}=null")), [Value::Null], "{key}");
    }
    assert_eq!(
        message("enabled=null"),
        "Select a valid choice. null is not one of the available choices."
    );
    assert_eq!(message("created_by_request=null"), "Enter a valid UUID.");
    // Mixed with ordinary values it is one more alternative of the OR.
    assert_eq!(values("asn=null&asn=5"), [Value::Null, Value::Int(5)]);
}

#[test]
fn null_is_case_sensitive() {
    assert_eq!(values("name=NULL"), [Value::Text("NULL".to_owned())]);
    assert_eq!(message("asn=Null"), "Enter a whole number.");
}

#[test]
fn null_is_refused_with_other_lookups() {
    for key in [
        "asn__gte",
        "name__ic",
        "name__nie",
        "created__lt",
        "asn__empty",
    ] {
        assert_eq!(
            err(&format!("{key}=null")),
            (key.to_owned(), NULL_ONLY.to_owned())
        );
    }
}

#[test]
fn empty_takes_one_boolean_and_the_last_value_wins() {
    assert_eq!(values("asn__empty=true"), [Value::Bool(true)]);
    assert_eq!(values("name__empty=0"), [Value::Bool(false)]);
    assert_eq!(values("status__empty=YES"), [Value::Bool(true)]);
    assert_eq!(
        values("asn__empty=true&asn__empty=off"),
        [Value::Bool(false)]
    );
    assert_eq!(values("asn__empty=false&asn__empty="), [Value::Bool(false)]);
    assert!(ok("asn__empty=").predicates.is_empty());
    assert_eq!(
        message("asn__empty=maybe"),
        "Select a valid choice. maybe is not one of the available choices."
    );
}

#[test]
fn numbers_are_trimmed_signed_integers_that_fit_i64() {
    assert_eq!(values("asn= 64500 "), [Value::Int(64500)]);
    assert_eq!(values("asn=-1"), [Value::Int(-1)]);
    assert_eq!(values("asn=9223372036854775807"), [Value::Int(i64::MAX)]);
    for bad in [
        "9223372036854775808",
        "1.5",
        "+5",
        "1e3",
        "abc",
        "- 1",
        "0x1",
    ] {
        assert_eq!(
            err(&format!("asn={bad}")),
            ("asn".to_owned(), "Enter a whole number.".to_owned()),
            "{bad}"
        );
    }
}

#[test]
fn foreign_keys_are_integer_ids_or_null() {
    assert_eq!(
        values("autonomous_system_id=3&autonomous_system_id=null"),
        [Value::Int(3), Value::Null]
    );
    assert_eq!(values("autonomous_system_id__n=4"), [Value::Int(4)]);
    assert_eq!(message("autonomous_system_id=x"), "Enter a whole number.");
}

#[test]
fn booleans_accept_django_spellings() {
    for (raw, expected) in [
        ("true", true),
        ("On", true),
        ("1", true),
        ("NO", false),
        ("off", false),
    ] {
        assert_eq!(
            values(&format!("enabled={raw}")),
            [Value::Bool(expected)],
            "{raw}"
        );
    }
    assert_eq!(
        message("enabled=2"),
        "Select a valid choice. 2 is not one of the available choices."
    );
}

#[test]
fn choices_must_be_in_the_list() {
    assert_eq!(
        values("status__n=maintenance"),
        [Value::Text("maintenance".to_owned())]
    );
    assert_eq!(
        message("status=Enabled"),
        "Select a valid choice. Enabled is not one of the available choices."
    );
}

#[test]
fn uuids_must_parse() {
    let id = "6f1c2a3e-0000-4000-8000-000000000001";
    let parsed = uuid::Uuid::parse_str(id).ok().map(Value::Uuid);
    assert_eq!(
        values(&format!("created_by_request={id}")).first(),
        parsed.as_ref()
    );
    assert_eq!(
        values("created_by_request=6F1C2A3E000040008000000000000001").first(),
        parsed.as_ref()
    );
    assert_eq!(
        message("created_by_request=6f1c2a3e"),
        "Enter a valid UUID."
    );
}

#[test]
fn datetimes_accept_rfc3339_naive_and_bare_dates() {
    let ten = Utc
        .with_ymd_and_hms(2026, 11, 21, 10, 0, 0)
        .single()
        .map(Value::DateTime);
    let ten = ten.as_ref();
    for raw in [
        "2026-11-21T10:00:00Z",
        "2026-11-21T12:00:00+02:00",
        "2026-11-21T10:00:00.000Z",
        "2026-11-21 10:00",
        "2026-11-21 10:00:00",
        "2026-11-21 10:00:00.000000",
        "2026-11-21T10:00",
        "2026-11-21T10:00:00",
    ] {
        assert_eq!(values(&format!("created__gte={raw}")).first(), ten, "{raw}");
    }
    let midnight = Utc
        .with_ymd_and_hms(2026, 11, 21, 0, 0, 0)
        .single()
        .map(Value::DateTime);
    assert_eq!(values("created__lt=2026-11-21").first(), midnight.as_ref());
    for bad in ["2026-02-30", "yesterday", "2026-11-21T10", "1700000000"] {
        assert_eq!(
            message(&format!("created={bad}")),
            "Enter a valid date/time.",
            "{bad}"
        );
    }
}

#[test]
fn strings_take_any_text_and_tags_refuse_blanks() {
    let odd = "a&b=c %__ ✓ ";
    let filter = parse(&pairs(&[("name__ic", odd)]), &CATALOG);
    assert_eq!(
        filter.map(|f| f.predicates[0].values.clone()),
        Ok(vec![Value::Text(odd.to_owned())])
    );
    assert_eq!(values("name="), [Value::Text(String::new())]);
    assert_eq!(
        err("tag=gold&tag="),
        ("tag".to_owned(), "This field may not be blank.".to_owned())
    );
    assert_eq!(message("tag__n= "), "This field may not be blank.");
}

#[test]
fn blank_values_are_ignored_and_all_blank_keys_dropped() {
    assert_eq!(values("asn=&asn=5&asn= "), [Value::Int(5)]);
    let filter = ok("asn=&status=&enabled=&created=&created_by_request=&autonomous_system_id=");
    assert!(filter.predicates.is_empty(), "{filter:?}");
}
