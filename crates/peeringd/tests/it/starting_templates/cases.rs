//! The starting templates where things are missing or wrong: a caller who may not see
//! passwords, a router without sessions, values no configuration can hold; and the demo
//! data's routers, each rendering its platform's template.

use super::network::{network, SESSIONS};
use super::{accepted, assert_balanced, bird, configuration, frr, render, BIRD, FRR, JUNOS};
use crate::common::network::{id, one, ROUTERS};
use crate::common::{demo_network, TestServer};
use peering_api::Settings;
use serde_json::json;

#[test]
fn passwords_render_only_for_callers_who_may_change_sessions() {
    let s = TestServer::start();
    let n = network(&s);
    let viewer = s.user_with("viewer", &["peering.view_router_configuration"], false);
    let templates = [("bird", BIRD), ("frr", FRR), ("junos", JUNOS)];
    for (name, source) in templates {
        let template = configuration(&s, name, source);
        let text = render(&s, n.router, template, Some(&viewer));
        assert!(text.contains("192.0.2.10"), "{name}: {text}");
        for secret in ["s3cret", "password \"", "authentication-key"] {
            assert!(!text.contains(secret), "{name} shows {secret:?}: {text}");
        }
        match name {
            "bird" => accepted("bird -p", &text, bird(&text)),
            "frr" => accepted("vtysh -C", &text, frr(&text)),
            _ => assert_balanced(&text),
        }
    }
}

#[test]
fn a_router_without_sessions_renders_a_configuration_the_daemons_accept() {
    let s = TestServer::start();
    let n = network(&s);
    let empty = one(
        &s,
        ROUTERS,
        json!({"name": "spare", "hostname": "spare.example.net", "platform":
               s.get(&format!("{ROUTERS}{}/", n.router)).json()["platform"]["id"],
               "local_autonomous_system": n.us}),
    );
    let bird_text = render(&s, empty, configuration(&s, "bird", BIRD), None);
    accepted("bird -p", &bird_text, bird(&bird_text));
    assert!(!bird_text.contains("protocol bgp"), "{bird_text}");
    assert!(bird_text.contains("# No router id"), "{bird_text}");
    let frr_text = render(&s, empty, configuration(&s, "frr", FRR), None);
    accepted("vtysh -C", &frr_text, frr(&frr_text));
    assert!(frr_text.contains("router bgp 64500\n"), "{frr_text}");
    assert!(!frr_text.contains("remote-as"), "{frr_text}");
    let junos_text = render(&s, empty, configuration(&s, "junos", JUNOS), None);
    assert!(
        junos_text.contains("autonomous-system 64500;"),
        "{junos_text}"
    );
    assert!(!junos_text.contains("neighbor"), "{junos_text}");
    assert_balanced(&junos_text);
}

/// A password no configuration can hold, a community that is no community and a peer
/// without limits: the renderer passes values through as they are stored (it renders
/// without error), and the templates make each daemon refuse a password they cannot write
/// rather than drop it or let it write other statements.
#[test]
fn bogus_values_render_as_stored_and_the_daemons_refuse_an_unwritable_password() {
    let s = TestServer::start();
    let n = network(&s);
    let bogus = one(
        &s,
        "/api/peering/communities/",
        json!({"name": "Bogus", "slug": "bogus", "value": "no:such:thing", "type": "ingress"}),
    );
    let bare = one(
        &s,
        "/api/peering/autonomous-systems/",
        json!({"asn": 65009, "name": "No Limits", "communities": [bogus]}),
    );
    let session = s.create(
        SESSIONS,
        json!({"autonomous_system": bare, "ixp_connection": n.connection,
               "ip_address": "192.0.2.99", "password": "x\"; import all; #\n}"}),
    );
    let bird_text = render(&s, n.router, configuration(&s, "bird", BIRD), None);
    assert!(
        bird_text.contains("password unwritable_password;"),
        "{bird_text}"
    );
    assert!(!bird_text.contains("import all"), "{bird_text}");
    assert!(
        bird_text.contains("community bogus left out"),
        "{bird_text}"
    );
    let said = bird(&bird_text).expect_err("BIRD must refuse the unwritable password");
    assert!(
        said.contains("unwritable_password") || said.contains("syntax error"),
        "{said}"
    );
    let no_limit = &bird_text[bird_text.find("'AS65009-192.0.2.99'").unwrap()..];
    let no_limit = &no_limit[..no_limit.find("\n}\n").unwrap()];
    assert!(!no_limit.contains("limit"), "{no_limit}");

    let r = s.patch(
        &format!("{SESSIONS}{}/", id(&session)),
        json!({"password": "two words"}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let frr_text = render(&s, n.router, configuration(&s, "frr", FRR), None);
    assert!(
        frr_text.contains(" neighbor 192.0.2.99 password-with-white-space\n"),
        "{frr_text}"
    );
    assert!(!frr_text.contains("maximum-prefix 0"), "{frr_text}");
    let said = frr(&frr_text).expect_err("FRR must refuse the unwritable password");
    assert!(said.contains("password-with-white-space"), "{said}");

    let r = s.patch(
        &format!("{SESSIONS}{}/", id(&session)),
        json!({"password": "q\"uote\\"}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let junos_text = render(&s, n.router, configuration(&s, "junos", JUNOS), None);
    assert!(
        junos_text.contains("authentication-key \"q\\\"uote\\\\\"; ## SECRET-DATA"),
        "{junos_text}"
    );
    assert_balanced(&junos_text);
}

/// `peeringd demo-data`: each router renders its platform's starting template, and the
/// daemons accept BIRD's and FRR's.
#[test]
fn demo_routers_render_their_platforms_starting_templates() {
    let s = TestServer::start_on(demo_network(), Settings::default());
    let routers = s.get(&format!("{ROUTERS}?limit=0")).json()["results"].clone();
    let mut seen = Vec::new();
    for router in routers.as_array().unwrap() {
        let platform = router["platform"]["slug"].as_str().unwrap().to_string();
        let template = router["configuration_template"]["display"].clone();
        let path = format!("{ROUTERS}{}/configuration/?format=text", id(router));
        let r = s.get(&path);
        assert_eq!(r.status, 200, "{path}: {}", r.text);
        let text = r.text;
        let neighbours = match platform.as_str() {
            "bird" => {
                accepted("bird -p", &text, bird(&text));
                text.matches("protocol bgp '").count()
            }
            "frr" => {
                accepted("vtysh -C", &text, frr(&text));
                text.matches(" remote-as ").count()
            }
            "junos" => {
                assert_balanced(&text);
                text.matches("peer-as ").count()
            }
            other => panic!("demo router on platform {other}"),
        };
        assert!(
            neighbours >= 10,
            "{platform}: {neighbours} sessions in {template}"
        );
        assert!(text.contains("AS4100064500"), "{platform}: {text}");
        seen.push(platform);
    }
    seen.sort();
    assert_eq!(seen, ["bird", "frr", "junos"]);
}
