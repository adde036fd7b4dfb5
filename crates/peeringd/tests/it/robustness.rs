//! Untrusted input never produces a server error: arbitrary query strings, bodies and
//! paths against a live server.

use crate::common::{TestServer, AS};
use proptest::prelude::*;
use serde_json::{json, Value as Json};

fn arbitrary_json() -> impl Strategy<Value = Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::from),
        any::<i64>().prop_map(Json::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Json::from),
        ".{0,20}".prop_map(Json::from),
        Just(json!(4_294_967_296_u64)),
        Just(json!(u64::MAX)),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Json::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("asn".to_string()),
                    Just("name".to_string()),
                    Just("tags".to_string()),
                    Just("communities".to_string()),
                    Just("id".to_string()),
                    Just("local_context_data".to_string()),
                    Just("ipv6_max_prefixes".to_string()),
                    "[a-z_]{1,12}",
                ],
                inner,
                0..5
            )
            .prop_map(|m| Json::Object(m.into_iter().collect())),
        ]
    })
}

fn query_part() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        Just("asn".to_string()),
        Just("asn__gte".to_string()),
        Just("name__ic".to_string()),
        Just("tag".to_string()),
        Just("ordering".to_string()),
        Just("limit".to_string()),
        Just("offset".to_string()),
        Just("brief".to_string()),
        Just("created__lt".to_string()),
        Just("irr_as_set__empty".to_string()),
        Just("q".to_string()),
        "[a-z_]{1,15}",
    ];
    let value = prop_oneof![
        Just("null".to_string()),
        any::<i64>().prop_map(|i| i.to_string()),
        "[ -~]{0,12}",
        Just("%ZZ".to_string()),
        Just("%00".to_string()),
        Just("99999999999999999999999".to_string()),
    ];
    (key, value).prop_map(|(k, v)| {
        let v: String = v
            .chars()
            .map(|c| {
                if c == '&' || c == '#' || c == ' ' {
                    '+'
                } else {
                    c
                }
            })
            .collect();
        format!("{k}={v}")
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn no_input_is_a_server_error(
        bodies in prop::collection::vec(arbitrary_json(), 1..4),
        queries in prop::collection::vec(prop::collection::vec(query_part(), 0..5), 1..4),
    ) {
        let s = TestServer::start();
        s.create(AS, json!([{"asn": 1, "name": "seed"}]));
        for body in &bodies {
            for method in ["POST", "PUT", "PATCH", "DELETE"] {
                for path in [AS.to_string(), format!("{AS}1/")] {
                    let r = s.request(method, &path, Some(body), Some(&s.key), &[]);
                    prop_assert!(r.status < 500, "{method} {path} {body}: {} {}", r.status, r.text);
                }
            }
        }
        for q in &queries {
            let path = format!("{AS}?{}", q.join("&"));
            let r = s.get(&path);
            prop_assert!(r.status < 500, "GET {path}: {} {}", r.status, r.text);
            prop_assert!(r.status == 200 || r.status == 400, "GET {path}: {}", r.status);
        }
    }
}
